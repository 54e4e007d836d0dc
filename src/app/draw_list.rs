//! Turns bodies and their collision states into per-mesh instance lists for the renderer.

use super::render::BodyInstance;
use crate::gpu::{MARK_COLLIDING, MARK_DISPUTED};
use crate::stress::{BodyState, StressScene};

/// Linear RGB: free bodies a neutral grey-blue, colliding ones red, disputed ones (GPU and CPU disagree)
/// magenta.
pub fn state_colour(state: BodyState) -> [f32; 4] {
    match state {
        BodyState::Free => [0.55, 0.60, 0.68, 1.0],
        BodyState::Colliding => [0.90, 0.06, 0.04, 1.0],
        BodyState::Disagreement => [0.95, 0.05, 0.95, 1.0],
    }
}

/// Edges of the picked body, and of the player's body (linear RGB).
pub const PICKED_EDGES: [f32; 4] = [1.0, 1.0, 1.0, 1.0];
pub const PLAYER_EDGES: [f32; 4] = [0.3, 0.85, 1.0, 1.0];
/// Edges of the picked body's partners (the other bodies of its pairs), and of the selected pair's partner:
/// a row of the pair table can be found in the scene by its colour.
pub const PARTNER_EDGES: [f32; 4] = [1.0, 0.62, 0.1, 1.0];
pub const SELECTED_PARTNER_EDGES: [f32; 4] = [0.2, 1.0, 0.35, 1.0];

/// What the highlights outline: the picked body, its partners and the selected pair's partner.
#[derive(Clone, Copy, Debug, Default)]
pub struct Outlines<'a> {
    pub picked: Option<u32>,
    pub partners: &'a [u32],
    pub selected_partner: Option<u32>,
}

/// The player's body, the picked body's partners, the selected partner and the picked body as highlight
/// instances (their every edge drawn in their colour, later ones over earlier ones), per template mesh like
/// [`body_instances`].
pub fn highlight_instances(
    scene: &StressScene,
    outlines: Outlines,
    mesh_count: usize,
) -> Vec<Vec<BodyInstance>> {
    let mut lists = vec![Vec::new(); mesh_count];
    let player = scene.has_player().then_some(0u32);
    let partners = outlines
        .partners
        .iter()
        .filter(|&&b| Some(b) != outlines.selected_partner)
        .map(|&b| (Some(b), PARTNER_EDGES));
    let outlined = [(player, PLAYER_EDGES)].into_iter().chain(partners).chain([
        (outlines.selected_partner, SELECTED_PARTNER_EDGES),
        (outlines.picked, PICKED_EDGES),
    ]);
    for (body, colour) in outlined {
        let Some(i) = body.map(|b| b as usize).filter(|&i| i < scene.bodies.len()) else {
            continue;
        };
        if let Some(list) = lists.get_mut(scene.templates[i]) {
            let pose = scene.bodies[i].pose;
            list.push(BodyInstance::new(
                pose.position,
                pose.rotation,
                scene.scales[i],
                colour,
            ));
        }
    }
    lists
}

/// Where each body is drawn among all bodies: the lists of [`body_instances`] one after the other (template 0's
/// bodies in body order, then template 1's, ...). The narrow phase keeps its per-body marks in this order, so
/// the renderer reads them as a per-instance attribute.
pub fn draw_slots(templates: &[usize]) -> Vec<u32> {
    let mut first = vec![0u32; templates.iter().max().map_or(0, |&t| t + 1)];
    for &t in templates {
        first[t] += 1;
    }
    let mut next = 0u32;
    for count in &mut first {
        let bodies = *count;
        *count = next;
        next += bodies;
    }
    templates
        .iter()
        .map(|&t| {
            first[t] += 1;
            first[t] - 1
        })
        .collect()
}

#[cfg(test)]
/// A body's state from its mark word (the narrow phase's bits): disputed over colliding over free.
pub fn state_of_mark(mark: u32) -> BodyState {
    if mark & MARK_DISPUTED != 0 {
        BodyState::Disagreement
    } else if mark & MARK_COLLIDING != 0 {
        BodyState::Colliding
    } else {
        BodyState::Free
    }
}

/// The mark word of a body state (the inverse of [`state_of_mark`]).
pub fn mark_of_state(state: BodyState) -> u32 {
    match state {
        BodyState::Free => 0,
        BodyState::Colliding => MARK_COLLIDING,
        BodyState::Disagreement => MARK_DISPUTED,
    }
}

/// One instance list per template mesh, each body drawn with its template's mesh at its scale.
pub fn body_instances(
    scene: &StressScene,
    states: &[BodyState],
    mesh_count: usize,
) -> Vec<Vec<BodyInstance>> {
    let mut lists = vec![Vec::new(); mesh_count];
    for (i, body) in scene.bodies.iter().enumerate() {
        let state = states.get(i).copied().unwrap_or(BodyState::Free);
        lists[scene.templates[i]].push(BodyInstance::new(
            body.pose.position,
            body.pose.rotation,
            scene.scales[i],
            state_colour(state),
        ));
    }
    lists
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::ConvexShape;
    use crate::stress::StressSpec;
    use glam::Vec3;

    #[test]
    fn every_body_lands_in_its_template_list_with_its_colour() {
        let templates = vec![
            ConvexShape::cuboid(Vec3::ONE).unwrap(),
            ConvexShape::sphere(1.0).unwrap(),
        ];
        let scene = StressScene::new(
            templates,
            StressSpec {
                bodies: 50,
                ..StressSpec::default()
            },
        )
        .unwrap();
        let mut states = vec![BodyState::Free; 50];
        states[3] = BodyState::Colliding;
        let lists = body_instances(&scene, &states, 2);
        assert_eq!(lists[0].len() + lists[1].len(), 50);
        let list = &lists[scene.templates[3]];
        let red = state_colour(BodyState::Colliding);
        assert_eq!(list.iter().filter(|b| b.colour == red).count(), 1);
        // Body 3 sits at its draw slot: its list's start plus its place in the list.
        let slots = draw_slots(&scene.templates);
        let t = scene.templates[3];
        let before: usize = lists[..t].iter().map(Vec::len).sum();
        let place = (0..3).filter(|&i| scene.templates[i] == t).count();
        assert_eq!(slots[3] as usize, before + place);
    }

    #[test]
    fn draw_slots_are_a_permutation_grouped_by_template() {
        let templates = [1, 0, 2, 1, 0, 0];
        assert_eq!(draw_slots(&templates), vec![3, 0, 5, 4, 1, 2]);
        assert!(draw_slots(&[]).is_empty());
        for state in [
            BodyState::Free,
            BodyState::Colliding,
            BodyState::Disagreement,
        ] {
            assert_eq!(state_of_mark(mark_of_state(state)), state);
        }
        let both = MARK_COLLIDING | MARK_DISPUTED;
        assert_eq!(state_of_mark(both), BodyState::Disagreement);
    }
}
