//! The signed-volumes distance sub-algorithm (Montanari, Petrinic and Barbieri, "Improving the GJK algorithm
//! for faster and more reliable distance queries between convex objects", ACM TOG 2017).
//!
//! Given a simplex of 1 to 4 points, find the point of the simplex closest to the origin, expressed as
//! barycentric weights over the smallest sub-simplex that contains it. Unlike Johnson's sub-algorithm it
//! decides the Voronoi region from signed areas and volumes computed in the best-conditioned projection, so
//! flat, collinear and repeated points fall through to the lower-dimensional cases instead of producing NaN.
//!
//! `shaders/shared/signed_volumes.wgsl` is its twin, function for function (`s1d`, `s2d`, `s2d_plane`, `s3d`).

#![expect(
    clippy::neg_cmp_op_on_partial_ord,
    reason = "negated comparisons are deliberate: they are true for NaN too, which must take the safe branch, and the WGSL twin reads the same"
)]

use super::config::{PLANE_SLACK_CAP, WEIGHT_SLACK_ULPS};
use crate::real::Real;

/// The closest point of a (sub-)simplex to the origin: weights over the simplex slots (zero for dropped
/// vertices) and the point itself.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Projection<R: Real> {
    pub lambda: [R; 4],
    pub point: R::V,
    pub dist2: R,
}

impl<R: Real> Projection<R> {
    fn vertex(s: &[R::V; 4], i: usize) -> Self {
        let mut lambda = [R::ZERO; 4];
        lambda[i] = R::ONE;
        Self {
            lambda,
            point: s[i],
            dist2: R::length_squared(s[i]),
        }
    }

    fn from_weights(s: &[R::V; 4], lambda: [R; 4]) -> Self {
        let point = s[0] * lambda[0] + s[1] * lambda[1] + s[2] * lambda[2] + s[3] * lambda[3];
        Self {
            lambda,
            point,
            dist2: R::length_squared(point),
        }
    }

    fn closer(self, other: Self) -> Self {
        if other.dist2 < self.dist2 {
            other
        } else {
            self
        }
    }
}

/// Strictly the same sign, the test the paper calls `compareSigns`. Zero matches nothing, so a degenerate
/// (zero-area or zero-volume) simplex always falls through to its faces or edges.
#[inline]
fn same_sign<R: Real>(a: R, b: R) -> bool {
    // Without short circuits: four comparisons and no branch.
    ((a > R::ZERO) & (b > R::ZERO)) | ((a < R::ZERO) & (b < R::ZERO))
}

/// Segment `s[i] s[j]`.
pub(crate) fn s1d<R: Real>(s: &[R::V; 4], i: usize, j: usize) -> Projection<R> {
    let a = s[i];
    let t = s[j] - a;
    let tt = R::length_squared(t);
    if !(tt > R::ZERO) {
        // Repeated point: the segment is a vertex.
        return Projection::vertex(s, i);
    }
    // Parameter of the origin's projection on the line a + u t. Outside [0, 1] the closest point is an end
    // (vertex Voronoi region); inside, it is on the edge.
    let u = -R::dot(a, t) / tt;
    if !(u > R::ZERO) {
        Projection::vertex(s, i)
    } else if !(u < R::ONE) {
        Projection::vertex(s, j)
    } else {
        let mut lambda = [R::ZERO; 4];
        lambda[i] = R::ONE - u;
        lambda[j] = u;
        Projection::from_weights(s, lambda)
    }
}

