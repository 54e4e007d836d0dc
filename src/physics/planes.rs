//! The static floor and walls: planes, and the contacts of a body against one (its core points at or below the
//! plane, at most four of them, spread out).

use super::body::RigidBody;
use super::contact::{ContactKey, Partner, SolverPoint};
use super::Contact;
use crate::shape::ConvexShape;
use glam::Vec3;

/// Most points a body keeps against one plane, as a manifold does.
const MAX_PLANE_POINTS: usize = 4;

/// A static half-space boundary: bodies live where `normal . x >= offset`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plane {
    /// Unit normal, pointing into the space the bodies live in.
    pub normal: Vec3,
    pub offset: f32,
}

impl Plane {
    /// The floor at height `y` (normal +Y).
    pub fn floor(y: f32) -> Self {
        Self {
            normal: Vec3::Y,
            offset: y,
        }
    }

    /// The four walls of the square `[-half_width, half_width]` in X and Z, facing inwards.
    pub fn walls(half_width: f32) -> [Self; 4] {
        [Vec3::X, Vec3::NEG_X, Vec3::Z, Vec3::NEG_Z].map(|normal| Self {
            normal,
            offset: -half_width,
        })
    }

    /// Signed distance of `point` from the plane (positive on the bodies' side).
    pub fn distance(&self, point: Vec3) -> f32 {
        self.normal.dot(point) - self.offset
    }
}

/// The contact of body `index` against plane `plane_index`: every core point whose surface point (radius
/// included) is less than `margin` above the plane, reduced to four (the deepest, then the ones that spread
/// the support widest). Each point's id is its core point's index, which stays the same while that corner
/// touches. `None` when no point is that close. The normal points from the body into the plane (A towards B,
/// as in a manifold).
pub fn plane_contact(
    index: usize,
    body: &RigidBody,
    shape: &ConvexShape,
    plane_index: usize,
    plane: &Plane,
    margin: f32,
) -> Option<Contact> {
    let centre = shape.centre();
    let radius = shape.radius();
    let close: Vec<(u64, Vec3, f32)> = shape
        .core_points()
        .iter()
        .enumerate()
        .filter_map(|(i, &core)| {
            let world = body.pose.transform_point(centre + core);
            let gap = plane.distance(world) - radius;
            (gap < margin).then(|| (i as u64, world - plane.normal * radius, -gap))
        })
        .collect();
    if close.is_empty() {
        return None;
    }
    let points = spread(&close)
        .into_iter()
        .map(|(id, surface, depth)| {
            // Halfway between the body's surface point and the plane.
            SolverPoint::new(surface - plane.normal * (0.5 * depth), depth, id)
        })
        .collect();
    Some(Contact {
        key: ContactKey {
            a: index as u32,
            b: Partner::Plane(plane_index as u32),
        },
        normal: -plane.normal,
        points,
    })
}

/// At most four of `points` (id, position, depth): the deepest, the one farthest from it, the one farthest
/// from the line through those two, and the one farthest from all three. Ties go to the first.
fn spread(points: &[(u64, Vec3, f32)]) -> Vec<(u64, Vec3, f32)> {
    if points.len() <= MAX_PLANE_POINTS {
        return points.to_vec();
    }
    let best = |score: &dyn Fn(Vec3) -> f32, taken: &[usize]| -> Option<usize> {
        let mut best: Option<(usize, f32)> = None;
        for (k, p) in points.iter().enumerate() {
            if taken.contains(&k) {
                continue;
            }
            let s = score(p.1);
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((k, s));
            }
        }
        best.map(|b| b.0)
    };
    let mut taken = vec![0];
    for k in 1..points.len() {
        if points[k].2 > points[taken[0]].2 {
            taken[0] = k;
        }
    }
    let p0 = points[taken[0]].1;
    if let Some(k) = best(&|p| (p - p0).length_squared(), &taken) {
        taken.push(k);
    }
    let p1 = points[taken[1]].1;
    if let Some(k) = best(&|p| (p - p0).cross(p1 - p0).length_squared(), &taken) {
        taken.push(k);
    }
    let p2 = points[taken[2]].1;
    let nearest = |p: Vec3| {
        (p - p0)
            .length_squared()
            .min((p - p1).length_squared())
            .min((p - p2).length_squared())
    };
    if let Some(k) = best(&nearest, &taken) {
        taken.push(k);
    }
    taken.iter().map(|&k| points[k]).collect()
}
