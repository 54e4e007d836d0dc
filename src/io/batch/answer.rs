//! One parsed pair's answer in world coordinates, on the CPU: what `query` prints for a line, and the type the
//! GPU path fills too (its fields as written are [`crate::io::answers::AnswerFields`]).

use crate::gjk::GjkConfig;
use crate::io::jsonl::parse::PairInput;
use crate::pose::{CentredPose, RelativePose};
use crate::query::{answer_relative, AnswerKind, WorldPenetration, WorldResult};
use crate::shape::ConvexShape;

/// One pair's answer in world coordinates: GJK's answer and, for `--kind penetration`, the penetration answer.
pub type PairAnswer = (WorldResult, Option<WorldPenetration>);

/// One query: the pair-local frame formed in float64 from the world poses and the shapes' centres, the
/// positions subtracted before the centres are added (so pairs far from the origin keep their precision), GJK and (on overlap, for penetration) EPA in float32, the answers moved back to
/// world coordinates.
pub fn query_pair(pair: &PairInput, kind: AnswerKind) -> PairAnswer {
    query_placed(
        (&pair.a.shape, &pair.a.pose),
        (&pair.b.shape, &pair.b.pose),
        kind,
    )
}

/// [`query_pair`] on two centred shapes at their world poses (centres kept apart), however they were read.
pub fn query_placed(
    (a, a_pose): (&ConvexShape, &CentredPose),
    (b, b_pose): (&ConvexShape, &CentredPose),
    kind: AnswerKind,
) -> PairAnswer {
    let relative = RelativePose::<f32>::between_centred(a_pose, b_pose);
    let (local, hit) = answer_relative(a, b, &relative, kind, &GjkConfig::default(), None);
    let frame = a_pose.folded();
    (
        WorldResult::from_local(&local, &frame),
        hit.map(|hit| WorldPenetration::from_local(&hit, &frame)),
    )
}
