//! The separating axis test between convex polyhedra, beside GJK and EPA: the second algorithm, for pairs of
//! solid hulls without radius.
//!
//! Two convex polyhedra are apart exactly when some face normal of either, or some cross product of an edge of
//! each, separates them; overlapping, the smallest overlap over those axes is the penetration depth (the
//! Minkowski difference's faces are exactly the faces of each and the edge pairs that form a face of it). Of the
//! edge pairs, only those whose arcs cross on the Gauss map form a face (Gregorius, "The Separating Axis Test
//! between Convex Polyhedra", GDC 2013): the test reads the four face normals around the two edges and skips
//! the cross product, and with it the two support values, of every other pair.
//!
//! Everything is in float64 in A's local frame, from the faces of [`ConvexShape::faces`].

pub mod compare;

use crate::query::PairInput;
use crate::shape::{ConvexShape, HullFace, HullFaces};
use glam::DVec3;
use std::collections::HashMap;

/// Which axis decided a [`SatAnswer`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SatAxis {
    /// A face of A (its index in A's faces).
    FaceA(u32),
    /// A face of B.
    FaceB(u32),
    /// An edge of A (by its two core points) across an edge of B.
    Edges([u32; 2], [u32; 2]),
}

/// The separating axis test's answer for one pair, in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatAnswer {
    /// The shapes overlap or touch (the largest separation is not positive).
    pub intersecting: bool,
    /// The largest separation over the axes: the gap along the best axis when apart (a lower bound on the
    /// distance), minus the penetration depth when overlapping.
    pub separation: f64,
    /// The unit axis of that separation, from A towards B.
    pub normal: DVec3,
    pub axis: SatAxis,
}

/// One hull's vertices, face normals and edges (each with the normals of its two faces), in A's frame.
struct Polyhedron {
    points: Vec<DVec3>,
    /// A point inside the hull: edge axes are turned to point away from it.
    centre: DVec3,
    faces: Vec<(DVec3, f64)>,
    edges: Vec<Edge>,
}

struct Edge {
    ends: [u32; 2],
    normals: [DVec3; 2],
}

impl Polyhedron {
    /// `shape` placed by `rotation` and `position` in A's frame, when it is a solid hull without radius whose
    /// faces close up (every edge between two faces).
    fn of(shape: &ConvexShape, rotation: glam::DQuat, position: DVec3) -> Option<Self> {
        let HullFaces::Faces(faces) = shape.faces() else {
            return None;
        };
        if shape.radius() != 0.0 || faces.is_empty() || faces.iter().any(|f| f.vertices.len() < 3) {
            return None;
        }
        let centre = shape.centre().as_dvec3();
        let points: Vec<DVec3> = shape
            .core_points()
            .iter()
            .map(|p| rotation * (centre + p.as_dvec3()) + position)
            .collect();
        let planes = faces
            .iter()
            .map(|f| {
                let normal = rotation * f.normal;
                let offset = f
                    .vertices
                    .iter()
                    .map(|&v| normal.dot(points[v as usize]))
                    .fold(f64::MIN, f64::max);
                (normal, offset)
            })
            .collect::<Vec<_>>();
        let edges = edges(faces, &planes)?;
        // The vertices' mean lies inside the hull (a bounding box's centre need not).
        let inside = points.iter().sum::<DVec3>() / points.len() as f64;
        Some(Self {
            centre: inside,
            points,
            faces: planes,
            edges,
        })
    }

    /// The smallest `dot(direction, p)` over the vertices.
    fn lowest(&self, direction: DVec3) -> f64 {
        self.points
            .iter()
            .map(|p| direction.dot(*p))
            .fold(f64::MAX, f64::min)
    }
}

