//! Rigid-body physics on the GPU: the twin of [`crate::physics`] for scenes whose bodies live on the device.
//! Bodies ([`layout::GpuPhysicsBody`]) and the contact of each broad-phase pair slot
//! ([`layout::GpuPhysicsContact`]) stay in device buffers from step to step; `docs/physics.md` has the model.
//! [`contacts`] writes each pair slot's contact from the bodies on the device.

pub mod contacts;
pub mod layout;
