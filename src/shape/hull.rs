//! Reducing a point cloud to the vertices of its convex hull.
//!
//! parry3d's quickhull allocates a workspace as long as the input for every vertex it adds, so its time
//! grows with points times hull vertices: 0.5 s for 65,536 points on a sphere, 53 s for a million (a UV
//! sphere OBJ). Larger inputs are first thinned in rounds: the points are dealt into interleaved samples of
//! [`SAMPLE_POINTS`], each sample is reduced to its own hull's vertices (in parallel), and the survivors are
//! dealt again. Every vertex of the whole set's hull is a vertex of the hull of any sample that holds it,
//! so no round drops one. When a round removes little (the points are nearly all on the surface, as on a
//! finely tessellated sphere), the exact hull would be almost as large and cost minutes: the survivors,
//! a superset of the hull's vertices with the same convex hull, are kept as they are.

use glam::Vec3;
use rayon::prelude::*;
use std::collections::HashSet;

/// Inputs up to this many points get parry3d's exact hull directly (at most about 0.5 s).
pub const EXACT_HULL_MAX_POINTS: usize = 65_536;
/// Points per sample in a thinning round (about 1 ms each for points all on the surface).
const SAMPLE_POINTS: usize = 1024;

/// The vertices of the convex hull of `points`, computed with parry3d's quickhull; above
/// [`EXACT_HULL_MAX_POINTS`] points, possibly a superset of them with the same hull (see the module
/// notes). Flat, collinear and tiny inputs, which have no 3D hull, come back with duplicates removed and
/// nothing else dropped (GJK handles them as they are).
pub fn reduce_to_hull_vertices(points: &[Vec3]) -> Vec<Vec3> {
    let mut candidates = dedup(points);
    while candidates.len() > EXACT_HULL_MAX_POINTS {
        let thinned = thin(&candidates);
        // Less than a quarter removed: the rest are (nearly all) hull vertices already.
        if thinned.len() * 4 > candidates.len() * 3 {
            return thinned;
        }
        candidates = thinned;
    }
    exact_hull_vertices(&candidates)
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
            exact_hull_vertices(&sample)
        })
        .collect()
}

/// parry3d's quickhull of distinct points; the points themselves when they have no 3D hull.
fn exact_hull_vertices(points: &[Vec3]) -> Vec<Vec3> {
    let converted: Vec<parry3d::math::Vector> = points
        .iter()
        .map(|p| parry3d::math::Vector::new(p.x, p.y, p.z))
        .collect();
    match parry3d::transformation::try_convex_hull(&converted) {
        Ok((vertices, _faces)) if vertices.len() >= 4 => {
            vertices.iter().map(|v| Vec3::new(v.x, v.y, v.z)).collect()
        }
        _ => points.to_vec(),
    }
}

/// The points without repeats, in their first order (`-0.0` and `0.0` count as one coordinate).
fn dedup(points: &[Vec3]) -> Vec<Vec3> {
    let mut seen = HashSet::with_capacity(points.len());
    points
        .iter()
        .copied()
        .filter(|p| seen.insert((*p + Vec3::ZERO).to_array().map(f32::to_bits)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::mesh_gen::fibonacci_sphere as sphere_points;

    #[test]
    fn small_inputs_get_the_exact_hull() {
        let mut points = sphere_points(200);
        points.extend((0..100).map(|i| Vec3::splat(0.001 * i as f32)));
        points.extend_from_slice(&points.clone()[..50]);
        let hull = reduce_to_hull_vertices(&points);
        assert_eq!(hull.len(), 200);
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
        let hull = reduce_to_hull_vertices(&points);
        assert_eq!(hull.len(), 8, "{hull:?}");
        assert!(hull.iter().all(|p| p.abs() == Vec3::ONE));
    }

    #[test]
    fn points_all_on_a_sphere_keep_every_hull_vertex() {
        // Every point is a hull vertex: above the exact limit the thinning keeps them all, quickly.
        let points = sphere_points(3 * EXACT_HULL_MAX_POINTS);
        let start = std::time::Instant::now();
        let hull = reduce_to_hull_vertices(&points);
        let kept: HashSet<[u32; 3]> = hull
            .iter()
            .map(|p| p.to_array().map(f32::to_bits))
            .collect();
        assert!(
            points
                .iter()
                .all(|p| kept.contains(&p.to_array().map(f32::to_bits))),
            "a hull vertex was dropped"
        );
        eprintln!(
            "{} sphere points thinned in {:?}",
            points.len(),
            start.elapsed()
        );
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
        assert!(hull.len() <= 8, "{hull:?}");
        // Collinear points have no hull at all: every distinct point is kept, each once (in linear time:
        // the old duplicate search compared every point with every other).
        let mut segment: Vec<Vec3> = (0..200_000)
            .map(|i| Vec3::new(i as f32, 0.0, 0.0))
            .collect();
        segment.extend_from_slice(&segment.clone());
        segment.push(Vec3::new(-0.0, 0.0, 0.0));
        assert_eq!(reduce_to_hull_vertices(&segment).len(), 200_000);
    }
}
