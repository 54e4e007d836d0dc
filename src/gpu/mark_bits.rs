//! The bits of a body's mark word (see [`super::marks`]), apart from the pass that writes them so that the
//! WGSL constants (`shader::constants`) can emit them without depending on the pass.

/// A pair of this body intersects.
pub const MARK_COLLIDING: u32 = 1;
/// A pair of this body came back with a failure status: its answer is the CPU's to give.
pub(crate) const MARK_UNANSWERED: u32 = 2;
/// The latest CPU check disagreed with the GPU on a pair of this body (written by the host before a batch).
pub const MARK_DISPUTED: u32 = 4;
