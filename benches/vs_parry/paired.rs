//! The `paired` mode: the headline cases of [`crate::cases`], with gpu-gjk and parry3d timed in alternation:
//! each round times one pass of each library over the case's pairs, back to back (which goes first
//! alternates), and the figure is the median over the rounds of the per-round ratio, with its quartiles.
//!
//! Why: criterion times one library for seconds and then the other, and on a shared VM whose speed drifts by a
//! third or more within a minute (seen on the dev VMs of this project), the ratio of two medians taken apart in
//! time moved from 1.9x to 2.9x between runs of the same binaries. Two passes a few milliseconds apart see the
//! same machine, so their ratio holds still when both figures move.
//!
//! `cargo bench --no-default-features --features scenario --bench vs_parry -- paired` (add filters on the
//! `{kind}/{case}` id, e.g. `paired penetration/mix hull1000_box`: a row runs when its id contains one of them;
//! `--rounds N`, default 41; and `--pairs N` to cut each case to its first N pairs, e.g. 200 to see a pass the
//! branch predictor learns). Prints a Markdown table: the
//! median per-pair time of each library over the rounds and the median ratio, parry3d's time over gpu-gjk's
//! (above 1: gpu-gjk is faster), between its lower and upper quartiles.

use crate::cases::{all_cases, run_ours, run_parry, Case, Kind};
use crate::options::Options;
use crate::timed_passes::{alternated, Alternated};
use gpu_gjk::gjk::GjkConfig;

/// Rounds when `--rounds` is not given: enough for quartiles that mean something, a few seconds a case.
pub const DEFAULT_ROUNDS: usize = 41;

/// One case's row: the two libraries timed in alternation over its pairs.
fn paired(case: &Case, kind: Kind, rounds: usize, config: &GjkConfig) -> Alternated {
    alternated(
        case.pairs.len(),
        rounds,
        || run_ours(case, kind, false, config),
        || run_parry(case, kind),
    )
}

/// Runs the mode.
pub fn run(options: &Options) {
    let config = GjkConfig::default();
    let mut cases = all_cases();
    if let Some(pairs) = options.pairs {
        for case in &mut cases {
            case.pairs.truncate(pairs);
        }
    }
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
