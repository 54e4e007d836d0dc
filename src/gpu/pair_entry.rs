//! One pair as the device hands it to the host for the CPU check: the failure list's entries and the device-drawn
//! sample's share this layout, so a pair comes back with everything the check needs, its answer and the poses
//! the GPU answered it on, and no second readback fetches them. Apart from the pipelines so that the shader
//! constants can name its size without depending on them.

use super::layout::{GpuInstance, GpuResult};
use crate::pose::Pose;
use glam::{Quat, Vec3};

/// Words of one entry: the pair's two instance indices, two zero words, its 12-word record ([`GpuResult`]), and
/// the two instances' records (8 words each, [`GpuInstance`]).
pub const PAIR_ENTRY_WORDS: u32 = 32;

/// Bytes of one entry.
pub const PAIR_ENTRY_BYTES: u64 = PAIR_ENTRY_WORDS as u64 * 4;

/// One entry read back.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairEntry {
    /// The pair's instance indices.
    pub pair: [u32; 2],
    pub record: GpuResult,
    /// The two bodies' poses as the GPU held them when it answered the pair.
    pub poses: [Pose; 2],
}

impl PairEntry {
    /// Reads one entry from its [`PAIR_ENTRY_WORDS`] words.
    pub fn from_words(words: &[u32]) -> Self {
        let cast = |range: std::ops::Range<usize>| bytemuck::cast_slice::<u32, u8>(&words[range]);
        Self {
            pair: [words[0], words[1]],
            record: bytemuck::pod_read_unaligned(cast(4..16)),
            poses: [pose_of(cast(16..24)), pose_of(cast(24..32))],
        }
    }
}

/// Every whole entry in `words`, in order.
pub fn entries(words: &[u32]) -> Vec<PairEntry> {
    words
        .chunks_exact(PAIR_ENTRY_WORDS as usize)
        .map(PairEntry::from_words)
        .collect()
}

/// The pose of an instance record's bytes.
fn pose_of(bytes: &[u8]) -> Pose {
    let instance: GpuInstance = bytemuck::pod_read_unaligned(bytes);
    Pose::new(
        Vec3::from_array(instance.position),
        Quat::from_array(instance.rotation),
    )
}
