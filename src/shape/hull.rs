//! Reducing a point cloud to the vertices of its convex hull.
//!
//! A solid set goes to quickhull decided by exact predicates (`super::exact_quickhull`): no tolerance, its time
//! growing with the points rather than with points times vertices (a million points on a UV sphere in about
//! 3 s). Its answer is checked as any proposal is (below), and only when it fails does the older path run.
//!
//! That older path, kept for such a set (none has reached it in any test or fuzz run): parry3d's quickhull,
//! which allocates a workspace as long as the input for every vertex it adds, so its time grows with points
//! times hull vertices (0.5 s for 65,536 points on a sphere, 53 s for a million). Larger inputs are first
//! thinned in rounds: the points are dealt into interleaved samples of [`SAMPLE_POINTS`], each sample is
//! reduced to its own hull's vertices (in parallel), and the survivors are dealt again. Every vertex of the
//! whole set's hull is a vertex of the hull of any sample that holds it, so no round drops one. When a round
//! removes little (the points nearly all on the surface), the survivors, a superset of the hull's vertices with
//! the same convex hull, are kept as they are.
//!
//! Any quickhull only proposes: parry3d's calls points within its tolerance of a face "on" it, and on thin or
//! nearly flat sets the dropped points were what gave the shape its thickness (a disk 2e-4 thick came back
//! flat, 9.4e-5 of its size short). The triangles must pass an exact convexity check, and every point dropped
//! is tested exactly against them and kept when outside (`super::convexity`); flat and collinear sets get their
//! exact corners or ends instead (`super::flat_hull`). So the kept points have the very hull of the input points.

use super::convexity::{parallel, ConvexSurface};
use super::exact_quickhull::exact_quickhull;
use super::flat_hull::{line_ends, polygon_corners, span, Span};
use glam::{DVec3, Vec3};
use parry3d_f64::math::Vector;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};

/// On the older path, inputs up to this many points get parry3d's quickhull directly (at most about 0.5 s).
pub const EXACT_HULL_MAX_POINTS: usize = 65_536;
/// Points per sample in a thinning round (about 1 ms each for points all on the surface).
const SAMPLE_POINTS: usize = 1024;

/// The vertices of the convex hull of `points`, found and checked exactly (see the module notes; a solid set's
/// in the order the points were given); only on the older path, above [`EXACT_HULL_MAX_POINTS`] points,
/// possibly a superset of them with the same hull. Flat and collinear inputs, which have no 3D hull, come back
/// as the corners of their polygon or the two ends of their segment, found exactly.
pub fn reduce_to_hull_vertices(points: &[Vec3]) -> Vec<Vec3> {
    reduce_to_hull(points).vertices
}

/// What [`reduce_to_hull`] keeps.
pub struct ReducedHull {
    /// The hull's vertices (or a superset with the same hull): in the order given from the exact quickhull, in
    /// parry3d's order from the older path.
    pub vertices: Vec<Vec3>,
    /// The hull's triangles over `vertices`, counterclockwise seen from outside, when `vertices` are exactly
    /// the vertices of a closed convex surface that quickhull built and [`ConvexSurface`] accepted.
    pub triangles: Option<Vec<[u32; 3]>>,
}

/// [`reduce_to_hull_vertices`], with the hull's triangles when it has them, so that a hull climbed over its
/// edges needs no second quickhull.
pub fn reduce_to_hull(points: &[Vec3]) -> ReducedHull {
    let candidates = dedup(points);
    // Flat and collinear sets get their exact hull directly, at any size.
    match span(&candidates) {
        Span::Line => flat(line_ends(&candidates)),
        Span::Plane { u, v } => flat(polygon_corners(&candidates, u, v)),
        Span::Solid => {
            exact_quickhull_checked(&candidates).unwrap_or_else(|| parry_reduction(candidates))
        }
    }
}

/// The exact hull of a flat or collinear set: its vertices, without triangles (it has no 3D hull).
fn flat(vertices: Vec<Vec3>) -> ReducedHull {
    ReducedHull {
        vertices,
        triangles: None,
    }
}

/// The reduction for a solid set that [`exact_quickhull_checked`] does not answer (none in any test or fuzz
/// run so far): thinning rounds above [`EXACT_HULL_MAX_POINTS`], then parry3d's quickhulls, checked
/// ([`parry_hull_vertices`]).
fn parry_reduction(mut candidates: Vec<Vec3>) -> ReducedHull {
    while candidates.len() > EXACT_HULL_MAX_POINTS {
        let thinned = thin(&candidates);
        // Less than a quarter removed: the rest are (nearly all) hull vertices already.
        if thinned.len() * 4 > candidates.len() * 3 {
            return ReducedHull {
                vertices: thinned,
                triangles: None,
            };
        }
        candidates = thinned;
    }
    parry_hull_vertices(&candidates)
}

