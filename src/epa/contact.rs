//! EPA's answer from its final face: the coplanar neighbour that the origin projects into, the checks that
//! catch a polytope folded by rounding, and the contact points from the face's barycentric weights.
//!
//! `shaders/shared/epa/contact.wgsl` is its twin.

#![expect(
    clippy::neg_cmp_op_on_partial_ord,
    reason = "negated comparisons are deliberate: they are true for NaN too, which must take the safe branch"
)]

use super::answer::{Penetration, PenetrationStatus, EPA_COPLANAR_COSINE_SLACK, EPA_TOUCH_SLACK};
use super::polytope::{Face, Polytope};
use crate::gjk::{s2d, PairQuery};
use crate::real::Real;

/// The answer from the closest `face` EPA ended on with `status`.
pub(crate) fn contact<R: Real>(
    q: &PairQuery<R>,
    poly: &Polytope<R>,
    face: Face<R>,
    status: PenetrationStatus,
    iterations: u32,
) -> Penetration<R> {
    // The closest face gives the normal and the depth; a coplanar neighbour only the contact points (its
    // normal may be turned by up to 1.4e-3 rad, which on a slab far wider than thick makes B move several
    // times the depth along it).
    let closest = face;
    let (mut face, mut status) = (face, status);
    if status == PenetrationStatus::Penetrating {
        face = coplanar_neighbour(q, poly, face);
    }
    let [i, j, k] = face.v.map(|v| v as usize);
    // The contact points come from the point of the face nearest the origin's projection on its plane (the
    // signed volumes of the face shifted by that projection), which is the projection itself when it falls
    // inside.
    let projection = face.normal * face.dist;
    let shifted = [
        poly.w[i] - projection,
        poly.w[j] - projection,
        poly.w[k] - projection,
        R::vzero(),
    ];
    let nearest = s2d(&shifted, 0, 1, 2, true);
    // The signed volumes of a sliver face give weights that sum to 1 only up to their rounding (0.99856 seen
    // on a needle crossing a plank at the coordinate limit): unnormalised, they pull both contact points
    // toward the frame's origin by that fraction, off the shapes (like `Simplex::reduce`'s weights).
    let sum = nearest.lambda[0] + nearest.lambda[1] + nearest.lambda[2];
    let lambda = if sum > R::ZERO {
        nearest.lambda.map(|l| l / sum)
    } else {
        nearest.lambda
    };
    if status == PenetrationStatus::Penetrating {
        // The origin lies in A - B up to the touching tolerance, so the closest face cannot be far on the
        // wrong side of it, and the origin's projection falls into the face (or a coplanar neighbour) up to
        // that much; measured as a distance, not as a weight, since on a sliver face a tiny distance is a
        // large weight. Either clearly violated means rounding folded the polytope, and the contact points
        // would not match the depth.
        let slack = R::from_f64(EPA_TOUCH_SLACK) * q.scale;
        if face.dist < -slack || !(nearest.dist2 <= slack * slack) {
            status = PenetrationStatus::Degenerate;
        }
    }
    let core_a = poly.a[i] * lambda[0] + poly.a[j] * lambda[1] + poly.a[k] * lambda[2];
    let core_b = poly.b[i] * lambda[0] + poly.b[j] * lambda[1] + poly.b[k] * lambda[2];
    finish(
        [q.radius_a, q.radius_b],
        status,
        core_a,
        core_b,
        closest.normal,
        closest.dist + q.margin(),
        iterations,
    )
}

/// Coplanar neighbours (a flat facet of A - B split into triangles) share the closest distance; the origin
/// projects into only one of them, and only there do the weights rebuild exact contact points.
fn coplanar_neighbour<R: Real>(q: &PairQuery<R>, poly: &Polytope<R>, face: Face<R>) -> Face<R> {
    let eps = R::from_f64(super::answer::EPA_TOLERANCE) * q.scale;
    let parallel = R::ONE - R::from_f64(EPA_COPLANAR_COSINE_SLACK);
    let closest = face;
    let mut lambda = unclamped_barycentric::<R>(poly, &face);
    let mut face = face;
    for s in 0..poly.face_slots {
        let f = poly.faces[s];
        // Compared with the closest face, not the best so far, so a chain of neighbours cannot drift.
        if f.alive
            && (f.dist - closest.dist).abs() <= eps
            && R::dot(f.normal, closest.normal) > parallel
        {
            let l = unclamped_barycentric::<R>(poly, &f);
            if min3(l) > min3(lambda) {
                face = f;
                lambda = l;
            }
        }
    }
    face
}

/// A penetration answer from the cores' contact points: the contact points move out by the radii along the
/// normal; a negative depth (rounding at an exact touch) is 0.
pub(crate) fn finish<R: Real>(
    [radius_a, radius_b]: [R; 2],
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
        normal: R::plain(normal),
        contact_a: R::plain(core_a + normal * radius_a),
        contact_b: R::plain(core_b - normal * radius_b),
        iterations,
        depth_upper: None,
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
    let [a, b, c] = face.v.map(|v| poly.w[v as usize]);
    let p = face.normal * face.dist;
    let raw = R::cross(b - a, c - a);
    // Ratios of signed areas along the (balanced) normal, whose square cannot underflow.
    let area_n = R::dot(raw, R::balanced(raw));
    if !(area_n > R::ZERO) {
        let third = R::ONE / R::from_f64(3.0);
        return [third, third, third];
    }
    let n = R::balanced(raw);
    let u = R::dot(R::cross(c - b, p - b), n) / area_n;
    let v = R::dot(R::cross(a - c, p - c), n) / area_n;
    [u, v, R::ONE - u - v]
}
