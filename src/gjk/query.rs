//! One-pair entry points on [`ConvexShape`]s and poses, and the conversion of a pair-local answer to world
//! coordinates.

use super::config::{pair_scale, pair_unit, GjkConfig, GjkStatus, QueryKind};
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

/// B's centred points relative to A's centred points, from B's local frame relative to A's local frame:
/// `position + rotation * centre_b - centre_a`. The GPU forms the same sum in float32.
fn core_relative(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
) -> RelativePose<f32> {
    RelativePose {
        rotation: relative.rotation,
        position: relative.position + relative.rotation * b.centre() - a.centre(),
    }
}

/// The power of two that normalises this pair (see [`pair_unit`]).
fn unit_of(scale: f32, core: &RelativePose<f32>) -> f32 {
    pair_unit(scale, core.position.abs().max_element())
}

/// A pair-local answer in normalised units and A's centred frame, moved back to A's local frame and the
/// user's units (dividing by a power of two is exact).
fn gjk_to_local<R: Real>(r: GjkResult<R>, unit: R, centre_a: R::V) -> GjkResult<R> {
    let back = R::ONE / unit;
    GjkResult {
        distance: r.distance * back,
        witness_a: r.witness_a * back + centre_a,
        witness_b: r.witness_b * back + centre_a,
        ..r
    }
}

fn penetration_to_local<R: Real>(p: Penetration<R>, unit: R, centre_a: R::V) -> Penetration<R> {
    let back = R::ONE / unit;
    Penetration {
        depth: p.depth * back,
        contact_a: p.contact_a * back + centre_a,
        contact_b: p.contact_b * back + centre_a,
        ..p
    }
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

/// The float32 query on a relative pose already formed (B's local frame in A's local frame, for instance
/// computed in float64 from world poses). The answer is in A's local frame.
///
/// A pair that float32 rounding leaves [`GjkStatus::Unresolved`] is repeated in float64 on the same relative
/// pose, and that run's answer is returned.
pub fn query_relative(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
    kind: QueryKind,
    config: &GjkConfig,
) -> GjkResult<f32> {
    let core = core_relative(a, b, relative);
    let scale = scale_of(a, b);
    let unit = unit_of(scale, &core);
    let pair = PairSupport::<f32>::new(a.core_points(), b.core_points(), &core, unit);
    let result = gjk(
        &pair,
        a.radius() * unit,
        b.radius() * unit,
        scale * unit,
        config,
        kind,
    );
    if result.status != GjkStatus::Unresolved {
        return gjk_to_local(result, unit, a.centre());
    }
    let wide = Wide::new(a, b, &core);
    let r = gjk(
        &wide.pair(unit),
        a.radius() as f64 * unit as f64,
        b.radius() as f64 * unit as f64,
        scale as f64 * unit as f64,
        config,
        kind,
    );
    narrow_result(gjk_to_local(r, unit as f64, a.centre().as_dvec3()))
}

/// Float64 copies of a pair's centred points and relative pose, for the float64 repeat.
struct Wide {
    points_a: Vec<DVec3>,
    points_b: Vec<DVec3>,
    relative: RelativePose<f64>,
}

impl Wide {
    fn new(a: &ConvexShape, b: &ConvexShape, core: &RelativePose<f32>) -> Self {
        Self {
            points_a: a.core_points().iter().map(|p| p.as_dvec3()).collect(),
            points_b: b.core_points().iter().map(|p| p.as_dvec3()).collect(),
            relative: RelativePose::<f64> {
                rotation: core.rotation.as_dquat().normalize(),
                position: core.position.as_dvec3(),
            },
        }
    }

    fn between(a: &ConvexShape, pose_a: &DPose, b: &ConvexShape, pose_b: &DPose) -> Self {
        Self {
            points_a: a.core_points().iter().map(|p| p.as_dvec3()).collect(),
            points_b: b.core_points().iter().map(|p| p.as_dvec3()).collect(),
            relative: RelativePose::<f64>::between(
                &a.core_pose_f64(pose_a),
                &b.core_pose_f64(pose_b),
            ),
        }
    }

    fn pair(&self, unit: f32) -> PairSupport<'_, f64> {
        PairSupport::<f64>::new(&self.points_a, &self.points_b, &self.relative, unit as f64)
    }

    fn unit(&self, scale: f32) -> f32 {
        pair_unit(scale, self.relative.position.abs().max_element() as f32)
    }
}

fn narrow_result(r: GjkResult<f64>) -> GjkResult<f32> {
    GjkResult {
        status: r.status,
        intersecting: r.intersecting,
        distance: r.distance as f32,
        witness_a: r.witness_a.as_vec3(),
        witness_b: r.witness_b.as_vec3(),
        normal: r.normal.as_vec3(),
        iterations: r.iterations,
    }
}

