//! One frame's collision answer per body: free, colliding, or disputed (GPU and CPU disagree on one of its
//! pairs outside the tolerance band).

use crate::gjk::GjkResult;

/// What colour a body gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyState {
    Free,
    Colliding,
    /// A pair of this body was answered differently by the GPU and the CPU check.
    Disagreement,
}

/// The per-frame summary the renderer and the HUD show.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrameCollisions {
    pub states: Vec<BodyState>,
    pub candidate_pairs: usize,
    pub colliding_pairs: usize,
    pub disagreements: usize,
}

/// Marks bodies from the narrow-phase answers. `check`, when given, holds the CPU answers for the same
/// pairs (or `None` for pairs the check skipped); a pair counts as a disagreement when the flags differ.
pub fn classify_bodies(
    body_count: usize,
    pairs: &[[u32; 2]],
    answers: &[GjkResult<f32>],
    check: Option<&[Option<GjkResult<f32>>]>,
) -> FrameCollisions {
    let mut frame = FrameCollisions {
        states: vec![BodyState::Free; body_count],
        candidate_pairs: pairs.len(),
        ..FrameCollisions::default()
    };
    for (i, (pair, answer)) in pairs.iter().zip(answers).enumerate() {
        let disputed = check
            .and_then(|c| c.get(i).copied().flatten())
            .is_some_and(|cpu| cpu.intersecting != answer.intersecting);
        if answer.intersecting {
            frame.colliding_pairs += 1;
        }
        for &body in pair {
            let state = &mut frame.states[body as usize];
            if disputed {
                *state = BodyState::Disagreement;
            } else if answer.intersecting && *state == BodyState::Free {
                *state = BodyState::Colliding;
            }
        }
        if disputed {
            frame.disagreements += 1;
        }
    }
    frame
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad_phase::{brute_force, sweep_and_prune, world_aabb};
    use crate::gjk::{query, GjkConfig, GjkStatus, QueryKind};
    use crate::stress::{StressScene, StressSpec};
    use crate::ConvexShape;
    use glam::Vec3;

    fn templates() -> Vec<ConvexShape> {
        vec![
            ConvexShape::cuboid(Vec3::ONE).unwrap(),
            ConvexShape::sphere(1.0).unwrap(),
            ConvexShape::cone(1.0, 1.0, 24).unwrap(),
            ConvexShape::cylinder(1.0, 1.0, 24).unwrap(),
        ]
    }

    #[test]
    fn scene_is_seeded_stays_in_its_box_and_is_dense() {
        let spec = StressSpec {
            bodies: 500,
            ..StressSpec::default()
        };
        let mut a = StressScene::new(templates(), spec.clone());
        let b = StressScene::new(templates(), spec);
        assert_eq!(a.bodies, b.bodies);
        for _ in 0..200 {
            a.step(1.0 / 60.0);
        }
        let h = a.half_extent;
        assert!(a
            .bodies
            .iter()
            .all(|b| b.pose.position.abs().max_element() <= h + 1e-4));
        assert_ne!(a.bodies, b.bodies);
        let instances = a.instances();
        let boxes: Vec<_> = instances
            .iter()
            .map(|i| world_aabb(&a.shapes[i.shape as usize], i))
            .collect();
        let pairs = sweep_and_prune(&boxes);
        assert_eq!(pairs, brute_force(&boxes));
        // Dense enough that a frame has many candidate pairs.
        assert!(pairs.len() > 200, "{} candidate pairs", pairs.len());
        a.set_body_count(100);
        assert_eq!(a.bodies.len(), 100);
        a.set_body_count(700);
        assert_eq!((a.bodies.len(), a.shapes.len()), (700, 700));
    }

    #[test]
    fn bodies_are_coloured_by_their_pairs() {
        let scene = StressScene::new(
            templates(),
            StressSpec {
                bodies: 300,
                ..StressSpec::default()
            },
        );
        let instances = scene.instances();
        let boxes: Vec<_> = instances
            .iter()
            .map(|i| world_aabb(&scene.shapes[i.shape as usize], i))
            .collect();
        let pairs = sweep_and_prune(&boxes);
        let answers: Vec<_> = pairs
            .iter()
            .map(|&[i, j]| {
                let (a, b) = (&instances[i as usize], &instances[j as usize]);
                query(
                    &scene.shapes[a.shape as usize],
                    &a.pose,
                    &scene.shapes[b.shape as usize],
                    &b.pose,
                    QueryKind::Intersection,
                    &GjkConfig::default(),
                )
            })
            .collect();
        let frame = classify_bodies(scene.bodies.len(), &pairs, &answers, None);
        assert!(frame.colliding_pairs > 0 && frame.colliding_pairs < pairs.len());
        for (k, &[i, j]) in pairs.iter().enumerate() {
            if answers[k].intersecting {
                assert_eq!(frame.states[i as usize], BodyState::Colliding);
                assert_eq!(frame.states[j as usize], BodyState::Colliding);
            }
        }
        // A flipped check answer marks both bodies of that pair.
        let mut check: Vec<_> = answers.iter().copied().map(Some).collect();
        let mut flipped = check[0].unwrap();
        flipped.intersecting = !flipped.intersecting;
        flipped.status = if flipped.intersecting {
            GjkStatus::Intersecting
        } else {
            GjkStatus::Separated
        };
        check[0] = Some(flipped);
        check[1] = None;
        let frame = classify_bodies(scene.bodies.len(), &pairs, &answers, Some(&check));
        assert_eq!(frame.disagreements, 1);
        assert_eq!(frame.states[pairs[0][0] as usize], BodyState::Disagreement);
        assert_eq!(frame.states[pairs[0][1] as usize], BodyState::Disagreement);
    }
}
