//! The expanding polytope algorithm (van den Bergen 2001) on the cores: from the blown-up start tetrahedron,
//! repeatedly find the support point beyond the face nearest the origin, carve away the faces it sees and
//! close the hole with a fan of new faces, until the support point is no farther than the face itself.
//!
//! `shaders/shared/epa/expand.wgsl` is its twin.

#![expect(
    clippy::neg_cmp_op_on_partial_ord,
    reason = "negated comparisons are deliberate: they are true for NaN too, which must take the safe branch"
)]

use super::answer::{EpaLimits, Penetration, PenetrationStatus, EPA_TOLERANCE};
use super::blow_up::{blow_up, towards_b, Start};
use super::contact::{contact, finish};
use super::polytope::{Face, Polytope};
use super::trace::{EpaStep, EpaTracer};
use crate::gjk::{PairQuery, Simplex};
use crate::real::Real;

/// The start tetrahedron's faces, outward for the orientation `blow_up` leaves.
const START_FACES: [[usize; 3]; 4] = [[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]];

/// EPA on the cores of a pair whose cores overlap or touch (the origin is in A - B, within the tolerance),
/// started from GJK's final simplex, within `limits`, showing `tracer` every expansion (see [`super::trace`]).
pub(crate) fn expand_traced<R: Real, T: EpaTracer<R>>(
    q: &PairQuery<R>,
    simplex: &Simplex<R>,
    limits: EpaLimits,
    tracer: &mut T,
) -> Penetration<R> {
    let eps = R::from_f64(EPA_TOLERANCE) * q.scale;
    let (core_a, core_b) = simplex.witnesses();
    // A - B with no thickness along `n`: the cores touch, and moving B by the radii along `n` separates the
    // shapes, which no other direction beats.
    let flat = |n: R::V| {
        finish(
            [q.radius_a, q.radius_b],
            PenetrationStatus::Penetrating,
            core_a,
            core_b,
            towards_b(q, n),
            q.margin(),
            0,
        )
    };
    Polytope::<R>::with_spare(limits, |poly| {
        expand_in(q, simplex, poly, eps, tracer, flat)
    })
}

/// [`expand_traced`] in the empty polytope `poly`; `flat` answers a start that has no thickness along a normal.
fn expand_in<R: Real, T: EpaTracer<R>>(
    q: &PairQuery<R>,
    simplex: &Simplex<R>,
    poly: &mut Polytope<R>,
    eps: R,
    tracer: &mut T,
    flat: impl Fn(R::V) -> Penetration<R>,
) -> Penetration<R> {
    match blow_up(q, simplex, poly, eps) {
        Start::Flat(n) => return flat(n),
        Start::Degenerate => return Penetration::none(PenetrationStatus::Degenerate),
        Start::Tetrahedron => {}
    }
    for [i, j, k] in START_FACES {
        if poly.push_face(i, j, k).is_err() {
            // Rounding made the start tetrahedron flat after all.
            let n = R::balanced(R::cross(poly.w[1] - poly.w[0], poly.w[2] - poly.w[0]));
            let len = R::length_squared(n).sqrt();
            return if len > R::ZERO {
                flat(n * (R::ONE / len))
            } else {
                Penetration::none(PenetrationStatus::Degenerate)
            };
        }
    }
    let (status, face, iterations) = expansion_loop(q, poly, eps, tracer);
    contact(q, poly, face, status, iterations)
}

/// Expands until the closest face is on the boundary of A - B (`Penetrating`) or a bound or a fold stops it.
/// Returns the status, the last closest face (a copy: an expansion frees its slot and may reuse it) and the
/// number of expansions.
fn expansion_loop<R: Real, T: EpaTracer<R>>(
    q: &PairQuery<R>,
    poly: &mut Polytope<R>,
    eps: R,
    tracer: &mut T,
) -> (PenetrationStatus, Face<R>, u32) {
    let mut iterations = 0u32;
    let mut face = poly.faces[poly
        .closest_face()
        .expect("the start tetrahedron has faces")];
    while iterations < poly.limits.iterations() {
        // A new point that saw every face leaves no horizon and no faces: only rounding gets there (crossing
        // needles at one centre, where A - B is nearly flat in two directions).
        let Some(best) = poly.closest_face() else {
            return (PenetrationStatus::Degenerate, face, iterations);
        };
        face = poly.faces[best];
        let a = q.support.support_a(face.normal);
        let b = q.support.support_b(-face.normal);
        let w = a - b;
        tracer.epa_step(&EpaStep {
            query: q,
            iteration: iterations,
            polytope: poly,
            closest: &face,
            support_a: a,
            support_b: b,
        });
        // The support point barely beyond the closest face: that face is on the boundary of A - B and its
        // distance is the depth.
        if !(R::dot(w, face.normal) - face.dist > eps) {
            return (PenetrationStatus::Penetrating, face, iterations);
        }
        // A vertex already on the polytope lies beyond its closest face: rounding has folded the polytope, and
        // no answer from it can be trusted.
        if poly.contains(w) {
            return (PenetrationStatus::Degenerate, face, iterations);
        }
        if poly.vertices == poly.limits.vertices {
            return (PenetrationStatus::Overflow, face, iterations);
        }
        iterations += 1;
        if let Err(status) = poly.carve_horizon(best, w) {
            return (status, face, iterations);
        }
        let k = poly.push_vertex(a, b);
        for e in 0..poly.edges {
            let [tail, head] = poly.horizon[e];
            if let Err(status) = poly.push_face(tail as usize, head as usize, k) {
                // The polytope is open now: answer from the best closed one.
                return (status, face, iterations);
            }
        }
    }
    (PenetrationStatus::MaxIterations, face, iterations)
}
