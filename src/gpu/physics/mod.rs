//! Rigid-body physics on the GPU: the twin of [`crate::physics`] for scenes whose bodies live on the device.
//! Bodies ([`layout::GpuPhysicsBody`]) and the contact of each broad-phase pair slot
//! ([`layout::GpuPhysicsContact`]) stay in device buffers from step to step; [`GpuSolver`] steps them
//! (`docs/physics.md`, "On the GPU", has the passes and what differs from the CPU solver).

#[cfg(test)]
mod kernel_tests;
mod kernels;
pub mod layout;
mod records;
mod scene;
mod solver;
mod stats;
mod step;

pub use solver::GpuSolver;
pub use stats::GpuStepStats;
