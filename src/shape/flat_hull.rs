//! Exact hulls of point sets without volume: the ends of collinear points, the corners of coplanar ones.
//!
//! Quickhull in 3D cannot build these (there is no solid to bound), and the float32 one answered a flat set with
//! an outline decided within its tolerance. Here the set's dimension is decided exactly
//! (Shewchuk's predicates on the float32 coordinates), and the hull of a flat set is Andrew's monotone chain in
//! a coordinate plane the set's plane projects onto one to one, with exact turns: every corner kept, every
//! point on an edge or inside dropped.

use glam::Vec3;
use robust::{orient2d, orient3d, Coord, Coord3D};
use std::cmp::Ordering;

/// How many dimensions a point set spans, exactly.
pub enum Span {
    /// All points on one line (or one point).
    Line,
    /// All points on one plane, not on one line; the coordinate plane `(u, v)` it projects onto one to one.
    Plane { u: usize, v: usize },
    /// Points with volume.
    Solid,
}

/// The span of distinct `points` (no points at all span a line, with no ends).
pub fn span(points: &[Vec3]) -> Span {
    let Some(&first) = points.first() else {
        return Span::Line;
    };
    let Some(second) = points.iter().copied().find(|&p| p != first) else {
        return Span::Line;
    };
    // The coordinate plane where the first triangle off the line has the largest exact area.
    let Some((third, (u, v))) = points.iter().find_map(|&p| {
        [(0, 1), (1, 2), (2, 0)]
            .into_iter()
            .map(|(u, v)| {
                (
                    orient2d(flat(first, u, v), flat(second, u, v), flat(p, u, v)),
                    (u, v),
                )
            })
            .filter(|(area, _)| *area != 0.0)
            .max_by(|a, b| a.0.abs().total_cmp(&b.0.abs()))
            .map(|(_, plane)| (p, plane))
    }) else {
        return Span::Line;
    };
    let solid = points
        .iter()
        .any(|&p| orient3d(solid(first), solid(second), solid(third), solid(p)) != 0.0);
    if solid {
        Span::Solid
    } else {
        Span::Plane { u, v }
    }
}

/// The two ends of collinear `points` (one point when there is only one): the first and the last in
/// lexicographic order of coordinates, which orders points along any line.
pub fn line_ends(points: &[Vec3]) -> Vec<Vec3> {
    let order = |a: &&Vec3, b: &&Vec3| lexicographic(**a, **b);
    let (Some(&low), Some(&high)) = (points.iter().min_by(order), points.iter().max_by(order))
    else {
        return Vec::new();
    };
    if low == high {
        vec![low]
    } else {
        vec![low, high]
    }
}

/// The corners of the convex polygon that coplanar `points` span, counterclockwise in the `(u, v)`
/// projection: Andrew's monotone chain, a point kept only where the chain turns strictly (exactly).
pub fn polygon_corners(points: &[Vec3], u: usize, v: usize) -> Vec<Vec3> {
    let mut sorted: Vec<Vec3> = points.to_vec();
    // `+ 0.0` makes -0.0 and 0.0 one coordinate: `total_cmp` alone orders them, which would put (-0.0, 5)
    // before (0.0, 3) and break the chain's order.
    sorted.sort_by(|a, b| {
        (a[u] + 0.0)
            .total_cmp(&(b[u] + 0.0))
            .then((a[v] + 0.0).total_cmp(&(b[v] + 0.0)))
    });
    let turns_left =
        |a: Vec3, b: Vec3, c: Vec3| orient2d(flat(a, u, v), flat(b, u, v), flat(c, u, v)) > 0.0;
    let chain = |points: &mut dyn Iterator<Item = Vec3>| {
        let mut hull: Vec<Vec3> = Vec::new();
        for p in points {
            while hull.len() >= 2 && !turns_left(hull[hull.len() - 2], hull[hull.len() - 1], p) {
                hull.pop();
            }
            hull.push(p);
        }
        // Its last point is the other chain's first.
        hull.pop();
        hull
    };
    let mut corners = chain(&mut sorted.iter().copied());
    corners.extend(chain(&mut sorted.iter().rev().copied()));
    corners
}

