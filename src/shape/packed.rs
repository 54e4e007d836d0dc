//! A structure-of-arrays copy of a point set for the SIMD support scan.

use crate::real::Real;

/// Point sets with at least this many points are scanned 8 at a time in SIMD lanes; smaller ones one at a time
/// (the lanes' setup and final step cost more than they save). It was 48 while the SIMD scan tracked each lane's
/// block; with the largest value found first and its point after (`scan_lanes_body` in `crate::real`),
/// measured in whole queries in one binary, timed in alternation on `benches/vs_parry/cases.rs`' mix, against the
/// scalar scan below 48: from 24 points, 1.4% to 1.6% less time per distance query, 3.2% per intersection
/// query, 0.3% to 2.4% per penetration query; from 16 or 32, about the same; every answer identical.
pub(crate) const SIMD_SCAN_MIN_POINTS: usize = 24;

/// The most lanes of any [`Real`] (float32's eight).
const MAX_LANES: usize = 8;
const _: () =
    assert!(<f32 as Real>::LANE_COUNT <= MAX_LANES && <f64 as Real>::LANE_COUNT <= MAX_LANES);

/// The points' coordinates in lanes of [`Real::LANE_COUNT`] (8 for float32, 4 for float64): `x[b]` holds the x
/// coordinates of points `LANE_COUNT * b ..`. The last block is padded with copies of the last point, which tie
/// with it and so never win (ties go to the lower index).
#[derive(Clone, Debug, PartialEq)]
pub struct PackedPoints<R: Real> {
    x: Vec<R::Lanes>,
    y: Vec<R::Lanes>,
    z: Vec<R::Lanes>,
}

impl<R: Real> PackedPoints<R> {
    /// Packs a non-empty point set.
    pub fn new(points: &[R::V]) -> Self {
        assert!(!points.is_empty(), "a shape has at least one point");
        let n = R::LANE_COUNT;
        let blocks = points.len().div_ceil(n);
        let mut packed = Self {
            x: Vec::with_capacity(blocks),
            y: Vec::with_capacity(blocks),
            z: Vec::with_capacity(blocks),
        };
        let last = points[points.len() - 1];
        // One block's coordinates by axis, on the stack: a `Vec` per block and axis was 15,000 allocations for
        // the float64 copy of a 20,000-point hull (each float64 repeat of a pair makes one), 0.6 ms of packing.
        let mut axes = [[R::ZERO; MAX_LANES]; 3];
        for b in 0..blocks {
            for lane in 0..n {
                let p = points.get(b * n + lane).copied().unwrap_or(last);
                for (k, axis) in axes.iter_mut().enumerate() {
                    axis[lane] = R::comp(p, k);
                }
            }
            packed.x.push(R::lanes(&axes[0][..n]));
            packed.y.push(R::lanes(&axes[1][..n]));
            packed.z.push(R::lanes(&axes[2][..n]));
        }
        packed
    }

    /// The packed copy the SIMD scan of a shape's support reads: none for a hull that climbs its `adjacency`
    /// ([`super::HullView::support_index`] walks whenever it can, so the copy would be 12 bytes a vertex written
    /// for nothing, and most of a float64 repeat's setup on a 20,000-point hull), nor for a point set too small
    /// for the SIMD scan to pay (`SIMD_SCAN_MIN_POINTS`).
    pub fn for_scans(points: &[R::V], adjacency: Option<&super::HullAdjacency>) -> Option<Self> {
        (adjacency.is_none() && points.len() >= SIMD_SCAN_MIN_POINTS).then(|| Self::new(points))
    }

