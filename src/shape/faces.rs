//! The faces of a shape's core hull: the planar polygons a contact manifold clips against one another.
//!
//! A solid core gets the exact quickhull's triangles (`super::exact_quickhull`), merged into polygons where
//! they lie in one plane within [`FACE_FLATNESS`] of the core's size: a box's face is one quad even when its
//! rotated float32 corners are not exactly coplanar, so a box resting on it gets four contact points, not the
//! three of one triangle. A flat core (a polygon) has its two sides and its edges, each edge a two-vertex
//! face with the in-plane outward normal; a segment and a point have no faces, the manifold treats them by
//! their closed forms.
//!
//! Indices are into [`super::ConvexShape::core_points`] and are the same for the same points every time (the
//! quickhull is deterministic), so a face's index names the same face frame after frame: the manifold's
//! feature ids are built from them.

use super::exact_quickhull::exact_quickhull;
use super::flat_hull::{line_ends, polygon_corners, span, Span};
use glam::{DVec3, Vec3};
use std::collections::HashMap;

/// Triangles whose corners all lie within this fraction of the core's size (its largest coordinate) of a
/// face's plane, and whose normals are within about 2.5 degrees of it, are merged into that face.
pub const FACE_FLATNESS: f64 = 1e-6;

/// Normals of triangles merged into one face agree to this cosine.
const FACE_COSINE: f64 = 0.999;

/// One planar face of a core hull.
#[derive(Clone, Debug, PartialEq)]
pub struct HullFace {
    /// Core point indices, counterclockwise seen from outside (two for an edge of a flat core).
    pub vertices: Vec<u32>,
    /// Unit outward normal.
    pub normal: DVec3,
}

/// The faces of a core hull, or the closed form of a core without any.
#[derive(Clone, Debug, PartialEq)]
pub enum HullFaces {
    /// All points in one place (a sphere's core).
    Point(u32),
    /// All points on one line: its two ends (a capsule's core).
    Segment([u32; 2]),
    /// A solid's faces, or a flat polygon's two sides and its edges.
    Faces(Vec<HullFace>),
}

impl HullFaces {
    /// The faces of the hull of `core` (a non-empty point set).
    pub fn of(core: &[Vec3]) -> Self {
        let index = |p: Vec3| core.iter().position(|&q| q == p).unwrap_or(0) as u32;
        match span(core) {
            Span::Line => match line_ends(core).as_slice() {
                [low, high] => HullFaces::Segment([index(*low), index(*high)]),
                _ => HullFaces::Point(0),
            },
            Span::Plane { u, v } => {
                let corners: Vec<u32> =
                    polygon_corners(core, u, v).into_iter().map(index).collect();
                HullFaces::Faces(flat_faces(core, &corners))
            }
            Span::Solid => match exact_quickhull(core) {
                Some((picked, triangles)) => {
                    let triangles: Vec<[u32; 3]> = triangles
                        .iter()
                        .map(|t| t.map(|k| picked[k as usize] as u32))
                        .collect();
                    HullFaces::Faces(merged_faces(core, &triangles))
                }
                // Never seen; a shape without faces still gets its deepest contact point.
                None => HullFaces::Faces(Vec::new()),
            },
        }
    }
}

fn wide(core: &[Vec3], i: u32) -> DVec3 {
    core[i as usize].as_dvec3()
}

/// A flat polygon's faces: both sides, then one two-vertex face per edge with its in-plane outward normal.
fn flat_faces(core: &[Vec3], corners: &[u32]) -> Vec<HullFace> {
    let n = corners.len();
    let area: DVec3 = (0..n)
        .map(|k| wide(core, corners[k]).cross(wide(core, corners[(k + 1) % n])))
        .sum();
    let up = area.normalize_or_zero();
    if up == DVec3::ZERO {
        return Vec::new();
    }
    let mut faces = vec![
        HullFace {
            vertices: corners.to_vec(),
            normal: up,
        },
        HullFace {
            vertices: corners.iter().rev().copied().collect(),
            normal: -up,
        },
    ];
    for k in 0..n {
        let (a, b) = (corners[k], corners[(k + 1) % n]);
        // Counterclockwise about `up`: the outside of edge a -> b is along (b - a) x up.
        let outward = (wide(core, b) - wide(core, a))
            .cross(up)
            .normalize_or_zero();
        if outward != DVec3::ZERO {
            faces.push(HullFace {
                vertices: vec![a, b],
                normal: outward,
            });
        }
    }
    faces
}

