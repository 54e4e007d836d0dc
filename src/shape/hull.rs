//! Reducing a point cloud to the vertices of its convex hull.
//!
//! A solid set goes to quickhull decided by exact predicates (`super::exact_quickhull`): no tolerance, its time
//! growing with the points rather than with points times vertices (a million points on a UV sphere in about
//! 3 s). Flat and collinear sets get their exact corners or ends instead (`super::flat_hull`).
//!
//! The quickhull only proposes: its triangles must pass an exact convexity check, and every point it dropped is
//! tested exactly against them (`super::convexity`). So the kept points have the very hull of the input points.
//! Should the check ever refuse the proposal (it never has: on finite float32 points every step is exact, and
//! `ConvexShape::hull` accepts no other), the distinct points are kept as they are, a superset of the hull's
//! vertices with the same hull: slower to search, never wrong.

use super::convexity::{parallel, ConvexSurface};
use super::exact_quickhull::exact_quickhull;
use super::flat_hull::{line_ends, polygon_corners, span, Span};
use glam::Vec3;
use rayon::prelude::*;
use std::collections::HashSet;

#[cfg(test)]
/// The vertices of the convex hull of `points`, found and checked exactly (see the module notes; a solid set's
/// in the order the points were given). Flat and collinear inputs, which have no 3D hull, come back as the
/// corners of their polygon or the two ends of their segment, found exactly.
pub(crate) fn reduce_to_hull_vertices(points: &[Vec3]) -> Vec<Vec3> {
    reduce_to_hull(points).vertices
}

/// What [`reduce_to_hull`] keeps.
pub struct ReducedHull {
    /// The hull's vertices, in the order given (or, should the exact check refuse the hull, every distinct
    /// point: a superset with the same hull).
    pub vertices: Vec<Vec3>,
    /// The hull's triangles over `vertices`, counterclockwise seen from outside, when `vertices` are exactly
    /// the vertices of a closed convex surface that quickhull built and `ConvexSurface` accepted.
    pub triangles: Option<Vec<[u32; 3]>>,
}

/// `reduce_to_hull_vertices`, with the hull's triangles when it has them, so that a hull climbed over its
/// edges needs no second quickhull.
pub fn reduce_to_hull(points: &[Vec3]) -> ReducedHull {
    let candidates = dedup(points);
    // Flat and collinear sets get their exact hull directly, at any size.
    match span(&candidates) {
        Span::Line => flat(line_ends(&candidates)),
        Span::Plane { u, v } => flat(polygon_corners(&candidates, u, v)),
        Span::Solid => exact_quickhull_checked(&candidates).unwrap_or(ReducedHull {
            vertices: candidates,
            triangles: None,
        }),
    }
}

/// The exact hull of a flat or collinear set: its vertices, without triangles (it has no 3D hull).
fn flat(vertices: Vec<Vec3>) -> ReducedHull {
    ReducedHull {
        vertices,
        triangles: None,
    }
}

/// [`exact_quickhull`]'s hull of distinct `points` that span a solid, when it passes [`ConvexSurface::of`] and
/// every point it dropped is inside (both exact; neither is expected to fail, but a proposal is checked all
/// the same).
fn exact_quickhull_checked(points: &[Vec3]) -> Option<ReducedHull> {
    let (picked, triangles) = exact_quickhull(points)?;
    let hull = checked(picked.iter().map(|&i| points[i]).collect(), triangles)?;
    let reduced = with_missed_points(points, hull);
    reduced.triangles.is_some().then_some(reduced)
}

/// The checked hull's vertices and triangles, or, when some of `points` lie outside it (quickhull dropped
/// them), its vertices and those points without triangles.
fn with_missed_points(points: &[Vec3], hull: CheckedHull) -> ReducedHull {
    let kept: HashSet<[u32; 3]> = hull.vertices.iter().map(|p| bits(*p)).collect();
    let dropped = |p: &&Vec3| !kept.contains(&bits(**p));
    let dropped: Vec<Vec3> = if parallel(points.len()) {
        points.par_iter().filter(dropped).copied().collect()
    } else {
        points.iter().filter(dropped).copied().collect()
    };
    let outside = hull.surface.outside_each(&dropped);
    let missed: Vec<Vec3> = dropped
        .into_iter()
        .zip(outside)
        .filter_map(|(p, outside)| outside.then_some(p))
        .collect();
    if missed.is_empty() {
        return ReducedHull {
            vertices: hull.vertices,
            triangles: Some(hull.triangles),
        };
    }
    ReducedHull {
        vertices: hull.vertices.into_iter().chain(missed).collect(),
        triangles: None,
    }
}

