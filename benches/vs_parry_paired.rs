//! The cases of `benches/vs_parry.rs`, with gpu-gjk and parry3d timed in alternation: each round times one
//! pass of each library over the case's pairs, back to back (which goes first alternates), and the figure is
//! the median over the rounds of the per-round ratio, with its quartiles.
//!
//! Why: criterion times one library for seconds and then the other, and on a shared VM whose speed drifts by a
//! third or more within a minute (seen on the dev VMs of this project), the ratio of two medians taken apart in
//! time moved from 1.9x to 2.9x between runs of the same binaries. Two passes a few milliseconds apart see the
//! same machine, so their ratio holds still when both figures move.
//!
//! `cargo bench --no-default-features --features scenario --bench vs_parry_paired` (add filters on the
//! `{kind}/{case}` id, e.g. `-- penetration/mix hull1000_box`: a row runs when its id contains one of them; and `--rounds N`, default 41). Prints a Markdown table: the
//! median per-pair time of each library over the rounds and the median ratio, parry3d's time over gpu-gjk's
//! (above 1: gpu-gjk is faster), between its lower and upper quartiles.

mod alternation;
mod parry_cases;
mod parry_pairs;
mod timed_passes;

use alternation::{alternate, quantile, sorted};
use gpu_gjk::gjk::GjkConfig;
use parry_cases::{all_cases, run_ours, run_parry, Case, Kind};
use timed_passes::{options, reps_for, timed};

/// Rounds when `--rounds` is not given: enough for quartiles that mean something, a few seconds a case.
const DEFAULT_ROUNDS: usize = 41;

/// One table row: per-pair medians (µs) and the ratio's median and quartiles.
struct Row {
    ours_us: f64,
    parry_us: f64,
    ratio: [f64; 3],
}

fn paired(case: &Case, kind: Kind, rounds: usize, config: &GjkConfig) -> Row {
    let ours = || run_ours(case, kind, false, config);
    let theirs = || run_parry(case, kind);
    let (ours_reps, theirs_reps) = (reps_for(ours), reps_for(theirs));
    let rounds = alternate(
        rounds,
        || timed(ours_reps, ours),
        || timed(theirs_reps, theirs),
    );
    let median =
        |side: fn(&(f64, f64)) -> f64| quantile(&sorted(rounds.iter().map(side).collect()), 0.5);
    let ratios = sorted(rounds.iter().map(|(o, p)| p / o).collect());
    let per_pair_us = 1e6 / case.pairs.len() as f64;
    Row {
        ours_us: median(|r| r.0) * per_pair_us,
        parry_us: median(|r| r.1) * per_pair_us,
        ratio: [0.25, 0.5, 0.75].map(|q| quantile(&ratios, q)),
    }
}

fn main() {
    let options = options(DEFAULT_ROUNDS);
    let config = GjkConfig::default();
    let cases = all_cases();
    println!(
        "gpu-gjk against parry3d 0.31 (f32), single thread, timed in alternation: {} rounds per row",
        options.rounds
    );
    println!();
    println!(
        "| query | case | gpu-gjk µs per pair | parry3d µs per pair | ratio (median) | quartiles |"
    );
    println!("|---|---|---:|---:|---:|---:|");
    for (kind, kind_name) in Kind::ALL {
        for case in &cases {
            let id = format!("{kind_name}/{}", case.name);
            if !options.wants(&id) {
                continue;
            }
            let row = paired(case, kind, options.rounds, &config);
            println!(
                "| {kind_name} | {} | {:.3} | {:.3} | {:.2}x | {:.2}x-{:.2}x |",
                case.name, row.ours_us, row.parry_us, row.ratio[1], row.ratio[0], row.ratio[2]
            );
        }
    }
}
