//! One parsed pair's answer in world coordinates, on the CPU: what `query` prints for a line, and the type the
//! GPU path fills too.

use super::parse::PairInput;
use crate::gjk::GjkConfig;
use crate::pose::RelativePose;
use crate::query::{answer_relative, AnswerKind, WorldPenetration, WorldResult};

/// One pair's answer in world coordinates: GJK's answer and, for `--kind penetration`, the penetration answer.
pub type PairAnswer = (WorldResult, Option<WorldPenetration>);

/// One query: the pair-local frame formed in float64 from the world poses (so pairs far from the origin
/// keep their precision), GJK and (on overlap, for penetration) EPA in float32, the answers moved back to
/// world coordinates.
pub fn query_pair(pair: &PairInput, kind: AnswerKind) -> PairAnswer {
    let relative = RelativePose::<f32>::between(&pair.a.pose, &pair.b.pose);
    let (local, hit) = answer_relative(
        &pair.a.shape,
        &pair.b.shape,
        &relative,
        kind,
        &GjkConfig::default(),
        None,
    );
    (
        WorldResult::from_local(&local, &pair.a.pose),
        hit.map(|hit| WorldPenetration::from_local(&hit, &pair.a.pose)),
    )
}
