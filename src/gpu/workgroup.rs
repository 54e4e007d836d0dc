//! The workgroup size every kernel is dispatched in, below the files that split, dispatch and emit it.

/// Invocations per workgroup, emitted into the WGSL as `WORKGROUP_SIZE`. 64 is a multiple of every vendor's
/// SIMD width (32 or 64) and small enough that a pair's long GJK run holds back few neighbours.
pub(crate) const WORKGROUP_SIZE: u32 = 64;
