//! The command line of the modes that time in alternation (`paired`, `classes`).

pub struct Options {
    /// Row ids must contain one of these (all rows when empty).
    pub filters: Vec<String>,
    pub rounds: usize,
    /// `--pairs N`: each case cut to its first N pairs, to see what a pass the branch predictor can learn
    /// reads (`cases`' `CASE_PAIRS`); `None` keeps every pair.
    pub pairs: Option<usize>,
}

impl Options {
    /// Whether the row `id` runs.
    pub fn wants(&self, id: &str) -> bool {
        self.filters.is_empty() || self.filters.iter().any(|f| id.contains(f))
    }
}

/// `[FILTER...] [--rounds N] [--pairs N]`, the arguments after the mode (`default_rounds` without
/// `--rounds`); other flags (cargo passes `--bench`) are ignored.
pub fn parse(args: &[String], default_rounds: usize) -> Options {
    let mut options = Options {
        filters: Vec::new(),
        rounds: default_rounds,
        pairs: None,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "--rounds" || arg == "--pairs" {
            let value = args.next().and_then(|n| n.parse().ok());
            let value = value.filter(|&n| n > 0).unwrap_or_else(|| {
                eprintln!("{arg} takes a positive number");
                std::process::exit(2)
            });
            if arg == "--rounds" {
                options.rounds = value;
            } else {
                options.pairs = Some(value);
            }
        } else if !arg.starts_with("--") {
            options.filters.push(arg.clone());
        }
    }
    options
}
