//! The main of the harness `scripts/old_new.sh` generates (not a bench of this package: its dependencies `slot_a`
//! and `slot_b` are two builds of the library, exported from two revisions). Times the same pairs through both
//! builds in alternation, in one process, and prints per case the median over rounds of slot A's time over slot
//! B's, with its quartiles, as a `RESULT` line the script reads.

// The cases modules serve the parry3d bench (`vs_parry`) too; this harness uses part of them.
#![allow(dead_code)]

mod alternation;
mod cases_a;
mod cases_b;
mod pairs_a;
mod pairs_b;
mod timed_passes;

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
        // The parry3d benches' timing, slot B as "ours": its ratio is then slot A's time over slot B's.
        let timed = timed_passes::alternated(a.pairs.len(), rounds, run_b, run_a);
        let [q1, median, q3] = timed.ratio;
        let same = if sum_a.to_bits() == sum_b.to_bits() {
            "same"
        } else {
            "differ"
        };
        eprintln!("{name}: answer sums {sum_a} (slot A) and {sum_b} (slot B)");
        println!("RESULT {name} {kind} {median:.4} {q1:.4} {q3:.4} {rounds} {same}");
    }
}
