//! The Minkowski difference A - B of a pair, drawn by the inspector: the convex hull of every difference of a
//! point of A and a point of B (B placed by its pose relative to A), turned into world coordinates. GJK and EPA walk on
//! this shape; the origin is inside it exactly when the cores overlap.
//!
//! The 3D hull comes from parry3d's quickhull. A flat difference (two polygons in one plane, the 2D mode) has
//! no 3D hull, so its outline is found in that plane (Andrew's monotone chain: parry3d has no planar hull).

use crate::pose::RelativePose;
use crate::shape::ConvexShape;
use glam::{Quat, Vec2, Vec3};

/// Differences beyond this many are thinned (every k-th pair of points), so two finely tessellated hulls do
/// not stall the inspector; the drawn hull is then slightly inside the true one, which the panel says.
pub const MAX_DIFFERENCES: usize = 400_000;

/// A hull to draw: vertices, outward triangles (none for a flat outline) and edges.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MinkowskiHull {
    pub vertices: Vec<Vec3>,
    pub triangles: Vec<[u32; 3]>,
    pub edges: Vec<[u32; 2]>,
    /// True when the differences were thinned to [`MAX_DIFFERENCES`].
    pub thinned: bool,
    /// Centre and radius of the vertices' bounding sphere (about the bounding box's centre).
    pub centre: Vec3,
    pub radius: f32,
}

/// A - B of the cores (radii are a margin around it: [`swept`]), with A's local frame turned by `to_world`
/// (A's rotation: A - B in world coordinates).
pub fn minkowski_difference(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
    to_world: Quat,
) -> MinkowskiHull {
    let points_b: Vec<Vec3> = b
        .local_points()
        .map(|p| relative.rotation * p + relative.position)
        .collect();
    let total = a.len() * points_b.len();
    let stride = total.div_ceil(MAX_DIFFERENCES).max(1);
    let differences: Vec<Vec3> = a
        .local_points()
        .flat_map(|pa| points_b.iter().map(move |pb| pa - *pb))
        .step_by(stride)
        .map(|d| to_world * d)
        .collect();
    let mut hull = hull_of(&differences);
    hull.thinned = stride > 1;
    hull
}

/// `count` directions spread evenly over the sphere (a Fibonacci lattice), by which [`swept`] sweeps a hull.
fn sphere_directions(count: usize) -> Vec<Vec3> {
    let golden_angle = std::f32::consts::PI * (3.0 - 5f32.sqrt());
    (0..count)
        .map(|i| {
            let z = 1.0 - 2.0 * (i as f32 + 0.5) / count as f32;
            let r = (1.0 - z * z).max(0.0).sqrt();
            let phi = golden_angle * i as f32;
            Vec3::new(r * phi.cos(), r * phi.sin(), z)
        })
        .collect()
}

/// Points [`swept`] hulls at most: with many hull vertices, fewer directions each.
const MAX_SWEPT_POINTS: usize = 200_000;

/// `hull` swept by a sphere of `radius` (the radii of both shapes together): A - B of the shapes with their
/// radii, drawn from the hull's vertices moved along up to 162 directions (a polyhedron just inside the
/// round surface, within about 1.5% of the radius of it).
pub fn swept(hull: &MinkowskiHull, radius: f32) -> MinkowskiHull {
    let count = (MAX_SWEPT_POINTS / hull.vertices.len().max(1)).clamp(26, 162);
    let directions = sphere_directions(count);
    // A hull of very many vertices is swept from a sample of them (slightly inside the true outline).
    let stride = (hull.vertices.len() * count)
        .div_ceil(MAX_SWEPT_POINTS)
        .max(1);
    let points: Vec<Vec3> = hull
        .vertices
        .iter()
        .step_by(stride)
        .flat_map(|v| directions.iter().map(move |d| *v + *d * radius))
        .collect();
    hull_of(&points)
}

