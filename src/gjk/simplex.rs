//! The GJK simplex: up to four points of the Minkowski difference A - B, each remembered with the support
//! points of A and B that made it, so the closest points can be rebuilt from the barycentric weights.
//!
//! Fixed-size arrays and no allocation, like the WGSL twin (`Simplex` in `shaders/shared/simplex.wgsl`, where
//! `Simplex::project` is `simplex_project` and so on).

use super::signed_volumes::{s1d, s2d, s3d, Projection};
use crate::real::Real;

#[derive(Clone, Copy, Debug)]
pub(crate) struct Simplex<R: Real> {
    /// Minkowski-difference points `w = a - b`.
    pub w: [R::V; 4],
    /// Support points of A (pair-local frame).
    pub a: [R::V; 4],
    /// Support points of B (pair-local frame).
    pub b: [R::V; 4],
    /// Barycentric weights of the closest point, one per live vertex.
    pub lambda: [R; 4],
    /// Number of live vertices, 1 to 4.
    pub len: usize,
}

impl<R: Real> Simplex<R> {
    pub fn single(a: R::V, b: R::V) -> Self {
        let z = R::vzero();
        Self {
            w: [a - b, z, z, z],
            a: [a, z, z, z],
            b: [b, z, z, z],
            lambda: [R::ONE, R::ZERO, R::ZERO, R::ZERO],
            len: 1,
        }
    }

    /// True when `w` is already a vertex: GJK has nothing new to add and has converged.
    pub fn contains(&self, w: R::V) -> bool {
        self.w[..self.len].contains(&w)
    }

    pub fn push(&mut self, a: R::V, b: R::V) {
        debug_assert!(self.len < 4);
        self.w[self.len] = a - b;
        self.a[self.len] = a;
        self.b[self.len] = b;
        self.len += 1;
    }

    /// The point of this simplex closest to the origin, with its weights, the simplex left as it is (GJK
    /// decides whether to take it before [`Self::keep`] applies it). `exhaustive` evaluates every face and
    /// edge instead of trusting the sign tests.
    pub fn project(&self, exhaustive: bool) -> Projection<R> {
        match self.len {
            1 => Projection {
                lambda: [R::ONE, R::ZERO, R::ZERO, R::ZERO],
                point: self.w[0],
                dist2: R::length_squared(self.w[0]),
            },
            2 => s1d(&self.w, 0, 1),
            3 => s2d(&self.w, 0, 1, 2, exhaustive),
            _ => s3d(&self.w, exhaustive),
        }
    }

    /// Keeps the vertices `proj` (this simplex's [`Self::project`]) gives a positive weight, in order, with
    /// those weights normalised to sum to 1.
    pub fn keep(&mut self, proj: &Projection<R>) {
        let mut kept = 0;
        let mut sum = R::ZERO;
        for i in 0..self.len {
            if proj.lambda[i] > R::ZERO {
                self.w[kept] = self.w[i];
                self.a[kept] = self.a[i];
                self.b[kept] = self.b[i];
                self.lambda[kept] = proj.lambda[i];
                sum = sum + proj.lambda[i];
                kept += 1;
            }
        }
        self.len = kept;
        // Weights from the signed volumes of a sliver sum to 1 only up to their rounding (1 + 1e-4 seen in
        // float32, 1 + 2e-14 in float64); unnormalised, they place the witnesses and the recomputed point of
        // A - B off by that fraction of the coordinates, far more than the distance's own rounding.
        if sum > R::ZERO {
            for l in &mut self.lambda[..kept] {
                *l = *l / sum;
            }
        }
    }

    /// Drops the last vertex pushed: the simplex as it was before [`Self::push`] (its weights were not
    /// touched since, as long as [`Self::keep`] was not called).
    pub fn pop(&mut self) {
        debug_assert!(self.len > 1);
        self.len -= 1;
    }

    /// Largest distance of a live vertex from the origin: the magnitude the rounding of this simplex's
    /// arithmetic scales with.
    pub fn max_vertex_norm(&self) -> R {
        let mut m = R::ZERO;
        for i in 0..self.len {
            let n = R::length_squared(self.w[i]);
            if n > m {
                m = n;
            }
        }
        m.sqrt()
    }

