//! The failure codes of a contact record's status word (`GpuPhysicsContact::bodies[3]`) beside
//! `PHYSICS_CONTACT_NONE` and `PHYSICS_CONTACT_TOUCHING`: the contact pass gave up on the slot's pair, and the
//! record holds no points. The solver skips such a record; whoever runs the pass counts them. Emitted into the WGSL
//! by src/gpu/shader/constants.rs, in a file of their own so that the emitter depends on them and not on the pass.

/// A software adapter's loop budget ran out in the slot's group of invocations (`docs/gpu.md`, loop budgets), so
/// no answer of the kernel can be trusted. Hardware adapters never cut a loop.
pub const PHYSICS_CONTACT_LOOP_LIMIT: u32 = 2;

/// The clipped polygon would exceed [`crate::gpu::manifold::MAX_POLYGON`] points (the kernel's private arrays).
/// Shapes whose faces alone exceed it are refused by `GpuContactPass::new`, so this takes a polygon grown by
/// clipping.
pub const PHYSICS_CONTACT_POLYGON_BOUND: u32 = 3;

/// The slot names a body beyond the body buffer, a body names a shape the pass was not built with, a pose is not
/// finite, or no axis of the separating axis test came out finite.
pub const PHYSICS_CONTACT_INVALID: u32 = 4;
