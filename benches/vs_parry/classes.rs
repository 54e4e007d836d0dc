//! The `classes` mode: the random mix of the `paired` mode split by shape class: for each class of pair (the
//! classes of its two shapes, either order), gpu-gjk and parry3d timed in alternation on that class's pairs alone,
//! for the intersection flag, the distance and the penetration query (against `contact` with no prediction
//! limit, the same work). Says where the mix's ratio comes from: which classes take gpu-gjk's time, and where
//! parry3d is close or ahead.
//!
//! Each class's pairs are looped within a round. The mix's 20,000 pairs give the classes 54 to 1,437 pairs each,
//! and a CPU's branch predictor learns a loop over a few hundred pairs, gpu-gjk's data-dependent branches more
//! than parry3d's scans (see `cases`' `CASE_PAIRS`): the small classes' ratios flatter gpu-gjk, and the
//! whole mix's row, over 20,000 distinct pairs, is the one to quote.
//!
//! Classes: `sphere` (a point with a radius), `capsule` (a segment with a radius), `segment`, `box` (8 vertices,
//! no radius), `rounded box` (8 vertices and a radius), then other hulls by vertex count: `hull 4-16`,
//! `hull 17-64`, `hull 65+` (a radius or not).
//!
//! `cargo bench --no-default-features --features scenario --bench vs_parry -- classes` (add filters on the
//! `{kind}/{class}` id, e.g. `classes penetration/box`: a row runs when its id contains one of them;
//! `--rounds N`, default 21; and `--pairs N` to keep the mix's first N pairs). Prints one Markdown table per
//! query: each class's pairs, how many overlap, its share
//! of gpu-gjk's time over the mix, the median per-pair time of each library and the median per-round ratio
//! (parry3d's time over gpu-gjk's: above 1, gpu-gjk is faster) between its quartiles; classes by gpu-gjk's time.

use crate::cases::{all_cases, ours_on_pair, parry_on_pair, run_ours, run_parry, Case, Kind};
use crate::one_pair::penetration_query;
use crate::options::Options;
use crate::pairs::Pair;
use crate::timed_passes::{alternated, Alternated};
use gpu_gjk::gjk::GjkConfig;
use gpu_gjk::ConvexShape;
use std::collections::BTreeMap;

/// Rounds when `--rounds` is not given: the classes are many, and each round of a class is two short passes.
pub const DEFAULT_ROUNDS: usize = 21;

/// The class of one shape (see the module's text).
fn class(shape: &ConvexShape) -> &'static str {
    let rounded = shape.radius() > 0.0;
    match (shape.len(), rounded) {
        (1, _) => "sphere",
        (2, true) => "capsule",
        (2, false) => "segment",
        (8, false) => "box",
        (8, true) => "rounded box",
        (n, _) if n <= 16 => "hull 4-16",
        (n, _) if n <= 64 => "hull 17-64",
        _ => "hull 65+",
    }
}

/// The class of a pair: its shapes' classes in name order.
fn pair_class(case: &Case, pair: &Pair) -> String {
    let (a, b) = (class(&case.shapes[pair.a]), class(&case.shapes[pair.b]));
    let (first, second) = if a <= b { (a, b) } else { (b, a) };
    format!("{first} - {second}")
}

/// One class's row.
struct Row {
    class: String,
    pairs: usize,
    overlapping: usize,
    timed: Alternated,
}

/// The class's pairs timed in alternation, one pass of each library per round.
fn timed_class(
    case: &Case,
    pairs: &[&Pair],
    kind: Kind,
    rounds: usize,
    config: &GjkConfig,
) -> Alternated {
    let ours = || {
        pairs
            .iter()
            .map(|p| ours_on_pair(case, p, kind, false, config))
            .sum()
    };
    let theirs = || pairs.iter().map(|p| parry_on_pair(case, p, kind)).sum();
    alternated(pairs.len(), rounds, ours, theirs)
}

/// Runs the mode.
pub fn run(options: &Options) {
    let config = GjkConfig::default();
    // The mix as the `paired` mode builds it (with the other cases, which this bench leaves alone).
    let mut case = all_cases()
        .into_iter()
        .find(|case| case.name == "mix")
        .expect("the cases include the mix");
    if let Some(pairs) = options.pairs {
        case.pairs.truncate(pairs);
    }
    let mut classes: BTreeMap<String, Vec<&Pair>> = BTreeMap::new();
    for pair in &case.pairs {
        classes
            .entry(pair_class(&case, pair))
            .or_default()
            .push(pair);
    }
    let overlaps = |pair: &Pair| {
        let (a, b) = (&case.shapes[pair.a], &case.shapes[pair.b]);
        penetration_query(a, &pair.pose_a, b, &pair.pose_b, &config)
            .0
            .intersecting
    };
    let overlapping_in_mix = case.pairs.iter().filter(|p| overlaps(p)).count();
    println!(
        "gpu-gjk against parry3d 0.31 (f32) on the random mix's {} pairs by shape class, single thread, timed in \
         alternation: {} rounds per class",
        case.pairs.len(),
        options.rounds
    );
    // The three queries, the penetration one against `contact` doing the same work (no prediction limit).
    let kinds = Kind::ALL
        .into_iter()
        .filter(|(kind, _)| !matches!(kind, Kind::PenetrationVsContact0));
    for (kind, kind_name) in kinds {
        let mut rows: Vec<Row> = classes
            .iter()
            .filter(|(class, _)| options.wants(&format!("{kind_name}/{class}")))
            .map(|(class, pairs)| Row {
                class: class.clone(),
                pairs: pairs.len(),
                overlapping: pairs.iter().filter(|p| overlaps(p)).count(),
                timed: timed_class(&case, pairs, kind, options.rounds, &config),
            })
            .collect();
        if rows.is_empty() {
            continue;
        }
        let ours_total = |row: &Row| row.timed.ours_us * row.pairs as f64;
        let total: f64 = rows.iter().map(ours_total).sum();
        rows.sort_by(|a, b| ours_total(b).total_cmp(&ours_total(a)));
        println!();
        println!("{kind_name}:");
        println!();
        println!(
            "| class | pairs | overlapping | share of gpu-gjk's time | gpu-gjk µs per pair | parry3d µs per pair \
             | ratio (median) | quartiles |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|---:|");
        // The whole mix in one pass, as the `paired` mode times it (caches colder than a class's passes).
        let whole = alternated(
            case.pairs.len(),
            options.rounds,
            || run_ours(&case, kind, false, &config),
            || run_parry(&case, kind),
        );
        println!(
            "| the whole mix | {} | {overlapping_in_mix} | 100% | {:.3} | {:.3} | {:.2}x | {:.2}x-{:.2}x |",
            case.pairs.len(),
            whole.ours_us,
            whole.parry_us,
            whole.ratio[1],
            whole.ratio[0],
            whole.ratio[2]
        );
        for row in &rows {
            println!(
                "| {} | {} | {} | {:.1}% | {:.3} | {:.3} | {:.2}x | {:.2}x-{:.2}x |",
                row.class,
                row.pairs,
                row.overlapping,
                100.0 * ours_total(row) / total,
                row.timed.ours_us,
                row.timed.parry_us,
                row.timed.ratio[1],
                row.timed.ratio[0],
                row.timed.ratio[2]
            );
        }
    }
}
