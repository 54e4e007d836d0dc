//! The one-pair calls the tests compare, written on the library's public entries: the front door
//! (`gpu_gjk::{distance, intersects, penetration}`) and `query::advanced::answer_relative`. Each gives the bits
//! the library computes for that path; the float64 ones return A's local frame, as the referees compare it.

use gpu_gjk::epa::Penetration;
use gpu_gjk::query::advanced::{answer_relative, AnswerKind};
use gpu_gjk::query::{PairInput, Precision, QueryOptions};
use gpu_gjk::{ConvexShape, DPose, GjkConfig, GjkResult, Pose, QueryKind, RelativePose};
use gpu_gjk::{WorldPenetration, WorldResult};

fn options(config: &GjkConfig) -> QueryOptions<'static> {
    QueryOptions {
        config: *config,
        ..QueryOptions::default()
    }
}

/// The float32 query with the relative pose formed in float32 as the GPU forms it; A's local frame.
pub fn query(
    a: &ConvexShape,
    pose_a: &Pose,
    b: &ConvexShape,
    pose_b: &Pose,
    kind: QueryKind,
    config: &GjkConfig,
) -> GjkResult<f32> {
    query_relative(
        a,
        b,
        &RelativePose::between_f32(pose_a, pose_b),
        kind,
        config,
    )
}

/// The float32 query (float64 repeat included) on a relative pose already formed; A's local frame.
pub fn query_relative(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
    kind: QueryKind,
    config: &GjkConfig,
) -> GjkResult<f32> {
    answer_relative(a, b, relative, AnswerKind::of(kind), options(config)).0
}

/// The float32 penetration query with the relative pose formed in float32; A's local frame.
pub fn penetration_query(
    a: &ConvexShape,
    pose_a: &Pose,
    b: &ConvexShape,
    pose_b: &Pose,
    config: &GjkConfig,
) -> (GjkResult<f32>, Penetration<f32>) {
    penetration_relative(a, b, &RelativePose::between_f32(pose_a, pose_b), config)
}

/// The float32 penetration query on a relative pose already formed; A's local frame.
pub fn penetration_relative(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
    config: &GjkConfig,
) -> (GjkResult<f32>, Penetration<f32>) {
    let (result, hit) = answer_relative(a, b, relative, AnswerKind::Penetration, options(config));
    (
        result,
        hit.expect("a penetration query answers a penetration"),
    )
}

fn float64(config: &GjkConfig) -> QueryOptions<'static> {
    QueryOptions {
        precision: Precision::Float64,
        ..options(config)
    }
}

/// A world point in A's local frame, in float64.
fn to_local(pose_a: &DPose, p: glam::DVec3) -> glam::DVec3 {
    pose_a.rotation.inverse() * (p - pose_a.position)
}

/// A world answer back in A's local frame, in float64.
fn local_result(world: &WorldResult, pose_a: &DPose) -> GjkResult<f64> {
    GjkResult {
        status: world.status,
        intersecting: world.intersecting,
        distance: world.distance,
        witness_a: to_local(pose_a, world.witness_a),
        witness_b: to_local(pose_a, world.witness_b),
        normal: pose_a.rotation.inverse() * world.normal,
        iterations: world.iterations,
    }
}

/// The query in float64 from float64 poses (the front door's `Precision::Float64`), in A's local frame.
pub fn query_f64(
    a: &ConvexShape,
    pose_a: &DPose,
    b: &ConvexShape,
    pose_b: &DPose,
    kind: QueryKind,
    config: &GjkConfig,
) -> GjkResult<f64> {
    let input = PairInput::new(a, *pose_a, b, *pose_b);
    let world: WorldResult = match kind {
        QueryKind::Distance => gpu_gjk::distance(&input, float64(config)),
        QueryKind::Intersection => gpu_gjk::intersects(&input, float64(config)),
    };
    local_result(&world, pose_a)
}

/// The penetration query in float64 from float64 poses, in A's local frame.
pub fn penetration_f64(
    a: &ConvexShape,
    pose_a: &DPose,
    b: &ConvexShape,
    pose_b: &DPose,
    config: &GjkConfig,
) -> (GjkResult<f64>, Penetration<f64>) {
    let input = PairInput::new(a, *pose_a, b, *pose_b);
    let (world, hit): (WorldResult, WorldPenetration) =
        gpu_gjk::penetration(&input, float64(config));
    let result = local_result(&world, pose_a);
    let local = Penetration {
        status: hit.status,
        depth: hit.depth,
        normal: pose_a.rotation.inverse() * hit.normal,
        contact_a: to_local(pose_a, hit.contact_a),
        contact_b: to_local(pose_a, hit.contact_b),
        // The world answer does not carry EPA's expansion count; no referee reads it.
        iterations: 0,
        depth_upper: hit.depth_upper,
    };
    (result, local)
}
