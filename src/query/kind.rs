//! One entry point for the three things a pair can be asked: whether the shapes intersect, how far apart they
//! are, or (the default of `gpu-gjk query`) how deep they overlap. Asking for less costs less: no EPA for a
//! distance, and GJK's boolean early exit for an intersection flag.

use super::frame::{narrow_penetration, narrow_result, Prepared};
use super::solve::{answer_traced, needs_float64, penetration_traced};
use super::warm_start::WarmStart;
use crate::epa::{PairTracer, Penetration};
use crate::gjk::{GjkConfig, GjkResult, GjkStatus, NoTrace, QueryKind};
use crate::pose::RelativePose;
use crate::shape::ConvexShape;

/// What a query answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AnswerKind {
    /// The intersection flag (GJK stops as soon as it is decided; distance and witnesses are estimates).
    Intersection,
    /// Distance, witnesses and separating direction, converged; no depth.
    Distance,
    /// Distance when apart; depth, normal and contact points (EPA) when the shapes overlap.
    #[default]
    Penetration,
}

impl AnswerKind {
    pub const ALL: [AnswerKind; 3] = [
        AnswerKind::Intersection,
        AnswerKind::Distance,
        AnswerKind::Penetration,
    ];

    pub fn name(self) -> &'static str {
        match self {
            AnswerKind::Intersection => "intersection",
            AnswerKind::Distance => "distance",
            AnswerKind::Penetration => "penetration",
        }
    }

    /// GJK's mode for this kind (penetration runs GJK in distance mode).
    pub fn gjk_kind(self) -> QueryKind {
        match self {
            AnswerKind::Intersection => QueryKind::Intersection,
            AnswerKind::Distance | AnswerKind::Penetration => QueryKind::Distance,
        }
    }
}

/// GJK's answer and, for [`AnswerKind::Penetration`], the penetration answer; in A's local frame.
pub type KindAnswer = (GjkResult<f32>, Option<Penetration<f32>>);

/// Answers `kind` for one pair, B's local frame placed in A's by `relative`, in A's local frame: float32, with
/// the float64 repeat of a pair float32 leaves without an answer (as [`super::query_relative`] and
/// [`super::penetration_relative`], which this generalises). With `warm`, GJK starts from the pair's last
/// separating direction and the hull walks from their last vertices, and `warm` is updated for next time.
pub fn answer_relative(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
    kind: AnswerKind,
    config: &GjkConfig,
    warm: Option<&mut WarmStart>,
) -> KindAnswer {
    answer_relative_traced(a, b, relative, kind, config, warm, &mut NoTrace)
}

/// [`answer_relative`], showing `tracer` the float32 run and the float64 repeat when there is one.
pub fn answer_relative_traced<T: PairTracer>(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
    kind: AnswerKind,
    config: &GjkConfig,
    warm: Option<&mut WarmStart>,
    tracer: &mut T,
) -> KindAnswer {
    let pair = Prepared::new(a, b, relative);
    let mut q = pair.query(config);
    if let Some(w) = warm.as_deref() {
        w.prime(&mut q);
    }
    let (result, hit) = match kind {
        AnswerKind::Penetration => {
            let (result, hit) = penetration_traced(&q, tracer);
            (result, Some(hit))
        }
        _ => (answer_traced(&q, kind.gjk_kind(), tracer), None),
    };
    if let Some(w) = warm {
        w.record(&q, &result, kind.gjk_kind());
    }
    let repeat = match &hit {
        Some(hit) => needs_float64(&result, hit),
        None => matches!(
            result.status,
            GjkStatus::Unresolved | GjkStatus::MaxIterations
        ),
    };
    if !repeat {
        return (
            pair.gjk_to_local(result),
            hit.map(|h| pair.penetration_to_local(h)),
        );
    }
    // Both answers come from the float64 run, so they agree with each other (near the touching tolerance a
    // float32 "intersecting" next to a float64 "separated" would contradict itself).
    let wide = pair.widened();
    let q64 = wide.query(config);
    match hit {
        Some(hit) => {
            let (result64, hit64) = penetration_traced(&q64, tracer);
            (
                narrow_result(wide.gjk_to_local(result64)),
                Some(narrow_penetration(
                    wide.penetration_to_local(hit64),
                    hit.iterations + hit64.iterations,
                )),
            )
        }
        None => (
            narrow_result(wide.gjk_to_local(answer_traced(&q64, kind.gjk_kind(), tracer))),
            None,
        ),
    }
}
