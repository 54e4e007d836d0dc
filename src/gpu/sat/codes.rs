//! The numbers the separating axis kernel shares with Rust (`shaders/sat.wgsl`, `shaders/shared/polyhedron.wgsl`):
//! emitted into the WGSL by src/gpu/shader/constants.rs, in a file of their own so that the emitter depends on
//! them and not on the runner.

/// Words of a hull's header (`HULL_HEADER_WORDS` in the WGSL).
pub(crate) const HULL_HEADER_WORDS: usize = 16;

/// Status words of `SatResult.info.x` (`shaders/sat.wgsl`; emitted into it by src/gpu/shader/constants.rs).
pub(crate) const SAT_ANSWERED: u32 = 0;
pub(crate) const SAT_GPU_LOOP_LIMIT: u32 = 1;

/// Kinds of the best axis in `SatResult.info.y`.
pub(crate) const AXIS_FACE_A: u32 = 0;
pub(crate) const AXIS_FACE_B: u32 = 1;
pub(crate) const AXIS_EDGES: u32 = 2;

/// Edges whose cross product is shorter than this fraction of their lengths' product are parallel within float32
/// rounding on the GPU: their axis is noise, and their plane is a face's, tested among the faces (the CPU test's
/// threshold is 1e-12; docs/gpu.md says why the GPU's is wider).
pub(crate) const SAT_PARALLEL_SINE: f64 = 1e-4;
