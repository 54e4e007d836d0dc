//! The feature of one shape that faces the other along the contact normal: the face most aligned with it, or
//! for a capsule's segment and a sphere's point their closed forms, placed in A's local frame.

use super::answer::{code, FeatureKind};
use crate::shape::{ConvexShape, HullFaces};
use glam::{DQuat, DVec3};

/// A face whose normal is less aligned than this with the contact normal (beyond 60 degrees) is no contact
/// feature: the shape touches with its support vertex (a cone's tip, a tetrahedron's corner).
pub(crate) const FACE_MIN_ALIGNMENT: f64 = 0.5;

/// Vertices whose support along the normal is within this fraction of the hull's reach (its farthest point from
/// its local origin) of the highest are tied, and the first of them is the support vertex. An edge nearly across
/// the normal has two ends whose supports differ by less than float32's rounding of the coordinates (a few 1e-8 of
/// the reach); without the band the GPU twin took the other end. The tied vertices' depths differ by at most this
/// fraction of the reach.
pub(crate) const SUPPORT_TIE_FRACTION: f64 = 1e-5;

/// Faces whose alignment with the contact normal is within this of the best are tied, and the one of most
/// vertices (the first of them) is the contact feature. A hull built from rounded coordinates can keep two nearly
/// coplanar faces apart (a sliver triangle beside a pentagon, normals 4e-6 apart): float32 and float64 then rank
/// them differently, and clipping against the sliver's side planes gives another polygon, or none.
pub(crate) const FACE_TIE: f64 = 1e-5;

/// A segment within 30 degrees of the contact normal touches with its nearer end, not along its length.
const SEGMENT_MIN_ALIGNMENT: f64 = 0.5;

/// Where a shape's local frame sits in A's local frame.
#[derive(Clone, Copy, Debug)]
pub(super) struct Placement {
    pub rotation: DQuat,
    pub position: DVec3,
}

impl Placement {
    fn point(&self, p: DVec3) -> DVec3 {
        self.rotation * p + self.position
    }
}

/// One shape's contact feature, in A's local frame.
#[derive(Clone, Debug)]
pub(super) struct Feature {
    /// One point (a vertex), two (a segment or edge) or a polygon counterclockwise about `normal`.
    pub points: Vec<DVec3>,
    /// The core index of each point.
    pub indices: Vec<u32>,
    /// The unit normal of the feature: the radius is added along it, and a polygon's plane is across it.
    pub normal: DVec3,
    /// `normal` dotted with the direction towards the other shape.
    pub alignment: f64,
    /// The feature's own id side for points inside it (a face, or a segment's edge).
    pub code: u32,
}

impl Feature {
    /// 2 for a polygon, 1 for a segment, 0 for a vertex: the higher one is the reference the other is clipped to.
    pub fn rank(&self) -> usize {
        self.points.len().min(3) - 1
    }
}

/// The feature of `shape` placed by `place` that faces along `towards` (unit, in A's local frame).
pub(super) fn feature(shape: &ConvexShape, place: &Placement, towards: DVec3) -> Feature {
    let centre = shape.centre().as_dvec3();
    let core = shape.core_points();
    let point = |i: u32| place.point(centre + core[i as usize].as_dvec3());
    let vertex = |i: u32| Feature {
        points: vec![point(i)],
        indices: vec![i],
        normal: towards,
        alignment: 1.0,
        code: code(FeatureKind::Vertex, i),
    };
    let support = || {
        let local = place.rotation.inverse() * towards;
        let placed = |i: usize| centre + core[i].as_dvec3();
        let high = (0..core.len())
            .map(|i| placed(i).dot(local))
            .fold(f64::MIN, f64::max);
        let reach = (0..core.len())
            .map(|i| placed(i).length())
            .fold(0.0, f64::max);
        let floor = high - SUPPORT_TIE_FRACTION * reach;
        let best = (0..core.len())
            .find(|&i| placed(i).dot(local) >= floor)
            .unwrap_or(0);
        vertex(best as u32)
    };
    match shape.faces() {
        HullFaces::Point(i) => vertex(*i),
        HullFaces::Segment([i, j]) => {
            let (p, q) = (point(*i), point(*j));
            let along = (q - p).normalize_or_zero();
            let across = towards - along * towards.dot(along);
            if across.length() < SEGMENT_MIN_ALIGNMENT {
                return support();
            }
            Feature {
                points: vec![p, q],
                indices: vec![*i, *j],
                normal: across.normalize(),
                alignment: across.length(),
                code: code(FeatureKind::Edge, *i),
            }
        }
        HullFaces::Faces(faces) => {
            let alignments: Vec<f64> = faces
                .iter()
                .map(|f| (place.rotation * f.normal).dot(towards))
                .collect();
            let high = alignments.iter().copied().fold(f64::MIN, f64::max);
            if faces.is_empty() || high < FACE_MIN_ALIGNMENT {
                return support();
            }
            // Among the tied faces, the one of most vertices, the first where they tie too.
            let k = (0..faces.len())
                .filter(|&k| alignments[k] >= high - FACE_TIE)
                .fold(None, |best: Option<usize>, k| match best {
                    Some(b) if faces[b].vertices.len() >= faces[k].vertices.len() => Some(b),
                    _ => Some(k),
                })
                .expect("the best face is tied with itself");
            let alignment = alignments[k];
            let face = &faces[k];
            let kind = if face.vertices.len() >= 3 {
                FeatureKind::Face
            } else {
                FeatureKind::Edge
            };
            Feature {
                points: face.vertices.iter().map(|&i| point(i)).collect(),
                indices: face.vertices.clone(),
                normal: place.rotation * face.normal,
                alignment,
                code: if kind == FeatureKind::Face {
                    code(kind, k as u32)
                } else {
                    code(kind, face.vertices[0])
                },
            }
        }
    }
}
