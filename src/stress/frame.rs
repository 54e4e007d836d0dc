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

/// Marks bodies from the narrow-phase answers. `disputed` lists the bodies of pairs where the CPU check
/// disagreed with the GPU outside the tolerance band (see [`crate::validate::compare`]; the check may
/// belong to an earlier frame, so bodies rather than pair indices); they are marked whatever else they
/// touch. `disagreements` is carried into the summary as given.
pub fn classify_bodies(
    body_count: usize,
    pairs: &[[u32; 2]],
    answers: &[GjkResult<f32>],
    disputed: &[u32],
    disagreements: usize,
) -> FrameCollisions {
    let mut frame = FrameCollisions {
        states: vec![BodyState::Free; body_count],
        candidate_pairs: pairs.len(),
        disagreements,
        ..FrameCollisions::default()
    };
    for (pair, answer) in pairs.iter().zip(answers) {
        if answer.intersecting {
            frame.colliding_pairs += 1;
            for &body in pair {
                let state = &mut frame.states[body as usize];
                if *state == BodyState::Free {
                    *state = BodyState::Colliding;
                }
            }
        }
    }
    for &body in disputed {
        if let Some(state) = frame.states.get_mut(body as usize) {
            *state = BodyState::Disagreement;
        }
    }
    frame
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad_phase::{brute_force, sweep_and_prune, world_aabbs};
    use crate::gjk::{GjkConfig, QueryKind};
    use crate::one_pair::query;
    use crate::shape::ConvexShape;
    use crate::stress::{StressScene, StressSpec};
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
        let mut a = StressScene::new(templates(), spec.clone()).unwrap();
        let b = StressScene::new(templates(), spec).unwrap();
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
        let boxes = world_aabbs(&a.shapes, &instances);
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
        )
        .unwrap();
        let instances = scene.instances();
        let boxes = world_aabbs(&scene.shapes, &instances);
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
        let frame = classify_bodies(scene.bodies.len(), &pairs, &answers, &[], 0);
        assert!(frame.colliding_pairs > 0 && frame.colliding_pairs < pairs.len());
        for (k, &[i, j]) in pairs.iter().enumerate() {
            if answers[k].intersecting {
                assert_eq!(frame.states[i as usize], BodyState::Colliding);
                assert_eq!(frame.states[j as usize], BodyState::Colliding);
            }
        }
        // The bodies of a disputed pair are marked.
        let frame = classify_bodies(scene.bodies.len(), &pairs, &answers, &pairs[0], 1);
        assert_eq!(frame.disagreements, 1);
        assert_eq!(frame.states[pairs[0][0] as usize], BodyState::Disagreement);
        assert_eq!(frame.states[pairs[0][1] as usize], BodyState::Disagreement);
    }
}