/// Signed areas in the coordinate plane where the triangle's projection is largest (the largest component of
/// `n`, its normal's direction, is dropped), which keeps them well conditioned: the triangle's own (`raw` is
/// `(b - a) x (c - a)`, so `mu` is the dropped normal component, consistent with the three sub-areas), then
/// those with `p0` in place of `a`, `b` and `c`.
///
/// The area of p q r in the plane that drops component m is component m of `(q - p) x (r - p)`, to the bit (the
/// same two products and difference), so the areas are cross products' components picked without a branch:
/// which component is largest goes either way from one triangle to the next (see docs/benchmarks.md).
#[inline(always)]
fn signed_areas<R: Real>(n: R::V, raw: R::V, [a, b, c]: [R::V; 3], p0: R::V) -> [R; 4] {
    let (nx, ny, nz) = (
        R::comp(n, 0).abs(),
        R::comp(n, 1).abs(),
        R::comp(n, 2).abs(),
    );
    let x_dropped = (nx >= ny) & (nx >= nz);
    let y_dropped = ny >= nz;
    let dropped = |v: R::V| {
        let (v0, v1, v2) = (R::comp(v, 0), R::comp(v, 1), R::comp(v, 2));
        let v12 = if y_dropped { v1 } else { v2 };
        if x_dropped {
            v0
        } else {
            v12
        }
    };
    [
        dropped(raw),
        dropped(R::cross(b - p0, c - p0)),
        dropped(R::cross(p0 - a, c - a)),
        dropped(R::cross(b - a, p0 - a)),
    ]
}

/// Triangle `s[i] s[j] s[k]`.
///
/// With `exhaustive`, every edge is evaluated whatever the signs say: the fallback used when rounding made
/// the sign tests skip the region that holds the closest point (see `Simplex::reduce`).
pub(crate) fn s2d<R: Real>(
    s: &[R::V; 4],
    i: usize,
    j: usize,
    k: usize,
    exhaustive: bool,
) -> Projection<R> {
    let (a, b, c) = (s[i], s[j], s[k]);
    let raw = R::cross(b - a, c - a);
    // The normal's direction is all the projection needs ([`Real::squarable`]).
    let (n, nn) = R::squarable(raw);
    // Project the origin onto the triangle's plane; the closest point of the triangle to the origin is the
    // closest point to this projection (Pythagoras).
    let p0 = if nn > R::ZERO {
        n * (R::dot(a, n) / nn)
    } else {
        R::vzero()
    };
    let [mu, c_i, c_j, c_k] = signed_areas::<R>(n, raw, [a, b, c], p0);
    let inside = same_sign(mu, c_i) & same_sign(mu, c_j) & same_sign(mu, c_k);
    if inside && !exhaustive {
        let mut lambda = [R::ZERO; 4];
        lambda[i] = c_i / mu;
        lambda[j] = c_j / mu;
        lambda[k] = c_k / mu;
        // The closest point is the plane projection p0, not the weighted sum of the vertices: its
        // direction is the face normal, accurate to a few ulps whatever the distance, while the weighted
        // sum carries an absolute error of about eps * |vertices|, which near contact is a large relative
        // error and steers the next support point to the wrong vertex (float32, parallel faces).
        return Projection {
            lambda,
            point: p0,
            dist2: R::length_squared(p0),
        };
    }
    // The origin projects outside (or the triangle is degenerate): the closest point is on an edge whose
    // opposite vertex's sub-area disagrees in sign.
    let mut best: Option<Projection<R>> = None;
    let mut consider = |p: Projection<R>| best = Some(best.map_or(p, |b| b.closer(p)));
    if inside {
        let mut lambda = [R::ZERO; 4];
        lambda[i] = c_i / mu;
        lambda[j] = c_j / mu;
        lambda[k] = c_k / mu;
        consider(Projection {
            lambda,
            point: p0,
            dist2: R::length_squared(p0),
        });
    }
    if exhaustive || !same_sign(mu, c_i) {
        consider(s1d(s, j, k));
    }
    if exhaustive || !same_sign(mu, c_j) {
        consider(s1d(s, i, k));
    }
    if exhaustive || !same_sign(mu, c_k) {
        consider(s1d(s, i, j));
    }
    best.unwrap_or_else(|| s1d(s, i, j))
}