/// The quickhull's triangles (counterclockwise from outside) merged into planar polygons.
fn merged_faces(core: &[Vec3], triangles: &[[u32; 3]]) -> Vec<HullFace> {
    let size = core
        .iter()
        .map(|p| p.abs().max_element() as f64)
        .fold(0.0, f64::max);
    let flatness = FACE_FLATNESS * size;
    let across: HashMap<(u32, u32), usize> = triangles
        .iter()
        .enumerate()
        .flat_map(|(t, v)| (0..3).map(move |k| ((v[k], v[(k + 1) % 3]), t)))
        .collect();
    let normal_of = |t: &[u32; 3]| {
        let [a, b, c] = t.map(|i| wide(core, i));
        (b - a).cross(c - a)
    };
    let mut face_of = vec![usize::MAX; triangles.len()];
    let mut faces = Vec::new();
    for seed in 0..triangles.len() {
        if face_of[seed] != usize::MAX {
            continue;
        }
        let seed_normal = normal_of(&triangles[seed]).normalize_or_zero();
        let seed_offset = seed_normal.dot(wide(core, triangles[seed][0]));
        let fits = |t: &[u32; 3]| {
            normal_of(t).normalize_or_zero().dot(seed_normal) >= FACE_COSINE
                && t.iter()
                    .all(|&i| (seed_normal.dot(wide(core, i)) - seed_offset).abs() <= flatness)
        };
        let face = faces.len();
        let mut members = vec![seed];
        face_of[seed] = face;
        let mut next = 0;
        while next < members.len() {
            let t = triangles[members[next]];
            next += 1;
            for k in 0..3 {
                if let Some(&other) = across.get(&(t[(k + 1) % 3], t[k])) {
                    if face_of[other] == usize::MAX && fits(&triangles[other]) {
                        face_of[other] = face;
                        members.push(other);
                    }
                }
            }
        }
        let normal = members
            .iter()
            .map(|&t| normal_of(&triangles[t]))
            .sum::<DVec3>()
            .normalize_or_zero();
        let outline =
            boundary_loop(triangles, &members, &face_of, &across, face).unwrap_or_else(|| {
                let mut vertices: Vec<u32> = members.iter().flat_map(|&t| triangles[t]).collect();
                vertices.sort_unstable();
                vertices.dedup();
                convex_outline(core, &vertices, normal)
            });
        faces.push(HullFace {
            vertices: outline,
            normal,
        });
    }
    faces
}

/// The boundary of the triangles of `face` (the edges with another face's triangle across them), as one loop
/// counterclockwise from outside: so every edge of a face has its twin, the other way round, in the face across
/// it, as the separating axis test's edge list needs. `None` when the boundary is not one simple loop (never
/// seen on a convex hull's nearly coplanar triangles; the convex outline of the vertices is used then).
fn boundary_loop(
    triangles: &[[u32; 3]],
    members: &[usize],
    face_of: &[usize],
    across: &HashMap<(u32, u32), usize>,
    face: usize,
) -> Option<Vec<u32>> {
    let mut next: HashMap<u32, u32> = HashMap::new();
    for &t in members {
        let v = triangles[t];
        for k in 0..3 {
            let (a, b) = (v[k], v[(k + 1) % 3]);
            let other = across.get(&(b, a)).map(|&o| face_of[o]);
            if other != Some(face) && next.insert(a, b).is_some() {
                return None;
            }
        }
    }
    let &start = next.keys().min()?;
    let mut outline = vec![start];
    let mut at = next[&start];
    while at != start {
        if outline.len() > next.len() {
            return None;
        }
        outline.push(at);
        at = *next.get(&at)?;
    }
    (outline.len() == next.len()).then_some(outline)
}

