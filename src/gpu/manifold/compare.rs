//! GPU contact manifolds against the CPU's on the same pairs: what the tests count.
//!
//! A GPU manifold is built from the GPU's own penetration answer, whose normal differs from the CPU's EPA normal by
//! float32 rounding, so it is held to two things (`docs/gpu.md`, GPU contact manifolds):
//!
//! 1. It is the CPU manifold computed from the GPU's penetration answer (the same status, point count and feature
//!    ids, points and depths within [`POINT_BAND`] of the pair's scale, the same normal), or the CPU's own manifold
//!    within the same band with the normals within [`POINT_BAND`]: the clipping and reduction are the CPU's twin.
//! 2. It holds the invariants: every point lies on both surfaces within the touching tolerance (plus the band), and
//!    its deepest depth is the CPU's EPA depth within the band: the GPU's penetration answer is the CPU's twin.
//!
//! Pairs the CPU answered must equal [`manifold`] with default options.

use super::{GpuManifoldBatch, ManifoldSource};
use crate::epa::{Penetration, PenetrationStatus};
use crate::manifold::{manifold, manifold_from, Manifold};
use crate::query::{penetration_in_a, PairInput, QueryOptions, WorldPenetration};
use crate::shape::{ConvexShape, HullFaces};
use crate::GjkConfig;
use glam::DVec3;

/// The largest point, depth or normal difference counted as agreement, as a fraction of the pair's scale (the
/// normal's as a plain difference of unit vectors).
pub const POINT_BAND: f64 = 1e-5;

/// What comparing GPU manifolds with the CPU's found.
#[derive(Debug, Default, Clone)]
pub struct GpuManifoldAgreement {
    /// Pairs compared (all of them).
    pub compared: usize,
    /// Of those, answered by the GPU kernels with at least one point.
    pub gpu_points: usize,
    /// GPU manifolds equal to the CPU manifold from the GPU's penetration answer.
    pub with_gpu_normal: usize,
    /// GPU manifolds equal only to the CPU's own manifold (within the band, normals included).
    pub with_cpu_normal: usize,
    /// Points compared.
    pub points: usize,
    /// The largest point (on A or B) difference seen in an agreeing manifold, as a fraction of the pair's scale.
    pub max_point_error: f64,
    /// The largest depth difference seen in an agreeing manifold, as a fraction of the pair's scale.
    pub max_depth_error: f64,
    /// The largest distance of a GPU point from its shape's surface, as a fraction of the pair's scale.
    pub max_surface_error: f64,
    /// The largest difference of a GPU manifold's deepest depth from the CPU's EPA depth, as a fraction of the
    /// pair's scale.
    pub max_deepest_error: f64,
    /// One line per pair that misses the band or an invariant.
    pub disagreements: Vec<String>,
}

impl GpuManifoldAgreement {
    pub fn is_clean(&self) -> bool {
        self.disagreements.is_empty()
    }

    /// One line of counts, then the first disagreements.
    pub fn summary(&self) -> String {
        let mut text = format!(
            "{} pairs compared ({} with GPU points: {} as the CPU's from the GPU normal, {} as the CPU's own; {} \
             points), {} disagreements, largest point error {:.3e}, depth error {:.3e}, surface error {:.3e}, \
             deepest against EPA {:.3e} of the scale",
            self.compared,
            self.gpu_points,
            self.with_gpu_normal,
            self.with_cpu_normal,
            self.points,
            self.disagreements.len(),
            self.max_point_error,
            self.max_depth_error,
            self.max_surface_error,
            self.max_deepest_error,
        );
        for line in self.disagreements.iter().take(5) {
            text.push_str("\n  ");
            text.push_str(line);
        }
        text
    }
}