/// Each edge once, with the normals of the face on either side; `None` when some face edge has no face
/// across it.
fn edges(faces: &[HullFace], planes: &[(DVec3, f64)]) -> Option<Vec<Edge>> {
    let mut face_of: HashMap<(u32, u32), usize> = HashMap::new();
    for (k, f) in faces.iter().enumerate() {
        let n = f.vertices.len();
        for j in 0..n {
            face_of.insert((f.vertices[j], f.vertices[(j + 1) % n]), k);
        }
    }
    let mut edges = Vec::with_capacity(face_of.len() / 2);
    for (&(u, v), &k) in &face_of {
        let &other = face_of.get(&(v, u))?;
        if u < v {
            edges.push(Edge {
                ends: [u, v],
                normals: [planes[k].0, planes[other].0],
            });
        }
    }
    // The map's order is not the same from run to run; the answer must be.
    edges.sort_by_key(|e| e.ends);
    Some(edges)
}

/// Whether the arcs `a`-`b` and `c`-`d` of the Gauss map cross (`b_x_a = b x a`, `d_x_c = d x c`): the edges
/// they stand for form a face of the Minkowski difference (Gregorius).
fn arcs_cross(a: DVec3, b: DVec3, b_x_a: DVec3, c: DVec3, d: DVec3, d_x_c: DVec3) -> bool {
    let cba = c.dot(b_x_a);
    let dba = d.dot(b_x_a);
    let adc = a.dot(d_x_c);
    let bdc = b.dot(d_x_c);
    cba * dba < 0.0 && adc * bdc < 0.0 && cba * bdc > 0.0
}

/// The separating axis test on a pair of solid hulls without radius; `None` for any other pair (a radius, a
/// flat or collinear core, a single point).
pub fn separating_axis(input: &PairInput) -> Option<SatAnswer> {
    let inverse = input.pose_a.rotation.inverse();
    let a = Polyhedron::of(input.a, glam::DQuat::IDENTITY, DVec3::ZERO)?;
    let b = Polyhedron::of(
        input.b,
        inverse * input.pose_b.rotation,
        inverse * (input.pose_b.position - input.pose_a.position),
    )?;
    let mut best = SatAnswer {
        intersecting: false,
        separation: f64::MIN,
        normal: DVec3::ZERO,
        axis: SatAxis::FaceA(0),
    };
    let mut consider = |separation: f64, normal: DVec3, axis: SatAxis| {
        if separation > best.separation {
            best = SatAnswer {
                intersecting: false,
                separation,
                normal,
                axis,
            };
        }
    };
    for (k, &(normal, offset)) in a.faces.iter().enumerate() {
        consider(b.lowest(normal) - offset, normal, SatAxis::FaceA(k as u32));
    }
    for (k, &(normal, offset)) in b.faces.iter().enumerate() {
        consider(a.lowest(normal) - offset, -normal, SatAxis::FaceB(k as u32));
    }
    for ea in &a.edges {
        let [n1, n2] = ea.normals;
        let n2_x_n1 = n2.cross(n1);
        let (pa, qa) = (a.points[ea.ends[0] as usize], a.points[ea.ends[1] as usize]);
        for eb in &b.edges {
            let [m1, m2] = eb.normals;
            // B's normals turned round: the Gauss map of -B.
            if !arcs_cross(n1, n2, n2_x_n1, -m1, -m2, m2.cross(m1)) {
                continue;
            }
            let (pb, qb) = (b.points[eb.ends[0] as usize], b.points[eb.ends[1] as usize]);
            let axis = (qa - pa).cross(qb - pb);
            let length = axis.length();
            // Parallel edges: their plane is a face's, tested above.
            if length <= 1e-12 * (qa - pa).length() * (qb - pb).length() {
                continue;
            }
            let mut axis = axis / length;
            if axis.dot(pa - a.centre) < 0.0 {
                axis = -axis;
            }
            consider(axis.dot(pb - pa), axis, SatAxis::Edges(ea.ends, eb.ends));
        }
    }
    best.intersecting = best.separation <= 0.0;
    best.normal = input.pose_a.rotation * best.normal;
    Some(best)
}

#[cfg(test)]
mod tests;
