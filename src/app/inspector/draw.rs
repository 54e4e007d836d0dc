//! One inspector step as overlay primitives, in the space of A - B (A's local frame): the hull, the origin,
//! and what GJK or EPA holds at that step.

use super::{Inspector, Step};
use crate::app::overlays::arrow_head;
use crate::app::render::overlay::triangle;
use crate::app::render::{OverlayBatch, OverlayPrim};
use crate::query::trace::{EpaIterationTrace, GjkIterationTrace};
use glam::Vec3;

pub const HULL_FILL: [f32; 4] = [0.25, 0.45, 0.95, 0.14];
pub const HULL_EDGE: [f32; 4] = [0.5, 0.65, 1.0, 0.5];
pub const ORIGIN: [f32; 4] = [1.0, 1.0, 1.0, 1.0];
pub const SIMPLEX: [f32; 4] = [1.0, 0.5, 0.08, 1.0];
pub const SIMPLEX_FACE: [f32; 4] = [1.0, 0.5, 0.08, 0.3];
pub const CLOSEST: [f32; 4] = [0.1, 0.9, 1.0, 1.0];
pub const SUPPORT: [f32; 4] = [1.0, 0.95, 0.1, 1.0];
pub const POLYTOPE_FILL: [f32; 4] = [0.2, 0.85, 0.35, 0.1];
pub const POLYTOPE_EDGE: [f32; 4] = [0.2, 0.85, 0.35, 0.55];
pub const CLOSEST_FACE: [f32; 4] = [0.95, 0.95, 0.2, 0.45];
pub const DEPTH: [f32; 4] = [1.0, 0.2, 0.25, 1.0];

/// Where a point of A - B is drawn: as it is (the 3D view), or moved into the 2D scene's plane.
#[derive(Clone, Copy, Debug)]
pub struct Placement {
    pub offset: Vec3,
    /// Drop the third coordinate (the 2D mode's EPA runs on extruded polygons).
    pub flatten: bool,
}

impl Placement {
    pub const AS_IS: Placement = Placement {
        offset: Vec3::ZERO,
        flatten: false,
    };

    fn at(&self, p: Vec3) -> Vec3 {
        let p = if self.flatten {
            p.truncate().extend(0.0)
        } else {
            p
        };
        p + self.offset
    }
}

/// The hull, the origin and the current step.
pub fn step_overlays(inspector: &Inspector, place: Placement) -> OverlayBatch {
    let mut batch = OverlayBatch::default();
    hull(&mut batch, inspector, place);
    let size = inspector.hull.radius.max(1e-6);
    origin(&mut batch, place, 0.12 * size, inspector.pair.flat);
    match inspector.current() {
        Some(Step::Gjk(k)) => {
            if let Some(it) = inspector.gjk_iteration(k) {
                let last =
                    k + 1 == inspector.gjk_run().gjk.len() && inspector.epa_iterations().is_empty();
                gjk_step(&mut batch, it, place, size, last);
            }
        }
        Some(Step::Epa(k)) => {
            let iterations = inspector.epa_iterations();
            if let Some(it) = iterations.get(k) {
                epa_step(&mut batch, it, place, k + 1 == iterations.len());
            }
        }
        None => {}
    }
    batch
}

fn hull(batch: &mut OverlayBatch, inspector: &Inspector, place: Placement) {
    let hull = &inspector.hull;
    let v = |i: u32| place.at(hull.vertices[i as usize]);
    for &[a, b, c] in &hull.triangles {
        batch
            .triangles
            .extend(triangle([v(a), v(b), v(c)], HULL_FILL));
    }
    if hull.triangles.is_empty() && hull.vertices.len() >= 3 {
        // A flat outline: fan it from its first vertex.
        for i in 1..hull.vertices.len() as u32 - 1 {
            batch
                .triangles
                .extend(triangle([v(0), v(i), v(i + 1)], HULL_FILL));
        }
    }
    for &[a, b] in &hull.edges {
        batch
            .prims
            .push(OverlayPrim::segment(v(a), v(b), 1.3, HULL_EDGE));
    }
}

