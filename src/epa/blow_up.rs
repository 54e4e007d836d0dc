//! EPA's start: GJK's final simplex (1 to 4 points of A - B around the origin) blown up to a tetrahedron by
//! searching A - B for a point off the current point, line or plane, one helper per starting simplex. When
//! no such point exists, A - B has no thickness there (touching or coplanar shapes, crossing segments,
//! concentric spheres) and the answer is along the flat direction.
//!
//! `shaders/shared/epa/blow_up.wgsl` is its twin, helper for helper.

#![expect(
    clippy::neg_cmp_op_on_partial_ord,
    reason = "negated comparisons are deliberate: they are true for NaN too, which must take the safe branch"
)]

use super::polytope::Polytope;
use crate::gjk::{PairQuery, Simplex};
use crate::real::Real;

/// How the blow-up ended.
pub(crate) enum Start<R: Real> {
    /// A tetrahedron in the polytope's first four vertices, oriented so that faces (0,1,2), (0,3,1), (0,2,3)
    /// and (1,3,2) face outwards.
    Tetrahedron,
    /// A - B has no thickness along this unit normal (either sign: the answer turns it towards B).
    Flat(R::V),
    /// GJK kept three points on one line: rounding, and no plane to search off.
    Degenerate,
}

/// Blows GJK's simplex up to a tetrahedron in `poly`. `eps` is EPA's tolerance in normalised units.
pub(crate) fn blow_up<R: Real>(
    q: &PairQuery<R>,
    simplex: &Simplex<R>,
    poly: &mut Polytope<R>,
    eps: R,
) -> Start<R> {
    for i in 0..simplex.len {
        poly.push_vertex(simplex.a[i], simplex.b[i]);
    }
    if poly.vertices == 4 {
        flatten_thin_tetrahedron(poly, eps * q.scale * q.scale);
    }
    if poly.vertices == 1 {
        if let Some(end) = blow_up_point(q, poly, eps) {
            return end;
        }
    }
    if poly.vertices == 2 {
        if let Some(end) = blow_up_segment(q, poly, eps) {
            return end;
        }
    }
    if poly.vertices == 3 {
        if let Some(end) = blow_up_triangle(q, poly, eps) {
            return end;
        }
    }
    orient_tetrahedron(poly);
    Start::Tetrahedron
}

/// The support points of A along `dir` and of B against it.
fn support_pair<R: Real>(q: &PairQuery<R>, dir: R::V) -> (R::V, R::V) {
    (q.support.support_a(dir), q.support.support_b(-dir))
}

/// Six times the signed volume of the tetrahedron of the polytope's first four vertices.
fn volume<R: Real>(poly: &Polytope<R>) -> R {
    R::dot(
        R::cross(poly.w[1] - poly.w[0], poly.w[2] - poly.w[0]),
        poly.w[3] - poly.w[0],
    )
}

/// A tetrahedron with no volume to speak of (below `min_volume`): keep its triangle of largest area, and the
/// triangle's blow-up searches off its plane.
fn flatten_thin_tetrahedron<R: Real>(poly: &mut Polytope<R>, min_volume: R) {
    if volume(poly).abs() > min_volume {
        return;
    }
    let mut best = (0, R::ZERO);
    for drop in 0..4 {
        let k = others(drop);
        let area = R::length_squared(R::cross(
            poly.w[k[1]] - poly.w[k[0]],
            poly.w[k[2]] - poly.w[k[0]],
        ));
        if area > best.1 {
            best = (drop, area);
        }
    }
    poly.keep_vertices(others(best.0));
}

/// The three vertex indices of a tetrahedron other than `drop`.
fn others(drop: usize) -> [usize; 3] {
    match drop {
        0 => [1, 2, 3],
        1 => [0, 2, 3],
        2 => [0, 1, 3],
        _ => [0, 1, 2],
    }
}

