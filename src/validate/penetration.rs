//! GPU penetration answers (EPA) against the CPU reference, pair by pair: status counts on both sides, depth
//! error and normal angle on the pairs deeper than [`DEEP_FRACTION`] of their size, non-finite answers, and
//! the worst cases.

use crate::epa::{Penetration, PenetrationStatus};
use crate::gjk::pair_scale;
use crate::instance::Instance;
use crate::pose::RelativePose;
use crate::shape::ConvexShape;
use crate::text::count_len;
use std::fmt::Write as _;

/// Pairs deeper than this fraction of the pair's size are compared on depth and normal; shallower ones are
/// contact within rounding, where the normal is not defined well.
pub(crate) const DEEP_FRACTION: f64 = 1e-3;
/// Depths must agree within this fraction of the pair's size.
pub(crate) const DEPTH_BAND: f64 = 1e-3;
/// Normals must agree within this angle (radians), unless both are minimal (see
/// [`PenetrationReport::equivalent_normals`]).
pub(crate) const NORMAL_BAND: f64 = 0.01;

/// How many cases a report keeps.
const KEPT_CASES: usize = 5;

/// Counts by [`PenetrationStatus`] (its `u32` value indexes the array).
pub(crate) type PenetrationCounts = [usize; PenetrationStatus::ALL.len()];

/// One pair as both sides answered it.
#[derive(Clone, Debug, PartialEq)]
pub struct PenetrationComparison {
    pub pair: usize,
    pub shape_a: u32,
    pub shape_b: u32,
    /// Pair scale the errors are relative to.
    pub scale: f64,
    pub gpu: Penetration<f32>,
    pub cpu: Penetration<f32>,
    /// |depth_gpu - depth_cpu| / scale.
    pub depth_error: f64,
    /// Angle between the normals, radians (0 unless both are penetrating).
    pub normal_angle: f64,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct PenetrationReport {
    pub pairs: usize,
    pub gpu_status: PenetrationCounts,
    pub cpu_status: PenetrationCounts,
    /// Pairs both sides call penetrating.
    pub both_penetrating: usize,
    /// Of those, the pairs deeper than `DEEP_FRACTION` of their size on either side.
    pub deep: usize,
    /// Deep pairs whose depths differ by more than `DEPTH_BAND` of the pair's size.
    pub depth_disagreements: usize,
    /// Deep pairs whose normals differ by more than `NORMAL_BAND` while the GPU's normal is not as good.
    pub normal_disagreements: usize,
    /// Deep pairs whose normals differ by more than `NORMAL_BAND` although moving B by the GPU's depth
    /// along the GPU's normal separates the shapes just as the CPU's does: the minimal direction is not
    /// unique there (parallel faces, symmetric shapes). Not a disagreement; reported for information.
    pub equivalent_normals: usize,
    /// Pairs where one side is penetrating deeper than `DEEP_FRACTION` and the other says separated (or
    /// the reverse); shallower differences are contact within rounding and counted in
    /// `near_contact_status_differences`.
    pub status_disagreements: usize,
    pub near_contact_status_differences: usize,
    /// Answers with a NaN or infinite field, either side.
    pub non_finite: usize,
    /// Largest and mean depth error / scale over the deep pairs.
    pub max_depth_error: f64,
    pub mean_depth_error: f64,
    /// Largest normal angle over the deep pairs whose normals are not equivalent, radians.
    pub max_normal_angle: f64,
    /// The first disagreements.
    pub disagreements: Vec<PenetrationComparison>,
    /// The deep pairs with the largest depth errors, worst first.
    pub worst: Vec<PenetrationComparison>,
    /// Every disagreeing pair index.
    pub disagreeing_pairs: Vec<usize>,
}

fn failures(counts: &PenetrationCounts) -> usize {
    PenetrationStatus::ALL
        .iter()
        .filter(|s| s.is_failure())
        .map(|s| counts[*s as usize])
        .sum()
}

impl PenetrationReport {
    /// GPU answers that carry a failure status (EPA could not finish).
    pub fn gpu_failures(&self) -> usize {
        failures(&self.gpu_status)
    }

