//! The bounded-iteration GJK loop (Gilbert, Johnson and Keerthi 1988, with the signed-volumes
//! sub-algorithm), run on the cores in the pair-local frame with the radii applied as a margin.
//!
//! `shaders/shared/solver.wgsl` is its twin: the same functions under the same names (`GjkSearch::step` is
//! `gjk_search_step` there), the same order of tests, tolerances and bound.

#![expect(
    clippy::neg_cmp_op_on_partial_ord,
    reason = "negated comparisons are deliberate: they are true for NaN too, which must take the safe branch, and the WGSL twin reads the same"
)]

use super::config::{
    GjkStatus, QueryKind, BOUND_ROUNDING_ULPS, CERTIFICATE_ULPS, CONVERGENCE_ULPS,
    DIRECTION_ROUNDING_CAP, DIRECTION_ROUNDING_ULPS, INTERSECTION_CERTIFICATE_ULPS,
    LOWER_BOUND_NOISE_FACTOR, MAX_STALLS, NOISE_ULPS,
};
use super::pair::PairQuery;
use super::signed_volumes::{s2d_plane, Projection};
use super::simplex::Simplex;
use super::trace::{GjkStep, GjkTracer, NoTrace};
use crate::real::Real;

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
    pub witness_a: R::Plain,
    /// Closest point on B.
    pub witness_b: R::Plain,
    /// Unit direction from A towards B along which the shapes are separated (`(witness_b - witness_a) /
    /// distance` when separated). Zero when the cores overlap and no direction is defined.
    pub normal: R::Plain,
    /// Support-point evaluations after the first one.
    pub iterations: u32,
}

/// The tolerances of one pair, in normalised units.
#[derive(Clone, Copy)]
struct Tolerances<R: Real> {
    /// The touching tolerance.
    touch: R,
    /// `(margin + touch)^2`: a core distance below its root means the surfaces intersect.
    margin_touch2: R,
}

/// How a search stopped.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// The answer is known: the simplex came within the tolerance, or a lower bound proved separation.
    Decided(GjkStatus),
    /// The bounds met, or float arithmetic can make no more progress.
    Converged,
    /// The iteration bound.
    Capped,
}

/// GJK's state between iterations (the twin is `GjkSearch` in `solver.wgsl`).
struct GjkSearch<R: Real> {
    simplex: Simplex<R>,
    /// The point of the simplex closest to the origin, and its squared length.
    v: R::V,
    vv: R,
    iterations: u32,
    stalls: u32,
    /// The square of the best lower bound on the core distance seen so far: `v.w / |v|` for every support point
    /// w found along -v (the plane through w normal to v has all of A - B on its far side).
    lower2: R,
    /// A separation proved by the boolean early exit rests on a lower bound alone.
    separated_by_lower_bound: bool,
}

/// Runs GJK on one pair, showing `tracer` the start and every iteration (see [`super::trace`]); also returns the
/// final simplex (1 to 4 points of A - B with their support points), where EPA starts when the cores overlap.
pub(crate) fn gjk_with_simplex_traced<R: Real, T: GjkTracer<R>>(
    q: &PairQuery<R>,
    kind: QueryKind,
    tracer: &mut T,
) -> (GjkResult<R>, Simplex<R>) {
    let (search, status) = search(q, kind, tracer);
    let answer = search.answer(q, status);
    tracer.gjk_answer(answer.status, answer.distance, answer.iterations);
    (answer, search.simplex)
}

/// GJK's status, flag, distance and iteration count alone, for a caller that reads nothing else: the same
/// bits as [`gjk_with_simplex_traced`]'s fields of those names, without the witnesses and the separating direction (the end of
/// every query there: the simplex's weights, [`Simplex::perpendicular`] and a unit vector, 6 to 12% of a
/// random mix's query time in `benches/vs_parry.rs`).
///
/// CPU only: the GPU kernels answer in full whatever the caller reads.
pub(crate) fn gjk_bare<R: Real>(q: &PairQuery<R>, kind: QueryKind) -> BareResult<R> {
    let (search, status) = search(q, kind, &mut NoTrace);
    search.bare_answer(q, status)
}

