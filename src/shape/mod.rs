//! Convex shapes: a finite point set in the shape's local frame, swept by a sphere of `radius`.
//!
//! The shape is the convex hull of `points`, inflated by `radius`. That one representation covers
//! spheres (1 point), capsules (2 points), rounded boxes (8 points) and arbitrary hulls exactly, and it is
//! what the GPU consumes: a flat vertex pool plus a radius per hull.

mod hull;
mod obj;
mod primitives;

pub use hull::reduce_to_hull_vertices;
pub use obj::load_obj_points;

use crate::error::GjkError;
use crate::pose::COORDINATE_LIMIT;
use glam::Vec3;

/// A convex shape: `convex_hull(points) ⊕ sphere(radius)`, in its local frame.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexShape {
    points: Vec<Vec3>,
    radius: f32,
    bound: f32,
}

impl ConvexShape {
    /// Builds a shape from any non-empty point set (interior, duplicate, coplanar and collinear points are all
    /// allowed) and a radius >= 0. Points are kept as given; use [`ConvexShape::hull`] to drop interior ones.
    pub fn new(points: Vec<Vec3>, radius: f32) -> Result<Self, GjkError> {
        validate_points(&points)?;
        if !(radius.is_finite() && radius >= 0.0) {
            return Err(GjkError::InvalidRadius {
                radius: radius as f64,
            });
        }
        let bound = points.iter().map(|p| p.length()).fold(0.0f32, f32::max) + radius;
        Ok(Self {
            points,
            radius,
            bound,
        })
    }

    /// Like [`ConvexShape::new`], but keeps only the vertices of the convex hull (fewer support-function
    /// evaluations for meshes with interior or redundant points).
    pub fn hull(points: &[Vec3], radius: f32) -> Result<Self, GjkError> {
        validate_points(points)?;
        Self::new(reduce_to_hull_vertices(points), radius)
    }

    /// Loads the vertices of an OBJ file (all its objects together) and keeps their convex hull.
    pub fn from_obj(path: impl AsRef<std::path::Path>, radius: f32) -> Result<Self, GjkError> {
        let points = load_obj_points(path.as_ref())?;
        Self::hull(&points, radius)
    }

    pub fn points(&self) -> &[Vec3] {
        &self.points
    }

    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// Radius of a sphere around the local origin that contains the shape. It sets the scale of the
    /// numerical tolerances (see [`crate::gjk::pair_scale`]).
    pub fn bounding_radius(&self) -> f32 {
        self.bound
    }

    /// The farthest point of the core point set along `dir` (radius not included).
    pub fn support(&self, dir: Vec3) -> Vec3 {
        crate::gjk::support_point::<f32>(&self.points, dir)
    }

    /// Local axis-aligned bounds, radius included.
    pub fn local_aabb(&self) -> (Vec3, Vec3) {
        let (lo, hi) = self.points.iter().fold(
            (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        );
        (lo - Vec3::splat(self.radius), hi + Vec3::splat(self.radius))
    }
}

fn validate_points(points: &[Vec3]) -> Result<(), GjkError> {
    if points.is_empty() {
        return Err(GjkError::EmptyPoints);
    }
    for (index, p) in points.iter().enumerate() {
        if !p.is_finite() {
            return Err(GjkError::NonFinitePoint { index });
        }
        if p.abs().max_element() as f64 > COORDINATE_LIMIT {
            return Err(GjkError::PointOutOfRange {
                index,
                limit: COORDINATE_LIMIT,
            });
        }
    }
    Ok(())
}
