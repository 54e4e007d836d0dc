//! Rigid-body physics on the CPU over the crate's contact manifolds, after Box2D-lite: gravity, a static floor
//! and walls, sequential impulses with accumulated-impulse clamping, Coulomb friction along two tangents per
//! point, restitution above a speed threshold, Baumgarte position correction with slop, and warm starting
//! matched by feature id from one step to the next.
//!
//! - [`body`]: a body's mass, inertia, pose and velocities;
//! - [`planes`]: the static floor and walls and the contacts of a body against them;
//! - [`contact`]: the contacts of one step (grid broad phase, [`crate::manifold`] on each candidate pair);
//! - [`solver`]: the sequential-impulse solver over those contacts;
//! - [`world`]: the fixed time step that runs them.
//!
//! Everything runs in a fixed order (bodies by index, pairs as the grid sorts them), so a run is the same for
//! the same bodies, bit for bit. `docs/physics.md` has the model, the settings and the tests.

pub mod body;
pub mod contact;
pub mod planes;
pub mod solver;
#[cfg(test)]
mod tests;
pub mod world;

pub use body::RigidBody;
pub use contact::{Contact, ContactKey, SolverPoint};
pub use planes::Plane;
pub use solver::SolverSettings;
pub use world::{StepStats, World};