/// One round: the hull vertices of interleaved samples (sample `s` holds points `s`, `s + k`, `s + 2k`, ...),
/// so each sample spans the whole cloud rather than one patch of a mesh's surface (a patch of a flat face
/// has no 3D hull to thin it).
fn thin(points: &[Vec3]) -> Vec<Vec3> {
    let samples = points.len().div_ceil(SAMPLE_POINTS);
    (0..samples)
        .into_par_iter()
        .flat_map_iter(|s| {
            let sample: Vec<Vec3> = points.iter().skip(s).step_by(samples).copied().collect();
            parry_hull_vertices(&sample).vertices
        })
        .collect()
}

/// The vertices of the convex hull of distinct `points`: for collinear or coplanar points their exact ends or
/// corners ([`super::flat_hull`]); otherwise quickhull's (parry3d's: in float64, then in float32, then in
/// float64 on the cloud stretched round, the first whose triangles pass the check below), plus every point it
/// dropped that lies outside the hull it found, or the points themselves when none passes.
///
/// Quickhull calls points within its tolerance of a face "on" it and drops them; on a disk 2e-4 thick the
/// float32 one dropped the points that gave it its thickness, and the shape became flat. Its answer is only
/// a proposal here: [`ConvexSurface`] checks exactly that its triangles close a convex surface and that each
/// dropped point is inside it or on it, so the kept points have exactly the convex hull of `points`.
fn parry_hull_vertices(points: &[Vec3]) -> ReducedHull {
    match span(points) {
        Span::Line => return flat(line_ends(points)),
        Span::Plane { u, v } => return flat(polygon_corners(points, u, v)),
        Span::Solid => {}
    }
    let hull = quickhull_f64(points)
        .or_else(|| quickhull_f32(points))
        .or_else(|| quickhull_stretched(points));
    let Some(hull) = hull else {
        return ReducedHull {
            vertices: points.to_vec(),
            triangles: None,
        };
    };
    with_missed_points(points, hull)
}

/// [`exact_quickhull`]'s hull of distinct `points` that span a solid, when it passes [`ConvexSurface::of`] and
/// every point it dropped is inside (both exact; neither is expected to fail, but its answer is checked like
/// parry3d's).
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

/// parry3d's float64 quickhull, when its triangles pass [`ConvexSurface::of`].
fn quickhull_f64(points: &[Vec3]) -> Option<CheckedHull> {
    let wide: Vec<Vector> = points
        .iter()
        .map(|p| Vector::new(p.x as f64, p.y as f64, p.z as f64))
        .collect();
    let (picked, triangles) = quickhull_f64_indices(&wide)?;
    checked(picked.iter().map(|&i| points[i]).collect(), triangles)
}

/// parry3d's float64 quickhull of `placed`: each hull vertex as its index into `placed`, and the triangles over
/// that list of vertices. Quickhull returns copies of the points it keeps, in its own order; their bits find
/// them. `None` when quickhull fails or two entries of `placed` are the same point.
pub(super) fn quickhull_f64_indices(placed: &[Vector]) -> Option<(Vec<usize>, Vec<[u32; 3]>)> {
    let key = |v: &Vector| [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()];
    let index: HashMap<[u64; 3], usize> = placed
        .iter()
        .enumerate()
        .map(|(i, v)| (key(v), i))
        .collect();
    if index.len() != placed.len() {
        return None;
    }
    let (vertices, triangles) = parry3d_f64::transformation::try_convex_hull(placed).ok()?;
    let picked = vertices
        .iter()
        .map(|v| index.get(&key(v)).copied())
        .collect::<Option<Vec<usize>>>()?;
    Some((picked, triangles))
}

/// parry3d's float64 quickhull of `points` stretched to the same extent along three orthogonal axes (the
/// longest span between extreme points, the direction to the point farthest from it, and their normal), when
/// its triangles pass [`ConvexSurface::of`] on the points as given. To quickhull a cloud 1e-3 thick is then a
/// round one, whose thin direction its tolerance no longer swallows (the two quickhulls above fail the check on
/// such clouds, and keeping every point would make each support call scan them all). The stretch is linear
/// with a positive determinant: the same vertices, the triangles turning the same way.
fn quickhull_stretched(points: &[Vec3]) -> Option<CheckedHull> {
    let wide: Vec<DVec3> = points.iter().map(|p| p.as_dvec3()).collect();
    let axes = spread_axes(&wide)?;
    let extent = |axis: DVec3| {
        let (lo, hi) = wide.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
            (lo.min(p.dot(axis)), hi.max(p.dot(axis)))
        });
        hi - lo
    };
    let mut stretch = [DVec3::ZERO; 3];
    for (row, axis) in stretch.iter_mut().zip(axes) {
        let e = extent(axis);
        // Zero for a flat cloud, NaN only for non-finite input (neither reaches here; refuse anyway).
        if e.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        *row = axis / e;
    }
    let stretched: Vec<Vector> = wide
        .iter()
        .map(|p| Vector::new(p.dot(stretch[0]), p.dot(stretch[1]), p.dot(stretch[2])))
        .collect();
    // Two points stretched onto one leave no way back from quickhull's copies: `None`.
    let (picked, triangles) = quickhull_f64_indices(&stretched)?;
    checked(picked.iter().map(|&i| points[i]).collect(), triangles)
}