    pub fn cpu_failures(&self) -> usize {
        failures(&self.cpu_status)
    }

    /// No disagreement and no non-finite answer. Failure statuses are not disagreements (the answer says it
    /// has none, by name) and are counted apart: see [`PenetrationReport::gpu_failures`].
    pub fn is_clean(&self) -> bool {
        self.depth_disagreements == 0
            && self.normal_disagreements == 0
            && self.status_disagreements == 0
            && self.non_finite == 0
    }

    /// A few lines for a terminal or a log.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        let counts = |c: &PenetrationCounts| {
            PenetrationStatus::ALL
                .iter()
                .map(|st| format!("{} {}", st.name(), c[*st as usize]))
                .collect::<Vec<_>>()
                .join(" / ")
        };
        let _ = writeln!(
            s,
            "penetration on {}: {} penetrating on both sides, {} deeper than {DEEP_FRACTION:.0e} of their size",
            count_len(self.pairs, "pair"),
            self.both_penetrating,
            self.deep
        );
        let _ = writeln!(
            s,
            "deep pairs: depth error / size max {:.2e}, mean {:.2e} ({} beyond {DEPTH_BAND:.0e}); normal angle max {:.2e} rad \
             ({} beyond {NORMAL_BAND} rad, {} more with an equally minimal normal)",
            self.max_depth_error,
            self.mean_depth_error,
            self.depth_disagreements,
            self.max_normal_angle,
            self.normal_disagreements,
            self.equivalent_normals
        );
        let _ = writeln!(
            s,
            "status disagreements {} (near contact {}); non-finite answers {}; named failure statuses GPU {} CPU {}",
            self.status_disagreements,
            self.near_contact_status_differences,
            self.non_finite,
            self.gpu_failures(),
            self.cpu_failures()
        );
        let _ = writeln!(s, "GPU status: {}", counts(&self.gpu_status));
        let _ = writeln!(s, "CPU status: {}", counts(&self.cpu_status));
        for case in &self.disagreements {
            let _ = writeln!(s, "disagreement: {}", case_text(case));
        }
        for case in self.worst.iter().take(3) {
            let _ = writeln!(s, "largest depth error: {}", case_text(case));
        }
        s
    }
}

fn case_text(c: &PenetrationComparison) -> String {
    format!(
        "pair {} (shapes {} and {}, size {:.3e}): GPU {} depth {} normal {:?}, CPU {} depth {} normal {:?}; \
         depth error {:.2e}, angle {:.2e}",
        c.pair,
        c.shape_a,
        c.shape_b,
        c.scale,
        c.gpu.status.name(),
        c.gpu.depth,
        c.gpu.normal.to_array(),
        c.cpu.status.name(),
        c.cpu.depth,
        c.cpu.normal.to_array(),
        c.depth_error,
        c.normal_angle
    )
}

/// A float32 relative pose in float64 (exact).
fn widen(relative: &RelativePose<f32>) -> RelativePose<f64> {
    RelativePose {
        rotation: relative.rotation.as_dquat(),
        position: relative.position.as_dvec3(),
    }
}

fn is_finite(p: &Penetration<f32>) -> bool {
    p.depth.is_finite()
        && p.normal.is_finite()
        && p.contact_a.is_finite()
        && p.contact_b.is_finite()
}

/// How far B must move along the unit `normal` (A's frame) to leave A, radii included: the support of A - B
/// along it, h_A(n) + h_B(-n), plus the margin, by brute force over every point in float64. The depth of an
/// overlap is the least of this over all directions, so a normal is minimal when this equals the depth.
/// `relative` places B's local frame in A's. The one brute-force depth of the crate and its tests.
pub fn depth_along(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f64>,
    normal: glam::DVec3,
) -> f64 {
    let (rotation, position) = (relative.rotation, relative.position);
    let reach_a = a
        .local_points()
        .map(|p| p.as_dvec3().dot(normal))
        .fold(f64::NEG_INFINITY, f64::max);
    let reach_b = b
        .local_points()
        .map(|p| -(rotation * p.as_dvec3() + position).dot(normal))
        .fold(f64::NEG_INFINITY, f64::max);
    reach_a + reach_b + a.radius() as f64 + b.radius() as f64
}