fn narrow_penetration(p: Penetration<f64>, iterations: u32) -> Penetration<f32> {
    Penetration {
        status: p.status,
        depth: p.depth as f32,
        normal: p.normal.as_vec3(),
        contact_a: p.contact_a.as_vec3(),
        contact_b: p.contact_b.as_vec3(),
        iterations,
    }
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

/// [`penetration_query`] on a relative pose already formed (B's local frame in A's local frame).
pub fn penetration_relative(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
    config: &GjkConfig,
) -> (GjkResult<f32>, Penetration<f32>) {
    let core = core_relative(a, b, relative);
    let scale = scale_of(a, b);
    let unit = unit_of(scale, &core);
    let pair = PairSupport::<f32>::new(a.core_points(), b.core_points(), &core, unit);
    let (result, hit) = penetration(
        &pair,
        a.radius() * unit,
        b.radius() * unit,
        scale * unit,
        config,
    );
    let repeat = result.status == GjkStatus::Unresolved
        || matches!(
            hit.status,
            PenetrationStatus::Degenerate
                | PenetrationStatus::Overflow
                | PenetrationStatus::MaxIterations
        );
    if !repeat {
        return (
            gjk_to_local(result, unit, a.centre()),
            penetration_to_local(hit, unit, a.centre()),
        );
    }
    // Float32 rounding left GJK unresolved, or folded or outgrew the polytope (rare: a few pairs per million
    // on the random mix). The same algorithms in float64 on the same relative pose usually finish; their
    // status is reported either way.
    let wide = Wide::new(a, b, &core);
    let (result64, hit64) = penetration(
        &wide.pair(unit),
        a.radius() as f64 * unit as f64,
        b.radius() as f64 * unit as f64,
        scale as f64 * unit as f64,
        config,
    );
    let centre = a.centre().as_dvec3();
    let result = if result.status == GjkStatus::Unresolved {
        narrow_result(gjk_to_local(result64, unit as f64, centre))
    } else {
        gjk_to_local(result, unit, a.centre())
    };
    let hit = narrow_penetration(
        penetration_to_local(hit64, unit as f64, centre),
        hit.iterations + hit64.iterations,
    );
    (result, hit)
}

/// [`penetration_relative`] in float32 alone, without the float64 repeat: what the GPU computes, and a way to
/// count how often float32 needs the repeat.
pub fn penetration_relative_float32(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
    config: &GjkConfig,
) -> (GjkResult<f32>, Penetration<f32>) {
    let core = core_relative(a, b, relative);
    let scale = scale_of(a, b);
    let unit = unit_of(scale, &core);
    let pair = PairSupport::<f32>::new(a.core_points(), b.core_points(), &core, unit);
    let (result, hit) = penetration(
        &pair,
        a.radius() * unit,
        b.radius() * unit,
        scale * unit,
        config,
    );
    (
        gjk_to_local(result, unit, a.centre()),
        penetration_to_local(hit, unit, a.centre()),
    )
}

/// [`penetration_query`] in float64, from float64 poses (a referee for the float32 path in tests).
pub fn penetration_f64(
    a: &ConvexShape,
    pose_a: &DPose,
    b: &ConvexShape,
    pose_b: &DPose,
    config: &GjkConfig,
) -> (GjkResult<f64>, Penetration<f64>) {
    let wide = Wide::between(a, pose_a, b, pose_b);
    let scale = scale_of(a, b);
    let unit = wide.unit(scale);
    let (result, hit) = penetration(
        &wide.pair(unit),
        a.radius() as f64 * unit as f64,
        b.radius() as f64 * unit as f64,
        scale as f64 * unit as f64,
        config,
    );
    let centre = a.centre().as_dvec3();
    (
        gjk_to_local(result, unit as f64, centre),
        penetration_to_local(hit, unit as f64, centre),
    )
}

/// Distance query in world coordinates, the pair-local frame formed in float64 from the given poses.
pub fn distance(a: &ConvexShape, pose_a: &DPose, b: &ConvexShape, pose_b: &DPose) -> WorldResult {
    let relative = RelativePose::<f32>::between(pose_a, pose_b);
    let local = query_relative(a, b, &relative, QueryKind::Distance, &GjkConfig::default());
    WorldResult::from_local(&local, pose_a)
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
    let wide = Wide::between(a, pose_a, b, pose_b);
    let scale = scale_of(a, b);
    let unit = wide.unit(scale);
    let result = gjk(
        &wide.pair(unit),
        a.radius() as f64 * unit as f64,
        b.radius() as f64 * unit as f64,
        scale as f64 * unit as f64,
        config,
        kind,
    );
    gjk_to_local(result, unit as f64, a.centre().as_dvec3())
}
