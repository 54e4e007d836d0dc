//! The bounded-iteration GJK loop (Gilbert, Johnson and Keerthi 1988, with the signed-volumes
//! sub-algorithm), run on the cores in the pair-local frame with the radii applied as a margin.
//!
//! Keep in sync with `shaders/gjk.wgsl` (`gjk_query`): same order of tests, same tolerances, same bound.

#![expect(
    clippy::neg_cmp_op_on_partial_ord,
    reason = "negated comparisons are deliberate: they are true for NaN too, which must take the safe branch, and the WGSL twin reads the same"
)]

use super::config::{GjkConfig, GjkStatus, QueryKind, CONVERGENCE_ULPS};
use super::signed_volumes::s2d_plane;
use super::simplex::Simplex;
use super::support::PairSupport;
use crate::real::Real;

/// Consecutive iterations without a decrease of |v| that GJK tolerates before declaring convergence.
pub const MAX_STALLS: u32 = 3;

/// Units of roundoff in the allowance on |v|^2 when judging whether a step made progress.
pub const NOISE_ULPS: f64 = 8.0;

/// The answer for one pair, in the pair-local frame (A's local frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkResult<R: Real> {
    pub status: GjkStatus,
    /// True when the shapes overlap or touch within the tolerance (`status == Intersecting`).
    pub intersecting: bool,
    /// Distance between the surfaces (radii included); 0 when intersecting; an upper bound when capped.
    pub distance: R,
    /// Closest point on A. When intersecting, a point in (or at the contact of) both shapes and equal to
    /// `witness_b`.
    pub witness_a: R::V,
    /// Closest point on B.
    pub witness_b: R::V,
    /// Unit direction from A towards B along which the shapes are separated (`(witness_b - witness_a) /
    /// distance` when separated). Zero when the cores overlap and no direction is defined.
    pub normal: R::V,
    /// Support-point evaluations after the first one.
    pub iterations: u32,
}

/// Units of roundoff, of the pair's scale plus the distance, that the certified lower and upper bounds on the
/// core distance may differ by when GJK reports a separation. The convergence test allows 16
/// ([`CONVERGENCE_ULPS`]) between the current bounds; twice that leaves room for the rounding of the
/// recomputed upper bound, and is still 40 times finer than the touching tolerance, so a certified answer
/// cannot have the wrong flag.
pub const CERTIFICATE_ULPS: f64 = 32.0;

/// Runs GJK on one pair. `scale` is [`super::pair_scale`] of the two shapes.
pub fn gjk<R: Real>(
    pair: &PairSupport<R>,
    radius_a: R,
    radius_b: R,
    scale: R,
    config: &GjkConfig,
    kind: QueryKind,
) -> GjkResult<R> {
    gjk_with_simplex(pair, radius_a, radius_b, scale, config, kind).0
}

