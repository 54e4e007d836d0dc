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
///
/// An answer EPA did not converge on (`MaxIterations`, `Overflow`, `Degenerate`, from EPA or from this check)
/// gets its upper bound, [`with_depth_upper`].
pub fn penetration_certified<R: Real>(q: &PairQuery<R>, answer: Penetration<R>) -> Penetration<R> {
    let n = R::unplain(answer.normal);
    let supports = || [q.support.support_a(n), q.support.support_b(-n)];
    match answer.status {
        PenetrationStatus::Penetrating => {
            let supports = supports();
            let certified = certify(answer, supports, q.margin(), q.scale);
            if certified.status == PenetrationStatus::Penetrating {
                certified
            } else {
                with_depth_upper(certified, supports, q.margin())
            }
        }
        // A normal of no direction (or none at all) has no support points, and bounds nothing.
        PenetrationStatus::MaxIterations
        | PenetrationStatus::Overflow
        | PenetrationStatus::Degenerate
            if R::length_squared(n) > R::ZERO && R::length_squared(n).is_finite() =>
        {
            with_depth_upper(answer, supports(), q.margin())
        }
        _ => answer,
    }
}

/// `answer` with its upper bound on the depth: the support functions of A along its normal and of B against
/// it (`a` and `b`, normalised units, A's centred frame) add up to how far B must move along the normal to
/// leave A, which is at least the penetration depth, whatever the direction (the depth is the least of them
/// over all directions). Measured along the unit direction of a normal that rounding left off unit length; a
/// negative sum (rounding at an exact touch) is 0, as the depth is; a normal of no direction bounds nothing.
fn with_depth_upper<R: Real>(
    answer: Penetration<R>,
    [a, b]: [R::V; 2],
    margin: R,
) -> Penetration<R> {
    let n = R::unplain(answer.normal);
    let length = R::length_squared(n).sqrt();
    let upper = R::dot(a - b, n) / length + margin;
    let depth_upper = if upper.is_finite() && length > R::ZERO {
        Some(if upper > R::ZERO { upper } else { R::ZERO })
    } else {
        None
    };
    Penetration {
        depth_upper,
        ..answer
    }
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
            depth_upper: None,
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

    /// A non-converged answer's bound, on EPA cut short at the GPU's first-try bounds: two round hulls of 800
    /// points at one centre (rounded, in both orders, float32 and float64). Its depth is at most the least
    /// depth over a lattice of directions (an upper bound on the exact depth), and `depth_upper` is the
    /// depth along its own normal found by brute force, so at least the exact depth.
    #[cfg(feature = "scenario")]
    #[test]
    fn answers_epa_did_not_converge_on_carry_their_upper_bound() {
        use crate::epa::{expand_traced, EpaLimits};
        use crate::gjk::NoTrace;
        use crate::query::frame::Prepared;
        use crate::scenario::mesh_gen::fibonacci_sphere;
        use crate::shape::ConvexShape;
        use glam::DVec3;

        fn cut_short<R: Real>(q: &PairQuery<R>) -> Penetration<R> {
            let (result, simplex) = gjk_with_simplex_traced(q, QueryKind::Distance, &mut NoTrace);
            assert_eq!(result.status, GjkStatus::Intersecting);
            let hit = expand_traced(q, &simplex, EpaLimits::FIRST, &mut NoTrace);
            penetration_certified(q, hit)
        }
        let sphere = |radius: f32| -> Vec<Vec3> {
            fibonacci_sphere(800).iter().map(|p| *p * radius).collect()
        };
        let along = |points: &[Vec3], n: DVec3| {
            points
                .iter()
                .map(|p| p.as_dvec3().dot(n))
                .fold(f64::NEG_INFINITY, f64::max)
        };
        let (big, small) = (sphere(1.0), sphere(0.5));
        let config = GjkConfig::default();
        let offsets = [Vec3::ZERO, Vec3::new(0.02, -0.01, 0.005)];
        for (pa, pb, offset) in offsets
            .iter()
            .flat_map(|&o| [(&big, &small, o), (&small, &big, o)])
        {
            let (ra, rb) = (0.25, 0.125);
            let a = ConvexShape::hull(pa, ra).unwrap();
            let b = ConvexShape::hull(pb, rb).unwrap();
            // How far B (moved by `offset`) must move along the unit `n` to leave A, radii included.
            let depth_along = |n: DVec3| {
                along(pa, n) + along(pb, -n) - offset.as_dvec3().dot(n) + (ra + rb) as f64
            };
            let lattice_least = fibonacci_sphere(4096)
                .iter()
                .map(|n| depth_along(n.as_dvec3().normalize()))
                .fold(f64::INFINITY, f64::min);
            let placed = RelativePose::<f32> {
                rotation: Quat::IDENTITY,
                position: offset,
            };
            let pair = Prepared::new(&a, &b, &placed);
            let wide = pair.widened();
            let single = pair.penetration_to_local(cut_short(&pair.query(&config)));
            let double = wide.penetration_to_local(cut_short(&wide.query(&config)));
            let answers = [
                (
                    single.status,
                    single.depth as f64,
                    single.normal.as_dvec3(),
                    single.depth_upper.map(f64::from),
                ),
                (
                    double.status,
                    double.depth,
                    double.normal,
                    double.depth_upper,
                ),
            ];
            for (status, depth, normal, upper) in answers {
                assert!(
                    matches!(
                        status,
                        PenetrationStatus::MaxIterations | PenetrationStatus::Overflow
                    ),
                    "{status:?}"
                );
                let upper = upper.expect("a non-converged answer has its bound");
                let exact_upper = depth_along(normal.normalize());
                assert!(depth <= lattice_least + 1e-6, "{depth} {lattice_least}");
                assert!((upper - exact_upper).abs() <= 1e-5, "{upper} {exact_upper}");
                assert!(depth < upper, "{depth} {upper}");
            }
        }
        // A converged answer has no bound.
        let a = ConvexShape::hull(&big, 0.0).unwrap();
        let still = RelativePose::<f32> {
            rotation: Quat::IDENTITY,
            position: Vec3::ZERO,
        };
        let pair = Prepared::new(&a, &a, &still);
        let q = pair.query(&config);
        let (_, hit) = penetration_traced(&q, &mut NoTrace);
        assert_eq!(hit.status, PenetrationStatus::Penetrating);
        assert_eq!(hit.depth_upper, None);
    }
}