/// [`GjkResult`] without the witnesses and the normal: what [`gjk_bare`] answers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BareResult<R: Real> {
    pub status: GjkStatus,
    pub intersecting: bool,
    pub distance: R,
    pub iterations: u32,
}

impl<R: Real> BareResult<R> {
    /// The fields of `full` that a bare answer has.
    pub fn of(full: &GjkResult<R>) -> Self {
        Self {
            status: full.status,
            intersecting: full.intersecting,
            distance: full.distance,
            iterations: full.iterations,
        }
    }
}

/// The loop of [`gjk_with_simplex_traced`] up to the certified status, before any answer is formed.
#[inline(always)]
fn search<R: Real, T: GjkTracer<R>>(
    q: &PairQuery<R>,
    kind: QueryKind,
    tracer: &mut T,
) -> (GjkSearch<R>, GjkStatus) {
    let touch = q.touch_tolerance();
    let tolerances = Tolerances {
        touch,
        margin_touch2: (q.margin() + touch) * (q.margin() + touch),
    };
    let mut search = GjkSearch::start(q);
    tracer.gjk_step(&search.traced(q, None));
    // Two single-point cores (spheres, points): A - B is one point, already the answer.
    let single_points = q.support.a.points.len() == 1 && q.support.b.points.len() == 1;
    let stop = loop {
        if let Some(stop) = search.decided(kind, &tolerances, single_points) {
            break stop;
        }
        if search.iterations >= q.config.max_iterations {
            break Stop::Capped;
        }
        let direction = -search.v;
        let stop = search.step(q, kind, &tolerances);
        tracer.gjk_step(&search.traced(q, Some(direction)));
        if let Some(stop) = stop {
            break stop;
        }
    };
    let core_distance = search.vv.sqrt();
    let mut status = match stop {
        Stop::Decided(status) => status,
        _ if core_distance * core_distance <= tolerances.margin_touch2 => GjkStatus::Intersecting,
        Stop::Converged => GjkStatus::Separated,
        Stop::Capped => GjkStatus::MaxIterations,
    };
    let exact = single_points || search.separated_by_lower_bound;
    if !exact && !gjk_certified(&search, status, &tolerances, q.scale) {
        status = GjkStatus::Unresolved;
    }
    (search, status)
}

impl<R: Real> GjkSearch<R> {
    /// The support points of A towards B and of B towards A: a direction from the relative position (or the
    /// pair's last separating direction), which avoids the near-zero first directions that rotated cubes
    /// otherwise produce.
    fn start(q: &PairQuery<R>) -> Self {
        let mut dir = q.support.start;
        if !(R::length_squared(dir) > R::ZERO) {
            dir = R::vec(R::ONE, R::ZERO, R::ZERO);
        }
        let simplex = Simplex::<R>::single(q.support.support_a(dir), q.support.support_b(-dir));
        let v = simplex.w[0];
        Self {
            simplex,
            v,
            vv: R::length_squared(v),
            iterations: 0,
            stalls: 0,
            lower2: R::ZERO,
            separated_by_lower_bound: false,
        }
    }

    /// What a tracer sees after the start (`direction` `None`) or an iteration searching `direction`.
    #[inline(always)]
    fn traced<'a, 'q>(
        &'a self,
        q: &'a PairQuery<'q, R>,
        direction: Option<R::V>,
    ) -> GjkStep<'a, 'q, R> {
        GjkStep {
            query: q,
            iteration: self.iterations,
            direction,
            simplex: &self.simplex,
            closest: self.v,
            closest2: self.vv,
            lower2: self.lower2,
        }
    }

