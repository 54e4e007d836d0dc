//! A simple collision response for the stress scene (R in the demo): overlapping bodies are pushed apart
//! along the contact normal from EPA, the push split by their sizes (mass grows with volume), and their
//! velocities reflected along the normal when they approach. The player's shape (body 0) is blocked by
//! what it runs into: it takes the whole push of its pairs.

use super::StressScene;
use crate::epa::PenetrationStatus;
use crate::gjk::GjkConfig;
use crate::one_pair::penetration_query;

/// What one response pass did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ResponseStats {
    /// Pairs that overlapped by more than the slop and were pushed apart.
    pub pushed: usize,
    /// Pairs whose EPA did not finish (never pushed: a guessed normal would fling bodies).
    pub unresolved: usize,
    pub max_depth: f32,
}

/// Fraction of each overlap removed per pass: a little under 1 so stacked bodies do not jitter.
const PUSH_FRACTION: f32 = 0.8;

/// Pushes apart every pair in `pairs` whose narrow-phase answer said intersecting (`colliding[k]`).
pub fn separate(
    scene: &mut StressScene,
    pairs: &[[u32; 2]],
    colliding: &[bool],
    config: &GjkConfig,
) -> ResponseStats {
    let mut stats = ResponseStats::default();
    for (&[i, j], _) in pairs.iter().zip(colliding).filter(|(_, &c)| c) {
        let (i, j) = (i as usize, j as usize);
        let (pose_a, pose_b) = (scene.bodies[i].pose, scene.bodies[j].pose);
        let (_, hit) =
            penetration_query(&scene.shapes[i], &pose_a, &scene.shapes[j], &pose_b, config);
        match hit.status {
            PenetrationStatus::Penetrating => {}
            // An earlier push in this pass already moved the pair apart.
            PenetrationStatus::Separated => continue,
            _ => {
                stats.unresolved += 1;
                continue;
            }
        }
        if hit.depth <= 0.0 || hit.depth.is_nan() {
            continue;
        }
        stats.pushed += 1;
        stats.max_depth = stats.max_depth.max(hit.depth);
        // EPA answers in A's frame.
        let normal = pose_a.rotation * hit.normal;
        let (share_a, share_b) = shares(scene, i, j);
        let push = normal * (hit.depth * PUSH_FRACTION);
        scene.bodies[i].pose.position -= push * share_a;
        scene.bodies[j].pose.position += push * share_b;
        // Reflect the approaching part of the relative velocity (equal and opposite impulses).
        let approach = (scene.bodies[j].velocity - scene.bodies[i].velocity).dot(normal);
        if approach < 0.0 {
            let change = normal * approach;
            scene.bodies[i].velocity += change * (2.0 * share_a);
            scene.bodies[j].velocity -= change * (2.0 * share_b);
        }
    }
    scene.keep_inside();
    stats
}

/// How the push of pair (i, j) is split: by inverse mass (volume ~ size^3), and all of it on the player.
fn shares(scene: &StressScene, i: usize, j: usize) -> (f32, f32) {
    if i == 0 && scene.has_player() {
        return (1.0, 0.0);
    }
    if j == 0 && scene.has_player() {
        return (0.0, 1.0);
    }
    let inverse_mass = |k: usize| 1.0 / scene.scales[k].powi(3).max(f32::MIN_POSITIVE);
    let (ma, mb) = (inverse_mass(i), inverse_mass(j));
    (ma / (ma + mb), mb / (ma + mb))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad_phase::{sweep_and_prune, world_aabbs};
    use crate::gjk::QueryKind;
    use crate::one_pair::query;
    use crate::shape::ConvexShape;
    use crate::stress::StressSpec;
    use glam::Vec3;

    fn colliding_pairs(scene: &StressScene) -> (Vec<[u32; 2]>, Vec<bool>) {
        let instances = scene.instances();
        let boxes = world_aabbs(&scene.shapes, &instances);
        let pairs = sweep_and_prune(&boxes);
        let hits = pairs
            .iter()
            .map(|&[i, j]| {
                let (a, b) = (&instances[i as usize], &instances[j as usize]);
                query(
                    &scene.shapes[i as usize],
                    &a.pose,
                    &scene.shapes[j as usize],
                    &b.pose,
                    QueryKind::Intersection,
                    &GjkConfig::default(),
                )
                .intersecting
            })
            .collect();
        (pairs, hits)
    }

    #[test]
    fn repeated_passes_remove_the_overlaps_and_block_the_player() {
        let templates = vec![
            ConvexShape::cuboid(Vec3::ONE).unwrap(),
            ConvexShape::sphere(1.0).unwrap(),
            ConvexShape::cylinder(1.0, 1.0, 16).unwrap(),
        ];
        let mut scene = StressScene::new(
            templates,
            StressSpec {
                bodies: 300,
                density: 1.0,
                ..StressSpec::default()
            },
        )
        .unwrap();
        scene.make_player(0);
        let initial = colliding_pairs(&scene).1.iter().filter(|c| **c).count();
        let mut counts = Vec::new();
        for _ in 0..60 {
            scene.step(1.0 / 60.0);
            let (pairs, hits) = colliding_pairs(&scene);
            counts.push(hits.iter().filter(|c| **c).count());
            let stats = separate(&mut scene, &pairs, &hits, &GjkConfig::default());
            assert_eq!(stats.unresolved, 0);
        }
        let last = *counts.last().unwrap();
        assert!(initial > 20, "{initial} overlapping pairs at the start");
        assert!(
            last * 4 < initial,
            "overlaps went from {initial} to {last}: {counts:?}"
        );
        // The player never moved on its own, only by being blocked; it is still inside the box.
        let h = scene.half_extent;
        assert!(scene.bodies[0].pose.position.abs().max_element() <= h);
    }
}
