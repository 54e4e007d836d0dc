//! Constructors for the common primitives. Axes of revolution are along local +Y, like the OBJ assets.

use super::ConvexShape;
use crate::error::GjkError;
use glam::Vec3;
use std::f32::consts::TAU;

fn check_size(what: &'static str, value: f32) -> Result<(), GjkError> {
    if value.is_finite() && value >= 0.0 {
        Ok(())
    } else {
        Err(GjkError::InvalidParameter {
            what,
            value: value as f64,
        })
    }
}

fn check_segments(segments: u32) -> Result<(), GjkError> {
    if segments >= 3 {
        Ok(())
    } else {
        Err(GjkError::InvalidParameter {
            what: "segment count (need at least 3)",
            value: segments as f64,
        })
    }
}

/// Points on a circle of `radius` in the plane `y = height`, starting on +X.
fn ring(radius: f32, height: f32, segments: u32) -> impl Iterator<Item = Vec3> {
    (0..segments).map(move |i| {
        let angle = TAU * i as f32 / segments as f32;
        Vec3::new(radius * angle.cos(), height, radius * angle.sin())
    })
}

impl ConvexShape {
    /// A box with the given half extents, centred on the origin.
    pub fn cuboid(half_extents: Vec3) -> Result<Self, GjkError> {
        Self::rounded_box(half_extents, 0.0)
    }

    /// A box swept by a sphere: exact rounded edges and corners.
    pub fn rounded_box(half_extents: Vec3, radius: f32) -> Result<Self, GjkError> {
        for h in half_extents.to_array() {
            check_size("box half extent", h)?;
        }
        let h = half_extents;
        let corners = (0..8)
            .map(|i| {
                Vec3::new(
                    if i & 1 == 0 { -h.x } else { h.x },
                    if i & 2 == 0 { -h.y } else { h.y },
                    if i & 4 == 0 { -h.z } else { h.z },
                )
            })
            .collect();
        Self::new(corners, radius)
    }

    /// An exact sphere: one point and a radius.
    pub fn sphere(radius: f32) -> Result<Self, GjkError> {
        Self::new(vec![Vec3::ZERO], radius)
    }

    /// An exact capsule along Y: a segment from `-half_height` to `+half_height` swept by `radius`.
    pub fn capsule(half_height: f32, radius: f32) -> Result<Self, GjkError> {
        check_size("capsule half height", half_height)?;
        Self::new(
            vec![
                Vec3::new(0.0, -half_height, 0.0),
                Vec3::new(0.0, half_height, 0.0),
            ],
            radius,
        )
    }

    /// A cylinder along Y approximated by two rings of `segments` points (the polygonal prism inscribed in it).
    pub fn cylinder(half_height: f32, radius: f32, segments: u32) -> Result<Self, GjkError> {
        check_size("cylinder half height", half_height)?;
        check_size("cylinder radius", radius)?;
        check_segments(segments)?;
        let points = ring(radius, -half_height, segments)
            .chain(ring(radius, half_height, segments))
            .collect();
        Self::new(points, 0.0)
    }

    /// A cone along Y with its apex at `+half_height` and a base ring of `segments` points at `-half_height`.
    pub fn cone(half_height: f32, radius: f32, segments: u32) -> Result<Self, GjkError> {
        check_size("cone half height", half_height)?;
        check_size("cone radius", radius)?;
        check_segments(segments)?;
        let points = std::iter::once(Vec3::new(0.0, half_height, 0.0))
            .chain(ring(radius, -half_height, segments))
            .collect();
        Self::new(points, 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primitives_have_expected_point_counts_and_bounds() {
        let b = ConvexShape::cuboid(Vec3::new(1.0, 2.0, 2.0)).unwrap();
        assert_eq!(b.len(), 8);
        assert!((b.bounding_radius() - 3.0).abs() < 1e-6);
        assert_eq!(ConvexShape::cylinder(1.0, 1.0, 16).unwrap().len(), 32);
        assert_eq!(ConvexShape::cone(1.0, 1.0, 16).unwrap().len(), 17);
        let c = ConvexShape::capsule(2.0, 0.5).unwrap();
        assert!((c.bounding_radius() - 2.5).abs() < 1e-6);
    }

    #[test]
    fn bad_parameters_are_named() {
        assert!(matches!(
            ConvexShape::cylinder(1.0, 1.0, 2),
            Err(GjkError::InvalidParameter { .. })
        ));
        assert!(matches!(
            ConvexShape::sphere(-1.0),
            Err(GjkError::InvalidRadius { .. })
        ));
        assert!(matches!(
            ConvexShape::new(vec![], 0.0),
            Err(GjkError::EmptyPoints)
        ));
        assert!(matches!(
            ConvexShape::new(vec![Vec3::ZERO, Vec3::NAN], 0.0),
            Err(GjkError::NonFinitePoint { index: 1 })
        ));
    }
}