    /// `v`, the closest point of this (reduced) simplex to the origin, without its components along the
    /// simplex's own edges: the exact closest point of an edge's or a face's interior is perpendicular to them,
    /// but the computed one carries a rounding of about `eps |w|` in every direction, which turns its direction
    /// by `eps |w| / |v|` (1e-3 rad seen for a sphere 6e-5 of the needle's length from a needle's long edge:
    /// along the normal, B's extent then grew by the needle's length times that angle, 3.4 times the depth).
    /// A direction is removed only when the simplex knows it better than `v` does: an edge longer than `|v|`,
    /// and a face's second direction when the face is taller than `|v|` over its longest edge (the rounding
    /// of that direction is `eps |w| / height`).
    pub fn perpendicular(&self, v: R::V) -> R::V {
        let vv = R::length_squared(v);
        if !(2..=3).contains(&self.len) {
            return v;
        }
        let (i, j, k) = self.longest_edge();
        let long = self.w[j] - self.w[i];
        // Written so that NaN keeps `v`.
        let knows_better = R::length_squared(long) > vv;
        if !knows_better {
            return v;
        }
        let along = R::unit_or_zero(long);
        let mut n = v - along * R::dot(v, along);
        if let Some(k) = k {
            let side = self.w[k] - self.w[i];
            let height = side - along * R::dot(side, along);
            if R::length_squared(height) > vv {
                let across = R::unit_or_zero(height);
                n = n - across * R::dot(n, across);
            }
        }
        n
    }

    /// The vertices `(i, j)` of the longest edge of a live edge or triangle, and the third vertex of a triangle.
    fn longest_edge(&self) -> (usize, usize, Option<usize>) {
        if self.len == 2 {
            return (0, 1, None);
        }
        let edges = [(0, 1, 2), (1, 2, 0), (2, 0, 1)];
        let mut best = edges[0];
        let mut best_length = R::length_squared(self.w[1] - self.w[0]);
        for &(i, j, k) in &edges[1..] {
            let length = R::length_squared(self.w[j] - self.w[i]);
            if length > best_length {
                best = (i, j, k);
                best_length = length;
            }
        }
        (best.0, best.1, Some(best.2))
    }

    /// The point of A - B that the current weights describe, `sum(lambda_i * w_i)`, recomputed from the
    /// vertices: a point of A - B whatever rounding did to the sign tests that chose the weights, so its length
    /// is a certified upper bound on the core distance (within the rounding of this sum).
    pub fn weighted_point(&self) -> R::V {
        let mut p = R::vzero();
        for i in 0..self.len {
            p = p + self.w[i] * self.lambda[i];
        }
        p
    }

    /// The closest points on A and on B (cores only), from the current weights.
    pub fn witnesses(&self) -> (R::V, R::V) {
        let mut pa = R::vzero();
        let mut pb = R::vzero();
        for i in 0..self.len {
            pa = pa + self.a[i] * self.lambda[i];
            pb = pb + self.b[i] * self.lambda[i];
        }
        (pa, pb)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3A;

    fn simplex_of(points: &[Vec3A]) -> Simplex<f32> {
        let mut s = Simplex::single(points[0], Vec3A::ZERO);
        for &p in &points[1..] {
            s.push(p, Vec3A::ZERO);
        }
        s
    }

    #[test]
    fn a_direction_loses_its_rounding_along_a_long_edge() {
        let edge = simplex_of(&[Vec3A::new(-2.0, 1e-4, 0.0), Vec3A::new(3.0, 1e-4, 0.0)]);
        // The closest point (0, 1e-4, 0) with a rounding of 1e-7 along the edge: 1e-3 rad off.
        let n = edge.perpendicular(Vec3A::new(1e-7, 1e-4, 0.0));
        assert!(n.x.abs() <= 1e-12, "{n}");
        assert!((n.y - 1e-4).abs() <= 1e-10, "{n}");
    }

    #[test]
    fn a_face_taller_than_the_distance_removes_both_of_its_directions() {
        let face = simplex_of(&[
            Vec3A::new(-2.0, -1.0, 1e-3),
            Vec3A::new(2.0, -1.0, 1e-3),
            Vec3A::new(0.0, 2.0, 1e-3),
        ]);
        let n = face.perpendicular(Vec3A::new(2e-7, -3e-7, 1e-3));
        assert!(n.x.abs() <= 1e-10 && n.y.abs() <= 1e-10, "{n}");
        assert!((n.z - 1e-3).abs() <= 1e-9, "{n}");
    }

    #[test]
    fn directions_the_simplex_knows_worse_than_the_distance_are_kept() {
        // An edge shorter than the distance, and a face lower than it: v is the better estimate.
        let v = Vec3A::new(0.3, 0.1, 1.0);
        let short = simplex_of(&[Vec3A::new(0.0, 0.0, 1.0), Vec3A::new(0.5, 0.0, 1.0)]);
        assert_eq!(short.perpendicular(v), v);
        let low = simplex_of(&[
            Vec3A::new(-3.0, 0.0, 1.0),
            Vec3A::new(3.0, 0.0, 1.0),
            Vec3A::new(0.0, 0.5, 1.0),
        ]);
        let n = low.perpendicular(v);
        assert!(n.x.abs() <= 1e-6 && (n.y - 0.1).abs() <= 1e-6, "{n}");
        let point = simplex_of(&[Vec3A::new(0.3, 0.1, 1.0)]);
        assert_eq!(point.perpendicular(v), v);
    }
}
