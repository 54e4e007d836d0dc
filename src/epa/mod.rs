//! Penetration depth, contact normal and contact points of overlapping shapes from GJK's final simplex: the
//! radii alone when the cores are apart, otherwise the expanding polytope algorithm (EPA, van den Bergen 2001)
//! on the cores.
//!
//! Split by purpose, the same way as its WGSL twin in `shaders/shared/epa/`: [`answer`] (what EPA answers and
//! its bounds), [`polytope`] (faces, slots, closest face, horizon), [`blow_up`] (one helper per starting
//! simplex), `expand` (the expansion loop) and [`contact`] (weights, contact points). Named bounds, and a
//! named status whenever one is hit, never a silent guess. Composing GJK, EPA, the certificate and the float64
//! repeat is the [`crate::query`] layer's work.

pub mod answer;
pub mod blow_up;
pub mod contact;
pub mod expand;
mod planes;
pub mod polytope;
pub mod trace;

pub(crate) use answer::EpaLimits;
pub(crate) use answer::EPA_CERTIFICATE_ROUNDING_ULPS;
pub(crate) use answer::EPA_CERTIFICATE_SLACK;
pub(crate) use answer::EPA_COPLANAR_COSINE_SLACK;
pub(crate) use answer::EPA_COPLANAR_ULPS;
pub(crate) use answer::EPA_MAX_FACES;
pub(crate) use answer::EPA_MAX_HORIZON;
pub(crate) use answer::EPA_MAX_ITERATIONS;
pub(crate) use answer::EPA_MAX_VERTICES;
pub(crate) use answer::EPA_TOLERANCE;
pub(crate) use answer::EPA_TOUCH_SLACK;
pub(crate) use answer::EPA_UNIT_NORMAL_SLACK;
pub use answer::{Penetration, PenetrationStatus};
pub(crate) use expand::expand_traced;
pub(crate) use trace::EpaStep;
pub(crate) use trace::EpaTracer;
pub(crate) use trace::PairTracer;

use crate::gjk::{PairQuery, Simplex};
use crate::real::Real;

/// Whether GJK's direction `n` (A to B) separates the cores: B's extent along it starts where A's ends or
/// later. The cores then touch within the tolerance without overlapping, and the depth is the radii's
/// alone; EPA would start from a polytope that need not hold the origin (two boxes 1e9 long touching end to
/// end, 2 units thick: the origin lies 1e5 beyond the start faces, and every answer from them looks folded).
fn cores_apart_along<R: Real>(q: &PairQuery<R>, n: R::V) -> bool {
    R::length_squared(n) > R::ZERO
        && R::dot(q.support.support_b(-n) - q.support.support_a(n), n) >= R::ZERO
}

/// The answer where the cores (GJK's witnesses `core_a` and `core_b`, `gap` and `core_distance` apart) are
/// apart, or touching without overlap along `gjk_normal`, and the radii overlap: the depth is what the radii
/// add beyond the core distance, along GJK's direction (along the gap where GJK has none).
pub(crate) fn cores_apart<R: Real>(
    radii: [R; 2],
    [core_a, core_b]: [R::V; 2],
    gap: R::V,
    core_distance: R,
    gjk_normal: R::V,
) -> Penetration<R> {
    let normal = if R::length_squared(gjk_normal) > R::ZERO {
        gjk_normal
    } else {
        gap * (R::ONE / core_distance)
    };
    let margin = radii[0] + radii[1];
    contact::finish(
        radii,
        PenetrationStatus::Penetrating,
        core_a,
        core_b,
        normal,
        margin - core_distance,
        0,
    )
}

/// The answer for a pair GJK found intersecting, from its final simplex, showing `tracer` every expansion of
/// each try (see [`trace`]). `gjk_normal` is GJK's direction from A to B (zero when the cores overlap).
///
/// Cores apart, or touching without overlap along GJK's direction, radii overlapping (spheres, capsules,
/// rounded boxes): the depth is what the radii add beyond the core distance, along GJK's direction, which comes
/// from the closest point's projection and stays accurate when the cores nearly touch (the difference of the two
/// witnesses loses digits there). Otherwise EPA, first within the GPU's bounds ([`EpaLimits::FIRST`]); when
/// those run out (a deep overlap of finely tessellated round hulls) again within bounds that grow with the
/// hulls ([`EpaLimits::grown`]).
pub(crate) fn penetrate_traced<R: Real, T: EpaTracer<R>>(
    q: &PairQuery<R>,
    simplex: &Simplex<R>,
    gjk_normal: R::V,
    tracer: &mut T,
) -> Penetration<R> {
    let (core_a, core_b) = simplex.witnesses();
    let gap = core_b - core_a;
    let core_distance = R::length_squared(gap).sqrt();
    if core_distance > q.touch_tolerance() || cores_apart_along(q, gjk_normal) {
        let radii = [q.radius_a, q.radius_b];
        return cores_apart(radii, [core_a, core_b], gap, core_distance, gjk_normal);
    }
    let first = expand_traced(q, simplex, EpaLimits::FIRST, tracer);
    if !matches!(
        first.status,
        PenetrationStatus::Overflow | PenetrationStatus::MaxIterations
    ) {
        return first;
    }
    let limits = EpaLimits::grown(q.support.a.points.len(), q.support.b.points.len());
    let second = expand_traced(q, simplex, limits, tracer);
    Penetration {
        iterations: first.iterations + second.iterations,
        ..second
    }
}
