//! Distance and intersection queries on one pair of placed shapes: GJK on the prepared pair, and the float64
//! repeat of a pair that float32 rounding leaves unresolved.

use super::frame::Wide;
use super::kind::{answer_relative, answer_relative_bare, answer_relative_traced, AnswerKind};
use super::solve::answer;
use super::world::WorldResult;
use crate::epa::PairTracer;
use crate::gjk::{BareResult, GjkConfig, GjkResult, QueryKind};
use crate::pose::{DPose, Pose, RelativePose};
use crate::shape::ConvexShape;

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
/// A pair that float32 rounding leaves [`GjkStatus::Unresolved`], or without an answer after the iteration
/// bound (slow progress along a sliver), is repeated in float64 on the same relative pose, and that run's answer
/// is returned.
pub fn query_relative(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
    kind: QueryKind,
    config: &GjkConfig,
) -> GjkResult<f32> {
    answer_relative(a, b, relative, AnswerKind::of(kind), config, None).0
}

/// [`query`]'s status, flag, distance and iterations alone (see [`answer_relative_bare`]): for a caller that
/// needs the intersection flag or the distance and not the witnesses or the normal.
pub fn query_bare(
    a: &ConvexShape,
    pose_a: &Pose,
    b: &ConvexShape,
    pose_b: &Pose,
    kind: QueryKind,
    config: &GjkConfig,
) -> BareResult<f32> {
    let relative = RelativePose::between_f32(pose_a, pose_b);
    answer_relative_bare(a, b, &relative, kind, config)
}

/// [`query_relative`], showing `tracer` the float32 run and the float64 repeat when there is one.
pub fn query_relative_traced<T: PairTracer>(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
    kind: QueryKind,
    config: &GjkConfig,
    tracer: &mut T,
) -> GjkResult<f32> {
    answer_relative_traced(a, b, relative, AnswerKind::of(kind), config, None, tracer).0
}

/// The same algorithm in float64 from float64 poses, a referee for the float32 path in tests.
pub fn query_f64(
    a: &ConvexShape,
    pose_a: &DPose,
    b: &ConvexShape,
    pose_b: &DPose,
    kind: QueryKind,
    config: &GjkConfig,
) -> GjkResult<f64> {
    let wide = Wide::between(a, pose_a, b, pose_b);
    wide.gjk_to_local(answer(&wide.query(config), kind))
}

/// Distance query in world coordinates, the pair-local frame formed in float64 from the given poses.
pub fn distance(a: &ConvexShape, pose_a: &DPose, b: &ConvexShape, pose_b: &DPose) -> WorldResult {
    let relative = RelativePose::<f32>::between(pose_a, pose_b);
    let local = query_relative(a, b, &relative, QueryKind::Distance, &GjkConfig::default());
    WorldResult::from_local(&local, pose_a)
}
