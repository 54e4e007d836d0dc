//! GPU contact manifolds against the CPU's on the same pairs: what the tests count.
//!
//! The GPU clips in float32 from the CPU's float64 placement rounded once, so its points and depths differ
//! from the CPU's by a few float32 roundings of the pair's coordinates in A's frame (`docs/gpu.md`, GPU contact
//! manifolds): the band is [`POINT_BAND`] of the pair's scale (the larger bounding radius).

use super::GpuManifoldBatch;
use crate::manifold::{manifold, Manifold};
use crate::query::{PairInput, QueryOptions};

/// The largest point or depth difference counted as agreement, as a fraction of the pair's scale.
pub const POINT_BAND: f64 = 1e-5;

/// What comparing GPU manifolds with the CPU's found.
#[derive(Debug, Default, Clone)]
pub struct GpuManifoldAgreement {
    /// Pairs compared (all of them; those answered on the CPU agree by construction).
    pub compared: usize,
    /// Of those, answered by the GPU kernel with at least one point.
    pub gpu_points: usize,
    /// Points compared.
    pub points: usize,
    /// The largest point (on A or B) difference seen, as a fraction of the pair's scale.
    pub max_point_error: f64,
    /// The largest depth difference seen, as a fraction of the pair's scale.
    pub max_depth_error: f64,
    /// One line per pair whose status, point count or feature ids differ, or whose points or depths are
    /// beyond the band.
    pub disagreements: Vec<String>,
}

impl GpuManifoldAgreement {
    pub fn is_clean(&self) -> bool {
        self.disagreements.is_empty()
    }

    /// One line of counts, then the first disagreements.
    pub fn summary(&self) -> String {
        let mut text = format!(
            "{} pairs compared ({} with GPU points, {} points), {} disagreements, largest point error \
             {:.3e}, largest depth error {:.3e} of the scale",
            self.compared,
            self.gpu_points,
            self.points,
            self.disagreements.len(),
            self.max_point_error,
            self.max_depth_error,
        );
        for line in self.disagreements.iter().take(5) {
            text.push_str("\n  ");
            text.push_str(line);
        }
        text
    }
}

/// `batch` (from [`super::GpuManifolds::run`] on `pairs`) against [`manifold`] on each pair with default
/// options: the same status, point count and feature ids (points matched by id), points and depths within the
/// band.
pub fn compare_with_cpu(pairs: &[PairInput], batch: &GpuManifoldBatch) -> GpuManifoldAgreement {
    let mut found = GpuManifoldAgreement::default();
    for (k, (pair, gpu)) in pairs.iter().zip(&batch.manifolds).enumerate() {
        let cpu = manifold(pair, QueryOptions::default());
        let scale = pair.a.bounding_radius().max(pair.b.bounding_radius()) as f64;
        found.compared += 1;
        if batch.sources[k] == super::ManifoldSource::Gpu && !gpu.points.is_empty() {
            found.gpu_points += 1;
        }
        if let Some(problem) = difference(&cpu, gpu, scale, &mut found) {
            found
                .disagreements
                .push(format!("pair {k} ({:?}): {problem}", batch.sources[k]));
        }
    }
    found
}

/// Why `gpu` is not `cpu` within the band, if it is not; the largest errors are recorded in `found`.
fn difference(
    cpu: &Manifold,
    gpu: &Manifold,
    scale: f64,
    found: &mut GpuManifoldAgreement,
) -> Option<String> {
    if cpu.status != gpu.status || cpu.points.len() != gpu.points.len() {
        return Some(format!(
            "CPU {:?} with {} points, GPU {:?} with {} points\n    CPU {:?}\n    GPU {:?}",
            cpu.status,
            cpu.points.len(),
            gpu.status,
            gpu.points.len(),
            cpu.points,
            gpu.points
        ));
    }
    let mut used = vec![false; cpu.points.len()];
    for g in &gpu.points {
        let matched = (0..cpu.points.len())
            .filter(|&c| !used[c] && cpu.points[c].id == g.id)
            .min_by(|&i, &j| {
                let d = |c: usize| cpu.points[c].point_b.distance(g.point_b);
                d(i).total_cmp(&d(j))
            });
        let Some(c) = matched else {
            return Some(format!(
                "GPU point id {:?} not among the CPU's {:?}",
                g.id,
                cpu.points.iter().map(|p| p.id).collect::<Vec<_>>()
            ));
        };
        used[c] = true;
        let p = &cpu.points[c];
        let point_error = p
            .point_a
            .distance(g.point_a)
            .max(p.point_b.distance(g.point_b))
            / scale;
        let depth_error = (p.depth - g.depth).abs() / scale;
        found.points += 1;
        found.max_point_error = found.max_point_error.max(point_error);
        found.max_depth_error = found.max_depth_error.max(depth_error);
        if !(point_error <= POINT_BAND && depth_error <= POINT_BAND) {
            return Some(format!(
                "point {:?}: error {point_error:.3e} (depth {depth_error:.3e}) of the scale",
                g.id
            ));
        }
    }
    if cpu.points.is_empty() || (cpu.normal - gpu.normal).length() <= 1e-12 {
        None
    } else {
        Some(format!("normal {} against {}", gpu.normal, cpu.normal))
    }
}
