//! Below the front door: one pair whose relative pose the caller has already formed, answered in A's local
//! frame. Batch code (the CPU batch, the GPU kernels' CPU twins, the command line) forms each pair's relative
//! pose once, the way the GPU does, and needs the answers before they are moved to the world.

use super::frame::{narrow_penetration, narrow_result};
use super::front_door::{local_float32, local_float64, widened};
pub use super::kind::AnswerKind;
pub(crate) use super::kind::KindAnswer;
use super::QueryOptions;
use crate::pose::RelativePose;
use crate::query::Precision;
use crate::shape::ConvexShape;

/// Answers `kind` for one pair, B's local frame placed in A's by `relative`, in A's local frame.
///
/// With [`Precision::Float32`] this is exactly what the front door computes after forming the relative pose
/// (and, given a relative pose formed as the GPU forms it, [`RelativePose::between_f32`], the CPU twin of the
/// GPU kernels); with [`Precision::Float64`] the same relative pose is answered in float64 and rounded back.
pub fn answer_relative(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
    kind: AnswerKind,
    options: QueryOptions,
) -> KindAnswer {
    match options.precision {
        Precision::Float32 => local_float32(a, b, relative.into(), kind, options),
        Precision::Float64 => {
            let wide = widened(a, b, relative);
            let (result, hit) = local_float64(a, &wide, kind, options);
            (
                narrow_result(result),
                hit.map(|h| narrow_penetration(h, h.iterations)),
            )
        }
    }
}
