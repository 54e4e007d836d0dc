//! The static part of a world as the GPU solver reads it: its planes, each shape's local box, radius and hull
//! points, in one buffer of vec4 words; and the checks a world must pass to go up.

use super::layout::GpuPhysicsBody;
use crate::gpu::GpuError;
use crate::physics::{RigidBody, World};
use glam::Vec4;

/// The most Jacobi iterations a step records (each is four dispatches).
pub(super) const MAX_JACOBI_ITERATIONS: usize = 1000;

/// The scene words and where the shapes and the points start in them.
pub(super) struct SceneWords {
    pub words: Vec<Vec4>,
    pub shapes_at: u32,
    pub points_at: u32,
}

/// Planes (normal, offset) from 0; three words per shape from `shapes_at` (local box min with the radius in w,
/// local box max, the first point's word index and the point count as `u32` bits); then every shape's points
/// (its centre plus each core point, local frame) from `points_at`.
pub(super) fn scene_words(world: &World) -> SceneWords {
    let shapes_at = world.planes.len() as u32;
    let points_at = shapes_at + 3 * world.shapes.len() as u32;
    let mut words: Vec<Vec4> = world
        .planes
        .iter()
        .map(|p| p.normal.extend(p.offset))
        .collect();
    let mut first = points_at;
    for shape in &world.shapes {
        let (lo, hi) = shape.local_aabb();
        let count = shape.core_points().len() as u32;
        words.push(lo.extend(shape.radius()));
        words.push(hi.extend(0.0));
        words.push(Vec4::new(
            f32::from_bits(first),
            f32::from_bits(count),
            0.0,
            0.0,
        ));
        first += count;
    }
    for shape in &world.shapes {
        let centre = shape.centre();
        words.extend(
            shape
                .core_points()
                .iter()
                .map(|&p| (centre + p).extend(0.0)),
        );
    }
    SceneWords {
        words,
        shapes_at,
        points_at,
    }
}

/// The body records of `world`, or the first reason it cannot run on the GPU: a shape index out of range, a
/// non-finite pose, velocity or mass, an inverse inertia that is not diagonal in the shape's axes (the GPU
/// record keeps the diagonal), a plane whose normal is not a unit vector, a step that is not positive, or a Jacobi
/// iteration count out of range.
pub(super) fn body_records(world: &World) -> Result<Vec<GpuPhysicsBody>, GpuError> {
    let bad = |what: String| Err(GpuError::BadWorld(what));
    if !(world.dt.is_finite() && world.dt > 0.0) {
        return bad(format!(
            "the time step {} is not a positive number",
            world.dt
        ));
    }
    let iterations = world.settings.jacobi_iterations;
    if iterations == 0 || iterations > MAX_JACOBI_ITERATIONS {
        return bad(format!(
            "{iterations} Jacobi iterations (1 to {MAX_JACOBI_ITERATIONS} run on the GPU)"
        ));
    }
    if !world.gravity.is_finite() {
        return bad(format!("gravity {} is not finite", world.gravity));
    }
    for (k, plane) in world.planes.iter().enumerate() {
        if !plane.offset.is_finite() || (plane.normal.length() - 1.0).abs() > 1e-4 {
            return bad(format!(
                "plane {k}: normal {} offset {} (a unit normal and a finite offset)",
                plane.normal, plane.offset
            ));
        }
    }
    world
        .bodies
        .iter()
        .enumerate()
        .map(|(k, body)| body_record(k, body, world.shapes.len()))
        .collect()
}

/// The record of body `k` of a world of `shapes` shapes, or why the GPU cannot run it.
pub(super) fn body_record(
    k: usize,
    body: &RigidBody,
    shapes: usize,
) -> Result<GpuPhysicsBody, GpuError> {
    let bad = |what: String| Err(GpuError::BadWorld(what));
    if body.shape as usize >= shapes {
        return bad(format!(
            "body {k} has shape {}, but the world has {shapes} shapes",
            body.shape
        ));
    }
    let m = body.inverse_inertia_local;
    let off_diagonal = [
        m.x_axis.y, m.x_axis.z, m.y_axis.x, m.y_axis.z, m.z_axis.x, m.z_axis.y,
    ];
    if off_diagonal.iter().any(|&v| v != 0.0) {
        return bad(format!(
            "body {k}: its inverse inertia is not diagonal in its shape's axes"
        ));
    }
    let record = GpuPhysicsBody::from_body(body);
    let numbers = [
        record.position,
        record.rotation,
        record.velocity,
        record.spin,
        record.centre,
        record.inverse_inertia,
    ];
    if numbers.iter().flatten().any(|v| !v.is_finite()) || body.inverse_mass < 0.0 {
        return bad(format!(
            "body {k}: a pose, velocity, mass or inertia that is not finite (or a negative mass)"
        ));
    }
    Ok(record)
}
