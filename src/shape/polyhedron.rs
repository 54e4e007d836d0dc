//! A solid core hull as the separating axis test reads it: its points, face planes and edges in float64, in the
//! shape's local frame, built once per shape from [`super::ConvexShape::faces`] and kept (a query then does no
//! allocation and no hashing), with the vertex graph of those edges for climbing to the lowest vertex.

use super::faces::HullFace;
use glam::{DVec3, Vec3};
use std::collections::HashMap;

/// Hulls with at least this many points find their lowest vertex along a direction by climbing the edge graph
/// (from the last answer); smaller ones scan every point.
const CLIMB_MIN_POINTS: usize = 24;

/// One edge of a [`Polyhedron`], once, with the faces on either side.
#[derive(Clone, Debug)]
pub struct PolyhedronEdge {
    /// Its two points (indices into [`Polyhedron::points`], the lower first).
    pub ends: [u32; 2],
    /// The outward normals of the face on either side: the edge's arc on the Gauss map.
    pub normals: [DVec3; 2],
    /// The indices of those faces in [`Polyhedron::planes`].
    pub faces: [u32; 2],
    /// `normals[1] x normals[0]`: the arc's plane.
    pub normals_cross: DVec3,
    /// `points[ends[1]] - points[ends[0]]`.
    pub vector: DVec3,
}

/// A solid hull without radius whose faces close up (every face edge has a face across it).
#[derive(Clone, Debug)]
pub struct Polyhedron {
    /// The shape's points in its local frame (`centre + core point`), in float64.
    pub points: Vec<DVec3>,
    /// The points' mean: inside the hull (a bounding box's centre need not be).
    pub mean: DVec3,
    /// Each face's unit outward normal and the largest `normal . point` over its vertices.
    pub planes: Vec<(DVec3, f64)>,
    /// Each edge once, sorted by its ends.
    pub edges: Vec<PolyhedronEdge>,
    /// The edge graph, CSR: the neighbours of point `i` are `neighbours[first[i]..first[i + 1]]`.
    first: Vec<u32>,
    neighbours: Vec<u32>,
    /// Points on no face (interior, or inside a merged face's outline): scanned besides the climb.
    loose: Vec<u32>,
}

impl Polyhedron {
    /// The polyhedron of a core with `faces` about `centre`; `None` when there are no faces, a face has fewer
    /// than three vertices (a flat core) or some face edge has no face across it.
    pub(crate) fn of(core: &[Vec3], centre: Vec3, faces: &[HullFace]) -> Option<Self> {
        if faces.is_empty() || faces.iter().any(|f| f.vertices.len() < 3) {
            return None;
        }
        let centre = centre.as_dvec3();
        let points: Vec<DVec3> = core.iter().map(|p| centre + p.as_dvec3()).collect();
        let planes: Vec<(DVec3, f64)> = faces
            .iter()
            .map(|f| {
                let offset = f
                    .vertices
                    .iter()
                    .map(|&v| f.normal.dot(points[v as usize]))
                    .fold(f64::MIN, f64::max);
                (f.normal, offset)
            })
            .collect();
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
                let normals = [planes[k].0, planes[other].0];
                edges.push(PolyhedronEdge {
                    ends: [u, v],
                    normals,
                    faces: [k as u32, other as u32],
                    normals_cross: normals[1].cross(normals[0]),
                    vector: points[v as usize] - points[u as usize],
                });
            }
        }
        // The map's order is not the same from run to run; the answer must be.
        edges.sort_by_key(|e| e.ends);
        let mut degree = vec![0u32; points.len() + 1];
        for e in &edges {
            degree[e.ends[0] as usize + 1] += 1;
            degree[e.ends[1] as usize + 1] += 1;
        }
        let mut first = degree;
        for i in 1..first.len() {
            first[i] += first[i - 1];
        }
        let mut fill = first.clone();
        let mut neighbours = vec![0u32; edges.len() * 2];
        for e in &edges {
            for (from, to) in [(e.ends[0], e.ends[1]), (e.ends[1], e.ends[0])] {
                neighbours[fill[from as usize] as usize] = to;
                fill[from as usize] += 1;
            }
        }
        let loose = (0..points.len() as u32)
            .filter(|&i| first[i as usize] == first[i as usize + 1])
            .collect();
        let mean = points.iter().sum::<DVec3>() / points.len() as f64;
        Some(Self {
            points,
            mean,
            planes,
            edges,
            first,
            neighbours,
            loose,
        })
    }

    /// The smallest `direction . point` over the points. `start` is where a climb begins (any point index;
    /// the last answer is a good one) and is left at the lowest vertex the climb found.
    pub fn lowest(&self, direction: DVec3, start: &mut u32) -> f64 {
        if self.points.len() < CLIMB_MIN_POINTS {
            return self
                .points
                .iter()
                .map(|p| direction.dot(*p))
                .fold(f64::MAX, f64::min);
        }
        let mut at = (*start as usize).min(self.points.len() - 1);
        if self.first[at] == self.first[at + 1] {
            at = self.edges[0].ends[0] as usize;
        }
        let mut value = direction.dot(self.points[at]);
        // On a convex hull a vertex with no lower neighbour is a lowest one; each step lowers the value, so the
        // walk ends.
        loop {
            let mut next = at;
            for &n in &self.neighbours[self.first[at] as usize..self.first[at + 1] as usize] {
                let v = direction.dot(self.points[n as usize]);
                if v < value {
                    value = v;
                    next = n as usize;
                }
            }
            if next == at {
                break;
            }
            at = next;
        }
        *start = at as u32;
        self.loose
            .iter()
            .map(|&i| direction.dot(self.points[i as usize]))
            .fold(value, f64::min)
    }
}