    /// The tests at the top of each iteration. The simplex lies inside A - B, so |v| bounds the core distance
    /// from above.
    fn decided(&self, kind: QueryKind, t: &Tolerances<R>, single_points: bool) -> Option<Stop> {
        if self.vv <= t.touch * t.touch {
            return Some(Stop::Decided(GjkStatus::Intersecting));
        }
        if kind == QueryKind::Intersection && self.vv <= t.margin_touch2 {
            return Some(Stop::Decided(GjkStatus::Intersecting));
        }
        single_points.then_some(Stop::Converged)
    }

    /// One iteration: a new support point, the bounds, and the simplex reduced to the sub-simplex nearest the
    /// origin. `None` to go on.
    fn step(&mut self, q: &PairQuery<R>, kind: QueryKind, t: &Tolerances<R>) -> Option<Stop> {
        self.iterations += 1;
        let (v, vv) = (self.v, self.vv);
        let a = q.support.support_a(-v);
        let b = q.support.support_b(v);
        let w = a - b;
        let vw = R::dot(v, w);
        if vw > R::ZERO && vw * vw > self.lower2 * vv {
            self.lower2 = vw * vw / vv;
        }
        // v.w / |v| beyond the margin proves separation: the boolean early exit.
        if kind == QueryKind::Intersection && vw > R::ZERO && vw * vw > vv * t.margin_touch2 {
            self.separated_by_lower_bound = true;
            return Some(Stop::Decided(GjkStatus::Separated));
        }
        // Upper minus lower bound, times |v|, within a few ulps of the coordinates: converged.
        let gap = vv - vw;
        let conv = R::from_f64(CONVERGENCE_ULPS) * R::EPSILON;
        if gap <= conv * (vv + vv.sqrt() * q.scale) || self.simplex.contains(w) {
            return Some(Stop::Converged);
        }

        // The simplex is extended in place and reduced only once the new point is taken (`pop` goes back): a
        // copy of it to come back to was a `memcpy` call every iteration. Measured with both in one binary,
        // timed in alternation on `benches/vs_parry/cases.rs`' mix: 8.9% less time per distance query, 9.9% per
        // intersection query, 2.9% per penetration query, with the same answers (there, and on 253,500 pairs
        // of slabs, needles, huge, tiny, far and nested shapes).
        let kept_before = self.simplex.len;
        self.simplex.push(a, b);
        // Rounding allowance on |v|^2: the closest point of a simplex whose vertices are |w| from the origin
        // is known to about eps * |w| absolute, so |v|^2 to about eps * |w| * |v|.
        let noise =
            R::from_f64(NOISE_ULPS) * R::EPSILON * vv.sqrt() * self.simplex.max_vertex_norm();
        let mut projection = self.simplex.project(false);
        // GJK's distance decreases strictly in exact arithmetic, and never below the lower bound. A clear
        // increase means a sign test was flipped by rounding (a near-zero sub-volume) and skipped the region
        // that holds the closest point; a point clearly below the lower bound is a projection that rounding
        // let out of its face (a sliver triangle beside a needle 1e11 times longer than wide). Either way,
        // evaluate every face and edge of the same simplex before concluding.
        let floor = self.lower2 - R::from_f64(LOWER_BOUND_NOISE_FACTOR) * noise;
        let impossible = |dist2: R| !(dist2 <= vv + noise) || dist2 < floor;
        if impossible(projection.dist2) {
            projection = self.simplex.project(true);
        }
        // Still impossible (or a non-number): the previous simplex is the best answer float arithmetic can
        // give.
        if impossible(projection.dist2) {
            self.simplex.pop();
            return Some(Stop::Converged);
        }
        // A step within the rounding allowance is accepted a few times in a row: near a sliver triangle,
        // float32 cannot resolve a real but tiny decrease, yet the new closest point has an accurate direction
        // (the face normal), which turns the search and lets the next support point make the large step (seen
        // on cylinder-box pairs with coordinates 1000x the distance).
        // Only a decrease beyond the rounding allowance resets the count: near a needle 1e12 times longer than
        // wide, the support points at one end take turns and |v|^2 wanders up and down by less than that
        // forever.
        let mut whole_triangle = false;
        if projection.dist2 < vv - noise {
            self.stalls = 0;
        } else {
            if !(projection.dist2 < vv) {
                if let Some(plane) =
                    self.sliver_triangle(kept_before, &projection, (floor, vv + noise))
                {
                    projection = plane;
                    whole_triangle = true;
                }
            }
            self.stalls += 1;
            if self.stalls > MAX_STALLS {
                self.simplex.pop();
                return Some(Stop::Converged);
            }
        }
        if whole_triangle {
            self.simplex.lambda = projection.lambda;
        } else {
            self.simplex.keep(&projection);
        }
        self.v = projection.point;
        self.vv = projection.dist2;
        None
    }

