//! One inspector step as overlay primitives, in the space of A - B in world coordinates (the frame
//! `inspect --trace` writes): the hull (and the radii swept around it), the origin and its axes, and what GJK
//! or EPA holds at that step.

use super::{Inspector, Step};
use crate::app::overlays::arrow_head;
use crate::app::render::overlay::triangle;
use crate::app::render::{OverlayBatch, OverlayPrim};
use crate::query::trace::{EpaIterationTrace, GjkIterationTrace};
use glam::Vec3;

pub const HULL_FILL: [f32; 4] = [0.25, 0.45, 0.95, 0.14];
pub const HULL_EDGE: [f32; 4] = [0.5, 0.65, 1.0, 0.5];
/// A - B with the radii: an outline only, so the cores' difference inside stays readable.
pub const SWEPT_EDGE: [f32; 4] = [0.75, 0.55, 1.0, 0.28];
/// The origin's axes: x, y, z.
pub const AXES: [[f32; 4]; 3] = [
    [1.0, 0.3, 0.3, 0.9],
    [0.3, 1.0, 0.3, 0.9],
    [0.35, 0.5, 1.0, 0.9],
];
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
    hull(&mut batch, &inspector.hull, place);
    if let Some(swept) = &inspector.swept {
        for &[a, b] in &swept.edges {
            let (a, b) = (swept.vertices[a as usize], swept.vertices[b as usize]);
            batch.prims.push(OverlayPrim::segment(
                place.at(a),
                place.at(b),
                1.0,
                SWEPT_EDGE,
            ));
        }
    }
    let size = origin_axis_length(inspector);
    for (axis, colour) in origin_axes(inspector, size) {
        let o = place.at(Vec3::ZERO);
        batch
            .prims
            .push(OverlayPrim::segment(o, place.at(axis), 2.0, colour));
    }
    batch
        .prims
        .push(OverlayPrim::disc(place.at(Vec3::ZERO), 11.0, ORIGIN));
    let size = inspector.hull.radius.max(1e-6);
    match inspector.current() {
        Some(Step::Gjk(k)) => {
            if let Some(it) = inspector.gjk_iteration(k) {
                let last =
                    k + 1 == inspector.gjk_run().gjk.len() && inspector.epa_iterations().is_empty();
                gjk_step(&mut batch, inspector, it, place, size, last);
            }
        }
        Some(Step::Epa(k)) => {
            let iterations = inspector.epa_iterations();
            if let Some(it) = iterations.get(k) {
                epa_step(&mut batch, inspector, it, place, k + 1 == iterations.len());
            }
        }
        None => {}
    }
    batch
}

/// The length of the origin's axes: a fifth of A - B's size.
fn origin_axis_length(inspector: &Inspector) -> f32 {
    let outer = inspector.swept.as_ref().unwrap_or(&inspector.hull);
    0.2 * outer.radius.max(1e-6)
}

/// The origin's axes drawn (the tip of each, in world coordinates, and its colour): x, y and z, less the one
/// a flat A - B is seen along.
pub fn origin_axes(inspector: &Inspector, length: f32) -> Vec<(Vec3, [f32; 4])> {
    [Vec3::X, Vec3::Y, Vec3::Z]
        .into_iter()
        .zip(AXES)
        .filter(|(axis, _)| {
            let along_view = inspector
                .plane_normal
                .is_some_and(|n| axis.dot(n).abs() > 0.99);
            !(along_view || (inspector.pair.flat && *axis == Vec3::Z))
        })
        .map(|(axis, colour)| (axis * length, colour))
        .collect()
}

/// The origin's axes as [`step_overlays`] draws them, for labels.
pub fn drawn_origin_axes(inspector: &Inspector) -> Vec<(Vec3, [f32; 4])> {
    origin_axes(inspector, origin_axis_length(inspector))
}

fn hull(batch: &mut OverlayBatch, hull: &super::hull::MinkowskiHull, place: Placement) {
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

fn gjk_step(
    batch: &mut OverlayBatch,
    inspector: &Inspector,
    it: &GjkIterationTrace,
    place: Placement,
    size: f32,
    last: bool,
) {
    let points: Vec<Vec3> = it
        .simplex
        .iter()
        .map(|(p, _)| place.at(inspector.drawn(p.w)))
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
    let support = place.at(inspector.drawn(it.support.w));
    if let Some(direction) = it.direction {
        // The search direction, from the origin, and the support point found along it.
        let tip = o + inspector.drawn(direction) * 0.45 * size;
        batch.prims.push(OverlayPrim::segment(o, tip, 2.5, SUPPORT));
        arrow_head(batch, o, tip, SUPPORT);
    }
    batch.prims.push(OverlayPrim::ring(support, 20.0, SUPPORT));
    let closest = place.at(inspector.drawn(it.closest));
    batch.prims.push(OverlayPrim::segment(
        o,
        closest,
        if last { 3.5 } else { 2.0 },
        CLOSEST,
    ));
    batch.prims.push(OverlayPrim::disc(closest, 9.0, CLOSEST));
}

fn epa_step(
    batch: &mut OverlayBatch,
    inspector: &Inspector,
    it: &EpaIterationTrace,
    place: Placement,
    last: bool,
) {
    let v = |i: u32| it.vertices.get(i as usize).map(|p| inspector.drawn(*p));
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
    let [a, b, c] = it.face.map(|p| place.at(inspector.drawn(p)));
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
    let tip = place.at(inspector.drawn(it.normal * face_distance));
    batch.prims.push(OverlayPrim::segment(
        o,
        tip,
        if last { 4.0 } else { 2.5 },
        DEPTH,
    ));
    arrow_head(batch, o, tip, DEPTH);
    batch.prims.push(OverlayPrim::ring(
        place.at(inspector.drawn(it.support.w)),
        20.0,
        SUPPORT,
    ));
}

const CLOSEST_FACE_EDGE: [f32; 4] = [0.95, 0.95, 0.2, 1.0];