/// Compares GPU and CPU penetration answers for the same pairs (both in the pair-local frame).
pub fn compare_penetration(
    shapes: &[ConvexShape],
    instances: &[Instance],
    pairs: &[[u32; 2]],
    gpu: &[Penetration<f32>],
    cpu: &[Penetration<f32>],
) -> PenetrationReport {
    let mut report = PenetrationReport {
        pairs: pairs.len().min(gpu.len()).min(cpu.len()),
        ..PenetrationReport::default()
    };
    let mut error_sum = 0.0;
    for (i, ((pair, g), c)) in pairs.iter().zip(gpu).zip(cpu).enumerate() {
        let (ia, ib) = (&instances[pair[0] as usize], &instances[pair[1] as usize]);
        let (a, b) = (&shapes[ia.shape as usize], &shapes[ib.shape as usize]);
        let scale = pair_scale(a.bounding_radius(), b.bounding_radius()) as f64;
        let scale = scale.max(f64::MIN_POSITIVE);
        report.gpu_status[g.status as usize] += 1;
        report.cpu_status[c.status as usize] += 1;
        let deep_limit = DEEP_FRACTION * scale;
        let mut comparison = PenetrationComparison {
            pair: i,
            shape_a: ia.shape,
            shape_b: ib.shape,
            scale,
            gpu: *g,
            cpu: *c,
            depth_error: (g.depth as f64 - c.depth as f64).abs() / scale,
            normal_angle: 0.0,
        };
        let mut disagree = false;
        if !is_finite(g) || !is_finite(c) {
            report.non_finite += 1;
            disagree = true;
        }
        let penetrating = |p: &Penetration<f32>| p.status == PenetrationStatus::Penetrating;
        let separated = |p: &Penetration<f32>| p.status == PenetrationStatus::Separated;
        if (penetrating(g) && separated(c)) || (separated(g) && penetrating(c)) {
            if (g.depth as f64).max(c.depth as f64) > deep_limit {
                report.status_disagreements += 1;
                disagree = true;
            } else {
                report.near_contact_status_differences += 1;
            }
        }
        if penetrating(g) && penetrating(c) {
            report.both_penetrating += 1;
            if (g.depth as f64).max(c.depth as f64) > deep_limit {
                report.deep += 1;
                error_sum += comparison.depth_error;
                report.max_depth_error = report.max_depth_error.max(comparison.depth_error);
                if comparison.depth_error > DEPTH_BAND {
                    report.depth_disagreements += 1;
                    disagree = true;
                }
                let cosine = g
                    .normal
                    .as_dvec3()
                    .dot(c.normal.as_dvec3())
                    .clamp(-1.0, 1.0);
                comparison.normal_angle = cosine.acos();
                if comparison.normal_angle > NORMAL_BAND {
                    // Several directions can be minimal; the GPU's is as good when B must move its depth
                    // along it, which is no more than the CPU's depth.
                    let relative = RelativePose::between_f32(&ia.pose, &ib.pose);
                    let along =
                        depth_along(a, b, &widen(&relative), g.normal.as_dvec3().normalize());
                    if (along - c.depth as f64).abs() <= DEPTH_BAND * scale {
                        report.equivalent_normals += 1;
                    } else {
                        report.normal_disagreements += 1;
                        report.max_normal_angle =
                            report.max_normal_angle.max(comparison.normal_angle);
                        disagree = true;
                    }
                } else {
                    report.max_normal_angle = report.max_normal_angle.max(comparison.normal_angle);
                }
                keep_worst(&mut report.worst, comparison.clone());
            }
        }
        if disagree {
            report.disagreeing_pairs.push(i);
            if report.disagreements.len() < KEPT_CASES {
                report.disagreements.push(comparison);
            }
        }
    }
    if report.deep > 0 {
        report.mean_depth_error = error_sum / report.deep as f64;
    }
    report
}