    /// A segment plus a new point that the sign tests dropped again (`projection`, of the segment and the point
    /// pushed after its `kept_before` vertices, gives the point no weight): the whole triangle's plane
    /// projection when the origin projects into it up to rounding (see `s2d_plane`), so that GJK keeps the
    /// triangle and the next support point can close the tetrahedron around the origin (a point inside a thin
    /// slab seen edge-on). Its squared distance must lie between `floor` (the lower bound, less the rounding
    /// allowance) and `allowed`.
    fn sliver_triangle(
        &self,
        kept_before: usize,
        projection: &Projection<R>,
        (floor, allowed): (R, R),
    ) -> Option<Projection<R>> {
        // The new point is not one of the segment's (GJK stops on a repeated point), so it is kept exactly when
        // its weight is positive.
        if kept_before != 2 || projection.lambda[2] > R::ZERO {
            return None;
        }
        let plane = s2d_plane::<R>(&self.simplex.w)?;
        if !(plane.dist2 <= allowed) || plane.dist2 < floor {
            return None;
        }
        Some(plane)
    }

    /// [`Self::answer`]'s status, flag, distance and iterations, computed the same way.
    fn bare_answer(&self, q: &PairQuery<R>, status: GjkStatus) -> BareResult<R> {
        let intersecting = status == GjkStatus::Intersecting;
        BareResult {
            status,
            intersecting,
            distance: if intersecting {
                R::ZERO
            } else {
                self.vv.sqrt() - q.margin()
            },
            iterations: self.iterations,
        }
    }

    /// The result for `status`, from the final simplex.
    fn answer(&self, q: &PairQuery<R>, status: GjkStatus) -> GjkResult<R> {
        let (radius_a, radius_b) = (q.radius_a, q.radius_b);
        let core_distance = self.vv.sqrt();
        let (core_a, core_b) = self.simplex.witnesses();
        let normal = if self.vv > R::ZERO {
            -R::unit_or_zero(self.simplex.perpendicular(self.v))
        } else {
            R::vzero()
        };
        if status != GjkStatus::Intersecting {
            return GjkResult {
                status,
                intersecting: false,
                distance: core_distance - q.margin(),
                witness_a: R::plain(core_a + normal * radius_a),
                witness_b: R::plain(core_b - normal * radius_b),
                normal: R::plain(normal),
                iterations: self.iterations,
            };
        }
        // A point in both shapes: on the segment from core_a to core_b (length d), the part within radius_a of
        // core_a and within radius_b of core_b is [max(0, d - rb), min(d, ra)], never empty when intersecting;
        // take its middle. The segment is the weights' own (core_a and core_b are points of the cores), not
        // the normal's: on a sliver the two directions differ, and only the segment keeps the point in both
        // shapes. With overlapping cores that is the middle of two coincident points.
        let half = R::from_f64(0.5);
        let gap = core_b - core_a;
        let d = R::length_squared(gap).sqrt();
        let lo = d - radius_b;
        let lo = if lo > R::ZERO { lo } else { R::ZERO };
        let hi = if radius_a < d { radius_a } else { d };
        let contact = if d > R::ZERO {
            core_a + gap * ((lo + hi) * half / d)
        } else {
            core_a
        };
        GjkResult {
            status,
            intersecting: true,
            distance: R::ZERO,
            witness_a: R::plain(contact),
            witness_b: R::plain(contact),
            normal: R::plain(normal),
            iterations: self.iterations,
        }
    }
}

