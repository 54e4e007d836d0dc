//! GPU results against the CPU reference, pair by pair: flag disagreements outside the tolerance band,
//! distance and witness errors, status counts, iteration histograms and the worst cases. Used by the tests,
//! `gpu-gjk bench` and the desktop app.

mod penetration;

pub use penetration::PenetrationComparison;
pub use penetration::{compare_penetration, depth_along, PenetrationReport};

use crate::gjk::{pair_scale, GjkResult, GjkStatus, QueryKind};
use crate::instance::Instance;
use crate::shape::ConvexShape;
use crate::text::count_len;
use std::fmt::Write as _;

/// Flags may differ only when both answers put the surfaces within this fraction of the pair scale of
/// contact: there float32 rounding on either side may fall either way. Distances and witnesses must agree
/// within it.
pub(crate) const AGREEMENT_BAND: f64 = 1e-4;

/// Float32 steps of the distance itself that two answers may differ by, beyond [`AGREEMENT_BAND`]: a distance is
/// a float32 of its own size, and the GPU forms the pair-local frame in float32 where the CPU uses float64, so
/// pairs far apart for their size (shapes 2e-3 across, 2 apart) differ by a step or two of the distance, which
/// can exceed a band measured in the shapes' size (there 2e-7 against steps of 2.4e-7).
pub(crate) const DISTANCE_ROUNDING_STEPS: f64 = 8.0;

/// The band distances and witness gaps of one pair must agree within: [`AGREEMENT_BAND`] of the pair scale, or
/// [`DISTANCE_ROUNDING_STEPS`] float32 steps of the larger distance when that is wider.
pub(crate) fn distance_band(scale: f64, gpu_distance: f32, cpu_distance: f32) -> f64 {
    let larger = gpu_distance.abs().max(cpu_distance.abs()) as f64;
    (AGREEMENT_BAND * scale).max(DISTANCE_ROUNDING_STEPS * f32::EPSILON as f64 * larger)
}

/// How many worst cases a report keeps.
pub(crate) const WORST_CASES: usize = 5;

/// One pair as both sides answered it.
#[derive(Clone, Debug, PartialEq)]
pub struct PairComparison {
    pub pair: usize,
    pub shape_a: u32,
    pub shape_b: u32,
    /// Pair scale ([`pair_scale`]) the errors are relative to.
    pub scale: f64,
    pub gpu: GjkResult<f32>,
    pub cpu: GjkResult<f32>,
    /// |distance_gpu - distance_cpu| / scale.
    pub distance_error: f64,
}

/// Counts by status: separated, intersecting, max_iterations.
pub(crate) type StatusCounts = [usize; GjkStatus::ALL.len()];

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValidationReport {
    pub kind: Option<QueryKind>,
    pub pairs: usize,
    /// Pairs whose flags differ although at least one side puts them clearly outside the band.
    pub flag_disagreements: usize,
    /// Pairs whose flags differ within the band of contact (allowed; reported for information).
    pub near_contact_flag_differences: usize,
    /// Pairs whose distance differs by more than the band (distance queries only).
    pub distance_disagreements: usize,
    /// Largest and mean |distance error| / scale (distance queries only).
    pub max_distance_error: f64,
    pub mean_distance_error: f64,
    /// Largest |witness_a error| / scale over pairs both sides call separated (distance queries only).
    /// Informational: on parallel faces the closest points are not unique, and the two sides may pick
    /// different, equally close points.
    pub max_witness_error: f64,
    /// Pairs whose GPU answer is inconsistent with itself: `| |witness_b - witness_a| - distance |` beyond
    /// the band (distance queries only).
    pub witness_gap_disagreements: usize,
    pub gpu_status: StatusCounts,
    pub cpu_status: StatusCounts,
    /// GPU answers with a failure status (`is_failure()`): named non-answers, not compared and not
    /// disagreements; `GpuBatch::resolve_failures_on_cpu` answers them again on the CPU.
    pub gpu_failures: usize,
    /// CPU answers with a failure status. The CPU reference must answer every pair, so any makes the report
    /// unclean.
    pub cpu_failures: usize,
    /// `histogram[n]` = pairs that took `n` iterations.
    pub gpu_iterations: Vec<usize>,
    pub cpu_iterations: Vec<usize>,
    /// The pairs with the largest distance errors, worst first.
    pub worst: Vec<PairComparison>,
    /// The first flag or distance disagreements.
    pub disagreements: Vec<PairComparison>,
    /// Every pair index that disagrees (the demo colours their bodies).
    pub disagreeing_pairs: Vec<usize>,
}

impl ValidationReport {
    /// No disagreement outside the band, and no pair without a CPU answer. GPU failures are named non-answers
    /// (counted in `gpu_failures`), not disagreements.
    pub fn is_clean(&self) -> bool {
        self.flag_disagreements == 0
            && self.distance_disagreements == 0
            && self.witness_gap_disagreements == 0
            && self.cpu_failures == 0
    }

