//! One parsed pair's answer in world coordinates, on the CPU: what `query` prints for a line, and the type the
//! GPU path fills too.

use super::parse::PairInput;
use crate::gjk::GjkConfig;
use crate::pose::RelativePose;
use crate::query::{penetration_relative, WorldPenetration, WorldResult};

/// One pair's answer in world coordinates: GJK's distance answer and the penetration answer.
pub type PairAnswer = (WorldResult, WorldPenetration);

/// One query: the pair-local frame formed in float64 from the world poses (so pairs far from the origin
/// keep their precision), GJK and (on overlap) EPA in float32, the answers moved back to world coordinates.
pub fn query_pair(pair: &PairInput) -> PairAnswer {
    let relative = RelativePose::<f32>::between(&pair.a.pose, &pair.b.pose);
    let (local, hit) = penetration_relative(
        &pair.a.shape,
        &pair.b.shape,
        &relative,
        &GjkConfig::default(),
    );
    (
        WorldResult::from_local(&local, &pair.a.pose),
        WorldPenetration::from_local(&hit, &pair.a.pose),
    )
}
