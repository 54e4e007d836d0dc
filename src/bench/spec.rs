//! What to benchmark: argument parsing helpers (kept here so they are testable without clap) and the
//! resolved specification the runner consumes.

use super::BenchKind;
use crate::gjk::QueryKind;
use crate::scenario::{MixSpec, ShapeKind};

/// `--kind`: one kind, or several one after the other on the same scene.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum KindChoice {
    Distance,
    Intersection,
    /// Distance and intersection.
    #[default]
    Both,
    /// Penetration depth, normal and contacts (GJK, then EPA where the cores overlap).
    Penetration,
    /// Distance, intersection and penetration.
    All,
}

impl KindChoice {
    pub fn kinds(self) -> Vec<BenchKind> {
        let distance = BenchKind::Query(QueryKind::Distance);
        let intersection = BenchKind::Query(QueryKind::Intersection);
        match self {
            KindChoice::Distance => vec![distance],
            KindChoice::Intersection => vec![intersection],
            KindChoice::Both => vec![distance, intersection],
            KindChoice::Penetration => vec![BenchKind::Penetration],
            KindChoice::All => vec![distance, intersection, BenchKind::Penetration],
        }
    }
}

/// The shape kinds of `--shapes`, in the order given, without repeats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeList(pub Vec<ShapeKind>);

impl ShapeList {
    /// `all` for every kind, else the names joined by commas.
    pub fn names(&self) -> String {
        if ShapeKind::ALL.iter().all(|k| self.0.contains(k)) {
            return "all".into();
        }
        self.0
            .iter()
            .map(|k| k.name())
            .collect::<Vec<_>>()
            .join(",")
    }
}

fn valid_shape_names() -> String {
    let names: Vec<&str> = ShapeKind::ALL.iter().map(|k| k.name()).collect();
    format!("{} (or all)", names.join(", "))
}

/// Parses `hull,box,...` or `all`; an unknown name is an error naming it and listing the valid ones.
pub fn parse_shapes(text: &str) -> Result<ShapeList, String> {
    let mut kinds = Vec::new();
    for name in text.split(',').map(str::trim) {
        if name == "all" {
            return Ok(ShapeList(ShapeKind::ALL.to_vec()));
        }
        if name.is_empty() {
            continue;
        }
        let kind = ShapeKind::from_name(name).ok_or_else(|| {
            format!(
                "unknown shape kind '{name}'; valid: {}",
                valid_shape_names()
            )
        })?;
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    if kinds.is_empty() {
        return Err(format!(
            "no shape kind given; valid: {}",
            valid_shape_names()
        ));
    }
    Ok(ShapeList(kinds))
}

/// Parses a count that must be at least 1 (`--pairs`, `--repeat`, `--sweep-max`), with a plain message.
pub fn parse_count(text: &str) -> Result<usize, String> {
    let n: usize = text
        .trim()
        .replace('_', "")
        .parse()
        .map_err(|_| format!("'{text}' is not a whole number"))?;
    if n == 0 {
        return Err("must be at least 1".into());
    }
    Ok(n)
}

/// The fewest points a random hull is drawn with.
pub const MIN_HULL_POINTS: usize = 8;

/// Parses `--max-hull-points`: random hulls have 8 to N points, so N must be at least 8.
pub fn parse_hull_points(text: &str) -> Result<usize, String> {
    let n = parse_count(text)?;
    if n < MIN_HULL_POINTS {
        return Err(format!(
            "must be at least {MIN_HULL_POINTS} (random hulls have {MIN_HULL_POINTS} to N points)"
        ));
    }
    Ok(n)
}

/// The sweep's pair counts: the decades 1e3 to 1e7 up to `max` (1e7 only when asked: the default is 1e6).
pub fn sweep_sizes(max: usize) -> Result<Vec<usize>, String> {
    let sizes: Vec<usize> = [1_000, 10_000, 100_000, 1_000_000, 10_000_000]
        .into_iter()
        .filter(|&n| n <= max)
        .collect();
    if sizes.is_empty() {
        return Err(format!(
            "--sweep-max {max} leaves no size to sweep; the smallest is 1000"
        ));
    }
    Ok(sizes)
}

/// Everything the runner needs, resolved from the arguments.
#[derive(Clone, Debug)]
pub struct BenchSpec {
    /// Pair counts, one scene (and one table group) each.
    pub sizes: Vec<usize>,
    pub seed: u64,
    pub shapes: ShapeList,
    pub max_hull_points: usize,
    pub repeat: usize,
    pub kinds: Vec<BenchKind>,
}

impl BenchSpec {
    /// The scene mix: the chosen kinds, hulls of 8 to `max_hull_points` points, the default library.
    pub fn mix(&self) -> MixSpec {
        let max = self.max_hull_points.max(MIN_HULL_POINTS);
        MixSpec {
            kinds: self.shapes.0.clone(),
            hull_points: (MIN_HULL_POINTS, max),
            ..MixSpec::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_parse_and_bad_names_are_named() {
        assert_eq!(parse_shapes("all").unwrap().0.len(), ShapeKind::ALL.len());
        assert_eq!(
            parse_shapes("hull, box,hull").unwrap().0,
            vec![ShapeKind::Hull, ShapeKind::Box]
        );
        let err = parse_shapes("box,nosuchshape").unwrap_err();
        assert!(
            err.contains("'nosuchshape'") && err.contains("rounded_box"),
            "{err}"
        );
        assert!(parse_shapes(",").is_err());
    }

    #[test]
    fn counts_and_sweeps() {
        assert_eq!(parse_count("1_000"), Ok(1000));
        assert!(parse_count("0").unwrap_err().contains("at least 1"));
        assert!(parse_count("x").is_err());
        assert_eq!(sweep_sizes(10_000).unwrap(), vec![1_000, 10_000]);
        assert_eq!(sweep_sizes(5_000_000).unwrap().len(), 4);
        assert_eq!(sweep_sizes(10_000_000).unwrap().last(), Some(&10_000_000));
        assert!(sweep_sizes(999).is_err());
        assert_eq!(parse_hull_points("8"), Ok(8));
        assert!(parse_hull_points("7").unwrap_err().contains("at least 8"));
    }
}
