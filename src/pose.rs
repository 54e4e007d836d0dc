//! Rigid poses and the pair-local frame used by every query.

use crate::error::GjkError;
use crate::real::Real;
use glam::{DQuat, DVec3, Quat, Vec3};

/// Largest accepted magnitude of a coordinate (positions and shape points). Beyond it the signed-volume
/// determinants (products of three coordinates, summed) could overflow float32.
pub const COORDINATE_LIMIT: f64 = 1e9;

/// Where a shape is: a translation and a unit rotation, applied as `rotation * p + position`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    pub position: Vec3,
    pub rotation: Quat,
}

impl Default for Pose {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Pose {
    pub const IDENTITY: Pose = Pose {
        position: Vec3::ZERO,
        rotation: Quat::IDENTITY,
    };

    pub fn new(position: Vec3, rotation: Quat) -> Self {
        Self { position, rotation }
    }

    pub fn from_position(position: Vec3) -> Self {
        Self::new(position, Quat::IDENTITY)
    }

    pub fn transform_point(&self, p: Vec3) -> Vec3 {
        self.rotation * p + self.position
    }

    pub fn to_f64(&self) -> DPose {
        DPose {
            position: self.position.as_dvec3(),
            rotation: self.rotation.as_dquat(),
        }
    }
}

impl From<Pose> for DPose {
    fn from(pose: Pose) -> Self {
        pose.to_f64()
    }
}

/// A double-precision pose: what the command line parses, so that world coordinates far from the origin keep
/// their precision until the pair-local frame is formed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DPose {
    pub position: DVec3,
    pub rotation: DQuat,
}

impl DPose {
    pub const IDENTITY: DPose = DPose {
        position: DVec3::ZERO,
        rotation: DQuat::IDENTITY,
    };

    /// Validates and normalises untrusted values.
    pub fn checked(position: DVec3, rotation: DQuat) -> Result<DPose, GjkError> {
        if !position.is_finite() || position.abs().max_element() > COORDINATE_LIMIT {
            return Err(GjkError::InvalidPosition {
                limit: COORDINATE_LIMIT,
            });
        }
        let len = rotation.length();
        if !len.is_finite() || len < 1e-12 {
            return Err(GjkError::InvalidRotation);
        }
        Ok(DPose {
            position,
            rotation: rotation / len,
        })
    }

    pub fn transform_point(&self, p: DVec3) -> DVec3 {
        self.rotation * p + self.position
    }

    pub fn to_f32(&self) -> Pose {
        Pose {
            position: self.position.as_vec3(),
            rotation: self.rotation.as_quat().normalize(),
        }
    }
}

/// Where a shape's centred points are: the pose of the shape's frame and, kept apart from it, the centre the
/// points were taken about in that frame (`world point = position + rotation * (centre + core point)`).
///
/// Folding the centre into the position first (`position + rotation * centre`) rounds it to the precision of
/// the position: a 1e-3 shape at 3e8 lost 3e-8 there, a few percent of its size. Kept apart, the relative
/// pose of two shapes is formed from exact differences ([`RelativePose::between_centred`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CentredPose {
    pub pose: DPose,
    pub centre: DVec3,
}

impl CentredPose {
    pub const IDENTITY: CentredPose = CentredPose {
        pose: DPose::IDENTITY,
        centre: DVec3::ZERO,
    };

    /// `pose` holding points centred about `centre`.
    pub fn new(pose: DPose, centre: DVec3) -> Self {
        Self { pose, centre }
    }

    /// The pose of the centred points, the centre folded into the position (rounded to its precision): for
    /// moving an answer in the centred frame to the world, whose coordinates have that precision anyway.
    pub fn folded(&self) -> DPose {
        DPose {
            position: self.pose.position + self.pose.rotation * self.centre,
            rotation: self.pose.rotation,
        }
    }
}

/// B's pose expressed in A's local frame: `p_in_a = rotation * p_in_b + position`.
///
/// Every query runs in this frame, so two shapes far from the world origin are compared with coordinates of
/// the size of the shapes, not of the world (the large common offset cancels before any GJK arithmetic).
#[derive(Clone, Copy, Debug)]
pub struct RelativePose<R: Real> {
    pub rotation: R::Q,
    pub position: R::Plain,
}

impl<R: Real> RelativePose<R> {
    /// `B` relative to `A`, computed in double precision and then rounded to `R`.
    pub fn between(a: &DPose, b: &DPose) -> Self {
        let inv_a = a.rotation.conjugate();
        Self {
            rotation: R::quat_from_f64(inv_a * b.rotation),
            position: R::plain(R::vec_from_f64(inv_a * (b.position - a.position))),
        }
    }

    /// B's centred points in A's centred frame, `R_a^T ((p_b - p_a) + (R_b c_b - R_a c_a))`, in double precision
    /// and then rounded to `R`. The positions are subtracted first and the rotated centres apart, so that each
    /// large part cancels exactly (two positions within a factor of two of each other subtract without
    /// rounding) before the small parts are added: a pair far from the origin keeps the precision of a pair
    /// at the origin.
    pub fn between_centred(a: &CentredPose, b: &CentredPose) -> Self {
        let inv_a = a.pose.rotation.conjugate();
        let apart = b.pose.position - a.pose.position;
        let centres = b.pose.rotation * b.centre - a.pose.rotation * a.centre;
        Self {
            rotation: R::quat_from_f64(inv_a * b.pose.rotation),
            position: R::plain(R::vec_from_f64(inv_a * (apart + centres))),
        }
    }
}

impl RelativePose<f32> {
    /// `B` relative to `A` computed in float32, as the GPU does it.
    pub fn between_f32(a: &Pose, b: &Pose) -> Self {
        let inv_a = a.rotation.conjugate();
        Self {
            rotation: inv_a * b.rotation,
            position: inv_a * (b.position - a.position),
        }
    }
}
