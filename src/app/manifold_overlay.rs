//! The contact overlay (5) under the physics response: each contact's manifold points and normal, from the
//! physics world's last step.

use super::overlays::{arrow_head, Overlay};
use super::physics::StressPhysics;
use super::render::{OverlayBatch, OverlayPrim};
use glam::Vec3;
use gpu_gjk::physics::contact::Partner;

/// The contact overlay's part for physics: every point of the last step's manifolds as a disc, and each
/// contact's normal as an arrow from the middle of its points (the pairs of body `only`, when given).
pub fn manifold_prims(physics: &StressPhysics, batch: &mut OverlayBatch, only: Option<u32>) {
    let colour = Overlay::Contacts.colour();
    for contact in &physics.world().contacts {
        let b = match contact.key.b {
            Partner::Body(b) => Some(b),
            Partner::Plane(_) => None,
        };
        if only.is_some_and(|o| o != contact.key.a && Some(o) != b) || contact.points.is_empty() {
            continue;
        }
        let mut middle = Vec3::ZERO;
        for point in &contact.points {
            batch
                .prims
                .push(OverlayPrim::disc(point.position, MANIFOLD_POINT_PX, colour));
            middle += point.position;
        }
        middle /= contact.points.len() as f32;
        let tip = middle + contact.normal * NORMAL_LENGTH;
        batch
            .prims
            .push(OverlayPrim::segment(middle, tip, NORMAL_WIDTH_PX, colour));
        arrow_head(batch, middle, tip, colour);
    }
}

/// The manifold overlay's sizes: points in pixels, normals in world units.
const MANIFOLD_POINT_PX: f32 = 7.0;
const NORMAL_WIDTH_PX: f32 = 2.0;
const NORMAL_LENGTH: f32 = 0.3;
