//! One entry point for the three things a pair can be asked: whether the shapes intersect, how far apart they
//! are, or (the default of `gpu-gjk query`) how deep they overlap. Asking for less costs less: no EPA for a
//! distance, and GJK's boolean early exit for an intersection flag.

use super::frame::{narrow_penetration, narrow_result, PairPose, Prepared};
use super::point_pair::point_pair_answer;
use super::solve::{answer_bare, answer_traced, needs_float64, penetration_traced};
use super::warm_start::WarmStart;
use crate::epa::{PairTracer, Penetration};
use crate::gjk::{BareResult, GjkConfig, GjkResult, GjkStatus, NoTrace, QueryKind};
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

    /// The kind that asks GJK's `kind` alone.
    pub fn of(kind: QueryKind) -> Self {
        match kind {
            QueryKind::Intersection => AnswerKind::Intersection,
            QueryKind::Distance => AnswerKind::Distance,
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
pub(crate) type KindAnswer = (GjkResult<f32>, Option<Penetration<f32>>);

/// Answers `kind` for one pair, B's local frame placed in A's by `relative`, in A's local frame: float32, with
/// the float64 repeat of a pair float32 leaves without an answer (as [`super::query_relative`] and
/// [`super::penetration_relative`], which this generalises). With `warm`, GJK starts from the pair's last
/// separating direction and the hull walks from their last vertices, and `warm` is updated for next time.
/// Two point cores (spheres) without a warm start take a shorter path to the same bits
/// (`query::point_pair`).
pub fn answer_relative(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: impl Into<PairPose>,
    kind: AnswerKind,
    config: &GjkConfig,
    warm: Option<&mut WarmStart>,
) -> KindAnswer {
    let relative = relative.into();
    if warm.is_none() && a.len() == 1 && b.len() == 1 {
        let penetration = kind == AnswerKind::Penetration;
        if let Some(found) = point_pair_answer(a, b, relative, penetration, config) {
            return found;
        }
    }
    answer_relative_traced(a, b, relative, kind, config, warm, &mut NoTrace)
}

/// [`answer_relative`], showing `tracer` the float32 run and the float64 repeat when there is one.
pub fn answer_relative_traced<T: PairTracer>(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: impl Into<PairPose>,
    kind: AnswerKind,
    config: &GjkConfig,
    warm: Option<&mut WarmStart>,
    tracer: &mut T,
) -> KindAnswer {
    let pair = Prepared::placed(a, b, relative.into());
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

/// The status, flag, distance and iterations of [`answer_relative`] for GJK's `kind` (no warm start), for a
/// caller that reads nothing else (a broad phase's filter, a distance threshold): the same bits as
/// `answer_relative`'s fields of those names, float64 repeat included, without the witnesses and the normal
/// that GJK otherwise forms at the end of every query.
pub fn answer_relative_bare(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: impl Into<PairPose>,
    kind: QueryKind,
    config: &GjkConfig,
) -> BareResult<f32> {
    let pair = Prepared::placed(a, b, relative.into());
    let result = answer_bare(&pair.query(config), kind);
    if !matches!(
        result.status,
        GjkStatus::Unresolved | GjkStatus::MaxIterations
    ) {
        return BareResult {
            distance: result.distance * (1.0 / pair.unit),
            ..result
        };
    }
    // As `answer_relative`: the float64 run's answer, moved back to the user's units the same way.
    let wide = pair.widened();
    let wide_result = answer_bare(&wide.query(config), kind);
    BareResult {
        status: wide_result.status,
        intersecting: wide_result.intersecting,
        distance: (wide_result.distance * (1.0 / pair.unit as f64)) as f32,
        iterations: wide_result.iterations,
    }
}

#[cfg(all(test, feature = "scenario"))]
mod tests {
    use super::*;
    use crate::pose::RelativePose;
    use crate::query::trace_query;
    use crate::scenario::{random_rotation, random_scene, MixSpec};
    use glam::{Quat, Vec3};
    use rand::{Rng, SeedableRng};

    /// The pairs to compare: a random mix, and points beside and inside needles 1e-4 to 1e-3 of their length
    /// thick (where float32 GJK leaves some pairs to the float64 repeat).
    fn pairs() -> Vec<(ConvexShape, ConvexShape, RelativePose<f32>)> {
        let scene = random_scene(7, 600, &MixSpec::default());
        let mut pairs: Vec<_> = scene
            .pairs
            .iter()
            .map(|&[i, j]| {
                let (a, b) = (&scene.instances[i as usize], &scene.instances[j as usize]);
                (
                    scene.shapes[a.shape as usize].clone(),
                    scene.shapes[b.shape as usize].clone(),
                    RelativePose::between_f32(&a.pose, &b.pose),
                )
            })
            .collect();
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(11);
        let point = ConvexShape::new(vec![Vec3::ZERO], 0.0).unwrap();
        for k in 0..200 {
            let t = 10f32.powf(rng.random_range(-4.0..-3.0));
            let needle = ConvexShape::cuboid(Vec3::new(1.0, t, t)).unwrap();
            let across = if k % 2 == 0 { 0.5 * t } else { t * 1.01 };
            let position = Vec3::new(rng.random_range(-0.9..0.9), across, 0.0);
            let rotation: Quat = random_rotation(&mut rng);
            let relative = RelativePose {
                rotation,
                position: rotation.inverse() * -position,
            };
            pairs.push((point.clone(), needle, relative));
        }
        pairs
    }

    #[test]
    fn bare_answers_have_the_full_answers_flag_distance_status_and_iterations() {
        let config = GjkConfig::default();
        let mut repeated = 0;
        for (a, b, relative) in pairs() {
            for kind in [QueryKind::Intersection, QueryKind::Distance] {
                let full =
                    answer_relative(&a, &b, &relative, AnswerKind::of(kind), &config, None).0;
                let bare = answer_relative_bare(&a, &b, &relative, kind, &config);
                assert_eq!(bare, BareResult::of(&full), "{kind:?} {relative:?}");
                assert_eq!(bare.distance.to_bits(), full.distance.to_bits());
                if trace_query(&a, &b, &relative, kind, &config).runs.len() > 1 {
                    repeated += 1;
                }
            }
        }
        // The float64 repeat's path is compared too.
        assert!(repeated > 0, "no pair took the float64 repeat");
    }
}
