//! `gpu-gjk bench --algorithm`: the separating axis test and GJK with EPA timed on the same seeded polyhedral
//! pairs, one thread, family by family (boxes, hulls of 8, 64 and 512 points), with their agreement counted
//! when both run.

use super::table::thousands;
use gpu_gjk::sat::compare::{compare, polyhedral_pairs, PolyhedralPair};
use gpu_gjk::sat::separating_axis;
use gpu_gjk::{penetration, QueryOptions};
use std::fmt::Write;
use std::hint::black_box;
use std::time::Instant;

/// Which algorithms `--algorithm` times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AlgorithmChoice {
    /// GJK, then EPA where the pair overlaps (the front door's penetration query).
    Gjk,
    /// The separating axis test.
    Sat,
    /// Both, side by side, with their agreement.
    Both,
}

/// The families: 0 vertices is a box.
const FAMILIES: [(usize, &str); 4] = [
    (0, "box"),
    (8, "hull 8"),
    (64, "hull 64"),
    (512, "hull 512"),
];

/// Best seconds of `repeat` runs of `answer` over every pair.
fn best_seconds(pairs: &[PolyhedralPair], repeat: usize, answer: &dyn Fn(&PolyhedralPair)) -> f64 {
    (0..repeat.max(1))
        .map(|_| {
            let start = Instant::now();
            for pair in pairs {
                answer(pair);
            }
            start.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}

/// The table, and whether the two algorithms agreed on every pair compared.
pub fn run_algorithms(
    choice: AlgorithmChoice,
    pairs: usize,
    seed: u64,
    repeat: usize,
) -> (String, bool) {
    let mut table = String::new();
    let _ = writeln!(
        table,
        "gpu-gjk bench --algorithm: seed {seed}, {pairs} pairs per family (sizes 1e-3 to 1e3, nested to apart), \
         one thread, best of {repeat}"
    );
    let _ = writeln!(
        table,
        "{:<10} {:>16} {:>16} {:>8} {:>9} {:>7} {:>13} {:>14}",
        "family",
        "GJK+EPA pairs/s",
        "SAT pairs/s",
        "SAT/GJK",
        "compared",
        "band",
        "flag disagree",
        "depth disagree"
    );
    let mut clean = true;
    for (vertices, name) in FAMILIES {
        let family = polyhedral_pairs(pairs, &[vertices], seed);
        // The faces are built on first use; build them before any timing.
        for pair in &family {
            black_box(pair.a.faces());
            black_box(pair.b.faces());
        }
        let rate = |seconds: f64| pairs as f64 / seconds;
        let gjk = (choice != AlgorithmChoice::Sat).then(|| {
            rate(best_seconds(&family, repeat, &|p| {
                black_box(penetration(&p.input(), QueryOptions::default()));
            }))
        });
        let sat = (choice != AlgorithmChoice::Gjk).then(|| {
            rate(best_seconds(&family, repeat, &|p| {
                black_box(separating_axis(&p.input()));
            }))
        });
        let shown = |r: Option<f64>| r.map_or("-".to_string(), thousands);
        let ratio = match (gjk, sat) {
            (Some(g), Some(s)) => format!("{:.2}x", s / g),
            _ => "-".into(),
        };
        let counts = if choice == AlgorithmChoice::Both {
            let found = compare(&family);
            clean &= found.is_clean();
            [
                found.compared,
                found.touching_band,
                found.flag_disagreements.len(),
                found.depth_disagreements.len(),
            ]
            .map(|n| n.to_string())
        } else {
            ["-"; 4].map(String::from)
        };
        let _ = writeln!(
            table,
            "{:<10} {:>16} {:>16} {:>8} {:>9} {:>7} {:>13} {:>14}",
            name,
            shown(gjk),
            shown(sat),
            ratio,
            counts[0],
            counts[1],
            counts[2],
            counts[3]
        );
    }
    (table, clean)
}
