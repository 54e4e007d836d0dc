//! The one-pair calls the bench times, on the library's public entries: `query::advanced::answer_relative`
//! with the relative pose formed in float32 as the GPU forms it (the CPU reference's hot path), and the front
//! door's float64 precision for the referee.

use gpu_gjk::epa::Penetration;
use gpu_gjk::query::advanced::{answer_relative, AnswerKind};
use gpu_gjk::query::{PairInput, Precision, QueryOptions};
use gpu_gjk::{
    ConvexShape, DPose, GjkConfig, GjkResult, Pose, QueryKind, RelativePose, WorldResult,
};

fn options(config: &GjkConfig, witnesses: bool) -> QueryOptions<'static> {
    QueryOptions {
        config: *config,
        witnesses,
        ..QueryOptions::default()
    }
}

/// The whole float32 answer (witnesses and normal too), in A's local frame.
#[inline]
pub fn query(
    a: &ConvexShape,
    pose_a: &Pose,
    b: &ConvexShape,
    pose_b: &Pose,
    kind: QueryKind,
    config: &GjkConfig,
) -> GjkResult<f32> {
    let relative = RelativePose::between_f32(pose_a, pose_b);
    answer_relative(a, b, &relative, AnswerKind::of(kind), options(config, true)).0
}

/// The status, flag, distance and iteration count alone.
#[inline]
pub fn query_bare(
    a: &ConvexShape,
    pose_a: &Pose,
    b: &ConvexShape,
    pose_b: &Pose,
    kind: QueryKind,
    config: &GjkConfig,
) -> GjkResult<f32> {
    let relative = RelativePose::between_f32(pose_a, pose_b);
    answer_relative(
        a,
        b,
        &relative,
        AnswerKind::of(kind),
        options(config, false),
    )
    .0
}

/// The penetration query (distance when apart), in A's local frame.
#[inline]
pub fn penetration_query(
    a: &ConvexShape,
    pose_a: &Pose,
    b: &ConvexShape,
    pose_b: &Pose,
    config: &GjkConfig,
) -> (GjkResult<f32>, Penetration<f32>) {
    let relative = RelativePose::between_f32(pose_a, pose_b);
    let (result, hit) = answer_relative(
        a,
        b,
        &relative,
        AnswerKind::Penetration,
        options(config, true),
    );
    (
        result,
        hit.expect("a penetration query answers a penetration"),
    )
}

/// The float64 referee: the flag and the distance are frame-independent, so the world answer serves.
pub fn query_f64(
    a: &ConvexShape,
    pose_a: &DPose,
    b: &ConvexShape,
    pose_b: &DPose,
    kind: QueryKind,
    config: &GjkConfig,
) -> WorldResult {
    let options = QueryOptions {
        precision: Precision::Float64,
        ..options(config, true)
    };
    let input = PairInput::new(a, *pose_a, b, *pose_b);
    match kind {
        QueryKind::Distance => gpu_gjk::distance(&input, options),
        QueryKind::Intersection => gpu_gjk::intersects(&input, options),
    }
}
