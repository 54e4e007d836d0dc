//! What to benchmark: argument parsing helpers (kept here so they are testable without clap) and the
//! resolved specification the runner consumes.

use super::BenchKind;
use crate::gjk::QueryKind;
use crate::gpu::{EpaKernel, ScanKernel};
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

/// The most pairs `--pairs` and `--sweep-max` take: ten times the largest sweep (1e7). A pair costs up to
/// about 0.5 KB of host memory (its two instances, 104 bytes, and the answers of every backend, kept to
/// compare them), so the limit needs up to about 50 GB; far beyond it the scene's allocation aborts the
/// process, and past 2^31 pairs its u32 instance indices would wrap.
pub const MAX_PAIRS: usize = 100_000_000;

/// The most timed runs `--repeat` takes: each is a full pass over the scene, and 1000 already takes hours
/// at the pair limit.
pub const MAX_REPEAT: usize = 1_000;

/// The fewest points a random hull is drawn with.
pub const MIN_HULL_POINTS: usize = 8;

/// The most points `--max-hull-points` takes: 25 times the largest measured (40,000). Each of the scene's
/// 400 shapes may be a hull cloud of that many points (12 MB at the limit), built before anything runs.
pub const MAX_HULL_POINTS: usize = 1_000_000;

/// A whole number (with `_` separators) in `min..=max`, for the size flags of `bench` and `demo`. The
/// messages name the bound and what it counts (clap puts the flag and the value before them); digits too
/// many for the type are over the bound, not "not a number".
pub fn parse_within<T>(text: &str, min: T, max: T, what: &str) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    let digits = text.trim().replace('_', "");
    let n: T = match digits.parse() {
        Ok(n) => n,
        Err(_) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            return Err(format!("more than the limit of {max} {what}"))
        }
        Err(_) => return Err(format!("{text:?} is not a whole number")),
    };
    if n < min {
        return Err(format!("must be at least {min} {what}"));
    }
    if n > max {
        return Err(format!("more than the limit of {max} {what}"));
    }
    Ok(n)
}

/// Parses `--pairs` and `--sweep-max`: 1 to [`MAX_PAIRS`].
pub fn parse_pairs(text: &str) -> Result<usize, String> {
    parse_within(
        text,
        1,
        MAX_PAIRS,
        "pairs (up to about 0.5 KB of memory each)",
    )
}

/// Parses `--repeat`: 1 to [`MAX_REPEAT`].
pub fn parse_repeat(text: &str) -> Result<usize, String> {
    parse_within(text, 1, MAX_REPEAT, "timed runs")
}

/// Parses `--max-hull-points`: random hulls have 8 to N points, so N is 8 to [`MAX_HULL_POINTS`].
pub fn parse_hull_points(text: &str) -> Result<usize, String> {
    parse_within(
        text,
        MIN_HULL_POINTS,
        MAX_HULL_POINTS,
        "points (random hulls have 8 to N points)",
    )
}

/// `--epa-kernel`: `private`, `scratch`, or both separated by a comma (one GPU penetration row each, in that
/// order, on the same scene in one run).
pub fn parse_epa_kernels(text: &str) -> Result<EpaKernels, String> {
    let mut kernels = Vec::new();
    for name in text.split(',').map(str::trim) {
        let kernel = EpaKernel::from_name(name).ok_or_else(|| {
            format!("unknown EPA kernel `{name}`: expected private, scratch or private,scratch")
        })?;
        if kernels.contains(&kernel) {
            return Err(format!("EPA kernel `{name}` named twice"));
        }
        kernels.push(kernel);
    }
    Ok(EpaKernels(kernels))
}

/// The EPA kernels of `--epa-kernel`, in order, none twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpaKernels(pub Vec<EpaKernel>);

/// `--scan`: `per-thread`, `subgroup`, or both separated by a comma (one GPU distance or intersection row each,
/// in that order, on the same scene in one run).
pub fn parse_scan_kernels(text: &str) -> Result<ScanKernels, String> {
    let mut kernels = Vec::new();
    for name in text.split(',').map(str::trim) {
        let kernel = ScanKernel::from_name(name).ok_or_else(|| {
            format!(
                "unknown scan kernel `{name}`: expected per-thread, subgroup or per-thread,subgroup"
            )
        })?;
        if kernels.contains(&kernel) {
            return Err(format!("scan kernel `{name}` named twice"));
        }
        kernels.push(kernel);
    }
    Ok(ScanKernels(kernels))
}

