//! Pair-local answers moved to world coordinates, in double precision so that they keep their precision when
//! the pair is far from the origin.

use crate::epa::{Penetration, PenetrationStatus};
use crate::gjk::{GjkResult, GjkStatus};
use crate::pose::DPose;
use crate::real::Real;
use glam::DVec3;

/// A query answer in world coordinates, in double precision so that the pair-local answer keeps its
/// precision when the pair is far from the origin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldResult {
    pub status: GjkStatus,
    pub intersecting: bool,
    pub distance: f64,
    pub witness_a: DVec3,
    pub witness_b: DVec3,
    pub normal: DVec3,
    pub iterations: u32,
}

impl WorldResult {
    /// Moves a pair-local answer into world coordinates with A's pose.
    pub fn from_local<R: Real>(local: &GjkResult<R>, pose_a: &DPose) -> Self {
        Self {
            status: local.status,
            intersecting: local.intersecting,
            distance: local.distance.to_f64(),
            witness_a: pose_a.transform_point(R::vec_to_f64(R::unplain(local.witness_a))),
            witness_b: pose_a.transform_point(R::vec_to_f64(R::unplain(local.witness_b))),
            normal: pose_a.rotation * R::vec_to_f64(R::unplain(local.normal)),
            iterations: local.iterations,
        }
    }
}

/// A penetration answer in world coordinates, in double precision like [`WorldResult`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldPenetration {
    pub status: PenetrationStatus,
    /// Overlap depth, radii included.
    pub depth: f64,
    /// Unit direction from A towards B.
    pub normal: DVec3,
    /// The point of A deepest inside B.
    pub contact_a: DVec3,
    /// The point of B deepest inside A.
    pub contact_b: DVec3,
    /// An upper bound on the depth where EPA did not converge ([`Penetration::depth_upper`]); `None` on
    /// every other status.
    pub depth_upper: Option<f64>,
}

impl WorldPenetration {
    /// Moves a pair-local penetration answer into world coordinates with A's pose.
    pub fn from_local<R: Real>(local: &Penetration<R>, pose_a: &DPose) -> Self {
        Self {
            status: local.status,
            depth: local.depth.to_f64(),
            normal: pose_a.rotation * R::vec_to_f64(R::unplain(local.normal)),
            contact_a: pose_a.transform_point(R::vec_to_f64(R::unplain(local.contact_a))),
            contact_b: pose_a.transform_point(R::vec_to_f64(R::unplain(local.contact_b))),
            depth_upper: local.depth_upper.map(R::to_f64),
        }
    }
}