fn origin(batch: &mut OverlayBatch, place: Placement, length: f32, flat: bool) {
    let o = place.at(Vec3::ZERO);
    let axes = [
        (Vec3::X, [1.0, 0.3, 0.3, 0.9]),
        (Vec3::Y, [0.3, 1.0, 0.3, 0.9]),
        (Vec3::Z, [0.35, 0.5, 1.0, 0.9]),
    ];
    for (axis, colour) in axes.iter().take(if flat { 2 } else { 3 }) {
        batch
            .prims
            .push(OverlayPrim::segment(o, o + *axis * length, 2.0, *colour));
    }
    batch.prims.push(OverlayPrim::disc(o, 11.0, ORIGIN));
}

fn gjk_step(
    batch: &mut OverlayBatch,
    it: &GjkIterationTrace,
    place: Placement,
    size: f32,
    last: bool,
) {
    let points: Vec<Vec3> = it
        .simplex
        .iter()
        .map(|(p, _)| place.at(p.w.as_vec3()))
        .collect();
    match points.len() {
        3 => batch
            .triangles
            .extend(triangle([points[0], points[1], points[2]], SIMPLEX_FACE)),
        4 => {
            for [i, j, k] in [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]] {
                batch
                    .triangles
                    .extend(triangle([points[i], points[j], points[k]], SIMPLEX_FACE));
            }
        }
        _ => {}
    }
    for (i, p) in points.iter().enumerate() {
        for q in &points[i + 1..] {
            batch.prims.push(OverlayPrim::segment(*p, *q, 2.5, SIMPLEX));
        }
        batch.prims.push(OverlayPrim::disc(*p, 11.0, SIMPLEX));
    }
    let o = place.at(Vec3::ZERO);
    let support = place.at(it.support.w.as_vec3());
    if let Some(direction) = it.direction {
        // The search direction, from the origin, and the support point found along it.
        let tip = o + direction.as_vec3() * 0.45 * size;
        batch.prims.push(OverlayPrim::segment(o, tip, 2.5, SUPPORT));
        arrow_head(batch, o, tip, SUPPORT);
    }
    batch.prims.push(OverlayPrim::ring(support, 20.0, SUPPORT));
    let closest = place.at(it.closest.as_vec3());
    batch.prims.push(OverlayPrim::segment(
        o,
        closest,
        if last { 3.5 } else { 2.0 },
        CLOSEST,
    ));
    batch.prims.push(OverlayPrim::disc(closest, 9.0, CLOSEST));
}

fn epa_step(batch: &mut OverlayBatch, it: &EpaIterationTrace, place: Placement, last: bool) {
    let v = |i: u32| it.vertices.get(i as usize).map(|p| p.as_vec3());
    for face in &it.faces {
        let Some(corners) = face.iter().map(|&i| v(i)).collect::<Option<Vec<Vec3>>>() else {
            continue;
        };
        let normal = (corners[1] - corners[0])
            .cross(corners[2] - corners[0])
            .normalize_or_zero();
        // Flattened (the 2D mode's extruded run), only the faces standing on the plane draw its outline.
        if place.flatten && normal.z.abs() > 0.3 {
            continue;
        }
        let [a, b, c] = [0, 1, 2].map(|k| place.at(corners[k]));
        if !place.flatten {
            batch.triangles.extend(triangle([a, b, c], POLYTOPE_FILL));
        }
        for (p, q) in [(a, b), (b, c), (c, a)] {
            batch
                .prims
                .push(OverlayPrim::segment(p, q, 1.3, POLYTOPE_EDGE));
        }
    }
    let [a, b, c] = it.face.map(|p| place.at(p.as_vec3()));
    if !place.flatten {
        batch.triangles.extend(triangle([a, b, c], CLOSEST_FACE));
    }
    for (p, q) in [(a, b), (b, c), (c, a)] {
        batch
            .prims
            .push(OverlayPrim::segment(p, q, 3.0, CLOSEST_FACE_EDGE));
    }
    // The face's distance along its normal: the push-out EPA would answer now.
    let o = place.at(Vec3::ZERO);
    let face_distance = it.face[0].dot(it.normal);
    let tip = place.at((it.normal * face_distance).as_vec3());
    batch.prims.push(OverlayPrim::segment(
        o,
        tip,
        if last { 4.0 } else { 2.5 },
        DEPTH,
    ));
    arrow_head(batch, o, tip, DEPTH);
    batch.prims.push(OverlayPrim::ring(
        place.at(it.support.w.as_vec3()),
        20.0,
        SUPPORT,
    ));
}

const CLOSEST_FACE_EDGE: [f32; 4] = [0.95, 0.95, 0.2, 1.0];
