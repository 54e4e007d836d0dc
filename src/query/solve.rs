//! The algorithms on one prepared pair, below the entry points that prepare it: GJK (or the closed form for
//! point and segment cores), GJK then EPA then the certificate, and the test for a float64 repeat. The entry
//! points of `distance`, `penetration` and `kind` all run these.

use super::closed_form::{closed_form, ClosedForm};
use crate::epa::{
    penetrate_traced, EpaTracer, Penetration, PenetrationStatus, EPA_CERTIFICATE_ROUNDING_ULPS,
    EPA_CERTIFICATE_SLACK, EPA_UNIT_NORMAL_SLACK,
};
use crate::gjk::{
    gjk_bare, gjk_with_simplex_traced, BareResult, GjkResult, GjkStatus, GjkStep, GjkTracer,
    PairQuery, QueryKind, Simplex,
};
use crate::real::Real;

/// [`answer`], showing `tracer` GJK's iterations (or the closed form's one step).
pub fn answer_traced<R: Real, T: GjkTracer<R>>(
    q: &PairQuery<R>,
    kind: QueryKind,
    tracer: &mut T,
) -> GjkResult<R> {
    match closed_form_traced(q, tracer) {
        Some(found) => found.result,
        None => gjk_with_simplex_traced(q, kind, tracer).0,
    }
}

/// [`answer`]'s status, flag, distance and iterations alone (see [`gjk_bare`]): the closed form answers in
/// full anyway (it is cheaper than GJK's end), GJK skips the witnesses and the normal.
pub fn answer_bare<R: Real>(q: &PairQuery<R>, kind: QueryKind) -> BareResult<R> {
    match closed_form(q) {
        Some(found) => BareResult::of(&found.result),
        None => gjk_bare(q, kind),
    }
}

/// [`closed_form`], shown to `tracer` as a start without iterations: the one-point simplex on the closest
/// core points, whose distance is exact (both bounds).
fn closed_form_traced<R: Real, T: GjkTracer<R>>(
    q: &PairQuery<R>,
    tracer: &mut T,
) -> Option<ClosedForm<R>> {
    let found = closed_form(q)?;
    let closest = found.core_a - found.core_b;
    let closest2 = R::length_squared(closest);
    tracer.gjk_step(&GjkStep {
        query: q,
        iteration: 0,
        direction: None,
        simplex: &found.simplex(),
        closest,
        closest2,
        lower2: closest2,
    });
    let result = &found.result;
    tracer.gjk_answer(result.status, result.distance, result.iterations);
    Some(found)
}

/// [`penetration`], showing `tracer` GJK's iterations and EPA's expansions.
pub fn penetration_traced<R: Real, T: GjkTracer<R> + EpaTracer<R>>(
    q: &PairQuery<R>,
    tracer: &mut T,
) -> (GjkResult<R>, Penetration<R>) {
    if let Some(found) = closed_form_traced(q, tracer) {
        let answer = penetration_after(q, &found.result, &found.simplex(), tracer);
        return (found.result, answer);
    }
    let (result, simplex) = gjk_with_simplex_traced(q, QueryKind::Distance, tracer);
    let answer = penetration_after(q, &result, &simplex, tracer);
    (result, answer)
}

/// The penetration answer for GJK's `result` and final `simplex` (or the closed form's).
fn penetration_after<R: Real, T: EpaTracer<R>>(
    q: &PairQuery<R>,
    result: &GjkResult<R>,
    simplex: &Simplex<R>,
    tracer: &mut T,
) -> Penetration<R> {
    match result.status {
        GjkStatus::Separated => Penetration::none(PenetrationStatus::Separated),
        GjkStatus::MaxIterations => Penetration::none(PenetrationStatus::GjkMaxIterations),
        GjkStatus::Unresolved => Penetration::none(PenetrationStatus::GjkUnresolved),
        GjkStatus::GpuLoopLimit => Penetration::none(PenetrationStatus::GpuLoopLimit),
        GjkStatus::Intersecting => penetration_certified(
            q,
            penetrate_traced(q, simplex, R::unplain(result.normal), tracer),
        ),
    }
}

/// A penetrating answer must be what it claims: B moved by `depth` along `normal` just separates the shapes,
/// so the normal is unit length, the support functions along it add up to the depth, and the contact points
/// are `normal * depth` apart, all within [`EPA_CERTIFICATE_SLACK`] of the pair's size (less the rounding of
/// the check itself, [`EPA_CERTIFICATE_ROUNDING_ULPS`]). Rounding can fool
/// every earlier check (a witness difference that puts touching cores apart, a start tetrahedron that looks
/// flat, a fold that leaves a face too close, a cross product that overflowed, sliver weights that put the
/// contacts apart); this one catches what they miss, and such an answer becomes `Degenerate` (repeated in
/// float64 by the float32 entry points) instead of a silent wrong normal.
pub fn penetration_certified<R: Real>(q: &PairQuery<R>, answer: Penetration<R>) -> Penetration<R> {
    if answer.status != PenetrationStatus::Penetrating {
        return answer;
    }
    let n = R::unplain(answer.normal);
    let supports = [q.support.support_a(n), q.support.support_b(-n)];
    certify(answer, supports, q.margin(), q.scale)
}

