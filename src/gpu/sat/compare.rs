//! The GPU separating axis test against the CPU's on the same pairs: what the tests and
//! `gpu-gjk bench --algorithm` count.
//!
//! The GPU works in float32 from the CPU's float64 placement rounded once, so its separation differs from the
//! CPU's by a few float32 roundings of the pair's coordinates (`docs/gpu.md`, the separating axis test): the band
//! is [`SEPARATION_BAND`] of the pair's scale, and a pair the CPU finds within [`TOUCHING_BAND`] of touching may
//! carry either flag.

use crate::query::PairInput;
use crate::sat::separating_axis;
use glam::{DMat3, DVec3};

use super::GpuSatAnswer;

/// The largest separation difference counted as agreement, as a fraction of the pair's scale (the larger
/// bounding radius).
pub const SEPARATION_BAND: f64 = 1e-5;

/// Pairs whose CPU separation is within this fraction of their scale of zero may carry either flag.
pub const TOUCHING_BAND: f64 = 2e-5;

/// Normals closer than this (as unit vectors) agree; farther ones agree when the pair overlaps along the GPU's
/// normal by the CPU's depth, within the band (two axes of the same least overlap).
pub const NORMAL_BAND: f64 = 1e-3;

/// What comparing the GPU test with the CPU's found.
#[derive(Debug, Default, Clone)]
pub struct GpuSatAgreement {
    /// Pairs compared (both answered, outside the touching band).
    pub compared: usize,
    /// Of those, overlapping.
    pub overlapping: usize,
    /// Pairs within the touching band, where either flag is right.
    pub touching_band: usize,
    /// Pairs the GPU left to the CPU ([`GpuSatAnswer::GpuLoopLimit`]).
    pub gpu_failures: usize,
    /// Pairs that are not two polyhedra.
    pub not_polyhedra: usize,
    /// The largest separation difference seen, as a fraction of the pair's scale (touching band included).
    pub max_separation_error: f64,
    /// One line per pair whose flags differ.
    pub flag_disagreements: Vec<String>,
    /// One line per pair whose separation differs by more than the band, or, overlapping, whose normal differs
    /// without being an axis of the same least overlap.
    pub depth_disagreements: Vec<String>,
}

impl GpuSatAgreement {
    pub fn is_clean(&self) -> bool {
        self.flag_disagreements.is_empty() && self.depth_disagreements.is_empty()
    }

    /// One line of counts, then the first disagreements.
    pub fn summary(&self) -> String {
        let mut text = format!(
            "{} compared ({} overlapping), {} in the touching band, {} GPU failures, {} not polyhedra, \
             {} flag and {} depth/normal disagreements, largest separation error {:.3e} of the scale",
            self.compared,
            self.overlapping,
            self.touching_band,
            self.gpu_failures,
            self.not_polyhedra,
            self.flag_disagreements.len(),
            self.depth_disagreements.len(),
            self.max_separation_error
        );
        for line in self
            .flag_disagreements
            .iter()
            .chain(&self.depth_disagreements)
            .take(5)
        {
            text.push_str("\n  ");
            text.push_str(line);
        }
        text
    }
}

/// The GPU's answers against the CPU test's on the same pairs.
pub fn compare_with_cpu(pairs: &[PairInput], gpu: &[GpuSatAnswer]) -> GpuSatAgreement {
    let mut found = GpuSatAgreement::default();
    for (k, (pair, answer)) in pairs.iter().zip(gpu).enumerate() {
        let cpu = separating_axis(pair);
        let (gpu, cpu) = match (answer, cpu) {
            (GpuSatAnswer::GpuLoopLimit, _) => {
                found.gpu_failures += 1;
                continue;
            }
            (GpuSatAnswer::NotPolyhedra, None) => {
                found.not_polyhedra += 1;
                continue;
            }
            (GpuSatAnswer::Answered(gpu), Some(cpu)) => (gpu, cpu),
            (answer, cpu) => {
                let line = format!("pair {k}: GPU {answer:?}, CPU {cpu:?}");
                found.flag_disagreements.push(line);
                continue;
            }
        };
        let scale = pair.a.bounding_radius().max(pair.b.bounding_radius()) as f64;
        let error = (gpu.separation - cpu.separation).abs() / scale;
        found.max_separation_error = found.max_separation_error.max(error);
        if cpu.separation.abs() <= TOUCHING_BAND * scale {
            found.touching_band += 1;
            continue;
        }
        found.compared += 1;
        if gpu.intersecting != cpu.intersecting {
            let line = format!("pair {k} (scale {scale}): GPU {gpu:?}, CPU {cpu:?}");
            found.flag_disagreements.push(line);
            continue;
        }
        if cpu.intersecting {
            found.overlapping += 1;
        }
        let normal_agrees = !cpu.intersecting
            || (gpu.normal - cpu.normal).length() <= NORMAL_BAND
            || (overlap_along(pair, gpu.normal) + cpu.separation).abs() <= SEPARATION_BAND * scale;
        if error > SEPARATION_BAND || !normal_agrees {
            let line = format!("pair {k} (scale {scale}): GPU {gpu:?}, CPU {cpu:?}");
            found.depth_disagreements.push(line);
        }
    }
    found
}

/// How far the pair's hulls overlap along the world direction `n`, in float64: `h_A(n) + h_B(-n)`.
pub fn overlap_along(pair: &PairInput, n: DVec3) -> f64 {
    let (Some(a), Some(b)) = (pair.a.polyhedron(), pair.b.polyhedron()) else {
        return f64::NAN;
    };
    let inverse = pair.pose_a.rotation.inverse();
    let local = inverse * n;
    let turn = DMat3::from_quat(inverse * pair.pose_b.rotation);
    let shift = inverse * (pair.pose_b.position - pair.pose_a.position);
    let high_a = a
        .points
        .iter()
        .map(|p| local.dot(*p))
        .fold(f64::MIN, f64::max);
    let low_b = b
        .points
        .iter()
        .map(|p| local.dot(turn * *p + shift))
        .fold(f64::MAX, f64::min);
    high_a - low_b
}