impl MinkowskiHull {
    /// The normal of a flat hull (an outline of three or more vertices in one plane); `None` for a solid.
    pub fn plane_normal(&self) -> Option<Vec3> {
        (self.triangles.is_empty() && self.vertices.len() >= 3)
            .then(|| spread_plane(&self.vertices).3)
            .filter(|n| n.is_finite() && n.length_squared() > 0.5)
    }
}

/// The hull of `points`: 3D when they span a volume, else their outline in their plane (or the segment or
/// point they are).
pub fn hull_of(points: &[Vec3]) -> MinkowskiHull {
    // parry3d returns a double-sided hull for coplanar points; their outline is what is wanted.
    let mut hull = if is_flat(points) {
        planar_outline(points)
    } else {
        solid_hull(points)
    };
    let (lo, hi) = hull.vertices.iter().fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    if !hull.vertices.is_empty() {
        hull.centre = 0.5 * (lo + hi);
        hull.radius = hull
            .vertices
            .iter()
            .map(|p| p.distance(hull.centre))
            .fold(0.0, f32::max);
    }
    hull
}

/// The plane through `points`' spread: a point of it, two unit directions in it and its normal. Degenerate
/// points (one point, a segment) give any plane holding them.
fn spread_plane(points: &[Vec3]) -> (Vec3, Vec3, Vec3, Vec3) {
    let first = points.first().copied().unwrap_or(Vec3::ZERO);
    let far = points
        .iter()
        .copied()
        .max_by(|p, q| {
            p.distance_squared(first)
                .total_cmp(&q.distance_squared(first))
        })
        .unwrap_or(first);
    let u = (far - first).try_normalize().unwrap_or(Vec3::X);
    let across = |p: Vec3| (p - first) - u * (p - first).dot(u);
    let v = points
        .iter()
        .map(|p| across(*p))
        .max_by(|a, b| a.length_squared().total_cmp(&b.length_squared()))
        .and_then(Vec3::try_normalize)
        .unwrap_or_else(|| u.any_orthonormal_vector());
    (first, u, v, u.cross(v))
}

/// Whether the points lie in one plane, up to a millionth of their spread.
fn is_flat(points: &[Vec3]) -> bool {
    let (first, _, _, normal) = spread_plane(points);
    let spread = points.iter().map(|p| p.distance(first)).fold(0.0, f32::max);
    let slack = 1e-6 * spread.max(f32::MIN_POSITIVE);
    points
        .iter()
        .all(|p| (*p - first).dot(normal).abs() <= slack)
}

fn solid_hull(points: &[Vec3]) -> MinkowskiHull {
    let converted: Vec<parry3d::math::Vector> = points
        .iter()
        .map(|p| parry3d::math::Vector::new(p.x, p.y, p.z))
        .collect();
    match parry3d::transformation::try_convex_hull(&converted) {
        Ok((vertices, triangles)) if vertices.len() >= 4 && !triangles.is_empty() => {
            let vertices: Vec<Vec3> = vertices.iter().map(|v| Vec3::new(v.x, v.y, v.z)).collect();
            let edges = triangle_edges(&triangles);
            MinkowskiHull {
                vertices,
                triangles,
                edges,
                ..MinkowskiHull::default()
            }
        }
        _ => planar_outline(points),
    }
}

/// Each edge of the triangles once.
fn triangle_edges(triangles: &[[u32; 3]]) -> Vec<[u32; 2]> {
    let mut edges: Vec<[u32; 2]> = triangles
        .iter()
        .flat_map(|&[a, b, c]| [[a, b], [b, c], [c, a]])
        .map(|[u, v]| [u.min(v), u.max(v)])
        .collect();
    edges.sort_unstable();
    edges.dedup();
    edges
}

/// The convex outline of coplanar points, in their plane (a closed loop of edges).
fn planar_outline(points: &[Vec3]) -> MinkowskiHull {
    if points.is_empty() {
        return MinkowskiHull::default();
    }
    let (first, u, v, _) = spread_plane(points);
    let planar: Vec<Vec2> = points
        .iter()
        .map(|p| Vec2::new((*p - first).dot(u), (*p - first).dot(v)))
        .collect();
    let loop_indices = monotone_chain(&planar);
    let vertices: Vec<Vec3> = loop_indices.iter().map(|&i| points[i]).collect();
    let n = vertices.len() as u32;
    let edges = match n {
        0 | 1 => Vec::new(),
        2 => vec![[0, 1]],
        _ => (0..n).map(|i| [i, (i + 1) % n]).collect(),
    };
    MinkowskiHull {
        vertices,
        edges,
        ..MinkowskiHull::default()
    }
}