    /// Index of the point with the largest dot product with `dir`, the first one on ties: the scalar
    /// [`super::support_index`]'s answer.
    #[inline(never)]
    pub fn support_index(&self, dir: R::V) -> usize {
        R::scan_lanes(&self.x, &self.y, &self.z, dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::support_index;
    use glam::{DVec3, Vec3A};

    /// A deterministic cloud with many ties: coordinates on a coarse grid.
    fn grid_cloud(n: usize) -> Vec<Vec3A> {
        (0..n)
            .map(|i| {
                let h = (i as u32).wrapping_mul(2_654_435_761);
                Vec3A::new(
                    (h % 7) as f32 - 3.0,
                    ((h >> 8) % 5) as f32 - 2.0,
                    ((h >> 16) % 3) as f32 - 1.0,
                )
            })
            .collect()
    }

    #[test]
    fn the_simd_scan_picks_the_scalar_scans_index_ties_included() {
        let dirs = [
            Vec3A::X,
            Vec3A::NEG_Y,
            Vec3A::new(1.0, 1.0, 0.0),
            Vec3A::new(0.3, -0.7, 0.2),
            Vec3A::ZERO,
            Vec3A::new(-1e-30, 2e-30, 0.0),
            // Products that underflow to zero (every point ties), and that overflow to infinities of both signs
            // (whose sums are not numbers on some points).
            Vec3A::splat(1e-45),
            Vec3A::new(3e38, -3e38, 1.0),
            Vec3A::new(-3e38, 1.0, 3e38),
        ];
        for n in [1, 2, 7, 8, 9, 15, 16, 17, 31, 100, 257] {
            let points = grid_cloud(n);
            let packed = PackedPoints::<f32>::new(&points);
            let wide: Vec<DVec3> = points.iter().map(|p| p.as_dvec3()).collect();
            let packed64 = PackedPoints::<f64>::new(&wide);
            for dir in dirs {
                assert_eq!(
                    packed.support_index(dir),
                    support_index::<f32>(&points, dir),
                    "{n} points along {dir}"
                );
                assert_eq!(
                    packed64.support_index(dir.as_dvec3()),
                    support_index::<f64>(&wide, dir.as_dvec3()),
                    "{n} points along {dir} in float64"
                );
            }
        }
    }

    #[test]
    fn a_nan_direction_answers_the_first_point_like_the_scalar_scan() {
        let points = grid_cloud(20);
        let packed = PackedPoints::<f32>::new(&points);
        assert_eq!(packed.support_index(Vec3A::NAN), 0);
        assert_eq!(support_index::<f32>(&points, Vec3A::NAN), 0);
    }

    /// Directions whose dot products overflow to infinity (or are infinite) leave the largest value infinite:
    /// the scan then tracks each lane's block exactly, and still answers the scalar scan's first point of the
    /// largest dot product.
    #[test]
    fn infinite_dot_products_answer_like_the_scalar_scan() {
        // Coordinates 1 to 7, none zero, so that no infinite component meets a zero (which would be NaN).
        let points: Vec<Vec3A> = grid_cloud(100)
            .into_iter()
            .map(|p| p + Vec3A::new(4.0, 3.0, 2.0))
            .collect();
        let packed = PackedPoints::<f32>::new(&points);
        for dir in [
            Vec3A::new(f32::MAX, 1.0, 1.0),
            Vec3A::new(1.0, -f32::MAX, 0.5),
            Vec3A::new(f32::INFINITY, 1.0, 1.0),
            Vec3A::new(0.5, 1.0, f32::NEG_INFINITY),
        ] {
            assert_eq!(
                packed.support_index(dir),
                support_index::<f32>(&points, dir),
                "along {dir}"
            );
        }
    }

    /// A dot product that is not a number (two products overflowing to infinities of opposite signs) between
    /// the largest one and a smaller one in the same lane: a running maximum that let the NaN through, and
    /// then the smaller value after it, would lose the largest; the scalar scan passes over the NaN.
    #[test]
    fn a_not_a_number_between_maxima_does_not_hide_the_largest() {
        let dir = Vec3A::new(3e38, -3e38, 1.0);
        for (lanes, stride) in [(8, 1), (4, 2)] {
            // Lane 0 of blocks 0, 2, 4 and 6: 1, then the largest (5), then NaN, then 3; every other point 1.
            let mut points = vec![Vec3A::Z; 7 * lanes];
            points[2 * lanes] = Vec3A::new(0.0, 0.0, 5.0);
            points[4 * lanes] = Vec3A::new(2.0, 2.0, 0.0);
            points[6 * lanes] = Vec3A::new(0.0, 0.0, 3.0);
            let expected = support_index::<f32>(&points, dir);
            assert_eq!(expected, 2 * lanes);
            if stride == 1 {
                assert_eq!(
                    PackedPoints::<f32>::new(&points).support_index(dir),
                    expected
                );
            } else {
                let wide: Vec<DVec3> = points.iter().map(|p| p.as_dvec3()).collect();
                let dir = DVec3::new(1e308, -1e308, 1.0);
                let expected = support_index::<f64>(&wide, dir);
                assert_eq!(expected, 2 * lanes);
                assert_eq!(PackedPoints::<f64>::new(&wide).support_index(dir), expected);
            }
        }
    }
}
