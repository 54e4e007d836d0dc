//! What a frame keeps of the picked body's pairs when the GPU listed them ([`super::picked_pairs`]), and where a
//! body's pairs came from.

use crate::gjk::GjkResult;
use serde::Serialize;

/// Where a frame's pairs of a body came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PairsSource {
    /// Listed on the GPU from the pair buffer (a frame fed on the device).
    Gpu,
    /// The frame's pairs, read back whole.
    Host,
}

/// The picked body's pairs as the GPU listed them.
#[derive(Clone, Debug, PartialEq)]
pub struct PickedPairs {
    pub body: u32,
    /// Its candidate pairs, `[i, j]` with `i < j` as the broad phase writes them, sorted.
    pub pairs: Vec<[u32; 2]>,
    /// Its pairs the list had no room for: counted, not listed.
    pub not_listed: u32,
    /// The GPU's answers to `pairs`, in their order, on the poses the frame was answered on (a batch of these
    /// pairs alone on the instances resident on the device).
    pub gpu_answers: Vec<GjkResult<f32>>,
}