/// `batch` (from [`super::GpuManifolds::run`] on `pairs` with default options) against the CPU, pair by pair, as
/// the module's documentation says.
pub fn compare_with_cpu(pairs: &[PairInput], batch: &GpuManifoldBatch) -> GpuManifoldAgreement {
    let mut found = GpuManifoldAgreement::default();
    for (k, (pair, gpu)) in pairs.iter().zip(&batch.manifolds).enumerate() {
        found.compared += 1;
        let source = batch.sources[k];
        let problem = match (source, batch.penetrations.get(k).copied().flatten()) {
            (ManifoldSource::Gpu, Some(hit)) => gpu_difference(pair, gpu, &hit, &mut found),
            (ManifoldSource::Gpu, None) => Some("no GPU penetration answer".to_owned()),
            _ => {
                let cpu = manifold(pair, QueryOptions::default());
                difference(&cpu, gpu, scale(pair), 0.0, 0.0).err()
            }
        };
        if let Some(problem) = problem {
            found
                .disagreements
                .push(format!("pair {k} ({source:?}): {problem}"));
        }
    }
    found
}

/// The pair's scale: the larger bounding radius.
fn scale(pair: &PairInput) -> f64 {
    pair.a.bounding_radius().max(pair.b.bounding_radius()) as f64
}

/// Why a GPU manifold built from `hit` misses the band or an invariant, if it does.
fn gpu_difference(
    pair: &PairInput,
    gpu: &Manifold,
    hit: &Penetration<f32>,
    found: &mut GpuManifoldAgreement,
) -> Option<String> {
    let scale = scale(pair);
    if !gpu.points.is_empty() {
        found.gpu_points += 1;
    }
    let tolerance = GjkConfig::default().touch_tolerance;
    let gpu_hit = WorldPenetration {
        status: hit.status,
        depth: hit.depth as f64,
        normal: hit.normal.as_dvec3(),
        contact_a: hit.contact_a.as_dvec3(),
        contact_b: hit.contact_b.as_dvec3(),
        depth_upper: None,
    };
    let twin = manifold_from(pair, &gpu_hit, tolerance);
    let errors = match difference(&twin, gpu, scale, 0.0, 0.0) {
        Ok(errors) => {
            found.with_gpu_normal += 1;
            errors
        }
        Err(from_gpu_normal) => {
            let cpu = manifold(pair, QueryOptions::default());
            match difference(&cpu, gpu, scale, 0.0, POINT_BAND) {
                Ok(errors) => {
                    found.with_cpu_normal += 1;
                    errors
                }
                Err(from_cpu_normal) => {
                    return Some(format!(
                        "against the CPU's from the GPU normal: {}\n    against the CPU's own: {}",
                        from_gpu_normal, from_cpu_normal
                    ))
                }
            }
        }
    };
    found.points += gpu.points.len();
    found.max_point_error = found.max_point_error.max(errors.point);
    found.max_depth_error = found.max_depth_error.max(errors.depth);
    invariants(pair, gpu, scale, tolerance, found)
}

/// Why `gpu`'s points are off the surfaces or its deepest depth is not the CPU's EPA depth, if so.
fn invariants(
    pair: &PairInput,
    gpu: &Manifold,
    scale: f64,
    tolerance: f64,
    found: &mut GpuManifoldAgreement,
) -> Option<String> {
    let off = |shape: &ConvexShape, pose: &crate::pose::DPose, p: DVec3| {
        let local = pose.rotation.inverse() * (p - pose.position);
        surface_distance(shape, local) / scale
    };
    for p in &gpu.points {
        let error = off(pair.a, &pair.pose_a, p.point_a).max(off(pair.b, &pair.pose_b, p.point_b));
        found.max_surface_error = found.max_surface_error.max(error);
        if error.is_nan() || error > tolerance + POINT_BAND {
            return Some(format!(
                "point {:?} is {error:.3e} of the scale off its surface",
                p.id
            ));
        }
    }
    let (_, cpu_hit) = penetration_in_a(pair, QueryOptions::default());
    let deepest = gpu.points.first()?.depth;
    let error = (deepest - cpu_hit.depth).abs() / scale;
    found.max_deepest_error = found.max_deepest_error.max(error);
    if cpu_hit.status != PenetrationStatus::Penetrating || error.is_nan() || error > POINT_BAND {
        return Some(format!(
            "deepest depth {deepest} against the CPU's EPA {:?} at {}: {error:.3e} of the scale",
            cpu_hit.status, cpu_hit.depth
        ));
    }
    None
}

