//! The layout of one lane's words in the EPA scratch buffer (shaders/shared/epa/storage_scratch.wgsl), emitted
//! into the WGSL with the other shared constants.

use crate::epa::{EPA_MAX_FACES, EPA_MAX_HORIZON, EPA_MAX_VERTICES};

/// Where each array starts among a lane's words of the scratch buffer (emitted into storage_scratch.wgsl): per
/// vertex A's support point (3 words), then B's, per face the plane (4 words), then the packed corners (1 word per
/// face), then the horizon's edges (1 each).
pub(crate) const EPA_SCRATCH_VERTEX_A: u32 = 0;
pub(crate) const EPA_SCRATCH_VERTEX_B: u32 = EPA_SCRATCH_VERTEX_A + 3 * EPA_MAX_VERTICES as u32;
pub(crate) const EPA_SCRATCH_PLANES: u32 = EPA_SCRATCH_VERTEX_B + 3 * EPA_MAX_VERTICES as u32;
pub(crate) const EPA_SCRATCH_CORNERS: u32 = EPA_SCRATCH_PLANES + 4 * EPA_MAX_FACES as u32;
pub(crate) const EPA_SCRATCH_HORIZON: u32 = EPA_SCRATCH_CORNERS + EPA_MAX_FACES as u32;
/// Words of the scratch buffer per lane.
pub(crate) const EPA_SCRATCH_WORDS: u32 = EPA_SCRATCH_HORIZON + EPA_MAX_HORIZON as u32;
