//! An independent referee: parry3d-f64's GJK (Johnson-style Voronoi simplex) and EPA, run on the same core
//! point sets through parry's `SupportMap` trait, in double precision. Radii are applied as margins.

use glam::{DQuat, DVec3};
use gpu_gjk::{ConvexShape, DPose};
use parry3d_f64::math::Pose as ParryPose;
use parry3d_f64::query::contact::contact_support_map_support_map;
use parry3d_f64::query::gjk::{self, CsoPoint, GJKResult, VoronoiSimplex};
use parry3d_f64::shape::SupportMap;

/// A core point set in double precision.
pub struct PointCloud(pub Vec<DVec3>);

impl PointCloud {
    pub fn of(shape: &ConvexShape) -> Self {
        Self(shape.local_points().map(|p| p.as_dvec3()).collect())
    }
}

impl SupportMap for PointCloud {
    fn local_support_point(&self, dir: DVec3) -> DVec3 {
        let mut best = self.0[0];
        let mut best_dot = best.dot(dir);
        for &p in &self.0[1..] {
            let d = p.dot(dir);
            if d > best_dot {
                best_dot = d;
                best = p;
            }
        }
        best
    }
}

/// The referee's answer, in A's local frame.
#[derive(Clone, Copy, Debug)]
pub struct RefereeAnswer {
    /// Signed distance between the surfaces (radii included): negative when penetrating. `None` when the
    /// cores overlap and the referee's EPA could not measure by how much (flat shapes).
    pub signed_distance: Option<f64>,
    /// Whether the surfaces overlap or touch according to the referee (known even when depth is not).
    pub core_overlap: bool,
}

/// B relative to A, in double precision.
pub fn relative(pose_a: &DPose, pose_b: &DPose) -> (DQuat, DVec3) {
    let inv = pose_a.rotation.conjugate();
    (
        inv * pose_b.rotation,
        inv * (pose_b.position - pose_a.position),
    )
}

fn parry_pose(rotation: DQuat, translation: DVec3) -> ParryPose {
    ParryPose::from_parts(translation, rotation)
}

pub fn referee(a: &ConvexShape, pose_a: &DPose, b: &ConvexShape, pose_b: &DPose) -> RefereeAnswer {
    let (rot, pos) = relative(pose_a, pose_b);
    let pos12 = parry_pose(rot, pos);
    let (ca, cb) = (PointCloud::of(a), PointCloud::of(b));
    let margin = a.radius() as f64 + b.radius() as f64;

    let dir = pos.try_normalize().unwrap_or(DVec3::X);
    let mut simplex = VoronoiSimplex::new();
    simplex.reset(CsoPoint::from_shapes(&pos12, &ca, &cb, dir));
    match gjk::closest_points(&pos12, &ca, &cb, f64::MAX, true, &mut simplex) {
        GJKResult::ClosestPoints(p1, p2, _) => RefereeAnswer {
            signed_distance: Some((p1 - p2).length() - margin),
            core_overlap: false,
        },
        _ => {
            let depth = contact_support_map_support_map(&pos12, &ca, &cb, f64::MAX)
                .map(|c| c.dist)
                .filter(|d| *d <= 0.0);
            RefereeAnswer {
                signed_distance: depth.map(|d| d - margin),
                core_overlap: true,
            }
        }
    }
}

/// Distance from a point (in A's frame for shape A, or in B's frame for shape B) to a shape's surface
/// region: the core distance minus the radius (negative inside the shell).
pub fn point_to_shape(shape: &ConvexShape, point_local: DVec3) -> f64 {
    let cloud = PointCloud::of(shape);
    let single = PointCloud(vec![DVec3::ZERO]);
    let pos12 = parry_pose(DQuat::IDENTITY, point_local);
    let dir = point_local.try_normalize().unwrap_or(DVec3::X);
    let mut simplex = VoronoiSimplex::new();
    simplex.reset(CsoPoint::from_shapes(&pos12, &cloud, &single, dir));
    let core = match gjk::closest_points(&pos12, &cloud, &single, f64::MAX, true, &mut simplex) {
        GJKResult::ClosestPoints(p1, p2, _) => (p1 - p2).length(),
        _ => 0.0,
    };
    core - shape.radius() as f64
}

/// The referee's penetration answer for overlapping shapes, in A's local frame: depth (radii included)
/// and the unit normal from A towards B, from parry3d-f64's EPA on the cores. `None` when the cores do
/// not overlap or parry's EPA gives up (flat shapes).
pub fn referee_penetration(
    a: &ConvexShape,
    pose_a: &DPose,
    b: &ConvexShape,
    pose_b: &DPose,
) -> Option<(f64, DVec3)> {
    let (rot, pos) = relative(pose_a, pose_b);
    let pos12 = parry_pose(rot, pos);
    let (ca, cb) = (PointCloud::of(a), PointCloud::of(b));
    let margin = a.radius() as f64 + b.radius() as f64;
    let contact = contact_support_map_support_map(&pos12, &ca, &cb, f64::MAX)?;
    (contact.dist <= 0.0).then_some((margin - contact.dist, contact.normal1))
}

/// How far B must move along the unit `normal` (A's frame) to leave A, radii included (the library's one
/// brute-force depth, `gpu_gjk::validate::depth_along`, at float64 poses).
pub fn depth_along(
    a: &ConvexShape,
    pose_a: &DPose,
    b: &ConvexShape,
    pose_b: &DPose,
    normal: DVec3,
) -> f64 {
    let (rotation, position) = relative(pose_a, pose_b);
    gpu_gjk::validate::depth_along(a, b, &gpu_gjk::RelativePose { rotation, position }, normal)
}
