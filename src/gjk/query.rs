//! One-pair entry points on [`ConvexShape`]s and poses, and the conversion of a pair-local answer to world
//! coordinates.

use super::config::{pair_scale, GjkConfig, GjkStatus, QueryKind};
use super::epa::{penetration, Penetration, PenetrationStatus};
use super::solver::{gjk, GjkResult};
use super::support::PairSupport;
use crate::pose::{DPose, Pose, RelativePose};
use crate::real::Real;
use crate::shape::ConvexShape;
use glam::DVec3;

/// A query answer in world coordinates, in double precision so that the pair-local answer keeps its
/// precision when the pair is far from the origin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldResult {
    pub status: GjkStatus,
    pub intersecting: bool,
    pub distance: f64,
    pub witness_a: DVec3,
    pub witness_b: DVec3,
    pub normal: DVec3,
    pub iterations: u32,
}

impl WorldResult {
    /// Moves a pair-local answer into world coordinates with A's pose.
    pub fn from_local<R: Real>(local: &GjkResult<R>, pose_a: &DPose) -> Self {
        Self {
            status: local.status,
            intersecting: local.intersecting,
            distance: local.distance.to_f64(),
            witness_a: pose_a.transform_point(R::vec_to_f64(local.witness_a)),
            witness_b: pose_a.transform_point(R::vec_to_f64(local.witness_b)),
            normal: pose_a.rotation * R::vec_to_f64(local.normal),
            iterations: local.iterations,
        }
    }
}

/// A penetration answer in world coordinates, in double precision like [`WorldResult`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldPenetration {
    pub status: PenetrationStatus,
    /// Overlap depth, radii included.
    pub depth: f64,
    /// Unit direction from A towards B.
    pub normal: DVec3,
    /// The point of A deepest inside B.
    pub contact_a: DVec3,
    /// The point of B deepest inside A.
    pub contact_b: DVec3,
}

impl WorldPenetration {
    /// Moves a pair-local penetration answer into world coordinates with A's pose.
    pub fn from_local<R: Real>(local: &Penetration<R>, pose_a: &DPose) -> Self {
        Self {
            status: local.status,
            depth: local.depth.to_f64(),
            normal: pose_a.rotation * R::vec_to_f64(local.normal),
            contact_a: pose_a.transform_point(R::vec_to_f64(local.contact_a)),
            contact_b: pose_a.transform_point(R::vec_to_f64(local.contact_b)),
        }
    }
}

fn scale_of(a: &ConvexShape, b: &ConvexShape) -> f32 {
    pair_scale(a.bounding_radius(), b.bounding_radius())
}

/// The float32 query, with the pair-local frame formed in float32 exactly as the GPU forms it.
/// The answer is in A's local frame; see [`WorldResult::from_local`].
pub fn query(
    a: &ConvexShape,
    pose_a: &Pose,
    b: &ConvexShape,
    pose_b: &Pose,
    kind: QueryKind,
    config: &GjkConfig,
) -> GjkResult<f32> {
    let relative = RelativePose::between_f32(pose_a, pose_b);
    query_relative(a, b, &relative, kind, config)
}

/// The float32 query on a relative pose already formed (for instance in float64 from world poses).
pub fn query_relative(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
    kind: QueryKind,
    config: &GjkConfig,
) -> GjkResult<f32> {
    let pair = PairSupport::<f32>::new(a.points(), b.points(), relative);
    gjk(&pair, a.radius(), b.radius(), scale_of(a, b), config, kind)
}

/// Penetration depth, normal and contact points (EPA after GJK), in A's local frame, with the pair-local
/// frame formed in float32 like [`query`]. Also returns GJK's distance answer.
pub fn penetration_query(
    a: &ConvexShape,
    pose_a: &Pose,
    b: &ConvexShape,
    pose_b: &Pose,
    config: &GjkConfig,
) -> (GjkResult<f32>, Penetration<f32>) {
    let relative = RelativePose::between_f32(pose_a, pose_b);
    penetration_relative(a, b, &relative, config)
}

