//! The GJK simplex: up to four points of the Minkowski difference A - B, each remembered with the support
//! points of A and B that made it, so the closest points can be rebuilt from the barycentric weights.
//!
//! Fixed-size arrays and no allocation, like the WGSL twin (`Simplex` in `shaders/shared/simplex.wgsl`, where
//! `Simplex::reduce` is `simplex_reduce` and so on).

use super::signed_volumes::{s1d, s2d, s3d, Projection};
use crate::real::Real;

#[derive(Clone, Copy, Debug)]
pub struct Simplex<R: Real> {
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

    /// Replaces the simplex by the smallest sub-simplex that holds its point closest to the origin, and
    /// returns that point. `exhaustive` evaluates every face and edge instead of trusting the sign tests.
    pub fn reduce(&mut self, exhaustive: bool) -> Projection<R> {
        let proj = match self.len {
            1 => Projection {
                lambda: [R::ONE, R::ZERO, R::ZERO, R::ZERO],
                point: self.w[0],
                dist2: R::length_squared(self.w[0]),
            },
            2 => s1d(&self.w, 0, 1),
            3 => s2d(&self.w, 0, 1, 2, exhaustive),
            _ => s3d(&self.w, exhaustive),
        };
        // Keep the vertices with a positive weight, in order.
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
        proj
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
