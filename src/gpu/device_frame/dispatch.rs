//! The CPU twin of `shaders/chunk_dispatch.wgsl`: the indirect dispatch of one chunk of a batch whose pairs stay
//! on the device, from the pair count the broad phase found. Tests predict the kernel's words with it.

/// One chunk's indirect dispatch, as the kernel writes it (four words: `groups`, then `pairs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChunkDispatch {
    /// Workgroups in x, y and z: all zero pairs dispatch `[0, 1, 1]`, nothing.
    pub groups: [u32; 3],
    /// Pairs of the chunk, the bound its kernels check their pair index against.
    pub pairs: u32,
}

/// Words of one chunk's entry in the argument buffer.
pub const DISPATCH_WORDS: u64 = 4;

impl ChunkDispatch {
    /// The entry as the kernel writes it.
    pub fn from_words(words: [u32; 4]) -> Self {
        Self {
            groups: [words[0], words[1], words[2]],
            pairs: words[3],
        }
    }
}

/// The dispatch of the chunk whose first pair is `first`, chunks of `chunk_pairs` pairs, when the broad phase
/// found `found` pairs for a buffer of `capacity`: its pairs are `clamp(stored - first, 0, chunk_pairs)`, one
/// invocation of [`crate::gpu::WORKGROUP_SIZE`] each, the workgroups split into rows of at most `max_groups`
/// when there are more than one dimension takes.
pub fn chunk_dispatch(
    found: u32,
    capacity: u32,
    first: u32,
    chunk_pairs: u32,
    max_groups: u32,
) -> ChunkDispatch {
    let stored = found.min(capacity);
    let pairs = stored.saturating_sub(first).min(chunk_pairs);
    let groups = pairs.div_ceil(crate::gpu::WORKGROUP_SIZE);
    let rows = groups.div_ceil(max_groups.max(1)).max(1);
    ChunkDispatch {
        groups: [groups.div_ceil(rows), rows, 1],
        pairs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::WORKGROUP_SIZE;

    #[test]
    fn a_chunk_takes_what_is_left_of_the_count_up_to_its_size() {
        let chunk = 10 * WORKGROUP_SIZE;
        let at = |found, first| chunk_dispatch(found, u32::MAX, first, chunk, 65_535);
        assert_eq!(at(0, 0).groups, [0, 1, 1]);
        assert_eq!(at(0, 0).pairs, 0);
        assert_eq!(at(1, 0).groups, [1, 1, 1]);
        assert_eq!(at(chunk + 1, 0).pairs, chunk);
        assert_eq!(at(chunk + 1, chunk).pairs, 1);
        assert_eq!(at(chunk, chunk).groups, [0, 1, 1]);
        // The count is bounded by the buffer: an overflowed frame answers the pairs stored.
        assert_eq!(
            chunk_dispatch(5 * chunk, chunk + 3, chunk, chunk, 65_535).pairs,
            3
        );
    }

    #[test]
    fn workgroups_past_one_dimension_go_in_rows_that_cover_every_pair() {
        for max_groups in [1, 2, 3, 7] {
            for pairs in 0..40 * WORKGROUP_SIZE {
                let d = chunk_dispatch(pairs, u32::MAX, 0, u32::MAX, max_groups);
                let [x, y, z] = d.groups;
                assert!(x <= max_groups && y >= 1 && z == 1, "{pairs}: {d:?}");
                let needed = pairs.div_ceil(WORKGROUP_SIZE);
                assert!(x * y >= needed, "{pairs}: {d:?}");
                // No row is wasted: one row fewer would not cover the pairs.
                assert!(x * (y - 1) < needed.max(1), "{pairs}: {d:?}");
            }
        }
    }
}