fn lexicographic(a: Vec3, b: Vec3) -> Ordering {
    let (a, b) = (a + Vec3::ZERO, b + Vec3::ZERO);
    a.x.total_cmp(&b.x)
        .then(a.y.total_cmp(&b.y))
        .then(a.z.total_cmp(&b.z))
}

fn flat(p: Vec3, u: usize, v: usize) -> Coord<f64> {
    Coord {
        x: p[u] as f64,
        y: p[v] as f64,
    }
}

fn solid(p: Vec3) -> Coord3D<f64> {
    Coord3D {
        x: p.x as f64,
        y: p.y as f64,
        z: p.z as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_are_decided_exactly() {
        let line = [
            Vec3::ZERO,
            Vec3::new(1.0, 2.0, 3.0),
            Vec3::new(2.0, 4.0, 6.0),
        ];
        assert!(matches!(span(&line), Span::Line));
        assert!(matches!(span(&[Vec3::ONE]), Span::Line));
        assert!(matches!(span(&[]), Span::Line));
        assert!(line_ends(&[]).is_empty());
        // A plane through the origin tilted on every axis, then one point an ulp off it.
        let mut plane = vec![
            Vec3::ZERO,
            Vec3::new(1.0, 1.0, 2.0),
            Vec3::new(1.0, -1.0, 0.0),
            Vec3::new(2.0, 0.0, 2.0),
        ];
        assert!(matches!(span(&plane), Span::Plane { .. }));
        plane.push(Vec3::new(2.0, 0.0, f32::from_bits(2.0f32.to_bits() + 1)));
        assert!(matches!(span(&plane), Span::Solid));
    }

    #[test]
    fn collinear_points_keep_their_ends() {
        let points: Vec<Vec3> = (0..100)
            .map(|i| Vec3::new(-0.5, i as f32, 3.0 - 2.0 * i as f32))
            .rev()
            .collect();
        let ends = line_ends(&points);
        assert_eq!(
            ends,
            vec![Vec3::new(-0.5, 0.0, 3.0), Vec3::new(-0.5, 99.0, -195.0)]
        );
        assert_eq!(line_ends(&[Vec3::X]), vec![Vec3::X]);
    }

    #[test]
    fn a_flat_disk_keeps_every_rim_point_and_drops_points_on_edges() {
        // 64 points on a circle (rounded to float32) and its centre; then a square with points halfway along
        // two of its edges and one inside.
        let mut points: Vec<Vec3> = (0..64)
            .map(|i| {
                let a = i as f32 / 64.0 * std::f32::consts::TAU;
                let (x, y) = (a.cos(), a.sin());
                Vec3::new(x, y, 1.0)
            })
            .collect();
        points.push(Vec3::new(0.0, 0.0, 1.0));
        let corners = polygon_corners(&points, 0, 1);
        assert_eq!(
            corners.len(),
            64,
            "every rim point is a corner of its circle"
        );
        let square = [
            Vec3::new(0.0, 0.0, 5.0),
            Vec3::new(1.0, 0.0, 5.0),
            Vec3::new(1.0, 1.0, 5.0),
            Vec3::new(0.0, 1.0, 5.0),
            Vec3::new(0.5, 0.0, 5.0),
            Vec3::new(1.0, 0.5, 5.0),
            Vec3::new(0.25, 0.75, 5.0),
        ];
        let corners = polygon_corners(&square, 0, 1);
        assert_eq!(corners.len(), 4, "{corners:?}");
        assert!(square[..4].iter().all(|c| corners.contains(c)));
        // A left edge written with -0.0 above and 0.0 below: one coordinate, sorted by the other.
        let signed = [
            Vec3::new(-0.0, 1.0, 0.0),
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 1.0, 0.0),
            Vec3::new(-0.0, 0.5, 0.0),
        ];
        let corners = polygon_corners(&signed, 0, 1);
        assert_eq!(corners.len(), 4, "{corners:?}");
        assert!(signed[..4].iter().all(|c| corners.contains(c)));
    }
}
