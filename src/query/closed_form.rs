//! Closed forms for pairs whose cores are points or segments (sphere-sphere, sphere-capsule, capsule-capsule, and
//! segments and points without radius): the closest points of two segments, the answer GJK converges to, found
//! without iterating. Same fields and statuses as GJK's answer, with 0 iterations.
//!
//! Cores that touch or cross (closer than the touching tolerance) have no direction between them; those pairs,
//! rare, take the general path (GJK, then EPA for the depth).

#![expect(
    clippy::neg_cmp_op_on_partial_ord,
    reason = "negated comparisons are deliberate: they are true for NaN too, which must take the safe branch (the general path)"
)]

use crate::gjk::{GjkResult, GjkStatus, PairQuery, Simplex};
use crate::real::Real;

/// GJK's answer and the closest core points, when both cores have at most two points and are apart; `None`
/// otherwise.
pub fn closed_form<R: Real>(q: &PairQuery<R>) -> Option<ClosedForm<R>> {
    let s = &q.support;
    if s.a.points.len() > 2 || s.b.points.len() > 2 {
        return None;
    }
    let place = |p: R::V| R::mat_mul(s.rotation_b, p) * s.unit + s.position_b;
    let (core_a, core_b) = match (s.a.points, s.b.points) {
        ([a], [b]) => (*a * s.unit, place(*b)),
        _ => {
            let end = |points: &[R::V], k: usize| points[k.min(points.len() - 1)];
            let a = [end(s.a.points, 0) * s.unit, end(s.a.points, 1) * s.unit];
            let b = [place(end(s.b.points, 0)), place(end(s.b.points, 1))];
            closest_points_of_segments::<R>(a, b)
        }
    };
    closed_form_of_cores(
        [core_a, core_b],
        [q.radius_a, q.radius_b],
        q.touch_tolerance(),
    )
}

/// [`closed_form`] once the closest core points are known: `core_a` and `core_b` with the radii around them.
pub(crate) fn closed_form_of_cores<R: Real>(
    [core_a, core_b]: [R::V; 2],
    [radius_a, radius_b]: [R; 2],
    touch: R,
) -> Option<ClosedForm<R>> {
    let gap = core_b - core_a;
    let core_distance = R::length_squared(gap).sqrt();
    if !(core_distance > touch) {
        return None;
    }
    let normal = gap * (R::ONE / core_distance);
    let margin = radius_a + radius_b;
    let result = if core_distance > margin + touch {
        GjkResult {
            status: GjkStatus::Separated,
            intersecting: false,
            distance: core_distance - margin,
            witness_a: R::plain(core_a + normal * radius_a),
            witness_b: R::plain(core_b - normal * radius_b),
            normal: R::plain(normal),
            iterations: 0,
        }
    } else {
        // A point in both shapes, as GJK gives it: the middle of the part of the segment between the cores that
        // lies within radius_a of core_a and within radius_b of core_b.
        let lo = core_distance - radius_b;
        let lo = if lo > R::ZERO { lo } else { R::ZERO };
        let hi = if radius_a < core_distance {
            radius_a
        } else {
            core_distance
        };
        let contact = core_a + normal * ((lo + hi) * R::from_f64(0.5));
        GjkResult {
            status: GjkStatus::Intersecting,
            intersecting: true,
            distance: R::ZERO,
            witness_a: R::plain(contact),
            witness_b: R::plain(contact),
            normal: R::plain(normal),
            iterations: 0,
        }
    };
    Some(ClosedForm {
        result,
        core_a,
        core_b,
    })
}

/// A closed form's answer: GJK's answer and the closest points of the cores.
///
/// The closest points rather than the one-point simplex they make: moving a simplex (four points of A, of B
/// and of A - B) through the `Option` and the callers was a `memcpy` call each time: a fifth of the profile of the penetration
/// queries of the mix's point and segment pairs.
#[derive(Clone, Copy)]
pub struct ClosedForm<R: Real> {
    pub result: GjkResult<R>,
    pub core_a: R::V,
    pub core_b: R::V,
}

impl<R: Real> ClosedForm<R> {
    /// The one-point simplex on the closest core points, which EPA's "cores apart" case reads (and a tracer
    /// shows).
    pub fn simplex(&self) -> Simplex<R> {
        Simplex::single(self.core_a, self.core_b)
    }
}

