//! Frame coherence, in the spirit of Box2D's `b2SimplexCache`: what a pair's last query ended on, so that the
//! same pair next frame starts there. GJK starts along the last separating direction (instead of the centres'
//! direction) and each hull's walk starts at its last support vertex (instead of the start table's vertex).
//!
//! It changes where the search starts, not what it converges to: answers stay within the same tolerances
//! (the certificate and the float64 repeat apply as always).

use crate::gjk::{GjkResult, GjkStatus, PairQuery, QueryKind};
use crate::real::Real;
use crate::shape::NO_START;
use glam::Vec3;

/// One pair's warm start. `WarmStart::default()` is a cold start.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WarmStart {
    /// The last separating direction, from A towards B in A's local frame; zero when there is none (cores
    /// overlapping, or no query yet).
    pub direction: Vec3,
    /// The support vertex of A's and B's last walks (`NO_START` when the shape is scanned or not yet walked).
    pub vertex_a: u32,
    pub vertex_b: u32,
}

impl Default for WarmStart {
    fn default() -> Self {
        Self {
            direction: Vec3::ZERO,
            vertex_a: NO_START,
            vertex_b: NO_START,
        }
    }
}

impl WarmStart {
    /// Starts `q` where this pair's last query ended.
    pub(crate) fn prime(&self, q: &mut PairQuery<'_, f32>) {
        if self.direction.length_squared() > 0.0 {
            q.support.start = self.direction.into();
        }
        q.support.a.start_at(self.vertex_a);
        q.support.b.start_at(self.vertex_b);
    }

    /// Remembers where `q`'s search ended with `result`. Only a converged separation (`kind` distance) leaves
    /// a direction: the boolean early exit stops at the first plane that separates, which is no better a start
    /// than the centres' direction, and overlapping pairs start best from the centres (measured: keeping
    /// either cost more iterations than it saved, see `batch::tests`).
    pub(crate) fn record<R: Real>(
        &mut self,
        q: &PairQuery<'_, R>,
        result: &GjkResult<R>,
        kind: QueryKind,
    ) {
        let n = R::vec_to_f64(R::unplain(result.normal)).as_vec3();
        let converged = kind == QueryKind::Distance && result.status == GjkStatus::Separated;
        self.direction = if converged && n.is_finite() && n.length_squared() > 0.0 {
            n
        } else {
            Vec3::ZERO
        };
        self.vertex_a = q.support.a.last_vertex();
        self.vertex_b = q.support.b.last_vertex();
    }
}
