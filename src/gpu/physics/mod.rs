//! Rigid-body physics on the GPU: the twin of [`crate::physics`] for scenes whose bodies live on the device.
//! Bodies ([`layout::GpuPhysicsBody`]) and the contact of each broad-phase pair slot
//! ([`layout::GpuPhysicsContact`]) stay in device buffers from step to step: [`contacts`] writes each pair
//! slot's contact from the bodies on the device, [`GpuSolver`] steps the bodies over them, and [`GpuWorld`]
//! runs the two with the GPU broad phase (`docs/physics.md`, "On the GPU", has the passes and what differs from
//! the CPU solver).

pub mod contacts;
#[cfg(test)]
mod kernel_tests;
mod kernels;
pub mod layout;
mod records;
mod scene;
mod solver;
mod stats;
mod step;
mod world;

pub use contacts::{check_contacts, contact_proxy, ContactCheck, GpuContactPass};
pub use solver::GpuSolver;
pub use stats::GpuStepStats;
pub use world::{sample_slots, GpuWorld, WorldStep, WorldTraffic};