/// A quickhull answer that passed [`ConvexSurface::of`].
struct CheckedHull {
    vertices: Vec<Vec3>,
    triangles: Vec<[u32; 3]>,
    surface: ConvexSurface,
}

/// The vertices and their surface, when there are at least four and the triangles close a convex surface.
fn checked(vertices: Vec<Vec3>, triangles: Vec<[u32; 3]>) -> Option<CheckedHull> {
    if vertices.len() < 4 {
        return None;
    }
    let surface = ConvexSurface::of(&vertices, &triangles)?;
    Some(CheckedHull {
        vertices,
        triangles,
        surface,
    })
}

fn bits(p: Vec3) -> [u32; 3] {
    p.to_array().map(f32::to_bits)
}

/// The points without repeats, in their first order (`-0.0` and `0.0` count as one coordinate).
fn dedup(points: &[Vec3]) -> Vec<Vec3> {
    let mut seen = HashSet::with_capacity(points.len());
    points
        .iter()
        .copied()
        .filter(|p| seen.insert(bits(*p + Vec3::ZERO)))
        .collect()
}

#[cfg(all(test, feature = "scenario"))]
mod tests {
    use super::*;

    use crate::scenario::mesh_gen::fibonacci_sphere as sphere_points;

    /// A solid set's reduction, which must be the checked exact quickhull's (the only one with triangles).
    fn solid_hull(points: &[Vec3]) -> ReducedHull {
        assert!(matches!(span(&dedup(points)), Span::Solid));
        let hull = reduce_to_hull(points);
        assert!(hull.triangles.is_some(), "the exact quickhull answers");
        hull
    }

