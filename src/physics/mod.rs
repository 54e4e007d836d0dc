//! Rigid-body physics on the CPU over the crate's contact manifolds, after Box2D-lite: gravity, a static floor
//! and walls, sequential impulses with accumulated-impulse clamping, Coulomb friction along two tangents per
//! point, restitution above a speed threshold, Baumgarte position correction with slop, and warm starting
//! matched by feature id from one step to the next.
//!
//! - [`body`]: a body's mass, inertia, pose and velocities;
//! - [`planes`]: the static floor and walls and the contacts of a body against them;
//! - [`contact`]: what a contact is to the solver (bodies, normal, points and their impulses);
//! - [`collide`]: the contacts of one step (grid broad phase, [`crate::manifold`] on each candidate pair);
//! - [`solver`]: the sequential-impulse solver over those contacts;
//! - [`world`]: the fixed time step that runs them;
//! - [`scenes`]: the stack and the seeded pile the checks and the physics bench run.
//!
//! ```
//! use glam::Vec3;
//! use gpu_gjk::physics::World;
//! use gpu_gjk::{ConvexShape, Pose};
//!
//! let mut world = World::new(vec![ConvexShape::cuboid(Vec3::splat(0.5))?]);
//! world.enclose(0.0, 10.0); // a floor at y = 0, walls at x, z = -10 and 10
//! for level in 0..3 {
//!     world.add_body(0, Pose::from_position(Vec3::new(0.0, 0.5 + level as f32, 0.0)));
//! }
//! for _ in 0..120 {
//!     world.step(); // 1/60 s
//! }
//! assert!((world.bodies[2].pose.position.y - 2.5).abs() < 0.02); // the stack stands
//! # Ok::<(), gpu_gjk::GjkError>(())
//! ```
//!
//! Everything runs in a fixed order (bodies by index, pairs as the grid sorts them), so a run is the same for
//! the same bodies, bit for bit. `docs/physics.md` has the model, the settings and the tests.

pub mod body;
pub mod collide;
pub mod contact;
pub mod planes;
pub mod scenes;
pub mod solver;
#[cfg(test)]
mod tests;
pub mod world;

pub use body::RigidBody;
pub use contact::{Contact, ContactKey, SolverPoint};
pub use planes::Plane;
pub use solver::SolverSettings;
pub use world::{StepStats, World};