/// The origin's projection on the plane of triangle `s[0] s[1] s[2]`, kept when it falls inside the triangle
/// up to the rounding of the sign tests, with the weights clamped to it; `None` otherwise.
///
/// This is GJK's way out of a stall: a segment far longer than its distance to the origin (a thin slab seen
/// edge-on) plus a new support point make a sliver triangle whose true closest point lies inside it by a
/// margin float32 cannot resolve (the square of the slab's thickness), so the sign tests drop the new point
/// and GJK would step back to the same segment forever. The plane projection's direction is accurate (it
/// comes from the face normal), and keeping the whole triangle lets the next support point close the
/// tetrahedron around the origin.
pub(crate) fn s2d_plane<R: Real>(s: &[R::V; 4]) -> Option<Projection<R>> {
    let (a, b, c) = (s[0], s[1], s[2]);
    let raw = R::cross(b - a, c - a);
    let n = R::balanced(raw);
    let nn = R::length_squared(n);
    // |raw| |n|, twice the triangle's area times |n| (raw and n are parallel), without squaring raw.
    let area_n = R::dot(raw, n);
    if !(nn > R::ZERO) || !(area_n > R::ZERO) {
        return None;
    }
    let p0 = n * (R::dot(a, n) / nn);
    // Barycentric coordinates of p0 as ratios of signed areas along n: n . ((c - b) x (p0 - b)) and so on.
    let weight = |p: R::V, q: R::V| R::dot(R::cross(q - p, p0 - p), n) / area_n;
    let mut lambda = [weight(b, c), weight(c, a), weight(a, b), R::ZERO];
    let largest = R::length_squared(a)
        .max_of(R::length_squared(b))
        .max_of(R::length_squared(c));
    // A sub-area carries a few ulps of the largest squared coordinate: over twice the area, its weight's.
    let slack = R::from_f64(WEIGHT_SLACK_ULPS) * R::EPSILON * largest * nn.sqrt() / area_n;
    // A triangle too thin for its weights to mean anything is no way out.
    if !(slack < R::from_f64(PLANE_SLACK_CAP)) || lambda[..3].iter().any(|&l| !(l >= -slack)) {
        return None;
    }
    let mut sum = R::ZERO;
    for l in &mut lambda[..3] {
        *l = l.max_of(R::ZERO);
        sum = sum + *l;
    }
    for l in &mut lambda[..3] {
        *l = *l / sum;
    }
    Some(Projection {
        lambda,
        point: p0,
        dist2: R::length_squared(p0),
    })
}

/// Determinant of the matrix with columns `a`, `b`, `c` (the triple product).
#[inline]
fn det3<R: Real>(a: R::V, b: R::V, c: R::V) -> R {
    R::dot(a, R::cross(b, c))
}