/// [`gjk`], also returning the final simplex (1 to 4 points of A - B with their support points), where EPA
/// starts when the cores overlap.
pub fn gjk_with_simplex<R: Real>(
    pair: &PairSupport<R>,
    radius_a: R,
    radius_b: R,
    scale: R,
    config: &GjkConfig,
    kind: QueryKind,
) -> (GjkResult<R>, Simplex<R>) {
    let margin = radius_a + radius_b;
    let tol = R::from_f64(config.touch_tolerance) * scale;
    let margin_tol2 = (margin + tol) * (margin + tol);
    let conv = R::from_f64(CONVERGENCE_ULPS) * R::EPSILON;

    // Start with the support points of A towards B and of B towards A: a direction from the relative
    // position, which avoids the near-zero first directions that rotated cubes otherwise produce.
    let mut dir = pair.position_b;
    if !(R::length_squared(dir) > R::ZERO) {
        dir = R::vec(R::ONE, R::ZERO, R::ZERO);
    }
    let mut simplex = Simplex::<R>::single(pair.support_a(dir), pair.support_b(-dir));
    let mut v = simplex.w[0];
    let mut vv = R::length_squared(v);

    let mut status: Option<GjkStatus> = None;
    let mut converged = false;
    let mut iterations = 0u32;
    let mut stalls = 0u32;
    // The square of the best lower bound on the core distance seen so far (v.w / |v| for every support point
    // w found along -v: the plane through w normal to v has all of A - B on its far side).
    let mut lower2 = R::ZERO;
    let mut separated_by_lower_bound = false;
    // Two single-point cores (spheres, points): A - B is one point, already the answer.
    let single_points = pair.points_a.len() == 1 && pair.points_b.len() == 1;
    loop {
        // The simplex lies inside A - B, so |v| bounds the core distance from above.
        if vv <= tol * tol {
            status = Some(GjkStatus::Intersecting);
            break;
        }
        if kind == QueryKind::Intersection && vv <= margin_tol2 {
            status = Some(GjkStatus::Intersecting);
            break;
        }
        if single_points {
            converged = true;
            break;
        }
        if iterations >= config.max_iterations {
            break;
        }
        iterations += 1;

        let a = pair.support_a(-v);
        let b = pair.support_b(v);
        let w = a - b;
        let vw = R::dot(v, w);
        // v.w / |v| bounds the core distance from below. Beyond the margin it proves separation (the boolean
        // early exit).
        if vw > R::ZERO && vw * vw > lower2 * vv {
            lower2 = vw * vw / vv;
        }
        if kind == QueryKind::Intersection && vw > R::ZERO && vw * vw > vv * margin_tol2 {
            status = Some(GjkStatus::Separated);
            separated_by_lower_bound = true;
            break;
        }
        // Upper minus lower bound, times |v|, within a few ulps of the coordinates: converged.
        let gap = vv - vw;
        if gap <= conv * (vv + vv.sqrt() * scale) || simplex.contains(w) {
            converged = true;
            break;
        }

        let previous = simplex;
        simplex.push(a, b);
        // Rounding allowance on |v|^2: the closest point of a simplex whose vertices are |w| from the
        // origin is known to about eps * |w| absolute, so |v|^2 to about eps * |w| * |v|.
        let noise = R::from_f64(NOISE_ULPS) * R::EPSILON * vv.sqrt() * simplex.max_vertex_norm();
        let mut projection = simplex.reduce(false);
        // GJK's distance decreases strictly in exact arithmetic. A clear increase means a sign test was
        // flipped by rounding (a near-zero sub-volume) and skipped the region that holds the closest
        // point: evaluate every face and edge of the same simplex before concluding.
        if !(projection.dist2 <= vv + noise) {
            simplex = previous;
            simplex.push(a, b);
            projection = simplex.reduce(true);
        }
        // Still clearly worse (or a non-number): the previous simplex is the best answer float arithmetic
        // can give.
        if !(projection.dist2 <= vv + noise) {
            simplex = previous;
            converged = true;
            break;
        }
        // A step within the rounding allowance is accepted a few times in a row: near a sliver triangle,
        // float32 cannot resolve a real but tiny decrease, yet the new closest point has an accurate
        // direction (the face normal), which turns the search and lets the next support point make the
        // large step (seen on cylinder-box pairs with coordinates 1000x the distance).
        if projection.dist2 < vv {
            stalls = 0;
        } else {
            // A segment plus the new point that the sign tests dropped again: keep the whole triangle when
            // the origin projects into it up to rounding (see `s2d_plane`), so the next support point can
            // close the tetrahedron.
            if previous.len == 2 && !simplex.contains(w) {
                let mut triangle = previous;
                triangle.push(a, b);
                if let Some(plane) = s2d_plane::<R>(&triangle.w) {
                    if plane.dist2 <= vv + noise {
                        triangle.lambda = plane.lambda;
                        simplex = triangle;
                        projection = plane;
                    }
                }
            }
            stalls += 1;
            if stalls > MAX_STALLS {
                simplex = previous;
                converged = true;
                break;
            }
        }
        v = projection.point;
        vv = projection.dist2;
    }

    let core_distance = vv.sqrt();
    let mut status = status.unwrap_or(if core_distance * core_distance <= margin_tol2 {
        GjkStatus::Intersecting
    } else if converged {
        GjkStatus::Separated
    } else {
        GjkStatus::MaxIterations
    });
    let exact = single_points || separated_by_lower_bound;
    if !exact
        && !certified(
            &simplex,
            status,
            core_distance,
            lower2,
            margin_tol2,
            tol,
            scale,
        )
    {
        status = GjkStatus::Unresolved;
    }

    let (core_a, core_b) = simplex.witnesses();
    let normal = if vv > R::ZERO {
        -v * (R::ONE / core_distance)
    } else {
        R::vzero()
    };
    if status == GjkStatus::Intersecting {
        // A point in both shapes: on the segment from core_a to core_b (length d), the part within
        // radius_a of core_a and within radius_b of core_b is [max(0, d - rb), min(d, ra)], never empty
        // when intersecting; take its middle. With overlapping cores (d = 0) that is core_a = core_b.
        let half = R::from_f64(0.5);
        let lo = core_distance - radius_b;
        let lo = if lo > R::ZERO { lo } else { R::ZERO };
        let hi = if radius_a < core_distance {
            radius_a
        } else {
            core_distance
        };
        let contact = if vv > R::ZERO {
            core_a + normal * ((lo + hi) * half)
        } else {
            (core_a + core_b) * half
        };
        let result = GjkResult {
            status,
            intersecting: true,
            distance: R::ZERO,
            witness_a: contact,
            witness_b: contact,
            normal,
            iterations,
        };
        (result, simplex)
    } else {
        let result = GjkResult {
            status,
            intersecting: false,
            distance: core_distance - margin,
            witness_a: core_a + normal * radius_a,
            witness_b: core_b - normal * radius_b,
            normal,
            iterations,
        };
        (result, simplex)
    }
}

