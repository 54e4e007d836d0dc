//! Reducing a point cloud to the vertices of its convex hull.

use glam::Vec3;

/// The vertices of the convex hull of `points`, computed with parry3d's quickhull. Flat, collinear and
/// tiny inputs, which have no 3D hull, come back with duplicates removed and nothing else dropped (GJK
/// handles them as they are).
pub fn reduce_to_hull_vertices(points: &[Vec3]) -> Vec<Vec3> {
    let converted: Vec<parry3d::math::Vector> = points
        .iter()
        .map(|p| parry3d::math::Vector::new(p.x, p.y, p.z))
        .collect();
    match parry3d::transformation::try_convex_hull(&converted) {
        Ok((vertices, _faces)) if vertices.len() >= 4 => {
            vertices.iter().map(|v| Vec3::new(v.x, v.y, v.z)).collect()
        }
        _ => dedup(points),
    }
}

fn dedup(points: &[Vec3]) -> Vec<Vec3> {
    let mut out: Vec<Vec3> = Vec::with_capacity(points.len());
    for p in points {
        if !out.contains(p) {
            out.push(*p);
        }
    }
    out
}
