//! What a contact manifold answers: its points, their feature ids, and the kinds of feature they come from.

use crate::epa::PenetrationStatus;
use glam::DVec3;

/// Most points a manifold keeps.
pub const MAX_POINTS: usize = 4;

/// What part of a shape a contact point comes from, in the top two bits of a [`FeatureId`] side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum FeatureKind {
    /// A core point (its index in [`crate::ConvexShape::core_points`]).
    Vertex = 0,
    /// An edge, named by its first core point in the face that holds it.
    Edge = 1,
    /// A face (its index in [`crate::ConvexShape::faces`]).
    Face = 2,
    /// The pair's deepest point from EPA, added where no clipped point reached its depth (index 0).
    Deepest = 3,
}

/// A feature side of an id: kind in the top two bits, index below.
pub(super) fn code(kind: FeatureKind, index: u32) -> u32 {
    ((kind as u32) << 30) | (index & 0x3fff_ffff)
}

/// Which features of A and of B a contact point comes from. Each side is a [`FeatureKind`] in its top two
/// bits and an index below (a core point, a face of [`crate::ConvexShape::faces`], or an edge named by its
/// first core point); the same features touching give the same id, frame after frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FeatureId {
    pub a: u32,
    pub b: u32,
}

impl FeatureId {
    /// EPA's deepest point, added where clipping found none as deep.
    pub const DEEPEST: FeatureId = FeatureId {
        a: (FeatureKind::Deepest as u32) << 30,
        b: (FeatureKind::Deepest as u32) << 30,
    };

    /// Both sides in one number, A's in the high half: what `query --kind manifold` writes.
    pub fn packed(self) -> u64 {
        ((self.a as u64) << 32) | self.b as u64
    }

    /// The id with A and B swapped: the id of the same point in the manifold of (B, A).
    pub fn swapped(self) -> FeatureId {
        FeatureId {
            a: self.b,
            b: self.a,
        }
    }
}

/// One point of a manifold, in world coordinates (A's local frame from the internal calls).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPoint {
    /// On A's surface.
    pub point_a: DVec3,
    /// On B's surface.
    pub point_b: DVec3,
    /// How far A's point lies beyond B's along the normal: `(point_a - point_b) . normal`, radii included.
    pub depth: f64,
    pub id: FeatureId,
}

/// Where two shapes touch.
#[derive(Clone, Debug, PartialEq)]
pub struct Manifold {
    /// The pair's penetration status: `Penetrating` with at least one point, else no points.
    pub status: PenetrationStatus,
    /// Unit normal from A towards B (EPA's); NaN when there is no penetration answer.
    pub normal: DVec3,
    /// At most [`MAX_POINTS`], deepest first; the first one's depth is the pair's EPA depth.
    pub points: Vec<ContactPoint>,
}
