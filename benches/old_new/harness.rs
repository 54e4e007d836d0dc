//! The main of the harness `benches/old_new.sh` generates (not a bench of this package: its dependencies `slot_a`
//! and `slot_b` are two builds of the library, exported from two revisions). Times the same pairs through both
//! builds in alternation, in one process, and prints per case the median over rounds of slot A's time over slot
//! B's, with its quartiles, as a `RESULT` line the script reads.

// The cases modules serve the parry3d benches too; this harness uses part of them.
#![allow(dead_code)]

mod alternation;
mod cases_a;
mod cases_b;
mod pairs_a;
mod pairs_b;

use std::hint::black_box;
use std::time::Instant;

/// A timing shorter than this repeats the pass (as `benches/timed_passes`' `MIN_PASS`).
const MIN_PASS_SECONDS: f64 = 0.004;

/// Seconds for `reps` runs of `run`.
fn timed(reps: usize, mut run: impl FnMut() -> f32) -> f64 {
    let start = Instant::now();
    for _ in 0..reps {
        black_box(run());
    }
    start.elapsed().as_secs_f64()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (names, kind, rounds) = (
        &args[1],
        args[2].as_str(),
        args[3].parse::<usize>().unwrap(),
    );
    let (kind_a, kind_b) = match kind {
        "intersection" => (cases_a::Kind::Intersection, cases_b::Kind::Intersection),
        "distance" => (cases_a::Kind::Distance, cases_b::Kind::Distance),
        "penetration" => (cases_a::Kind::Penetration, cases_b::Kind::Penetration),
        other => panic!("kind {other:?}: intersection, distance or penetration"),
    };
    let (config_a, config_b) = (
        slot_a::gjk::GjkConfig::default(),
        slot_b::gjk::GjkConfig::default(),
    );
    let (all_a, all_b) = (cases_a::all_cases(), cases_b::all_cases());
    for name in names.split(',') {
        let find_a = all_a.iter().find(|c| c.name == name);
        let (Some(a), Some(b)) = (find_a, all_b.iter().find(|c| c.name == name)) else {
            panic!("no case {name:?}");
        };
        let run_a = || cases_a::run_ours(a, kind_a, false, &config_a);
        let run_b = || cases_b::run_ours(b, kind_b, false, &config_b);
        // Both builds answer every pair; a different sum means their answers differ.
        let (sum_a, sum_b) = (run_a(), run_b());
        let reps = ((MIN_PASS_SECONDS / timed(1, run_b)).ceil() as usize).max(1);
        let rounds = alternation::alternate(rounds, || timed(reps, run_a), || timed(reps, run_b));
        let ratios = alternation::sorted(rounds.iter().map(|(ta, tb)| ta / tb).collect());
        let q = |f| alternation::quantile(&ratios, f);
        let same = if sum_a.to_bits() == sum_b.to_bits() {
            "same"
        } else {
            "differ"
        };
        eprintln!("{name}: answer sums {sum_a} (slot A) and {sum_b} (slot B)");
        println!(
            "RESULT {name} {kind} {:.4} {:.4} {:.4} {} {same}",
            q(0.5),
            q(0.25),
            q(0.75),
            ratios.len()
        );
    }
}