/// Whether the answer GJK is about to give is backed by its own bounds, so rounding cannot have turned it.
///
/// The upper bound is the length of the point that the simplex weights describe, recomputed from the vertices
/// (a point of A - B whatever the sign tests did); the lower bound is the best `v.w / |v|` (valid for any
/// direction v, to a few ulps of the largest simplex vertex L). An overlap must have that point within the
/// margin. A separation must have the two bounds meet, as the convergence test asks, with room for:
/// - the rounding of the bounds themselves, a few ulps of L;
/// - the rounding of v, about `eps L` in absolute terms, which leaves a gap of about `eps L^2 / |v|` between
///   the bounds even when GJK is on the right feature. That term is allowed only up to a sixteenth of the
///   touching tolerance: in float64 it always fits, in float32 it does not near a long edge (a point in a
///   needle), which is exactly where float32 GJK can stop on the wrong feature.
///
/// Iteration caps are already unknown answers.
fn certified<R: Real>(
    simplex: &Simplex<R>,
    status: GjkStatus,
    core_distance: R,
    lower2: R,
    margin_tol2: R,
    tol: R,
    scale: R,
) -> bool {
    let upper = R::length_squared(simplex.weighted_point()).sqrt();
    let largest = simplex.max_vertex_norm();
    let ulps = |n: f64| R::from_f64(n) * R::EPSILON;
    match status {
        GjkStatus::Intersecting => upper <= margin_tol2.sqrt() + ulps(8.0) * largest,
        GjkStatus::Separated => {
            let upper = upper.max_of(core_distance);
            let direction_rounding = ulps(4.0) * largest * largest / upper;
            let cap = tol * R::from_f64(1.0 / 16.0);
            let band = ulps(CERTIFICATE_ULPS) * (upper + scale)
                + ulps(4.0) * largest
                + if direction_rounding < cap {
                    direction_rounding
                } else {
                    cap
                };
            upper - lower2.sqrt() <= band
        }
        _ => true,
    }
}