/// How far `p` (in the shape's local frame) lies from the surface of a solid hull without radius: the largest
/// distance beyond a face's plane, exact inside and on a face, a lower bound outside near an edge or corner.
pub(crate) fn surface_distance(shape: &ConvexShape, p: DVec3) -> f64 {
    let HullFaces::Faces(faces) = shape.faces() else {
        return f64::NAN;
    };
    let centre = shape.centre().as_dvec3();
    let core = shape.core_points();
    faces
        .iter()
        .map(|face| {
            let n = face.normal;
            // The face's own farthest vertex: its corners are coplanar only within the hull's merge tolerance.
            let offset = face
                .vertices
                .iter()
                .map(|&v| n.dot(centre + core[v as usize].as_dvec3()))
                .fold(f64::MIN, f64::max);
            n.dot(p) - offset
        })
        .fold(f64::MIN, f64::max)
        .abs()
}

/// The largest point and depth differences of an agreeing manifold, as fractions of the scale.
pub(crate) struct Errors {
    pub point: f64,
    pub depth: f64,
}

/// `gpu` against `cpu`, or why not: the same status, point count and feature ids (points matched by id), points
/// within [`POINT_BAND`] of `scale` beyond `slack` (an absolute allowance for the rounding of points stored in
/// float32 world coordinates; 0 where they come in float64) and depths within [`POINT_BAND`] of `scale`, the
/// normals within `normal_band` where there are points.
pub(crate) fn difference(
    cpu: &Manifold,
    gpu: &Manifold,
    scale: f64,
    slack: f64,
    normal_band: f64,
) -> Result<Errors, String> {
    let fail = |problem: String| Err(problem);
    if cpu.status != gpu.status || cpu.points.len() != gpu.points.len() {
        return fail(format!(
            "CPU {:?} with {} points, GPU {:?} with {} points\n    CPU {:?}\n    GPU {:?}",
            cpu.status,
            cpu.points.len(),
            gpu.status,
            gpu.points.len(),
            cpu.points,
            gpu.points
        ));
    }
    let mut errors = Errors {
        point: 0.0,
        depth: 0.0,
    };
    let mut used = vec![false; cpu.points.len()];
    for g in &gpu.points {
        let matched = (0..cpu.points.len())
            .filter(|&c| !used[c] && cpu.points[c].id == g.id)
            .min_by(|&i, &j| {
                let d = |c: usize| cpu.points[c].point_b.distance(g.point_b);
                d(i).total_cmp(&d(j))
            });
        let Some(c) = matched else {
            return fail(format!(
                "GPU point id {:?} not among the CPU's {:?}",
                g.id,
                cpu.points.iter().map(|p| p.id).collect::<Vec<_>>()
            ));
        };
        used[c] = true;
        let p = &cpu.points[c];
        let point_error = (p
            .point_a
            .distance(g.point_a)
            .max(p.point_b.distance(g.point_b))
            - slack)
            .max(0.0)
            / scale;
        let depth_error = (p.depth - g.depth).abs() / scale;
        if !(point_error <= POINT_BAND && depth_error <= POINT_BAND) {
            return fail(format!(
                "point {:?}: error {point_error:.3e} (depth {depth_error:.3e}) of the scale",
                g.id
            ));
        }
        errors.point = errors.point.max(point_error);
        errors.depth = errors.depth.max(depth_error);
    }
    let normal_error = (cpu.normal - gpu.normal).length();
    if cpu.points.is_empty() || normal_error <= normal_band.max(1e-12) {
        Ok(errors)
    } else {
        fail(format!("normal {} against {}", gpu.normal, cpu.normal))
    }
}
