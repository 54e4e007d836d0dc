//! Penetration depth, contact normal and contact points of overlapping shapes from GJK's final simplex: the
//! radii alone when the cores are apart, otherwise the expanding polytope algorithm (EPA, van den Bergen 2001)
//! on the cores.
//!
//! Split by purpose, the same way as its WGSL twin in `shaders/shared/epa/`: [`answer`] (what EPA answers and
//! its bounds), [`polytope`] (faces, slots, closest face, horizon), [`blow_up`] (one helper per starting
//! simplex), [`expand`] (the expansion loop) and [`contact`] (weights, contact points). Named bounds, and a
//! named status whenever one is hit, never a silent guess. Composing GJK, EPA, the certificate and the float64
//! repeat is the [`crate::query`] layer's work.

pub mod answer;
pub mod blow_up;
pub mod contact;
pub mod expand;
pub mod polytope;

pub use answer::{
    EpaLimits, Penetration, PenetrationStatus, EPA_CERTIFICATE_SLACK, EPA_COPLANAR_COSINE_SLACK,
    EPA_MAX_FACES, EPA_MAX_HORIZON, EPA_MAX_ITERATIONS, EPA_MAX_VERTICES, EPA_TOLERANCE,
    EPA_TOUCH_SLACK, EPA_UNIT_NORMAL_SLACK,
};
pub use expand::expand;

use crate::gjk::{PairQuery, Simplex};
use crate::real::Real;

/// The answer for a pair GJK found intersecting, from its final simplex. `gjk_normal` is GJK's direction from
/// A to B (zero when the cores overlap).
///
/// Cores apart, radii overlapping (spheres, capsules, rounded boxes): the depth is what the radii add beyond
/// the core distance, along GJK's direction, which comes from the closest point's projection and stays
/// accurate when the cores nearly touch (the difference of the two witnesses loses digits there). Otherwise
/// EPA, first within the GPU's bounds ([`EpaLimits::FIRST`]); when those run out (a deep overlap of finely
/// tessellated round hulls) again within bounds that grow with the hulls ([`EpaLimits::grown`]).
pub fn penetrate<R: Real>(
    q: &PairQuery<R>,
    simplex: &Simplex<R>,
    gjk_normal: R::V,
) -> Penetration<R> {
    let (core_a, core_b) = simplex.witnesses();
    let gap = core_b - core_a;
    let core_distance = R::length_squared(gap).sqrt();
    if core_distance > q.touch_tolerance() {
        let normal = if R::length_squared(gjk_normal) > R::ZERO {
            gjk_normal
        } else {
            gap * (R::ONE / core_distance)
        };
        return contact::finish(
            q,
            PenetrationStatus::Penetrating,
            core_a,
            core_b,
            normal,
            q.margin() - core_distance,
            0,
        );
    }
    let first = expand(q, simplex, EpaLimits::FIRST);
    if !matches!(
        first.status,
        PenetrationStatus::Overflow | PenetrationStatus::MaxIterations
    ) {
        return first;
    }
    let limits = EpaLimits::grown(q.support.a.points.len(), q.support.b.points.len());
    let second = expand(q, simplex, limits);
    Penetration {
        iterations: first.iterations + second.iterations,
        ..second
    }
}
