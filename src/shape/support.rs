//! Support mappings of point sets: the farthest point along a direction.
//!
//! A shape owns its support function; the algorithms above (GJK, EPA) only ever ask a shape for its support
//! point. Generic over [`Real`] so the float64 referee scans the same way.

use super::adjacency::{HullAdjacency, NO_START};
use super::packed::PackedPoints;
use crate::real::Real;
use std::cell::Cell;

/// The index of the point of `points` with the largest dot product with `dir` (the first one on ties, so
/// results are deterministic and the WGSL twin `support_hull`, which scans in the same order, picks the same
/// vertex): the scalar linear scan, the reference the faster searches of [`HullView`] are checked against.
/// Tracking the index rather than copying the best point on every improvement halves the scan time (measured:
/// about 235 vs 410 ns for 256 points).
#[inline]
pub fn support_index<R: Real>(points: &[R::V], dir: R::V) -> usize {
    let mut best = 0;
    let mut best_dot = R::dot(points[0], dir);
    for (i, &p) in points.iter().enumerate().skip(1) {
        let d = R::dot(p, dir);
        if d > best_dot {
            best_dot = d;
            best = i;
        }
    }
    best
}

/// One shape's support mapping as the algorithms use it: its core points and, when the shape has them, the
/// packed copy for the SIMD scan and the vertex adjacency for hill climbing. Remembers the vertex of its last
/// answer, where the next walk starts (GJK's successive directions turn little, so the walk is a step or two).
///
/// Which search answers: the walk when there is an adjacency (hulls of at least
/// `HILL_CLIMB_MIN_VERTICES` vertices made by [`super::ConvexShape::hull`]), else the SIMD scan, else
/// the scalar scan (the float64 referee built from bare points). The scans answer the same vertex bit for bit;
/// the walk the same support value (see [`HullAdjacency`] for its ties).
#[derive(Clone, Debug)]
pub struct HullView<'a, R: Real> {
    pub points: &'a [R::V],
    packed: Option<&'a PackedPoints<R>>,
    adjacency: Option<&'a HullAdjacency>,
    last: Cell<u32>,
}

impl<'a, R: Real> HullView<'a, R> {
    /// A view searched by the scalar scan alone.
    pub fn scan(points: &'a [R::V]) -> Self {
        Self::new(points, None, None)
    }

    pub fn new(
        points: &'a [R::V],
        packed: Option<&'a PackedPoints<R>>,
        adjacency: Option<&'a HullAdjacency>,
    ) -> Self {
        Self {
            points,
            packed,
            adjacency,
            last: Cell::new(NO_START),
        }
    }

    /// True when the support function walks the hull's adjacency.
    pub fn climbs(&self) -> bool {
        self.adjacency.is_some()
    }

    /// The vertex of the last answer (`NO_START` before the first).
    pub fn last_vertex(&self) -> u32 {
        self.last.get()
    }

    /// Starts the next walk at `vertex` (a warm start carried over from an earlier query of the same shape);
    /// ignored when out of range.
    pub fn start_at(&self, vertex: u32) {
        if (vertex as usize) < self.points.len() {
            self.last.set(vertex);
        }
    }

    /// Forgets the last vertex: the next walk starts from the start table, as a new query does.
    pub fn start_at_seeds(&self) {
        self.last.set(NO_START);
    }

    /// Index of the support point along `dir`.
    #[inline(always)]
    pub fn support_index(&self, dir: R::V) -> usize {
        match (self.adjacency, self.packed) {
            (Some(adjacency), _) => self.climb(adjacency, dir),
            (None, Some(packed)) => packed.support_index(dir),
            (None, None) => support_index::<R>(self.points, dir),
        }
    }

    /// The walk, kept out of line so that the scans of small shapes stay short where they are inlined.
    #[inline(never)]
    fn climb(&self, adjacency: &HullAdjacency, dir: R::V) -> usize {
        let index = adjacency.climb::<R>(self.points, self.last.get(), dir);
        self.last.set(index as u32);
        index
    }

    /// The support point along `dir`.
    #[inline(always)]
    pub fn support_point(&self, dir: R::V) -> R::V {
        self.points[self.support_index(dir)]
    }
}