/// The scan kernels of `--scan`, in order, none twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScanKernels(pub Vec<ScanKernel>);

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
    /// Keep raw hull clouds scanned (`--raw-scan`) rather than searched as their hulls.
    pub raw_scan: bool,
    /// Dispatch the GPU's pairs binned by work (`NarrowPhase::set_binning`); `--no-binning` turns it off.
    pub binning: bool,
    /// The EPA kernels of the GPU's penetration rows, one row each in this order (`--epa-kernel`); empty for
    /// the narrow phase's own choice ([`EpaKernel::for_device`]).
    pub epa_kernels: Vec<EpaKernel>,
    /// The scan kernels of the GPU's distance and intersection rows, one row each in this order (`--scan`);
    /// empty for the narrow phase's own choice ([`ScanKernel::for_device`]).
    pub scan_kernels: Vec<ScanKernel>,
    /// wgpu's runtime checks in the GPU kernels (`--shader-checks`).
    pub shader_checks: crate::gpu::ShaderChecks,
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
    fn scan_kernels_parse_in_order_and_bad_lists_are_named() {
        use crate::gpu::ScanKernel::{PerThread, Subgroup};
        assert_eq!(
            parse_scan_kernels("per-thread, subgroup").unwrap().0,
            [PerThread, Subgroup]
        );
        let err = parse_scan_kernels("per-thread,warp").unwrap_err();
        assert!(
            err.contains("`warp`") && err.contains("per-thread,subgroup"),
            "{err}"
        );
        assert!(parse_scan_kernels("subgroup,subgroup").is_err());
    }

    #[test]
    fn epa_kernels_parse_in_order_and_bad_lists_are_named() {
        assert_eq!(
            parse_epa_kernels("private, scratch").unwrap().0,
            vec![EpaKernel::Private, EpaKernel::Scratch]
        );
        assert_eq!(
            parse_epa_kernels("scratch").unwrap().0,
            vec![EpaKernel::Scratch]
        );
        let err = parse_epa_kernels("private,shared").unwrap_err();
        assert!(
            err.contains("`shared`") && err.contains("private,scratch"),
            "{err}"
        );
        let err = parse_epa_kernels("scratch,scratch").unwrap_err();
        assert!(err.contains("twice"), "{err}");
        assert!(parse_epa_kernels("").is_err());
    }

    #[test]
    fn counts_and_sweeps() {
        assert_eq!(parse_pairs("1_000"), Ok(1000));
        assert!(parse_pairs("0").unwrap_err().contains("at least 1"));
        assert!(parse_pairs("x").is_err());
        assert_eq!(sweep_sizes(10_000).unwrap(), vec![1_000, 10_000]);
        assert_eq!(sweep_sizes(5_000_000).unwrap().len(), 4);
        assert_eq!(sweep_sizes(10_000_000).unwrap().last(), Some(&10_000_000));
        assert!(sweep_sizes(999).is_err());
        assert_eq!(parse_hull_points("8"), Ok(8));
        assert!(parse_hull_points("7").unwrap_err().contains("at least 8"));
    }

    #[test]
    fn counts_have_limits_that_name_themselves() {
        // Each of these panicked (capacity overflow), aborted (allocation failure) or ran out of memory.
        for parse in [parse_pairs, parse_repeat, parse_hull_points] {
            for text in [
                "18446744073709551615",
                "99999999999999999999999",
                "4294967296",
            ] {
                let message = parse(text).unwrap_err();
                assert!(
                    message.starts_with("more than the limit of "),
                    "{text}: {message}"
                );
            }
        }
        assert_eq!(parse_pairs(&MAX_PAIRS.to_string()), Ok(MAX_PAIRS));
        assert!(parse_pairs(&(MAX_PAIRS + 1).to_string())
            .unwrap_err()
            .contains("limit of 100000000 pairs"));
        assert_eq!(parse_pairs("10_000_000"), Ok(10_000_000));
        assert_eq!(parse_repeat("1000"), Ok(1000));
        assert!(parse_repeat("1001")
            .unwrap_err()
            .contains("limit of 1000 timed runs"));
        assert_eq!(parse_hull_points("40000"), Ok(40_000));
        assert!(parse_hull_points("1000001")
            .unwrap_err()
            .contains("limit of 1000000 points"));
        // The minimum is the hulls' 8 points, for 0 too (it said "at least 1").
        for text in ["0", "1", "7"] {
            let message = parse_hull_points(text).unwrap_err();
            assert!(
                message.starts_with("must be at least 8 points"),
                "{text}: {message}"
            );
        }
        assert!(parse_pairs("-1")
            .unwrap_err()
            .contains("not a whole number"));
    }
}