/// [`penetration_certified`]'s checks of a penetrating `answer`, given A's support point along its normal
/// and B's against it (normalised units, A's centred frame), the radii's sum `margin` and the pair's `scale`.
pub(super) fn certify<R: Real>(
    answer: Penetration<R>,
    [a, b]: [R::V; 2],
    margin: R,
    scale: R,
) -> Penetration<R> {
    let n = R::unplain(answer.normal);
    let (contact_a, contact_b) = (R::unplain(answer.contact_a), R::unplain(answer.contact_b));
    let along = R::dot(a - b, n) + margin;
    let unit_length = (R::length_squared(n) - R::ONE).abs() <= R::from_f64(EPA_UNIT_NORMAL_SLACK);
    // The slack less the rounding of these very checks, so that what passes is within the slack exactly.
    let sizes = R::l1_norm(a)
        + R::l1_norm(b)
        + R::l1_norm(contact_a)
        + R::l1_norm(contact_b)
        + answer.depth.abs()
        + margin;
    let slack = R::from_f64(EPA_CERTIFICATE_SLACK) * scale
        - R::from_f64(EPA_CERTIFICATE_ROUNDING_ULPS) * R::EPSILON * sizes;
    let contacts = contact_a - contact_b - n * answer.depth;
    if unit_length
        && (along - answer.depth).abs() <= slack
        && R::length_squared(contacts) <= slack * slack
    {
        answer
    } else {
        Penetration {
            status: PenetrationStatus::Degenerate,
            ..answer
        }
    }
}

/// Whether float32 left the pair without an answer that float64 may give: GJK unresolved or out of
/// iterations (slow progress along a sliver), EPA folded or out of bounds.
pub(super) fn needs_float64(result: &GjkResult<f32>, hit: &Penetration<f32>) -> bool {
    matches!(
        result.status,
        GjkStatus::Unresolved | GjkStatus::MaxIterations
    ) || matches!(
        hit.status,
        PenetrationStatus::Degenerate
            | PenetrationStatus::Overflow
            | PenetrationStatus::MaxIterations
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gjk::{GjkConfig, PairSupport};
    use crate::pose::RelativePose;
    use crate::shape::HullView;
    use glam::{Quat, Vec3, Vec3A};

    #[test]
    fn the_certificate_keeps_true_answers_and_names_wrong_ones() {
        let cube: Vec<Vec3> = (0..8)
            .map(|i| {
                let s = |bit: i32| if i & bit == 0 { -0.5 } else { 0.5 };
                Vec3::new(s(1), s(2), s(4))
            })
            .collect();
        let lanes: Vec<Vec3A> = cube.iter().map(|&p| p.into()).collect();
        // B's cube 0.75 along x: the overlap is 0.25 along x.
        let relative = RelativePose::<f32> {
            rotation: Quat::IDENTITY,
            position: Vec3::new(0.75, 0.0, 0.0),
        };
        let config = GjkConfig::default();
        let pair = |margin: f32| PairQuery {
            support: PairSupport::<f32>::new(
                HullView::scan(&lanes),
                HullView::scan(&lanes),
                &relative,
                1.0,
            ),
            radius_a: margin,
            radius_b: 0.0,
            scale: 1.0,
            config: &config,
        };
        let answer = |normal: Vec3, depth: f32| Penetration {
            status: PenetrationStatus::Penetrating,
            depth,
            normal,
            contact_a: normal * depth,
            contact_b: Vec3::ZERO,
            iterations: 1,
        };
        let kept = penetration_certified(&pair(0.0), answer(Vec3::X, 0.25));
        assert_eq!(kept.status, PenetrationStatus::Penetrating);
        // A depth cut short, a normal along which B would have to move 1.0, not 0.25, and a normal that is not
        // unit length.
        // And contact points that are not the depth apart along the normal.
        let apart = Penetration {
            contact_b: Vec3::new(0.0, 0.1, 0.0),
            ..answer(Vec3::X, 0.25)
        };
        for wrong in [
            answer(Vec3::X, 0.1),
            answer(Vec3::Y, 0.25),
            answer(Vec3::ZERO, 0.0),
            apart,
        ] {
            assert_eq!(
                penetration_certified(&pair(0.0), wrong).status,
                PenetrationStatus::Degenerate
            );
        }
        // Radii count: with 0.1 of margin the depth along x is 0.35.
        let rounded = penetration_certified(&pair(0.1), answer(Vec3::X, 0.35));
        assert_eq!(rounded.status, PenetrationStatus::Penetrating);
        let separated = Penetration::<f32>::none(PenetrationStatus::Separated);
        assert_eq!(penetration_certified(&pair(0.0), separated), separated);
    }
}
