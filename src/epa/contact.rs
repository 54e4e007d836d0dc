//! EPA's answer from its final face: the coplanar neighbour that the origin projects into, the checks that
//! catch a polytope folded by rounding, and the contact points from the face's barycentric weights.
//!
//! `shaders/shared/epa/contact.wgsl` is its twin.

#![expect(
    clippy::neg_cmp_op_on_partial_ord,
    reason = "negated comparisons are deliberate: they are true for NaN too, which must take the safe branch"
)]

use super::answer::{
    Penetration, PenetrationStatus, EPA_COPLANAR_COSINE_SLACK, EPA_TOUCH_SLACK, EPA_WEIGHT_SLACK,
};
use super::polytope::{Face, Polytope};
use crate::gjk::PairQuery;
use crate::real::Real;

/// The answer from the closest `face` EPA ended on with `status`.
pub fn contact<R: Real>(
    q: &PairQuery<R>,
    poly: &Polytope<R>,
    face: Face<R>,
    status: PenetrationStatus,
    iterations: u32,
) -> Penetration<R> {
    let (mut face, mut status) = (face, status);
    let mut lambda = unclamped_barycentric::<R>(poly, &face);
    if status == PenetrationStatus::Penetrating {
        (face, lambda) = coplanar_neighbour(q, poly, face, lambda);
        // The origin lies in A - B (within the touching tolerance), so the closest face cannot be far on the
        // wrong side of it; and it projects into the closest face of a convex polytope (or a coplanar
        // neighbour). Either clearly violated means rounding folded the polytope, and the contact points
        // would not match the depth.
        let behind = face.dist < -R::from_f64(EPA_TOUCH_SLACK) * q.scale;
        let outside = min3(lambda) < -R::from_f64(EPA_WEIGHT_SLACK);
        if behind || outside {
            status = PenetrationStatus::Degenerate;
        }
    }
    let [i, j, k] = face.v;
    let lambda = clamp_weights(lambda);
    let core_a = poly.a[i] * lambda[0] + poly.a[j] * lambda[1] + poly.a[k] * lambda[2];
    let core_b = poly.b[i] * lambda[0] + poly.b[j] * lambda[1] + poly.b[k] * lambda[2];
    finish(
        q,
        status,
        core_a,
        core_b,
        face.normal,
        face.dist + q.margin(),
        iterations,
    )
}

/// Coplanar neighbours (a flat facet of A - B split into triangles) share the closest distance; the origin
/// projects into only one of them, and only there do the weights rebuild exact contact points.
fn coplanar_neighbour<R: Real>(
    q: &PairQuery<R>,
    poly: &Polytope<R>,
    face: Face<R>,
    lambda: [R; 3],
) -> (Face<R>, [R; 3]) {
    let eps = R::from_f64(super::answer::EPA_TOLERANCE) * q.scale;
    let parallel = R::ONE - R::from_f64(EPA_COPLANAR_COSINE_SLACK);
    let (mut face, mut lambda) = (face, lambda);
    for s in 0..poly.face_slots {
        let f = poly.faces[s];
        if f.alive && (f.dist - face.dist).abs() <= eps && R::dot(f.normal, face.normal) > parallel
        {
            let l = unclamped_barycentric::<R>(poly, &f);
            if min3(l) > min3(lambda) {
                face = f;
                lambda = l;
            }
        }
    }
    (face, lambda)
}

/// A penetration answer from the cores' contact points: the contact points move out by the radii along the
/// normal; a negative depth (rounding at an exact touch) is 0.
pub fn finish<R: Real>(
    q: &PairQuery<R>,
    status: PenetrationStatus,
    core_a: R::V,
    core_b: R::V,
    normal: R::V,
    depth: R,
    iterations: u32,
) -> Penetration<R> {
    Penetration {
        status,
        depth: if depth > R::ZERO { depth } else { R::ZERO },
        normal,
        contact_a: core_a + normal * q.radius_a,
        contact_b: core_b - normal * q.radius_b,
        iterations,
    }
}

fn min3<R: Real>(l: [R; 3]) -> R {
    let m = if l[0] < l[1] { l[0] } else { l[1] };
    if m < l[2] {
        m
    } else {
        l[2]
    }
}

/// Barycentric weights of the origin's projection onto a face (negative outside the triangle).
fn unclamped_barycentric<R: Real>(poly: &Polytope<R>, face: &Face<R>) -> [R; 3] {
    let (a, b, c) = (poly.w[face.v[0]], poly.w[face.v[1]], poly.w[face.v[2]]);
    let p = face.normal * face.dist;
    let n = R::cross(b - a, c - a);
    let nn = R::length_squared(n);
    if !(nn > R::ZERO) {
        let third = R::ONE / R::from_f64(3.0);
        return [third, third, third];
    }
    let u = R::dot(R::cross(c - b, p - b), n) / nn;
    let v = R::dot(R::cross(a - c, p - c), n) / nn;
    [u, v, R::ONE - u - v]
}

/// Weights clamped to the triangle and renormalised, so the contact points stay on the shapes.
fn clamp_weights<R: Real>(l: [R; 3]) -> [R; 3] {
    let clamp = |x: R| if x > R::ZERO { x } else { R::ZERO };
    let (u, v, w) = (clamp(l[0]), clamp(l[1]), clamp(l[2]));
    let sum = u + v + w;
    if !(sum > R::ZERO) {
        let third = R::ONE / R::from_f64(3.0);
        return [third, third, third];
    }
    [u / sum, v / sum, w / sum]
}