/// Tetrahedron `s[0..4]`. With `exhaustive`, every face is evaluated (see [`s2d`]).
pub(crate) fn s3d<R: Real>(s: &[R::V; 4], exhaustive: bool) -> Projection<R> {
    // Cofactors of the 4x4 matrix [s0 s1 s2 s3; 1 1 1 1]: c[m] is the signed volume of the tetrahedron with
    // the origin in place of vertex m, and their sum is the full signed volume.
    let c = [
        det3::<R>(s[1], s[2], s[3]),
        -det3::<R>(s[0], s[2], s[3]),
        det3::<R>(s[0], s[1], s[3]),
        -det3::<R>(s[0], s[1], s[2]),
    ];
    let det = c[0] + c[1] + c[2] + c[3];
    if c.iter().all(|&cm| same_sign(det, cm)) {
        // The origin is strictly inside: the shapes' cores overlap.
        let lambda = [c[0] / det, c[1] / det, c[2] / det, c[3] / det];
        return Projection {
            lambda,
            point: R::vzero(),
            dist2: R::ZERO,
        };
    }
    // Faces opposite each vertex whose cofactor disagrees with the volume have the origin on their far side
    // (or the tetrahedron is flat): the closest point is on one of them.
    const FACES: [[usize; 3]; 4] = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];
    let mut best: Option<Projection<R>> = None;
    for (m, face) in FACES.iter().enumerate() {
        if exhaustive || !same_sign(det, c[m]) {
            let p = s2d(s, face[0], face[1], face[2], exhaustive);
            best = Some(best.map_or(p, |b| b.closer(p)));
        }
    }
    best.unwrap_or_else(|| s2d(s, 0, 1, 2, true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec3, Vec3A};

    /// [`signed_areas`] as it was written with a branch per comparison and each area spelt out: the
    /// reference for its bits.
    fn areas_by_branches<R: Real>(n: R::V, [a, b, c]: [R::V; 3], p0: R::V) -> [R; 4] {
        let (nx, ny, nz) = (
            R::comp(n, 0).abs(),
            R::comp(n, 1).abs(),
            R::comp(n, 2).abs(),
        );
        let (x, y) = if nx >= ny && nx >= nz {
            (1, 2)
        } else if ny >= nz {
            (2, 0)
        } else {
            (0, 1)
        };
        let area = |p: R::V, q: R::V, r: R::V| {
            (R::comp(q, x) - R::comp(p, x)) * (R::comp(r, y) - R::comp(p, y))
                - (R::comp(q, y) - R::comp(p, y)) * (R::comp(r, x) - R::comp(p, x))
        };
        [
            area(a, b, c),
            area(p0, b, c),
            area(a, p0, c),
            area(a, b, p0),
        ]
    }

    /// The same number, a NaN for a NaN.
    fn same_bits<R: Real>(x: R, y: R) -> bool {
        let (x, y) = (x.to_f64(), y.to_f64());
        x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
    }

    fn check<R: Real>(corners: [R::V; 3], p0: R::V) {
        let [a, b, c] = corners;
        let raw = R::cross(b - a, c - a);
        let (n, _) = R::squarable(raw);
        let found = signed_areas::<R>(n, raw, corners, p0);
        let reference = areas_by_branches::<R>(n, corners, p0);
        for k in 0..4 {
            assert!(
                same_bits(found[k], reference[k]),
                "area {k}: {:?} against {:?}",
                found[k].to_f64(),
                reference[k].to_f64()
            );
        }
    }

    /// Triangles a hostile caller could make: corners from coordinates that are zero of either sign, tie
    /// with each other, are tiny, subnormal, huge, far from the origin, infinite or not a number, in every
    /// order, so that every component of the normal is the largest, ties and flat and collinear corners
    /// included; float32 and float64, each area to the bit.
    #[test]
    fn the_areas_without_branches_are_the_branching_ones_to_the_bit() {
        let values = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            3.0,
            1e-30,
            1e-40,
            1e30,
            1e6 + 0.25,
            -1e6,
            f32::INFINITY,
            f32::NAN,
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut pick = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            values[(state >> 33) as usize % values.len()]
        };
        for _ in 0..200_000 {
            let mut point = || Vec3A::new(pick(), pick(), pick());
            let (corners, p0) = ([point(), point(), point()], point());
            check::<f32>(corners, p0);
            let wide = |v: Vec3A| v.as_dvec3();
            check::<f64>(corners.map(wide), wide(p0));
        }
        // And ordinary triangles, where the projection is the origin's.
        for k in 0..10_000 {
            let t = k as f64 * 0.618;
            let corners = [
                DVec3::new(t.sin(), t.cos(), 0.3),
                DVec3::new(-0.4, (2.0 * t).sin(), t.cos()),
                DVec3::new(0.7 * t.cos(), -0.2, (3.0 * t).sin()),
            ];
            check::<f64>(corners, DVec3::new(0.1, -0.2, 0.05) * t.sin());
            check::<f32>(corners.map(|v| v.as_vec3().into()), Vec3A::ZERO);
        }
    }
}
