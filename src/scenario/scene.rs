//! What a scene is: its shapes, their kinds, the placed instances and the pairs to answer; below the files that
//! make scenes (the random mix in `scenario.rs`, the hostile set in `hostile.rs`).

use crate::instance::Instance;
use crate::shape::ConvexShape;

/// The kinds of shape in the random mix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeKind {
    /// 8 to 512 random points (surface, interior and duplicates).
    Hull,
    Box,
    Cylinder,
    Cone,
    Sphere,
    Capsule,
    RoundedBox,
    /// A convex polygon at z = 0 in its local frame.
    FlatPolygon,
    Segment,
}

impl ShapeKind {
    pub const ALL: [ShapeKind; 9] = [
        ShapeKind::Hull,
        ShapeKind::Box,
        ShapeKind::Cylinder,
        ShapeKind::Cone,
        ShapeKind::Sphere,
        ShapeKind::Capsule,
        ShapeKind::RoundedBox,
        ShapeKind::FlatPolygon,
        ShapeKind::Segment,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ShapeKind::Hull => "hull",
            ShapeKind::Box => "box",
            ShapeKind::Cylinder => "cylinder",
            ShapeKind::Cone => "cone",
            ShapeKind::Sphere => "sphere",
            ShapeKind::Capsule => "capsule",
            ShapeKind::RoundedBox => "rounded_box",
            ShapeKind::FlatPolygon => "flat_polygon",
            ShapeKind::Segment => "segment",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A batch in the layout the narrow phase consumes.
#[derive(Clone, Debug)]
pub struct Scene {
    pub shapes: Vec<ConvexShape>,
    pub kinds: Vec<ShapeKind>,
    pub instances: Vec<Instance>,
    pub pairs: Vec<[u32; 2]>,
}
