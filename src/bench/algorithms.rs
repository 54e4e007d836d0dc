//! `gpu-gjk bench --algorithm`: the separating axis test and GJK with EPA timed on the same seeded polyhedral
//! pairs, one thread, family by family (boxes, hulls of 8, 64 and 512 points), with their agreement counted
//! when both run; the GPU's separating axis test beside them where there is a GPU, with its agreement with the
//! CPU's.

use super::table::thousands;
use gpu_gjk::gpu::sat::compare::compare_with_cpu;
use gpu_gjk::gpu::sat::GpuSat;
use gpu_gjk::gpu::GpuContext;
use gpu_gjk::sat::compare::{compare, polyhedral_pairs, PolyhedralPair};
use gpu_gjk::sat::separating_axis;
use gpu_gjk::{penetration, PairInput, QueryOptions};
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

/// `ratio` to three significant digits ("0.00512", "0.271", "12.3"), so that a small ratio keeps its size.
fn three_digits(ratio: f64) -> String {
    if !(ratio.is_finite() && ratio > 0.0) {
        return format!("{ratio}");
    }
    let decimals = (2 - ratio.log10().floor() as i32).max(0) as usize;
    let shown = format!("{ratio:.decimals$}");
    // Rounding up can gain a digit (0.000999 shows as "0.00100"): one decimal fewer then.
    let digits: String = shown.chars().filter(char::is_ascii_digit).collect();
    if decimals > 0 && digits.trim_start_matches('0').len() > 3 {
        return format!("{ratio:.0$}", decimals - 1);
    }
    shown
}

/// The table, and whether the algorithms agreed on every pair compared (the GPU's test with the CPU's too).
/// `gpu`: the device for the GPU's separating axis test, `None` to leave it out.
pub fn run_algorithms(
    choice: AlgorithmChoice,
    pairs: usize,
    seed: u64,
    repeat: usize,
    gpu: Option<&GpuContext>,
) -> Result<(String, bool), gpu_gjk::gpu::GpuError> {
    let mut table = String::new();
    let gpu_sat = gpu
        .filter(|_| choice != AlgorithmChoice::Gjk)
        .map(|ctx| GpuSat::new(&ctx.device, &ctx.queue));
    let _ = writeln!(
        table,
        "gpu-gjk bench --algorithm: seed {seed}, {pairs} pairs per family (sizes 1e-3 to 1e3, nested to apart), \
         CPU one thread, best of {repeat}"
    );
    match gpu.filter(|_| gpu_sat.is_some()) {
        Some(ctx) => {
            let _ = writeln!(
                table,
                "GPU SAT: {} (whole runs: packing, upload, kernel, readback)",
                ctx.summary
            );
        }
        None => {
            let _ = writeln!(
                table,
                "GPU SAT: not run (no GPU, --backend cpu or --algorithm gjk)"
            );
        }
    }
    let _ = writeln!(
        table,
        "flag, depth: SAT against GJK+EPA disagreements; GPU: GPU SAT against CPU SAT disagreements"
    );
    let _ = writeln!(
        table,
        "{:<10} {:>11}{:>10}{:>11}{:>8}{:>9}{:>6}{:>6}{:>7}{:>6}",
        "family",
        "GJK+EPA/s",
        "SAT/s",
        "GPU SAT/s",
        "SAT/GJK",
        "compared",
        "band",
        "flag",
        "depth",
        "GPU"
    );
    let mut clean = true;
    let mut notes = String::new();
    for (vertices, name) in FAMILIES {
        let family = polyhedral_pairs(pairs, &[vertices], seed);
        // The faces and the separating axis test's polyhedra are built on first use and kept on the shapes;
        // build them before any timing.
        for pair in &family {
            black_box(pair.a.faces());
            black_box(pair.b.faces());
            black_box(pair.a.polyhedron());
            black_box(pair.b.polyhedron());
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
        let inputs: Vec<PairInput> = family.iter().map(|p| p.input()).collect();
        let mut gpu_rate = None;
        let mut gpu_disagree = "-".to_string();
        if let Some(runner) = &gpu_sat {
            // One untimed run: the first dispatch builds the kernel on some drivers.
            let batch = runner.run(&inputs)?;
            let mut best = f64::MAX;
            for _ in 0..repeat.max(1) {
                let start = Instant::now();
                black_box(runner.run(&inputs)?);
                best = best.min(start.elapsed().as_secs_f64());
            }
            gpu_rate = Some(rate(best));
            let found = compare_with_cpu(&inputs, &batch.answers);
            clean &= found.is_clean();
            gpu_disagree =
                (found.flag_disagreements.len() + found.depth_disagreements.len()).to_string();
            let _ = writeln!(notes, "{name}, GPU against CPU SAT: {}", found.summary());
        }
        let shown = |r: Option<f64>| r.map_or("-".to_string(), thousands);
        let ratio = match (gjk, sat) {
            (Some(g), Some(s)) => format!("{}x", three_digits(s / g)),
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
            "{:<10} {:>11}{:>10}{:>11}{:>8}{:>9}{:>6}{:>6}{:>7}{:>6}",
            name,
            shown(gjk),
            shown(sat),
            shown(gpu_rate),
            ratio,
            counts[0],
            counts[1],
            counts[2],
            counts[3],
            gpu_disagree
        );
    }
    table.push_str(&notes);
    Ok((table, clean))
}

#[cfg(test)]
mod tests {
    use super::three_digits;

    #[test]
    fn ratios_keep_three_significant_digits() {
        assert_eq!(three_digits(0.0047), "0.00470");
        assert_eq!(three_digits(0.27134), "0.271");
        assert_eq!(three_digits(1.0), "1.00");
        assert_eq!(three_digits(12.345), "12.3");
        assert_eq!(three_digits(1234.6), "1235");
        assert_eq!(three_digits(0.0009996), "0.00100");
        assert_eq!(three_digits(9.9996), "10.0");
    }
}
