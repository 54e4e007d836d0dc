//! Poses and pair orders the hand-built pair sets share.

use glam::{DQuat, DVec3};
use gpu_gjk::{DPose, PairInput};

/// At `(x, y, z)`, unturned.
pub fn at(x: f64, y: f64, z: f64) -> DPose {
    DPose {
        position: DVec3::new(x, y, z),
        rotation: DQuat::IDENTITY,
    }
}

/// At `(x, y, z)`, turned by `angle` about `axis` (any length but zero).
pub fn turned(x: f64, y: f64, z: f64, axis: DVec3, angle: f64) -> DPose {
    DPose {
        position: DVec3::new(x, y, z),
        rotation: DQuat::from_axis_angle(axis.normalize(), angle),
    }
}

/// Every pair in both orders.
pub fn both_orders<'s>(pairs: &[PairInput<'s>]) -> Vec<PairInput<'s>> {
    pairs
        .iter()
        .flat_map(|p| [*p, PairInput::new(p.b, p.pose_b, p.a, p.pose_a)])
        .collect()
}