/// Indices of the convex hull of 2D points, counter-clockwise (Andrew's monotone chain).
fn monotone_chain(points: &[Vec2]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&i, &j| {
        let (p, q) = (points[i], points[j]);
        p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y))
    });
    order.dedup_by(|i, j| points[*i] == points[*j]);
    if order.len() < 3 {
        return order;
    }
    // A turn within rounding of straight counts as straight: the points came through a rotation into the
    // plane's frame, so collinear ones are collinear only up to a few ulps.
    let cross = |o: Vec2, a: Vec2, b: Vec2| {
        let (p, q) = (a - o, b - o);
        let turn = p.perp_dot(q);
        if turn.abs() <= 1e-5 * p.length() * q.length() {
            0.0
        } else {
            turn
        }
    };
    let mut hull: Vec<usize> = Vec::with_capacity(2 * order.len());
    for pass in 0..2 {
        let start = hull.len();
        let sequence: Box<dyn Iterator<Item = &usize>> = if pass == 0 {
            Box::new(order.iter())
        } else {
            Box::new(order.iter().rev())
        };
        for &i in sequence {
            while hull.len() >= start + 2
                && cross(
                    points[hull[hull.len() - 2]],
                    points[hull[hull.len() - 1]],
                    points[i],
                ) <= 0.0
            {
                hull.pop();
            }
            hull.push(i);
        }
        // The last point of each chain is the first of the other.
        hull.pop();
    }
    hull
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_cubes_make_a_cube_twice_as_large() {
        let cube = ConvexShape::cuboid(Vec3::ONE).unwrap();
        let relative = RelativePose {
            rotation: Quat::IDENTITY,
            position: Vec3::new(5.0, 0.0, 0.0),
        };
        let hull = minkowski_difference(&cube, &cube, &relative, Quat::IDENTITY);
        assert_eq!(hull.vertices.len(), 8);
        assert_eq!(hull.triangles.len(), 12);
        assert_eq!(hull.edges.len(), 18, "12 edges and 6 face diagonals");
        assert!((hull.centre - Vec3::new(-5.0, 0.0, 0.0)).length() < 1e-5);
        assert!((hull.radius - 2.0 * 3f32.sqrt()).abs() < 1e-4);
        assert!(!hull.thinned);
    }

    #[test]
    fn flat_polygons_give_their_outline_in_the_plane() {
        let square = ConvexShape::new(
            vec![
                Vec3::new(-1.0, -1.0, 0.0),
                Vec3::new(1.0, -1.0, 0.0),
                Vec3::new(1.0, 1.0, 0.0),
                Vec3::new(-1.0, 1.0, 0.0),
            ],
            0.0,
        )
        .unwrap();
        let triangle = ConvexShape::new(
            vec![
                Vec3::ZERO,
                Vec3::new(1.0, 0.0, 0.0),
                Vec3::new(0.0, 1.0, 0.0),
            ],
            0.0,
        )
        .unwrap();
        let relative = RelativePose {
            rotation: Quat::IDENTITY,
            position: Vec3::new(3.0, 0.5, 0.0),
        };
        let hull = minkowski_difference(&square, &triangle, &relative, Quat::IDENTITY);
        assert!(hull.triangles.is_empty());
        // A square minus a right triangle: the square's four edge directions and the triangle's diagonal
        // (its other two edges run along the square's), a pentagon.
        assert_eq!(hull.vertices.len(), 5, "{:?}", hull.vertices);
        assert_eq!(hull.edges.len(), 5);
        assert!(hull.vertices.iter().all(|p| p.z.abs() < 1e-6));
    }
}
