//! The numbers the manifold kernel shares with Rust (`shaders/manifold.wgsl`): emitted into the WGSL by
//! src/gpu/shader/constants.rs, in a file of their own so that the emitter depends on them and not on the runner.

/// Most points the kernel's clipped polygon holds (`MANIFOLD_MAX_POLYGON` in the WGSL); a pair that needs more
/// is answered on the CPU ([`super::ManifoldSource::CpuPolygonBound`]).
pub const MAX_POLYGON: usize = 32;

/// Invocations per workgroup (`WORKGROUP_SIZE_MANIFOLD`, the kernel's `@workgroup_size`): small, as a software
/// adapter's loop budget is shared by a group.
pub(crate) const MANIFOLD_WORKGROUP_SIZE: u32 = 8;

/// Status words of `ManifoldResult.info.x` (emitted into the WGSL by src/gpu/shader/constants.rs).
pub(crate) const MANIFOLD_ANSWERED: u32 = 0;
pub(crate) const MANIFOLD_GPU_LOOP_LIMIT: u32 = 1;
pub(crate) const MANIFOLD_POLYGON_BOUND: u32 = 2;