/// Whether the answer GJK is about to give is backed by its own bounds, so rounding cannot have turned it.
///
/// The upper bound is the length of the point that the simplex weights describe, recomputed from the vertices
/// (a point of A - B whatever the sign tests did); the lower bound is the best `v.w / |v|` (valid for any
/// direction v, to a few ulps of the largest simplex vertex L). An overlap must have that point within the
/// margin. A separation must have the two bounds meet, and the reported closest point between them and where
/// the weights put it, as the convergence test asks, with room for:
/// - the rounding of the bounds themselves, a few ulps of L;
/// - the rounding of v, about `eps L` in absolute terms, which leaves a gap of about `eps L^2 / |v|` between
///   the bounds even when GJK is on the right feature. That term is allowed only up to a sixteenth of the
///   touching tolerance: in float64 it always fits, in float32 it does not near a long edge (a point in a
///   needle), which is exactly where float32 GJK can stop on the wrong feature. Float64 is the last resort
///   (no repeat could do better) and takes the whole share: near a sliver face its direction carries
///   `eps L^2 / h` for the face's height h, seen at 3e-12 on a slab 1.6e-5 thick, and an answer within a
///   sixteenth of the touching tolerance can only have the wrong flag that close to the tolerance itself.
///
/// Iteration caps are already unknown answers.
fn gjk_certified<R: Real>(
    search: &GjkSearch<R>,
    status: GjkStatus,
    t: &Tolerances<R>,
    scale: R,
) -> bool {
    let weighted = search.simplex.weighted_point();
    let upper = R::length_squared(weighted).sqrt();
    let largest = search.simplex.max_vertex_norm();
    let ulps = |n: f64| R::from_f64(n) * R::EPSILON;
    match status {
        GjkStatus::Intersecting => {
            upper <= t.margin_touch2.sqrt() + ulps(INTERSECTION_CERTIFICATE_ULPS) * largest
        }
        GjkStatus::Separated => {
            let reported = search.vv.sqrt();
            let upper = upper.max_of(reported);
            let direction_rounding = ulps(DIRECTION_ROUNDING_ULPS) * largest * largest / upper;
            let cap = t.touch * R::from_f64(DIRECTION_ROUNDING_CAP);
            let band = ulps(CERTIFICATE_ULPS) * (upper + scale)
                + ulps(BOUND_ROUNDING_ULPS) * largest
                + if direction_rounding < cap && !R::WIDEST {
                    direction_rounding
                } else {
                    cap
                };
            // The bounds meet; the reported point is not shorter than the lower bound (a closest point
            // projected through the rounding of a sliver face can land outside A - B, nearer than anything in
            // it); and the weights describe that same point up to the share of the touching tolerance the
            // direction may take, since the witnesses come from the weights and their difference must be the
            // normal times the distance (a sliver's weights, rounded, can describe another point of A - B
            // almost as near).
            // Float64 may drift by the whole touching tolerance: a needle 2e11 times longer than wide leaves
            // weights that `s2d_plane` knows only to ~1e-5, which nothing wider can fix.
            let lower = search.lower2.sqrt();
            let drift = R::length_squared(weighted - search.v).sqrt();
            let drift_room = if R::WIDEST { t.touch } else { cap };
            upper - lower <= band && reported >= lower - band && drift <= band + drift_room
        }
        _ => true,
    }
}
