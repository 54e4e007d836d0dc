//! Splitting a batch into dispatches: by the device's limits (storage binding and buffer sizes, workgroups per
//! dimension) and by estimated work, so that no dispatch runs long enough to trip a driver watchdog.

use super::layout::{padded_len, PAIR_STRIDE, RESULT_STRIDE};
use super::WORKGROUP_SIZE;
use crate::instance::{Instance, Pair};

/// How many pairs one dispatch may hold. Derived from the device limits; tests shrink it to exercise
/// chunking on small batches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkLimits {
    pub max_pairs_per_chunk: u32,
    /// Most estimated support-scan work (points visited, see [`pair_work`]) per dispatch. Real GPUs reset a
    /// dispatch that runs for seconds (Windows' watchdog allows about 2 s); at 2^31 visits a dispatch stays in
    /// the milliseconds on any discrete GPU, and batches of small hulls never reach it.
    pub max_work_per_chunk: u64,
}

/// [`ChunkLimits::max_work_per_chunk`] unless a caller asks otherwise.
pub const DEFAULT_MAX_WORK_PER_CHUNK: u64 = 1 << 31;

/// Support scans a GJK query typically makes per hull (the random mix needs 3 to 15 iterations).
const SCANS_PER_PAIR: u64 = 16;

/// The estimated work of one pair: points scanned per support call on both hulls, times the scans.
pub fn pair_work(points_a: u32, points_b: u32) -> u64 {
    (padded_len(points_a as usize) + padded_len(points_b as usize)) as u64 * SCANS_PER_PAIR
}

/// Consecutive ranges of `pairs` with at most `max_pairs` pairs and at most `max_work` estimated work each
/// (a single pair over the work bound gets a range of its own).
pub fn chunk_ranges(
    pairs: &[Pair],
    instances: &[Instance],
    hull_points: &[u32],
    limits: ChunkLimits,
) -> Vec<std::ops::Range<usize>> {
    let points = |i: u32| hull_points[instances[i as usize].shape as usize];
    chunk_ranges_by(
        pairs.len(),
        limits.max_pairs_per_chunk as usize,
        limits.max_work_per_chunk,
        |k| pair_work(points(pairs[k][0]), points(pairs[k][1])),
    )
}

/// [`chunk_ranges`] over `count` pairs whose estimated work is `work(k)`.
pub(crate) fn chunk_ranges_by(
    count: usize,
    max_pairs: usize,
    max_work: u64,
    work: impl Fn(usize) -> u64,
) -> Vec<std::ops::Range<usize>> {
    let max_pairs = max_pairs.max(1);
    let mut ranges = Vec::with_capacity(count / max_pairs + 1);
    let mut start = 0;
    let mut total = 0u64;
    for k in 0..count {
        let w = work(k);
        if k > start && (k - start == max_pairs || total + w > max_work) {
            ranges.push(start..k);
            start = k;
            total = 0;
        }
        total += w;
    }
    if start < count {
        ranges.push(start..count);
    }
    ranges
}

impl ChunkLimits {
    /// The largest chunk whose pairs and results each fit one storage binding and one buffer, and whose
    /// workgroups fit one dispatch dimension; a multiple of the workgroup size.
    pub fn from_device(limits: &wgpu::Limits) -> Self {
        let binding = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        let by_results = binding / RESULT_STRIDE;
        let by_pairs = binding / PAIR_STRIDE;
        let by_groups = limits.max_compute_workgroups_per_dimension as u64 * WORKGROUP_SIZE as u64;
        let max = by_results.min(by_pairs).min(by_groups).min(u32::MAX as u64) as u32;
        Self {
            max_pairs_per_chunk: (max / WORKGROUP_SIZE * WORKGROUP_SIZE).max(WORKGROUP_SIZE),
            max_work_per_chunk: DEFAULT_MAX_WORK_PER_CHUNK,
        }
    }
}
