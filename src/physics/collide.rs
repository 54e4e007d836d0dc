//! The contacts of one step: candidate pairs from the grid broad phase, each answered with its contact
//! manifold ([`crate::manifold`]), and each body against the floor and walls ([`super::planes`]).

use super::body::RigidBody;
use super::contact::{Contact, ContactKey, Partner, SolverPoint};
use super::planes::{plane_contact, Plane};
use crate::broad_phase::{grid_pairs, world_aabb};
use crate::manifold::manifold;
use crate::query::{PairInput, Precision, QueryOptions};
use crate::shape::ConvexShape;
use crate::PenetrationStatus;
use rayon::prelude::*;

/// What a contact search found: the contacts, and how many candidate pairs the broad phase gave.
pub struct Found {
    pub contacts: Vec<Contact>,
    pub candidate_pairs: usize,
}

/// Every contact among `bodies` (shapes indexed by their `shape`) and against `planes`. Body pairs come in the
/// grid's order, then each body's planes in order: the same bodies give the same list.
pub fn find_contacts(
    shapes: &[ConvexShape],
    bodies: &[RigidBody],
    planes: &[Plane],
    plane_margin: f32,
) -> Found {
    let boxes: Vec<_> = bodies
        .iter()
        .map(|b| world_aabb(&shapes[b.shape as usize], &b.instance()))
        .collect();
    let pairs = grid_pairs(&boxes);
    let mut contacts: Vec<Contact> = pairs
        .par_iter()
        .filter_map(|&[i, j]| pair_contact(shapes, bodies, i, j))
        .collect();
    for (index, body) in bodies.iter().enumerate() {
        if !body.moves() {
            continue;
        }
        let shape = &shapes[body.shape as usize];
        for (plane_index, plane) in planes.iter().enumerate() {
            contacts.extend(plane_contact(
                index,
                body,
                shape,
                plane_index,
                plane,
                plane_margin,
            ));
        }
    }
    Found {
        contacts,
        candidate_pairs: pairs.len(),
    }
}

/// The manifold of bodies `i` and `j` as a contact, `None` when they do not overlap, both are static, or the
/// manifold has no usable normal. A pair of which neither body moves (static or asleep) is skipped.
pub fn pair_contact(
    shapes: &[ConvexShape],
    bodies: &[RigidBody],
    i: u32,
    j: u32,
) -> Option<Contact> {
    let (a, b) = (&bodies[i as usize], &bodies[j as usize]);
    if !a.moves() && !b.moves() {
        return None;
    }
    let input = PairInput::new(
        &shapes[a.shape as usize],
        a.pose,
        &shapes[b.shape as usize],
        b.pose,
    );
    let options = QueryOptions {
        precision: Precision::Float64,
        ..QueryOptions::default()
    };
    let found = manifold(&input, options);
    let normal = found.normal.as_vec3();
    if found.status != PenetrationStatus::Penetrating
        || found.points.is_empty()
        || !normal.is_finite()
    {
        return None;
    }
    let mut points: Vec<SolverPoint> = found
        .points
        .iter()
        .map(|p| {
            let middle = ((p.point_a + p.point_b) * 0.5).as_vec3();
            SolverPoint::new(middle, p.depth as f32, p.id.packed())
        })
        .collect();
    // The solver's order by feature, not by depth: the same points are visited in the same order while they
    // touch, as the depths trade places.
    points.sort_by_key(|p| p.id);
    Some(Contact {
        key: ContactKey {
            a: i,
            b: Partner::Body(j),
        },
        normal,
        points,
    })
}
