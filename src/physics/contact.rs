//! What a contact is to the solver: which bodies (or body and plane) touch, the normal, and the points with
//! their accumulated impulses.

use glam::Vec3;

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