/// [`penetration_query`] on a relative pose already formed.
pub fn penetration_relative(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
    config: &GjkConfig,
) -> (GjkResult<f32>, Penetration<f32>) {
    let pair = PairSupport::<f32>::new(a.points(), b.points(), relative);
    let (result, hit) = penetration(&pair, a.radius(), b.radius(), scale_of(a, b), config);
    if !matches!(
        hit.status,
        PenetrationStatus::Degenerate
            | PenetrationStatus::Overflow
            | PenetrationStatus::MaxIterations
    ) {
        return (result, hit);
    }
    // Float32 rounding folded or outgrew the polytope (rare: a few pairs per million on the random mix).
    // The same algorithm in float64 on the same relative pose usually finishes; its status is reported
    // either way.
    let points_a: Vec<DVec3> = a.points().iter().map(|p| p.as_dvec3()).collect();
    let points_b: Vec<DVec3> = b.points().iter().map(|p| p.as_dvec3()).collect();
    let relative64 = RelativePose::<f64> {
        rotation: relative.rotation.as_dquat().normalize(),
        position: relative.position.as_dvec3(),
    };
    let pair = PairSupport::<f64>::new(&points_a, &points_b, &relative64);
    let (_, hit64) = penetration(
        &pair,
        a.radius() as f64,
        b.radius() as f64,
        scale_of(a, b) as f64,
        config,
    );
    let hit = Penetration {
        status: hit64.status,
        depth: hit64.depth as f32,
        normal: hit64.normal.as_vec3(),
        contact_a: hit64.contact_a.as_vec3(),
        contact_b: hit64.contact_b.as_vec3(),
        iterations: hit.iterations + hit64.iterations,
    };
    (result, hit)
}

/// [`penetration_query`] in float64, from float64 poses (a referee for the float32 path in tests).
pub fn penetration_f64(
    a: &ConvexShape,
    pose_a: &DPose,
    b: &ConvexShape,
    pose_b: &DPose,
    config: &GjkConfig,
) -> (GjkResult<f64>, Penetration<f64>) {
    let points_a: Vec<DVec3> = a.points().iter().map(|p| p.as_dvec3()).collect();
    let points_b: Vec<DVec3> = b.points().iter().map(|p| p.as_dvec3()).collect();
    let relative = RelativePose::<f64>::between(pose_a, pose_b);
    let pair = PairSupport::<f64>::new(&points_a, &points_b, &relative);
    penetration(
        &pair,
        a.radius() as f64,
        b.radius() as f64,
        scale_of(a, b) as f64,
        config,
    )
}

/// Distance query in world coordinates, the pair-local frame formed in float64 from the given poses.
pub fn distance(a: &ConvexShape, pose_a: &DPose, b: &ConvexShape, pose_b: &DPose) -> WorldResult {
    let relative = RelativePose::<f32>::between(pose_a, pose_b);
    let local = query_relative(a, b, &relative, QueryKind::Distance, &GjkConfig::default());
    WorldResult::from_local(&local, pose_a)
}

/// Intersection test with the boolean early exit. Touching within the tolerance counts as intersecting.
pub fn intersects(a: &ConvexShape, pose_a: &Pose, b: &ConvexShape, pose_b: &Pose) -> GjkStatus {
    query(
        a,
        pose_a,
        b,
        pose_b,
        QueryKind::Intersection,
        &GjkConfig::default(),
    )
    .status
}

/// The same algorithm in float64, for use as a referee of the float32 path in tests.
pub fn query_f64(
    a: &ConvexShape,
    pose_a: &DPose,
    b: &ConvexShape,
    pose_b: &DPose,
    kind: QueryKind,
    config: &GjkConfig,
) -> GjkResult<f64> {
    let points_a: Vec<DVec3> = a.points().iter().map(|p| p.as_dvec3()).collect();
    let points_b: Vec<DVec3> = b.points().iter().map(|p| p.as_dvec3()).collect();
    let relative = RelativePose::<f64>::between(pose_a, pose_b);
    let pair = PairSupport::<f64>::new(&points_a, &points_b, &relative);
    gjk(
        &pair,
        a.radius() as f64,
        b.radius() as f64,
        scale_of(a, b) as f64,
        config,
        kind,
    )
}
