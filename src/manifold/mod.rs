//! Contact manifolds: where two overlapping shapes touch, as up to four points with their depths and one
//! normal, each point with a feature id that stays the same while the same features touch.
//!
//! One deepest point (EPA's answer) lets a box resting on a box rock and sink under a physics solver; the
//! manifold gives it the corners it stands on. From EPA's normal, each shape's feature facing the other is
//! found (`features`: the face most aligned with the normal, a capsule's segment, a sphere's point), the
//! less aligned one is clipped against the side planes of the better aligned one (`clip`), the points
//! deeper than minus the touching tolerance are kept, and at most four remain (`reduce`). Radii are added
//! along the features' normals, so rounded shapes get points on their rounded surfaces. Where no clipped
//! point reaches EPA's depth (edge across edge, a vertex on a face, a sphere), EPA's own contact pair is a
//! point of the manifold: the deepest point always has the pair's EPA depth. `docs/manifolds.md` has the
//! details and the checks.

mod answer;
mod clip;
mod features;
mod reduce;
#[cfg(test)]
mod tests;

pub use answer::{ContactPoint, FeatureId, FeatureKind, Manifold, MAX_POINTS};

use crate::epa::PenetrationStatus;
use crate::pose::DPose;
use crate::query::{penetration_in_a, PairInput, QueryOptions, WorldPenetration};
use clip::clip;
pub(crate) use clip::EDGE_MIN_FRACTION;
use features::{feature, Placement};
pub(crate) use features::{FACE_MIN_ALIGNMENT, FACE_TIE, SUPPORT_TIE_FRACTION};
use glam::{DQuat, DVec3};
use reduce::reduce;
pub(crate) use reduce::TIE_FRACTION;
use std::cmp::Ordering;

/// A clipped point must be within this fraction of the pair's scale of EPA's depth to stand for the deepest
/// point; otherwise EPA's contact pair is added.
pub(crate) const DEEPEST_SLACK: f64 = 2e-6;

/// Points closer than this fraction of the pair's scale are one point.
pub(crate) const MERGE_DISTANCE: f64 = 1e-5;

/// A shape's reference face is preferred to the other's unless the other is more aligned with the normal
/// by this much: A's face wins near-ties, so the choice does not flicker between frames.
pub(crate) const REFERENCE_BIAS: f64 = 1e-3;

/// The contact manifold of two placed shapes, in world coordinates: empty unless the shapes overlap or touch
/// (status `Penetrating`), else up to four points, deepest first.
///
/// ```
/// use glam::Vec3;
/// use gpu_gjk::{manifold, ConvexShape, PairInput, PenetrationStatus, Pose, QueryOptions};
///
/// // A unit cube resting on a 4 x 1 x 4 slab, sunk 0.01 into it: its four bottom corners.
/// let slab = ConvexShape::cuboid(Vec3::new(2.0, 0.5, 2.0))?;
/// let cube = ConvexShape::cuboid(Vec3::splat(0.5))?;
/// let resting = Pose::from_position(Vec3::new(0.0, 0.99, 0.0));
/// let contact = manifold(&PairInput::new(&slab, Pose::IDENTITY, &cube, resting), QueryOptions::default());
/// assert_eq!(contact.status, PenetrationStatus::Penetrating);
/// assert_eq!(contact.points.len(), 4);
/// for point in &contact.points {
///     assert!((point.depth - 0.01).abs() < 1e-6);
///     assert!((point.point_b.x.abs() - 0.5).abs() < 1e-6 && (point.point_b.z.abs() - 0.5).abs() < 1e-6);
/// }
/// # Ok::<(), gpu_gjk::GjkError>(())
/// ```
pub fn manifold(input: &PairInput, options: QueryOptions) -> Manifold {
    in_world(manifold_in_a(input, options), &input.pose_a)
}

