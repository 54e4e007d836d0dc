//! Penetration queries on one pair of placed shapes: GJK, then EPA where the shapes overlap, then the
//! certificate every penetrating answer must pass, and the float64 repeat of a pair float32 cannot finish.

use super::kind::{answer_relative, AnswerKind};
use crate::epa::Penetration;
use crate::gjk::{GjkConfig, GjkResult};
use crate::pose::RelativePose;
use crate::shape::ConvexShape;

/// [`penetration_query`] on a relative pose already formed (B's local frame in A's local frame).
///
/// Float32 rounding may leave GJK unresolved, or fold or outgrow the polytope (rare: a few pairs per million on
/// the random mix). The same algorithms in float64 on the same relative pose usually finish; their status is
/// reported either way.
pub fn penetration_relative(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
    config: &GjkConfig,
) -> (GjkResult<f32>, Penetration<f32>) {
    let (result, hit) = answer_relative(a, b, relative, AnswerKind::Penetration, config, None);
    (
        result,
        hit.expect("a penetration query answers a penetration"),
    )
}

/// [`penetration_relative`], showing `tracer` every run: the float32 one, and the float64 repeat when there is
/// one (see [`super::trace`] for a tracer that records them).
#[cfg(test)]
pub(crate) fn penetration_relative_traced<T: crate::epa::PairTracer>(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
    config: &GjkConfig,
    tracer: &mut T,
) -> (GjkResult<f32>, Penetration<f32>) {
    let kind = AnswerKind::Penetration;
    let (result, hit) =
        super::kind::answer_relative_traced(a, b, relative, kind, config, None, tracer);
    (
        result,
        hit.expect("a penetration query answers a penetration"),
    )
}