/// The corners of the convex outline of `vertices` seen along `normal`, counterclockwise about it (Andrew's
/// monotone chain in the face's plane; points on an edge or inside are dropped).
fn convex_outline(core: &[Vec3], vertices: &[u32], normal: DVec3) -> Vec<u32> {
    let (u, v) = normal.any_orthonormal_pair();
    let flat = |i: u32| {
        let p = wide(core, i);
        (p.dot(u), p.dot(v))
    };
    let mut sorted = vertices.to_vec();
    sorted.sort_by(|&a, &b| {
        let (pa, pb) = (flat(a), flat(b));
        pa.0.total_cmp(&pb.0).then(pa.1.total_cmp(&pb.1))
    });
    let turn = |a: u32, b: u32, c: u32| {
        let (a, b, c) = (flat(a), flat(b), flat(c));
        (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
    };
    let chain = |points: &mut dyn Iterator<Item = u32>| {
        let mut hull: Vec<u32> = Vec::new();
        for p in points {
            while hull.len() >= 2 && turn(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
        hull
    };
    let mut outline = chain(&mut sorted.iter().copied());
    outline.extend(chain(&mut sorted.iter().rev().copied()));
    // Counterclockwise in (u, v); turned round when (u, v, normal) is left-handed.
    if u.cross(v).dot(normal) < 0.0 {
        outline.reverse();
    }
    outline
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::ConvexShape;
    use glam::Quat;

    #[test]
    fn a_rotated_box_has_six_quads() {
        let rotation = Quat::from_euler(glam::EulerRot::XYZ, 0.3, 1.1, -0.7);
        let corners: Vec<Vec3> = ConvexShape::cuboid(Vec3::new(1.0, 2.0, 0.5))
            .unwrap()
            .core_points()
            .iter()
            .map(|&p| rotation * p)
            .collect();
        let HullFaces::Faces(faces) = HullFaces::of(&corners) else {
            panic!("a box is solid");
        };
        assert_eq!(faces.len(), 6, "{faces:?}");
        for face in &faces {
            assert_eq!(face.vertices.len(), 4, "{face:?}");
            // Counterclockwise from outside: consecutive corners turn about the outward normal.
            let p = |k: usize| corners[face.vertices[k % 4] as usize].as_dvec3();
            for k in 0..4 {
                assert!(
                    (p(k + 1) - p(k))
                        .cross(p(k + 2) - p(k + 1))
                        .dot(face.normal)
                        > 0.0
                );
            }
        }
    }

    #[test]
    fn points_segments_and_polygons() {
        assert_eq!(HullFaces::of(&[Vec3::ONE, Vec3::ONE]), HullFaces::Point(0));
        let segment = [Vec3::Y, Vec3::ZERO, -Vec3::Y];
        assert_eq!(HullFaces::of(&segment), HullFaces::Segment([2, 0]));
        let square = [
            Vec3::new(1.0, 0.0, 1.0),
            Vec3::new(-1.0, 0.0, 1.0),
            Vec3::new(-1.0, 0.0, -1.0),
            Vec3::new(1.0, 0.0, -1.0),
            Vec3::ZERO,
        ];
        let HullFaces::Faces(faces) = HullFaces::of(&square) else {
            panic!("a square has faces");
        };
        // Two sides and four edges.
        assert_eq!(faces.len(), 6);
        assert_eq!(faces[0].normal.y.abs(), 1.0);
        assert_eq!(faces[1].normal, -faces[0].normal);
        assert!(faces[2..]
            .iter()
            .all(|f| f.vertices.len() == 2 && f.normal.y == 0.0));
    }
}
