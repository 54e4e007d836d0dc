//! The debug overlays of the stress test: what the narrow phase computed, drawn over the bodies. Each one is
//! toggled by a key (5 to 9) and a HUD checkbox:
//!
//! - **contacts**: on colliding pairs, EPA's contact points on A and B and the contact normal scaled by the
//!   depth (from `contact_b` to `contact_a`), with an arrow head;
//! - **closest points**: on separated pairs closer than a threshold, the segment between the witnesses,
//!   coloured from green (touching) to blue (at the threshold);
//! - **AABBs**: the world boxes the broad phase sorted;
//! - **candidate pairs**: a line between the centres of every broad-phase pair;
//! - **disagreements**: a ring on each body and a line between them for every pair the GPU and the CPU
//!   answered differently.

use super::sim::FrameData;
use crate::app::render::overlay::triangle;
use crate::app::render::{OverlayBatch, OverlayPrim};
use crate::broad_phase::Aabb;
use crate::epa::PenetrationStatus;
use crate::gjk::GjkConfig;
use crate::one_pair::penetration_query;
use crate::stress::StressScene;
use glam::Vec3;
use rayon::prelude::*;

/// One overlay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Overlay {
    Contacts,
    Closest,
    Aabbs,
    Pairs,
    Disagreements,
}

impl Overlay {
    pub const ALL: [Overlay; 5] = [
        Overlay::Contacts,
        Overlay::Closest,
        Overlay::Aabbs,
        Overlay::Pairs,
        Overlay::Disagreements,
    ];

    /// Its key in the window (the digit after the player's shapes 1-4).
    pub fn key(self) -> char {
        match self {
            Overlay::Contacts => '5',
            Overlay::Closest => '6',
            Overlay::Aabbs => '7',
            Overlay::Pairs => '8',
            Overlay::Disagreements => '9',
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Overlay::Contacts => "Contacts (EPA)",
            Overlay::Closest => "Closest points",
            Overlay::Aabbs => "World AABBs",
            Overlay::Pairs => "Candidate pairs",
            Overlay::Disagreements => "GPU/CPU disagreements",
        }
    }

    /// Its name where room is short (the HUD's two-column checkboxes).
    pub fn short_label(self) -> &'static str {
        match self {
            Overlay::Contacts => "Contacts",
            Overlay::Closest => "Closest points",
            Overlay::Aabbs => "AABBs",
            Overlay::Pairs => "Pairs",
            Overlay::Disagreements => "GPU≠CPU",
        }
    }

    /// What the legend says it draws.
    pub fn legend(self) -> &'static str {
        match self {
            Overlay::Contacts => "contact points on A and B, normal x depth",
            Overlay::Closest => {
                "witness segment of near separated pairs, green (0) to blue (threshold)"
            }
            Overlay::Aabbs => "each body's world box (broad phase)",
            Overlay::Pairs => "line between the centres of each broad-phase pair",
            Overlay::Disagreements => "ring on both bodies of a disputed pair",
        }
    }

    /// Its colour, linear RGB: flat and saturated, so it stands apart from the lit bodies.
    pub fn colour(self) -> [f32; 4] {
        match self {
            Overlay::Contacts => CONTACT_COLOUR,
            Overlay::Closest => CLOSEST_NEAR,
            Overlay::Aabbs => [1.0, 0.33, 0.0, 0.85],
            Overlay::Pairs => [0.28, 0.28, 1.0, 0.85],
            Overlay::Disagreements => [1.0, 0.0, 1.0, 1.0],
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

const CONTACT_COLOUR: [f32; 4] = [1.0, 0.78, 0.0, 1.0];
const CLOSEST_NEAR: [f32; 4] = [0.0, 1.0, 0.22, 1.0];
const CLOSEST_FAR: [f32; 4] = [0.0, 0.45, 1.0, 1.0];

/// Which overlays are on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OverlayToggles([bool; 5]);

impl OverlayToggles {
    #[cfg(test)]
    pub fn from_list(list: &[Overlay]) -> Self {
        let mut toggles = Self::default();
        for &overlay in list {
            toggles.set(overlay, true);
        }
        toggles
    }

    pub fn is_on(&self, overlay: Overlay) -> bool {
        self.0[overlay.index()]
    }

    pub fn set(&mut self, overlay: Overlay, on: bool) {
        self.0[overlay.index()] = on;
    }

    pub fn toggle(&mut self, overlay: Overlay) {
        self.0[overlay.index()] ^= true;
    }

    /// Mutable access for a HUD checkbox.
    pub fn flag(&mut self, overlay: Overlay) -> &mut bool {
        &mut self.0[overlay.index()]
    }

    pub fn any(&self) -> bool {
        self.0.iter().any(|on| *on)
    }
}

/// EPA's answer for a colliding pair, in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    pub pair: [u32; 2],
    pub status: PenetrationStatus,
    pub depth: f32,
    /// Unit direction from A towards B.
    pub normal: Vec3,
    /// The point of A deepest inside B, and of B deepest inside A (`contact_a - contact_b = normal * depth`).
    pub contact_a: Vec3,
    pub contact_b: Vec3,
}

/// EPA (CPU, all threads) on every pair of the frame the narrow phase found intersecting (of `only`'s pairs,
/// when given).
pub fn contacts(
    scene: &StressScene,
    data: &FrameData,
    config: &GjkConfig,
    only: Option<u32>,
) -> Vec<Contact> {
    let colliding: Vec<[u32; 2]> = data
        .pairs
        .iter()
        .zip(&data.answers)
        .filter(|(pair, answer)| answer.intersecting && involves(only, pair))
        .map(|(pair, _)| *pair)
        .collect();
    colliding
        .par_iter()
        .filter_map(|&pair| contact(scene, data, pair, config))
        .collect()
}

/// EPA on one pair of the frame's instances, in world coordinates; `None` when an index is out of range.
pub fn contact(
    scene: &StressScene,
    data: &FrameData,
    pair: [u32; 2],
    config: &GjkConfig,
) -> Option<Contact> {
    let [i, j] = pair.map(|k| k as usize);
    let (a, b) = (data.instances.get(i)?, data.instances.get(j)?);
    let (shape_a, shape_b) = (
        scene.shapes.get(a.shape as usize)?,
        scene.shapes.get(b.shape as usize)?,
    );
    let (_, hit) = penetration_query(shape_a, &a.pose, shape_b, &b.pose, config);
    Some(Contact {
        pair,
        status: hit.status,
        depth: hit.depth,
        normal: a.pose.rotation * hit.normal,
        contact_a: a.pose.transform_point(hit.contact_a),
        contact_b: a.pose.transform_point(hit.contact_b),
    })
}

/// What the overlays are drawn from.
pub struct OverlayInputs<'a> {
    pub data: &'a FrameData,
    /// EPA on the colliding pairs (needed for [`Overlay::Contacts`]).
    pub contacts: &'a [Contact],
    pub toggles: OverlayToggles,
    /// Separated pairs closer than this get a closest-point segment.
    pub closest_threshold: f32,
    /// Draw only this body's pairs (and boxes: its own and its partners'); `None` draws every pair.
    pub only_body: Option<u32>,
}