/// Three orthonormal axes, right-handed, along which a cloud spreads: from the lowest to the highest point of
/// the coordinate axis where that pair is farthest apart, then toward the point farthest from that line, then
/// their normal. `None` for collinear points.
fn spread_axes(points: &[DVec3]) -> Option<[DVec3; 3]> {
    let extremes = (0..3).map(|k| {
        let by = |a: &&DVec3, b: &&DVec3| a[k].total_cmp(&b[k]);
        (
            *points.iter().min_by(by).unwrap_or(&DVec3::ZERO),
            *points.iter().max_by(by).unwrap_or(&DVec3::ZERO),
        )
    });
    let (from, to) = extremes.max_by(|a, b| a.0.distance(a.1).total_cmp(&b.0.distance(b.1)))?;
    let first = (to - from).try_normalize()?;
    let off_line = |p: DVec3| {
        let q = p - from;
        q - first * q.dot(first)
    };
    let farthest = points
        .iter()
        .map(|&p| off_line(p))
        .max_by(|a, b| a.length_squared().total_cmp(&b.length_squared()))?;
    let second = farthest.try_normalize()?;
    Some([first, second, first.cross(second)])
}

/// parry3d's float32 quickhull, when its triangles pass [`ConvexSurface::of`].
fn quickhull_f32(points: &[Vec3]) -> Option<CheckedHull> {
    let converted: Vec<parry3d::math::Vector> = points
        .iter()
        .map(|p| parry3d::math::Vector::new(p.x, p.y, p.z))
        .collect();
    let (vertices, triangles) = parry3d::transformation::try_convex_hull(&converted).ok()?;
    let vertices: Vec<Vec3> = vertices.iter().map(|v| Vec3::new(v.x, v.y, v.z)).collect();
    checked(vertices, triangles)
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

#[cfg(test)]
mod tests {
    use super::*;

    use crate::mesh_gen::fibonacci_sphere as sphere_points;

    /// A solid set's reduction by both paths: the exact quickhull's, and the older path's that runs when that
    /// one fails (so it stays tested although no input reaches it).
    fn both_paths(points: &[Vec3]) -> [ReducedHull; 2] {
        let candidates = dedup(points);
        assert!(matches!(span(&candidates), Span::Solid));
        [
            exact_quickhull_checked(&candidates).expect("the exact quickhull answers"),
            parry_reduction(candidates),
        ]
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
        for hull in both_paths(&points) {
            assert_eq!(hull.vertices.len(), 200);
        }
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
        let round = both_paths(&ball);
        assert_eq!(round[0].vertices.len(), round[1].vertices.len());
        for (thin, round) in both_paths(&squashed).iter().zip(&round) {
            assert_eq!(thin.vertices.len(), round.vertices.len());
            assert!(thin.triangles.is_some());
        }
        for hull in both_paths(&disk) {
            assert_eq!(hull.vertices.len(), 1500);
            assert!(hull.triangles.is_some());
        }
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
        assert!(points.len() > EXACT_HULL_MAX_POINTS);
        for hull in both_paths(&points) {
            let hull = hull.vertices;
            assert_eq!(hull.len(), 8, "{hull:?}");
            assert!(hull.iter().all(|p| p.abs() == Vec3::ONE));
        }
    }

    #[test]
    fn points_all_on_a_sphere_keep_every_hull_vertex() {
        // Every point is a hull vertex: the exact quickhull keeps them all with their triangles; above the
        // older path's limit its thinning keeps them all, without.
        let points = sphere_points(3 * EXACT_HULL_MAX_POINTS);
        for (path, hull) in both_paths(&points).into_iter().enumerate() {
            let kept: HashSet<[u32; 3]> = hull
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
            assert_eq!(hull.triangles.is_some(), path == 0);
        }
    }

    #[test]
    fn flat_collinear_and_repeated_points() {
        // A flat square of 200,000 points: parry3d answers with the outline of the flat hull.
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