/// A one-point simplex: search along the six axis directions for a point of A - B away from it. None found
/// means A - B is a single point at the origin (concentric spheres, coincident points).
fn blow_up_point<R: Real>(q: &PairQuery<R>, poly: &mut Polytope<R>, eps: R) -> Option<Start<R>> {
    for axis in 0..3 {
        let mut e = [R::ZERO; 3];
        e[axis] = R::ONE;
        let axis = R::vec(e[0], e[1], e[2]);
        for dir in [axis, -axis] {
            let (a, b) = support_pair(q, dir);
            if R::length_squared((a - b) - poly.w[0]) > eps * eps {
                poly.push_vertex(a, b);
                return None;
            }
        }
    }
    Some(Start::Flat(R::vec(R::ONE, R::ZERO, R::ZERO)))
}

/// A segment: search the four directions perpendicular to it for a point off its line. None found means A - B
/// is a segment through the origin, where every perpendicular is as good: prefer the one towards B.
fn blow_up_segment<R: Real>(q: &PairQuery<R>, poly: &mut Polytope<R>, eps: R) -> Option<Start<R>> {
    let d = poly.w[1] - poly.w[0];
    let e1 = perpendicular::<R>(d);
    let e2 = R::cross(d, e1) * (R::ONE / R::length_squared(d).sqrt());
    for dir in [e1, -e1, e2, -e2] {
        let (a, b) = support_pair(q, dir);
        let off = R::cross(d, (a - b) - poly.w[0]);
        if R::length_squared(off) > eps * eps * R::length_squared(d) {
            poly.push_vertex(a, b);
            return None;
        }
    }
    let position_b = q.support.position_b;
    let along = R::dot(position_b, d) / R::length_squared(d);
    let p = position_b - d * along;
    let n = if R::length_squared(p) > eps * eps {
        p * (R::ONE / R::length_squared(p).sqrt())
    } else {
        e1
    };
    Some(Start::Flat(n))
}

/// A triangle: search both sides of its plane for a point off it. None found means A - B is flat there.
fn blow_up_triangle<R: Real>(q: &PairQuery<R>, poly: &mut Polytope<R>, eps: R) -> Option<Start<R>> {
    let n = R::balanced(R::cross(poly.w[1] - poly.w[0], poly.w[2] - poly.w[0]));
    let len = R::length_squared(n).sqrt();
    if !(len > R::ZERO) {
        return Some(Start::Degenerate);
    }
    let n = n * (R::ONE / len);
    for dir in [n, -n] {
        let (a, b) = support_pair(q, dir);
        if R::dot(n, (a - b) - poly.w[0]).abs() > eps {
            poly.push_vertex(a, b);
            return None;
        }
    }
    Some(Start::Flat(n))
}

/// Orders the tetrahedron so that faces (0,1,2), (0,3,1), (0,2,3), (1,3,2) face outwards.
fn orient_tetrahedron<R: Real>(poly: &mut Polytope<R>) {
    if volume(poly) > R::ZERO {
        poly.swap_vertices(1, 2);
    }
}

/// A unit vector perpendicular to `d` (non-zero).
fn perpendicular<R: Real>(d: R::V) -> R::V {
    let (x, y, z) = (
        R::comp(d, 0).abs(),
        R::comp(d, 1).abs(),
        R::comp(d, 2).abs(),
    );
    let axis = if x <= y && x <= z {
        R::vec(R::ONE, R::ZERO, R::ZERO)
    } else if y <= z {
        R::vec(R::ZERO, R::ONE, R::ZERO)
    } else {
        R::vec(R::ZERO, R::ZERO, R::ONE)
    };
    let p = R::cross(d, axis);
    p * (R::ONE / R::length_squared(p).sqrt())
}

/// `n` or `-n`, whichever points from A towards B's origin, so a flat contact gets a sensible side.
pub(crate) fn towards_b<R: Real>(q: &PairQuery<R>, n: R::V) -> R::V {
    if R::dot(n, q.support.position_b) < R::ZERO {
        -n
    } else {
        n
    }
}