    /// A few lines for a terminal or a log.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        let status = |c: &StatusCounts| {
            GjkStatus::ALL
                .iter()
                .map(|st| format!("{} {}", st.name(), c[*st as usize]))
                .collect::<Vec<_>>()
                .join(" / ")
        };
        let _ = writeln!(
            s,
            "agreement on {}: {} outside the band ({} within it), {}",
            count_len(self.pairs, "pair"),
            count_len(self.flag_disagreements, "flag disagreement"),
            self.near_contact_flag_differences,
            count_len(self.distance_disagreements, "distance disagreement")
        );
        if self.kind == Some(QueryKind::Distance) {
            let _ = writeln!(
                s,
                "distance error / pair scale: max {:.2e}, mean {:.2e}; witness difference max {:.2e} \
                 (closest points are not unique on parallel faces); {} GPU answers with |witness_b - witness_a| != distance",
                self.max_distance_error,
                self.mean_distance_error,
                self.max_witness_error,
                self.witness_gap_disagreements
            );
        }
        let _ = writeln!(
            s,
            "GPU failures (named, to answer on the CPU): {}; CPU failures: {}",
            self.gpu_failures, self.cpu_failures
        );
        let _ = writeln!(s, "GPU status: {}", status(&self.gpu_status));
        let _ = writeln!(s, "CPU status: {}", status(&self.cpu_status));
        let _ = writeln!(
            s,
            "GPU iterations: {}",
            histogram_text(&self.gpu_iterations)
        );
        for case in self.disagreements.iter().take(WORST_CASES) {
            let _ = writeln!(s, "disagreement: {}", case_text(case));
        }
        if self.kind == Some(QueryKind::Distance) {
            for case in self.worst.iter().take(3) {
                let _ = writeln!(s, "largest error: {}", case_text(case));
            }
        }
        s
    }
}