/// Whether `pair` is drawn when the overlays are limited to `only`'s pairs.
fn involves(only: Option<u32>, pair: &[u32; 2]) -> bool {
    only.is_none_or(|body| pair.contains(&body))
}

/// Pixel sizes: thin lines for what is everywhere (pairs, boxes), thicker ones for what is rare and matters.
const PAIR_WIDTH: f32 = 1.0;
const BOX_WIDTH: f32 = 1.0;
const CLOSEST_WIDTH: f32 = 2.5;
const CONTACT_WIDTH: f32 = 2.5;
const CONTACT_POINT: f32 = 8.0;
const DISAGREEMENT_RING: f32 = 30.0;

/// The overlays that are on, as primitives for the scene pass.
pub fn scene_overlays(inputs: &OverlayInputs) -> OverlayBatch {
    let mut batch = OverlayBatch::default();
    let data = inputs.data;
    let toggles = inputs.toggles;
    let only = inputs.only_body;
    let centre = |body: u32| {
        data.instances
            .get(body as usize)
            .map_or(Vec3::ZERO, |i| i.pose.position)
    };
    if toggles.is_on(Overlay::Pairs) {
        let colour = Overlay::Pairs.colour();
        batch.prims.extend(
            data.pairs
                .iter()
                .filter(|pair| involves(only, pair))
                .map(|&[i, j]| OverlayPrim::segment(centre(i), centre(j), PAIR_WIDTH, colour)),
        );
    }
    if toggles.is_on(Overlay::Aabbs) {
        let mut shown = vec![only.is_none(); data.boxes.len()];
        if let Some(body) = only {
            for &[i, j] in data.pairs.iter().filter(|pair| pair.contains(&body)) {
                for b in [i, j] {
                    if let Some(flag) = shown.get_mut(b as usize) {
                        *flag = true;
                    }
                }
            }
            if let Some(flag) = shown.get_mut(body as usize) {
                *flag = true;
            }
        }
        for (aabb, _) in data.boxes.iter().zip(&shown).filter(|(_, on)| **on) {
            {
                box_edges(&mut batch, aabb, Overlay::Aabbs.colour());
            }
        }
    }
    if toggles.is_on(Overlay::Closest) {
        closest_segments(&mut batch, data, inputs.closest_threshold, only);
    }
    if toggles.is_on(Overlay::Contacts) {
        for contact in inputs.contacts.iter().filter(|c| involves(only, &c.pair)) {
            contact_prims(&mut batch, contact);
        }
    }
    if toggles.is_on(Overlay::Disagreements) {
        let colour = Overlay::Disagreements.colour();
        for &[i, j] in data.disputed_pairs.iter().filter(|p| involves(only, p)) {
            // Never hidden: a disagreement is a bug to be found.
            let (a, b) = (centre(i), centre(j));
            batch.prims.extend([
                OverlayPrim::segment(a, b, 3.0, colour).on_top(),
                OverlayPrim::ring(a, DISAGREEMENT_RING, colour).on_top(),
                OverlayPrim::ring(b, DISAGREEMENT_RING, colour).on_top(),
                OverlayPrim::disc(0.5 * (a + b), 9.0, [1.0; 4]).on_top(),
            ]);
        }
    }
    batch
}