    /// Numbers uniform in [-1, 1) from `seed` (a linear congruential generator's high bits).
    fn uniform(seed: u64) -> impl FnMut() -> f32 {
        let mut state = seed;
        move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
        }
    }

    /// `n` points uniform in the unit ball.
    fn random_ball(random: &mut impl FnMut() -> f32, n: usize) -> Vec<Vec3> {
        let mut ball = Vec::with_capacity(n);
        while ball.len() < n {
            let p = Vec3::new(random(), random(), random());
            if p.length() <= 1.0 {
                ball.push(p);
            }
        }
        ball
    }

    #[test]
    fn small_inputs_get_the_exact_hull() {
        let mut points = sphere_points(200);
        points.extend((0..100).map(|i| Vec3::splat(0.001 * i as f32)));
        points.extend_from_slice(&points.clone()[..50]);
        assert_eq!(solid_hull(&points).vertices.len(), 200);
    }

    #[test]
    fn a_thin_cloud_keeps_every_extreme_point_and_its_triangles() {
        // A ball of random points squashed to 1e-3 of its width, and a sphere of points squashed to 1e-4:
        // quickhull's tolerance swallows the thin direction unless the cloud is stretched round first.
        let ball = random_ball(&mut uniform(7), 4000);
        let squashed: Vec<Vec3> = ball
            .iter()
            .map(|p| *p * Vec3::new(1.0, 1e-3, 1.0))
            .collect();
        let disk: Vec<Vec3> = sphere_points(1500)
            .into_iter()
            .map(|p| p * Vec3::new(1.0, 1e-4, 1.0))
            .collect();
        let round = solid_hull(&ball);
        assert_eq!(solid_hull(&squashed).vertices.len(), round.vertices.len());
        assert_eq!(solid_hull(&disk).vertices.len(), 1500);
    }

    #[test]
    fn the_walked_outside_test_answers_as_every_plane_does() {
        // Hulls of over 256 triangles (where dropped points are walked to their plane): a sphere of points, a
        // ball of random points squashed to 1e-3 and a needle 1e-4 wide, both turned off the axes (the
        // starting table's whitening must follow them).
        let mut random = uniform(11);
        let turn = glam::Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), 0.7);
        let ball = random_ball(&mut random, 3000);
        let clouds = [
            sphere_points(600),
            ball.iter()
                .map(|p| turn * (*p * Vec3::new(1.0, 1e-3, 1.0)))
                .collect(),
            sphere_points(600)
                .iter()
                .map(|p| turn * (*p * Vec3::new(1.0, 1e-4, 1e-4)) + Vec3::splat(100.0))
                .collect::<Vec<Vec3>>(),
        ];
        for cloud in clouds {
            let (picked, triangles) = exact_quickhull(&cloud).expect("a solid cloud");
            let vertices: Vec<Vec3> = picked.iter().map(|&i| cloud[i]).collect();
            let hull = checked(vertices.clone(), triangles.clone()).expect("a convex surface");
            assert!(triangles.len() >= 256, "{}", triangles.len());
            // The cloud itself (inside or on), its vertices a float32 ulp either way, the middles of edges
            // nudged the same way, points around it, and a point that is not a number.
            let nudge = |p: Vec3, k: usize| match k % 3 {
                0 => p.map(f32::next_up),
                1 => p.map(f32::next_down),
                _ => p,
            };
            let mut probes = cloud.clone();
            probes.extend(vertices.iter().enumerate().map(|(k, p)| nudge(*p, k)));
            probes.extend(triangles.iter().enumerate().map(|(k, t)| {
                let (a, b) = (vertices[t[0] as usize], vertices[t[1] as usize]);
                nudge((a + b) * 0.5, k)
            }));
            let centre = vertices.iter().sum::<Vec3>() / vertices.len() as f32;
            probes.extend(
                vertices
                    .iter()
                    .map(|p| centre + (*p - centre) * (1.0 + 0.01 * random())),
            );
            probes.push(Vec3::NAN);
            let reference: Vec<bool> = probes.iter().map(|p| hull.surface.outside(*p)).collect();
            let outside = reference.iter().filter(|&&o| o).count();
            assert!(
                outside > probes.len() / 10 && outside < probes.len() / 2,
                "{outside}"
            );
            assert_eq!(hull.surface.outside_each(&probes), reference);
            // Walks cut short after one step: most points fall back to every plane, with the same answers.
            assert_eq!(hull.surface.outside_each_walked(&probes, 1), reference);
        }
    }

    #[test]
    fn a_finely_tessellated_cube_thins_to_its_corners() {
        // 257 x 257 points on each of the six faces: 396,294 points, all on the boundary, 8 vertices.
        let n = 257;
        let mut points = Vec::new();
        for axis in 0..3 {
            for side in [-1.0f32, 1.0] {
                for i in 0..n {
                    for j in 0..n {
                        let u = -1.0 + 2.0 * i as f32 / (n - 1) as f32;
                        let v = -1.0 + 2.0 * j as f32 / (n - 1) as f32;
                        let mut p = [0.0; 3];
                        p[axis] = side;
                        p[(axis + 1) % 3] = u;
                        p[(axis + 2) % 3] = v;
                        points.push(Vec3::from_array(p));
                    }
                }
            }
        }
        let hull = solid_hull(&points).vertices;
        assert_eq!(hull.len(), 8, "{hull:?}");
        assert!(hull.iter().all(|p| p.abs() == Vec3::ONE));
    }

    #[test]
    fn points_all_on_a_sphere_keep_every_hull_vertex() {
        // Every point is a hull vertex: the exact quickhull keeps them all, with their triangles.
        let points = sphere_points(196_608);
        let kept: HashSet<[u32; 3]> = solid_hull(&points)
            .vertices
            .iter()
            .map(|p| p.to_array().map(f32::to_bits))
            .collect();
        assert!(
            points
                .iter()
                .all(|p| kept.contains(&p.to_array().map(f32::to_bits))),
            "a hull vertex was dropped"
        );
    }

    #[test]
    fn flat_collinear_and_repeated_points() {
        // A flat square of 200,000 points: the corners of the flat hull.
        let square: Vec<Vec3> = (0..200_000)
            .map(|i| Vec3::new((i % 500) as f32, (i / 500) as f32, 0.0))
            .collect();
        let hull = reduce_to_hull_vertices(&square);
        for corner in [[0.0, 0.0], [499.0, 0.0], [0.0, 399.0], [499.0, 399.0]] {
            assert!(
                hull.contains(&Vec3::new(corner[0], corner[1], 0.0)),
                "{hull:?}"
            );
        }
        assert_eq!(hull.len(), 4, "{hull:?}");
        // Collinear points: the two ends (after the duplicates are removed in linear time: the old duplicate
        // search compared every point with every other).
        let mut segment: Vec<Vec3> = (0..200_000)
            .map(|i| Vec3::new(i as f32, 0.0, 0.0))
            .collect();
        segment.extend_from_slice(&segment.clone());
        segment.push(Vec3::new(-0.0, 0.0, 0.0));
        assert_eq!(
            reduce_to_hull_vertices(&segment),
            vec![Vec3::new(-0.0, 0.0, 0.0), Vec3::new(199_999.0, 0.0, 0.0)]
        );
    }
}
