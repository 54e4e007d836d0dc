//! The contacts of one step: candidate pairs from the grid broad phase, each answered with its contact
//! manifold ([`crate::manifold`]), and each body against the floor and walls ([`super::planes`]).

use super::body::RigidBody;
use super::planes::{plane_contact, Plane};
use crate::broad_phase::{grid_pairs, world_aabb};
use crate::instance::Instance;
use crate::manifold::manifold;
use crate::query::{PairInput, Precision, QueryOptions};
use crate::shape::ConvexShape;
use crate::PenetrationStatus;
use glam::Vec3;
use rayon::prelude::*;

/// What body A of a contact touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Partner {
    /// Another body (index).
    Body(u32),
    /// A static plane of the world (index into its planes).
    Plane(u32),
}

/// Which contact this is, from step to step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ContactKey {
    pub a: u32,
    pub b: Partner,
}

/// One contact point as the solver sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolverPoint {
    /// World position (halfway between the two surfaces).
    pub position: Vec3,
    /// Overlap along the normal (negative: a gap).
    pub depth: f32,
    /// Which features touch: `FeatureId::packed` for a body pair, the core point's index against a plane.
    pub id: u64,
    /// Accumulated impulses, carried from the last step when the same point touches again.
    pub normal_impulse: f32,
    pub tangent_impulse: [f32; 2],
    /// Set by the solver's preparation: offsets from the centres of mass, effective masses, target speed.
    pub(super) r_a: Vec3,
    pub(super) r_b: Vec3,
    pub(super) normal_mass: f32,
    pub(super) tangent_mass: [f32; 2],
    pub(super) target_speed: f32,
    /// The separating speed the position pass asks for (split impulses), and its accumulated impulse.
    pub(super) push_speed: f32,
    pub(super) push_impulse: f32,
}

impl SolverPoint {
    pub fn new(position: Vec3, depth: f32, id: u64) -> Self {
        Self {
            position,
            depth,
            id,
            normal_impulse: 0.0,
            tangent_impulse: [0.0; 2],
            r_a: Vec3::ZERO,
            r_b: Vec3::ZERO,
            normal_mass: 0.0,
            tangent_mass: [0.0; 2],
            target_speed: 0.0,
            push_speed: 0.0,
            push_impulse: 0.0,
        }
    }
}

/// A body touching another body or a plane: one normal (from A towards B) and up to four points.
#[derive(Clone, Debug, PartialEq)]
pub struct Contact {
    pub key: ContactKey,
    pub normal: Vec3,
    pub points: Vec<SolverPoint>,
}

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
        .map(|b| {
            let instance = Instance {
                shape: b.shape,
                pose: b.pose,
            };
            world_aabb(&shapes[b.shape as usize], &instance)
        })
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
fn pair_contact(shapes: &[ConvexShape], bodies: &[RigidBody], i: u32, j: u32) -> Option<Contact> {
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