/// The twelve edges of a box.
pub fn box_edges(batch: &mut OverlayBatch, aabb: &Aabb, colour: [f32; 4]) {
    let corner = |k: u32| {
        Vec3::new(
            if k & 1 == 0 { aabb.min.x } else { aabb.max.x },
            if k & 2 == 0 { aabb.min.y } else { aabb.max.y },
            if k & 4 == 0 { aabb.min.z } else { aabb.max.z },
        )
    };
    for k in 0..8u32 {
        for bit in [1, 2, 4] {
            if k & bit == 0 {
                batch.prims.push(OverlayPrim::segment(
                    corner(k),
                    corner(k | bit),
                    BOX_WIDTH,
                    colour,
                ));
            }
        }
    }
}

/// The colour of a closest-point segment `distance` long, `threshold` being the farthest drawn.
pub fn closest_colour(distance: f32, threshold: f32) -> [f32; 4] {
    let t = (distance / threshold.max(f32::MIN_POSITIVE)).clamp(0.0, 1.0);
    std::array::from_fn(|c| CLOSEST_NEAR[c] + (CLOSEST_FAR[c] - CLOSEST_NEAR[c]) * t)
}

fn closest_segments(batch: &mut OverlayBatch, data: &FrameData, threshold: f32, only: Option<u32>) {
    for (pair, answer) in data.pairs.iter().zip(&data.answers) {
        let i = pair[0];
        if !involves(only, pair)
            || answer.intersecting
            || answer.status.is_failure()
            || answer.distance > threshold
        {
            continue;
        }
        let Some(a) = data.instances.get(i as usize) else {
            continue;
        };
        // Witnesses are in A's local frame.
        let (wa, wb) = (
            a.pose.transform_point(answer.witness_a),
            a.pose.transform_point(answer.witness_b),
        );
        let colour = closest_colour(answer.distance, threshold);
        batch
            .prims
            .push(OverlayPrim::segment(wa, wb, CLOSEST_WIDTH, colour));
        batch.prims.push(OverlayPrim::disc(wa, 6.0, colour));
        batch.prims.push(OverlayPrim::disc(wb, 6.0, colour));
    }
}

fn contact_prims(batch: &mut OverlayBatch, contact: &Contact) {
    if contact.status != PenetrationStatus::Penetrating {
        return;
    }
    let colour = CONTACT_COLOUR;
    let (a, b) = (contact.contact_a, contact.contact_b);
    batch
        .prims
        .push(OverlayPrim::disc(a, CONTACT_POINT, colour));
    batch
        .prims
        .push(OverlayPrim::ring(b, CONTACT_POINT + 2.0, colour));
    // The normal scaled by the depth runs from B's contact to A's; an arrow head at A's end shows which
    // way B must move (along -normal from A's point of view: B moves by +normal).
    let tip = b + contact.normal * contact.depth;
    batch
        .prims
        .push(OverlayPrim::segment(b, tip, CONTACT_WIDTH, colour));
    arrow_head(batch, b, tip, colour);
}

/// A small cone-like head at `tip` of the arrow from `tail`, as two translucent triangles.
pub fn arrow_head(batch: &mut OverlayBatch, tail: Vec3, tip: Vec3, colour: [f32; 4]) {
    let axis = tip - tail;
    let length = axis.length();
    if length <= f32::EPSILON {
        return;
    }
    let dir = axis / length;
    let size = 0.25 * length;
    let side = dir.any_orthonormal_vector() * 0.5 * size;
    let other = dir.cross(side);
    let base = tip - dir * size;
    batch
        .triangles
        .extend(triangle([tip, base + side, base - side], colour));
    batch
        .triangles
        .extend(triangle([tip, base + other, base - other], colour));
}
