//! The CPU twin of the sample a device-fed frame draws on the device (`sample_slot` in
//! `shaders/sample_gather.wgsl`): the same integer hash, so a test or a user can say which slots of the pair
//! buffer a frame checked from the seed, the frame number and the pair count alone.
//!
//! A buffer of no more pairs than the sample is taken whole. Otherwise the buffer is cut into `size` strata of
//! nearly equal length and one slot is drawn from each: the slots are distinct and increasing without any
//! sorting on the device, and every part of the buffer is represented. The buffer's order is the broad phase's
//! (its atomic counter makes it run-dependent), so the draw is reproducible in its slots, not in its pairs.

/// A 32-bit integer hash: PCG's output permutation over one step of its LCG (the twin of `sample_hash`).
pub fn sample_hash(v: u32) -> u32 {
    let state = v.wrapping_mul(747_796_405).wrapping_add(2_891_336_453);
    let word = ((state >> ((state >> 28) + 4)) ^ state).wrapping_mul(277_803_737);
    (word >> 22) ^ word
}

/// The slot of entry `k` of a sample of `size` drawn from `stored` pairs with `seed` on frame `frame`; entries
/// `k < min(size, stored)` exist.
pub fn sample_slot(seed: u64, frame: u64, k: u32, size: u32, stored: u32) -> u32 {
    if stored <= size {
        return k;
    }
    let (base, longer) = (stored / size, stored % size);
    let start = k * base + k.min(longer);
    let width = base + u32::from(k < longer);
    let (seed_lo, seed_hi) = (seed as u32, (seed >> 32) as u32);
    let (frame_lo, frame_hi) = (frame as u32, (frame >> 32) as u32);
    let key =
        sample_hash(seed_lo ^ sample_hash(seed_hi ^ sample_hash(frame_lo ^ sample_hash(frame_hi))));
    start + sample_hash(key ^ k) % width
}

/// Every slot of the sample, in entry order (increasing).
pub fn sample_slots(seed: u64, frame: u64, size: u32, stored: u32) -> Vec<u32> {
    (0..size.min(stored))
        .map(|k| sample_slot(seed, frame, k, size, stored))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_distinct_increasing_and_inside_the_buffer() {
        for (size, stored) in [
            (1, 1),
            (4, 3),
            (64, 64),
            (64, 65),
            (64, 1000),
            (1024, 150_000),
            (7, 1 << 31),
        ] {
            let slots = sample_slots(3, 9, size, stored);
            assert_eq!(slots.len() as u32, size.min(stored));
            assert!(slots.windows(2).all(|w| w[0] < w[1]), "{size} of {stored}");
            assert!(slots.iter().all(|&s| s < stored), "{size} of {stored}");
        }
        assert_eq!(sample_slots(3, 9, 8, 5), vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn the_seed_and_the_frame_change_the_draw() {
        let base = sample_slots(3, 9, 64, 100_000);
        assert_eq!(base, sample_slots(3, 9, 64, 100_000));
        assert_ne!(base, sample_slots(4, 9, 64, 100_000));
        assert_ne!(base, sample_slots(3, 10, 64, 100_000));
        assert_ne!(base, sample_slots(3 | 1 << 40, 9, 64, 100_000));
    }
}