fn histogram_text(h: &[usize]) -> String {
    h.iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(i, n)| format!("{i}:{n}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn case_text(c: &PairComparison) -> String {
    format!(
        "pair {} (shapes {} and {}, scale {:.3e}): GPU {} d={} it={}, CPU {} d={} it={}",
        c.pair,
        c.shape_a,
        c.shape_b,
        c.scale,
        c.gpu.status.name(),
        c.gpu.distance,
        c.gpu.iterations,
        c.cpu.status.name(),
        c.cpu.distance,
        c.cpu.iterations
    )
}

fn bump(histogram: &mut Vec<usize>, n: u32) {
    let n = n as usize;
    if histogram.len() <= n {
        histogram.resize(n + 1, 0);
    }
    histogram[n] += 1;
}

/// Compares GPU and CPU answers for the same pairs (both in the pair-local frame).
pub fn compare(
    shapes: &[ConvexShape],
    instances: &[Instance],
    pairs: &[[u32; 2]],
    gpu: &[GjkResult<f32>],
    cpu: &[GjkResult<f32>],
    kind: QueryKind,
) -> ValidationReport {
    let mut report = ValidationReport {
        kind: Some(kind),
        pairs: pairs.len().min(gpu.len()).min(cpu.len()),
        ..ValidationReport::default()
    };
    let mut error_sum = 0.0;
    for (i, ((pair, g), c)) in pairs.iter().zip(gpu).zip(cpu).enumerate() {
        let shape_a = instances[pair[0] as usize].shape;
        let shape_b = instances[pair[1] as usize].shape;
        let scale = pair_scale(
            shapes[shape_a as usize].bounding_radius(),
            shapes[shape_b as usize].bounding_radius(),
        ) as f64;
        let band = AGREEMENT_BAND * scale;
        report.gpu_status[g.status as usize] += 1;
        report.cpu_status[c.status as usize] += 1;
        bump(&mut report.gpu_iterations, g.iterations);
        bump(&mut report.cpu_iterations, c.iterations);
        if c.status.is_failure() {
            report.cpu_failures += 1;
        }
        if g.status.is_failure() || c.status.is_failure() {
            report.gpu_failures += usize::from(g.status.is_failure());
            continue;
        }

        let distance_error = if kind == QueryKind::Distance {
            (g.distance as f64 - c.distance as f64).abs()
        } else {
            0.0
        };
        let comparison = || PairComparison {
            pair: i,
            shape_a,
            shape_b,
            scale,
            gpu: *g,
            cpu: *c,
            distance_error: distance_error / scale.max(f64::MIN_POSITIVE),
        };
        let mut disagree = false;
        if g.intersecting != c.intersecting {
            // Intersection queries stop early and carry no converged distance, so any flag difference
            // there counts; distance queries may differ only when both put the pair within the band.
            let near = kind == QueryKind::Distance
                && (g.distance as f64) <= band
                && (c.distance as f64) <= band;
            if near {
                report.near_contact_flag_differences += 1;
            } else {
                report.flag_disagreements += 1;
                disagree = true;
            }
        }
        if kind == QueryKind::Distance {
            let relative = distance_error / scale.max(f64::MIN_POSITIVE);
            error_sum += relative;
            report.max_distance_error = report.max_distance_error.max(relative);
            let distance_band = distance_band(scale, g.distance, c.distance);
            if distance_error > distance_band {
                report.distance_disagreements += 1;
                disagree = true;
            }
            let gap = (g.witness_b - g.witness_a).length() as f64;
            if (gap - g.distance as f64).abs() > distance_band {
                report.witness_gap_disagreements += 1;
                disagree = true;
            }
            if !g.intersecting && !c.intersecting {
                let w = (g.witness_a - c.witness_a).length() as f64 / scale.max(f64::MIN_POSITIVE);
                report.max_witness_error = report.max_witness_error.max(w);
            }
            keep_worst(&mut report.worst, comparison());
        }
        if disagree {
            report.disagreeing_pairs.push(i);
            if report.disagreements.len() < WORST_CASES {
                report.disagreements.push(comparison());
            }
        }
    }
    if report.pairs > 0 && kind == QueryKind::Distance {
        report.mean_distance_error = error_sum / report.pairs as f64;
    }
    report
}

fn keep_worst(worst: &mut Vec<PairComparison>, candidate: PairComparison) {
    if worst.len() < WORST_CASES || candidate.distance_error > worst[worst.len() - 1].distance_error
    {
        worst.push(candidate);
        worst.sort_by(|a, b| b.distance_error.total_cmp(&a.distance_error));
        worst.truncate(WORST_CASES);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{query_batch, Threads};
    use crate::gjk::GjkConfig;
    use crate::scenario::{random_scene, MixSpec};

    #[test]
    fn identical_answers_are_clean_and_a_flipped_flag_is_caught() {
        let scene = random_scene(5, 300, &MixSpec::default());
        let cpu = query_batch(
            &scene.shapes,
            &scene.instances,
            &scene.pairs,
            QueryKind::Distance,
            &GjkConfig::default(),
            Threads::Single,
        )
        .unwrap();
        let report = compare(
            &scene.shapes,
            &scene.instances,
            &scene.pairs,
            &cpu,
            &cpu,
            QueryKind::Distance,
        );
        assert!(report.is_clean(), "{}", report.summary());
        assert_eq!(report.pairs, 300);
        assert_eq!(report.gpu_iterations.iter().sum::<usize>(), 300);

        let mut broken = cpu.clone();
        let victim = broken.iter().position(|r| r.distance > 0.1).unwrap();
        broken[victim].intersecting = true;
        broken[victim].status = GjkStatus::Intersecting;
        broken[victim].distance = 0.0;
        let report = compare(
            &scene.shapes,
            &scene.instances,
            &scene.pairs,
            &broken,
            &cpu,
            QueryKind::Distance,
        );
        assert!(!report.is_clean());
        assert_eq!(report.flag_disagreements, 1);
        assert_eq!(report.disagreements[0].pair, victim);
        assert_eq!(report.disagreeing_pairs, vec![victim]);
        assert_eq!(report.worst[0].pair, victim);
        assert!(report.summary().contains(&format!("pair {victim}")));
    }

    /// Two shapes 2e-3 across, 2 apart: answers two float32 steps of the distance apart agree (the pair scale's
    /// band alone is narrower than one step there); answers 1e-5 of the distance apart do not.
    #[test]
    fn distances_may_differ_by_their_own_rounding_when_the_shapes_are_small_for_it() {
        use crate::Pose;
        use glam::Vec3;
        let tiny = ConvexShape::cuboid(Vec3::splat(1e-3)).unwrap();
        let shapes = [tiny.clone(), tiny];
        let instances = [
            Instance {
                shape: 0,
                pose: Pose::IDENTITY,
            },
            Instance {
                shape: 1,
                pose: Pose::new(Vec3::new(2.5, 0.0, 0.0), glam::Quat::IDENTITY),
            },
        ];
        let pairs = [[0, 1]];
        let cpu = query_batch(
            &shapes,
            &instances,
            &pairs,
            QueryKind::Distance,
            &GjkConfig::default(),
            Threads::Single,
        )
        .unwrap();
        let scale = pair_scale(shapes[0].bounding_radius(), shapes[1].bounding_radius()) as f64;
        let step = cpu[0].distance - f32::from_bits(cpu[0].distance.to_bits() - 1);
        assert!(
            AGREEMENT_BAND * scale < step as f64,
            "the pair scale's band is under one step here"
        );
        let shifted = |by: f32| {
            let mut gpu = cpu.clone();
            gpu[0].distance += by;
            gpu[0].witness_b.x += by;
            compare(&shapes, &instances, &pairs, &gpu, &cpu, QueryKind::Distance)
        };
        let rounding = shifted(2.0 * step);
        assert!(rounding.is_clean(), "{}", rounding.summary());
        let wrong = shifted(cpu[0].distance * 1e-5);
        assert_eq!(wrong.distance_disagreements, 1, "{}", wrong.summary());
    }
}