/// [`manifold`] from a given penetration answer `hit` in A's local frame (the GPU's, to check the GPU twin
/// against) with the touching tolerance `tolerance`, in world coordinates.
pub(crate) fn manifold_from(input: &PairInput, hit: &WorldPenetration, tolerance: f64) -> Manifold {
    in_world(manifold_in_a_from(input, hit, tolerance), &input.pose_a)
}

/// A manifold in A's local frame moved to the world by A's pose.
fn in_world(local: Manifold, pose: &DPose) -> Manifold {
    Manifold {
        status: local.status,
        normal: pose.rotation * local.normal,
        points: local
            .points
            .iter()
            .map(|p| ContactPoint {
                point_a: pose.transform_point(p.point_a),
                point_b: pose.transform_point(p.point_b),
                ..*p
            })
            .collect(),
    }
}

/// [`manifold`] in A's local frame.
pub(crate) fn manifold_in_a(input: &PairInput, options: QueryOptions) -> Manifold {
    let tolerance = options.config.touch_tolerance;
    let (_, hit) = penetration_in_a(input, options);
    manifold_in_a_from(input, &hit, tolerance)
}

/// [`manifold_in_a`] from a given penetration answer `hit` in A's local frame.
fn manifold_in_a_from(input: &PairInput, hit: &WorldPenetration, tolerance: f64) -> Manifold {
    if hit.status != PenetrationStatus::Penetrating {
        return Manifold {
            status: hit.status,
            normal: hit.normal,
            points: Vec::new(),
        };
    }
    let normal = hit.normal.normalize();
    let (a, b) = (input.a, input.b);
    let scale = a.bounding_radius().max(b.bounding_radius()) as f64;
    let inverse = input.pose_a.rotation.inverse();
    let place_a = Placement {
        rotation: DQuat::IDENTITY,
        position: DVec3::ZERO,
    };
    let place_b = Placement {
        rotation: inverse * input.pose_b.rotation,
        position: inverse * (input.pose_b.position - input.pose_a.position),
    };
    let face_a = feature(a, &place_a, normal);
    let face_b = feature(b, &place_b, -normal);
    let a_is_reference = match face_a.rank().cmp(&face_b.rank()) {
        Ordering::Greater => true,
        Ordering::Less => false,
        Ordering::Equal => face_a.alignment + REFERENCE_BIAS >= face_b.alignment,
    };
    let (reference, incident) = if a_is_reference {
        (&face_a, &face_b)
    } else {
        (&face_b, &face_a)
    };
    let clipped = clip(reference, incident, normal);
    let (radius_a, radius_b) = (a.radius() as f64, b.radius() as f64);
    let margin = tolerance * scale;
    let mut points: Vec<ContactPoint> = clipped
        .iter()
        .map(|c| {
            let (on_a, on_b, id) = if a_is_reference {
                let id = FeatureId {
                    a: c.reference_code,
                    b: c.incident_code,
                };
                (c.reference, c.incident, id)
            } else {
                let id = FeatureId {
                    a: c.incident_code,
                    b: c.reference_code,
                };
                (c.incident, c.reference, id)
            };
            let point_a = on_a + face_a.normal * radius_a;
            let point_b = on_b + face_b.normal * radius_b;
            ContactPoint {
                point_a,
                point_b,
                depth: (point_a - point_b).dot(normal),
                id,
            }
        })
        .filter(|p| p.depth >= -margin && p.depth.is_finite())
        .collect();
    let deepest = points.iter().map(|p| p.depth).fold(f64::MIN, f64::max);
    if deepest < hit.depth - DEEPEST_SLACK * scale {
        points.push(epa_point(hit));
    }
    Manifold {
        status: hit.status,
        normal,
        points: reduce(points, normal, MERGE_DISTANCE * scale),
    }
}

/// EPA's contact pair as a manifold point.
fn epa_point(hit: &WorldPenetration) -> ContactPoint {
    ContactPoint {
        point_a: hit.contact_a,
        point_b: hit.contact_b,
        depth: hit.depth,
        id: FeatureId::DEEPEST,
    }
}
