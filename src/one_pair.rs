//! The program's one-pair calls, on the library's public entry below its front door
//! ([`gpu_gjk::query::advanced::answer_relative`]): the relative pose formed in float32 as the GPU forms it,
//! so that what the demo and `inspect` show for a pair is what the GPU's CPU twin answers.

use crate::epa::Penetration;
use crate::gjk::{GjkConfig, GjkResult, QueryKind};
use crate::pose::{Pose, RelativePose};
use crate::query::advanced::{answer_relative, AnswerKind};
use crate::query::trace::PairTrace;
use crate::query::QueryOptions;
use crate::shape::ConvexShape;

fn options(config: &GjkConfig) -> QueryOptions<'static> {
    QueryOptions {
        config: *config,
        ..QueryOptions::default()
    }
}

/// GJK's `kind` answer for `a` at `pose_a` and `b` at `pose_b`, in A's local frame.
pub fn query(
    a: &ConvexShape,
    pose_a: &Pose,
    b: &ConvexShape,
    pose_b: &Pose,
    kind: QueryKind,
    config: &GjkConfig,
) -> GjkResult<f32> {
    let relative = RelativePose::between_f32(pose_a, pose_b);
    answer_relative(a, b, &relative, AnswerKind::of(kind), options(config)).0
}

/// GJK's distance answer and the penetration answer, in A's local frame.
pub fn penetration_query(
    a: &ConvexShape,
    pose_a: &Pose,
    b: &ConvexShape,
    pose_b: &Pose,
    config: &GjkConfig,
) -> (GjkResult<f32>, Penetration<f32>) {
    let relative = RelativePose::between_f32(pose_a, pose_b);
    let (result, hit) = answer_relative(a, b, &relative, AnswerKind::Penetration, options(config));
    (
        result,
        hit.expect("a penetration query answers a penetration"),
    )
}

/// The pair answered with every run recorded.
fn trace(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
    kind: AnswerKind,
    config: &GjkConfig,
) -> PairTrace {
    let mut runs = Vec::new();
    let options = QueryOptions {
        trace: Some(&mut runs),
        ..options(config)
    };
    let (result, penetration) = answer_relative(a, b, relative, kind, options);
    PairTrace {
        runs,
        result,
        penetration,
    }
}

/// GJK's `kind` query with every run recorded (`relative` places B's local frame in A's).
pub fn trace_query(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
    kind: QueryKind,
    config: &GjkConfig,
) -> PairTrace {
    trace(a, b, relative, AnswerKind::of(kind), config)
}

/// The penetration query with every run recorded: GJK, EPA on an overlap, the float64 repeat.
pub fn trace_penetration(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
    config: &GjkConfig,
) -> PairTrace {
    trace(a, b, relative, AnswerKind::Penetration, config)
}
