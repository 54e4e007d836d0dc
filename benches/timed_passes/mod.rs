//! Timing passes over pairs for the benches that compare gpu-gjk with parry3d in alternation
//! (`vs_parry_paired`, `vs_parry_classes`): a pass repeated until it lasts long enough to time, and the
//! command line they share.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// A pass shorter than this is repeated within the round (a pass over 200 pairs of big hulls takes a few
/// hundred microseconds for gpu-gjk, where the timer's and the scheduler's noise shows).
pub const MIN_PASS: Duration = Duration::from_millis(3);

/// Seconds per pass of `run`, repeated `reps` times.
pub fn timed(reps: usize, mut run: impl FnMut() -> f32) -> f64 {
    let start = Instant::now();
    for _ in 0..reps {
        black_box(run());
    }
    start.elapsed().as_secs_f64() / reps as f64
}

/// How many passes of `run` make a timing at least [`MIN_PASS`] long (each library gets its own count, so
/// the faster one's timing is not a single short pass).
pub fn reps_for(run: impl FnMut() -> f32) -> usize {
    ((MIN_PASS.as_secs_f64() / timed(1, run)).ceil() as usize).max(1)
}

pub struct Options {
    /// Row ids must contain one of these (all rows when empty).
    pub filters: Vec<String>,
    pub rounds: usize,
}

impl Options {
    /// Whether the row `id` runs.
    pub fn wants(&self, id: &str) -> bool {
        self.filters.is_empty() || self.filters.iter().any(|f| id.contains(f))
    }
}

/// `[FILTER...] [--rounds N]` (`default_rounds` without it); other flags (cargo passes `--bench`) are ignored.
pub fn options(default_rounds: usize) -> Options {
    let mut options = Options {
        filters: Vec::new(),
        rounds: default_rounds,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--rounds" {
            let value = args.next().and_then(|n| n.parse().ok());
            options.rounds = value.filter(|&n| n > 0).unwrap_or_else(|| {
                eprintln!("--rounds takes a positive number");
                std::process::exit(2)
            });
        } else if !arg.starts_with("--") {
            options.filters.push(arg);
        }
    }
    options
}