fn keep_worst(worst: &mut Vec<PenetrationComparison>, candidate: PenetrationComparison) {
    if worst.len() < KEPT_CASES || candidate.depth_error > worst[worst.len() - 1].depth_error {
        worst.push(candidate);
        worst.sort_by(|a, b| b.depth_error.total_cmp(&a.depth_error));
        worst.truncate(KEPT_CASES);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{penetration_batch, Threads};
    use crate::gjk::GjkConfig;
    use crate::scenario::{random_scene, MixSpec};

    fn cpu_answers(scene: &crate::scenario::Scene) -> Vec<Penetration<f32>> {
        let (_, answers) = penetration_batch(
            &scene.shapes,
            &scene.instances,
            &scene.pairs,
            &GjkConfig::default(),
            Threads::Single,
        )
        .unwrap();
        answers
    }

    #[test]
    fn identical_answers_are_clean_and_each_kind_of_error_is_caught() {
        let scene = random_scene(7, 2000, &MixSpec::default());
        let cpu = cpu_answers(&scene);
        let compare = |gpu: &[Penetration<f32>]| {
            compare_penetration(&scene.shapes, &scene.instances, &scene.pairs, gpu, &cpu)
        };
        let report = compare(&cpu);
        assert!(report.is_clean(), "{}", report.summary());
        assert!(report.deep > 20, "{}", report.summary());
        assert_eq!(report.max_depth_error, 0.0);

        let deep = cpu
            .iter()
            .position(|p| p.status == PenetrationStatus::Penetrating && p.depth > 0.05)
            .expect("a deep pair");
        let mut broken = cpu.clone();
        broken[deep].depth *= 1.5;
        let report = compare(&broken);
        assert_eq!(report.depth_disagreements, 1, "{}", report.summary());
        assert_eq!(report.disagreeing_pairs, vec![deep]);

        let mut broken = cpu.clone();
        broken[deep].normal = -broken[deep].normal;
        let report = compare(&broken);
        assert_eq!(report.normal_disagreements, 1, "{}", report.summary());

        let mut broken = cpu.clone();
        broken[deep].contact_a.x = f32::NAN;
        broken[deep].status = PenetrationStatus::Degenerate;
        let report = compare(&broken);
        assert_eq!(report.non_finite, 1);
        assert_eq!(report.gpu_failures(), 1);
        assert!(!report.is_clean());
        assert!(report.summary().contains("epa_degenerate 1"));

        // A named failure alone is counted, not a disagreement.
        let mut broken = cpu.clone();
        broken[deep].status = PenetrationStatus::Overflow;
        let report =
            compare_penetration(&scene.shapes, &scene.instances, &scene.pairs, &broken, &cpu);
        assert!(report.is_clean(), "{}", report.summary());
        assert_eq!(report.gpu_failures(), 1);
        assert_eq!(report.deep + 1, compare(&cpu).deep);
        assert!(report.summary().contains("epa_overflow 1"));

        let mut broken = cpu.clone();
        broken[deep].status = PenetrationStatus::Separated;
        broken[deep].depth = 0.0;
        let report = compare(&broken);
        assert_eq!(report.status_disagreements, 1);
    }

    #[test]
    fn depth_along_a_box_axis() {
        let cube = ConvexShape::cuboid(glam::Vec3::splat(0.5)).unwrap();
        let relative = RelativePose::<f32> {
            rotation: glam::Quat::IDENTITY,
            position: glam::Vec3::new(0.75, 0.0, 0.0),
        };
        let along = depth_along(&cube, &cube, &widen(&relative), glam::DVec3::X);
        assert!((along - 0.25).abs() < 1e-12, "{along}");
        let along = depth_along(&cube, &cube, &widen(&relative), glam::DVec3::Y);
        assert!((along - 1.0).abs() < 1e-12, "{along}");
    }
}