/// The closest points of segments `a` and `b` (either may be a single point: equal ends), after Ericson,
/// "Real-Time Collision Detection", 5.1.9. Parallel segments (the determinant within rounding of zero) start
/// from `a[0]`'s end; the clamping that follows still finds a closest pair, and the distance is well
/// conditioned even where the parameters are not.
pub fn closest_points_of_segments<R: Real>(a: [R::V; 2], b: [R::V; 2]) -> (R::V, R::V) {
    let clamp01 = |x: R| {
        if !(x > R::ZERO) {
            R::ZERO
        } else if x > R::ONE {
            R::ONE
        } else {
            x
        }
    };
    let (d1, d2, r) = (a[1] - a[0], b[1] - b[0], a[0] - b[0]);
    let (aa, ee, f) = (R::dot(d1, d1), R::dot(d2, d2), R::dot(d2, r));
    let (s, t) = if !(aa > R::ZERO) && !(ee > R::ZERO) {
        (R::ZERO, R::ZERO)
    } else if !(aa > R::ZERO) {
        (R::ZERO, clamp01(f / ee))
    } else {
        let c = R::dot(d1, r);
        if !(ee > R::ZERO) {
            (clamp01(-c / aa), R::ZERO)
        } else {
            let bb = R::dot(d1, d2);
            let denom = aa * ee - bb * bb;
            let s = if denom > R::EPSILON * aa * ee {
                clamp01((bb * f - c * ee) / denom)
            } else {
                R::ZERO
            };
            let t = (bb * s + f) / ee;
            if !(t > R::ZERO) {
                (clamp01(-c / aa), R::ZERO)
            } else if t > R::ONE {
                (clamp01((bb - c) / aa), R::ONE)
            } else {
                (s, t)
            }
        }
    };
    (a[0] + d1 * s, b[0] + d2 * t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    fn distance(a: [DVec3; 2], b: [DVec3; 2]) -> f64 {
        let (p, q) = closest_points_of_segments::<f64>(a, b);
        (q - p).length()
    }

    /// The distance by brute force over a fine grid of both parameters, refined near its minimum.
    fn brute(a: [DVec3; 2], b: [DVec3; 2]) -> f64 {
        let n = 400;
        let mut best = f64::MAX;
        for i in 0..=n {
            for j in 0..=n {
                let (s, t) = (i as f64 / n as f64, j as f64 / n as f64);
                let d = (a[0] + (a[1] - a[0]) * s - b[0] - (b[1] - b[0]) * t).length();
                best = best.min(d);
            }
        }
        best
    }

    #[test]
    fn segment_distances_match_brute_force() {
        let v = DVec3::new;
        let cases = [
            (
                [v(0., 0., 0.), v(1., 0., 0.)],
                [v(0.5, 1., 0.), v(0.5, 1., 1.)],
            ),
            // Parallel, overlapping and not.
            (
                [v(0., 0., 0.), v(2., 0., 0.)],
                [v(1., 1., 0.), v(3., 1., 0.)],
            ),
            (
                [v(0., 0., 0.), v(1., 0., 0.)],
                [v(2., 1., 0.), v(3., 1., 0.)],
            ),
            // Crossing at a distance, ends beyond each other, a point against a segment, two points.
            (
                [v(-1., 0., 0.), v(1., 0., 0.)],
                [v(0., -1., 0.3), v(0., 1., 0.3)],
            ),
            (
                [v(0., 0., 0.), v(1., 1., 0.)],
                [v(2., 0., 1.), v(3., -1., 1.)],
            ),
            (
                [v(0.3, 0.2, 0.), v(0.3, 0.2, 0.)],
                [v(0., 0., 1.), v(1., 0., 1.)],
            ),
            (
                [v(0., 0., 0.), v(0., 0., 0.)],
                [v(1., 2., 2.), v(1., 2., 2.)],
            ),
            (
                [v(0., 0., 0.), v(1., 0., 0.)],
                [v(-0.5, 0., 0.), v(-0.2, 0., 0.)],
            ),
        ];
        for (a, b) in cases {
            let (d, expected) = (distance(a, b), brute(a, b));
            assert!(
                d <= expected + 1e-12 && d >= expected - 1e-4,
                "{a:?} {b:?}: {d} vs {expected}"
            );
            // Swapping the segments gives the same distance.
            assert!((distance(b, a) - d).abs() < 1e-12);
        }
    }
}
