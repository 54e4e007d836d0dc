//! Distance and intersection queries on one pair of placed shapes: GJK on the prepared pair, and the float64
//! repeat of a pair that float32 rounding leaves unresolved.

use super::kind::{answer_relative, AnswerKind};
use crate::gjk::{GjkConfig, GjkResult, QueryKind};
use crate::pose::RelativePose;
use crate::shape::ConvexShape;

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

/// [`query_relative`], showing `tracer` the float32 run and the float64 repeat when there is one.
#[cfg(test)]
pub(crate) fn query_relative_traced<T: crate::epa::PairTracer>(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
    kind: QueryKind,
    config: &GjkConfig,
    tracer: &mut T,
) -> GjkResult<f32> {
    super::kind::answer_relative_traced(a, b, relative, AnswerKind::of(kind), config, None, tracer)
        .0
}
