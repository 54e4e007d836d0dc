//! The GPU solver's own records, twins of `shaders/shared/physics_solver.wgsl` (keep the two in sync; the
//! kernels' naga test checks the sizes): the step's parameters, each body's motion while the solver runs, the
//! solver's state of a pair slot and of a body against a plane, and the constants the kernels share with Rust.

use crate::physics::World;

/// Words per body in the fixed-point sums: velocity change (3), angular velocity change (3), the body's
/// body-pair contact count, its wake mark.
pub(super) const TALLY_WORDS: u32 = 8;
/// The tally word that counts a body's body-pair contacts.
pub(super) const TALLY_COUNT: u32 = 6;
/// The tally word a moving body sets on a sleeper it touches.
pub(super) const TALLY_WAKE: u32 = 7;
/// Fixed-point units per metre per second (and radian per second): 2^18, a resolution of 3.8e-6 m/s.
pub(super) const FIXED_SCALE: f32 = 262_144.0;
/// The largest velocity change one contact adds to a body's sums (m/s): 2^31 / FIXED_SCALE / 32, so that 32
/// such terms cannot wrap the i32 sum.
pub(super) const FIXED_LIMIT: f32 = 256.0;
/// Most points a body keeps against one plane, as the CPU does.
pub(super) const MAX_PLANE_POINTS: u32 = 4;

/// The step's parameters (`SolverParams` in the WGSL), 64 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub(super) struct SolverParams {
    pub gravity: [f32; 3],
    pub dt: f32,
    pub baumgarte: f32,
    pub slop: f32,
    pub restitution: f32,
    pub restitution_threshold: f32,
    pub friction: f32,
    pub sleep_speed: f32,
    pub sleep_time: f32,
    pub warm_start: u32,
    pub body_count: u32,
    pub plane_count: u32,
    pub shapes_at: u32,
    pub points_at: u32,
}

impl SolverParams {
    /// The parameters of `world`, whose scene buffer holds its shapes from `shapes_at` and their points from
    /// `points_at`.
    pub fn of(world: &World, shapes_at: u32, points_at: u32) -> Self {
        let s = &world.settings;
        Self {
            gravity: world.gravity.to_array(),
            dt: world.dt,
            baumgarte: s.baumgarte,
            slop: s.slop,
            restitution: s.restitution,
            restitution_threshold: s.restitution_threshold,
            friction: s.friction,
            sleep_speed: s.sleep_speed,
            sleep_time: s.sleep_time,
            warm_start: u32::from(s.warm_start),
            body_count: world.bodies.len() as u32,
            plane_count: world.planes.len() as u32,
            shapes_at,
            points_at,
        }
    }
}

/// The pair slots a step's contact buffer holds (`SlotLimit` in the WGSL), 16 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub(super) struct SlotLimit {
    pub capacity: u32,
    pub _pad: [u32; 3],
}

/// Bytes of one body's motion (`Motion` in the WGSL: five vec4 and a mat3x3 of three vec4 columns).
pub(super) const MOTION_BYTES: u64 = 128;
/// Bytes of one pair slot's solver state (`SolverManifold`: four header vec4 and four 64-byte points).
pub(super) const MANIFOLD_BYTES: u64 = 320;
/// Bytes of one body's contact with one plane (`PlaneContact`: three header vec4 and four 32-byte points).
pub(super) const PLANE_CONTACT_BYTES: u64 = 176;
/// Bytes of the step's statistics: contacts, points, bodies asleep, kinetic energy, contacts rejected, points
/// warm-started, 2 unused.
pub(super) const STATS_BYTES: u64 = 32;
/// Bytes of the saved slot count: the count and its indirect dispatch.
pub(super) const SAVED_BYTES: u64 = 16;
