//! Every limit a batch is split by, in one struct a test can shrink: the bytes each scene buffer and each
//! chunk's buffers may bind, the pairs and work per dispatch, the chunk size aimed for when streaming, and how
//! many chunks are in flight at once.

use super::chunks::ChunkLimits;

/// The largest binding, in bytes, of each buffer a kernel reads or writes. From the device (its storage
/// binding and buffer size limits, the smaller of the two); tests shrink one at a time to exercise each split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferLimits {
    /// The vertex pool (16 bytes per hull point, each hull padded to a multiple of four points).
    pub vertex_pool: u64,
    /// The hull table (32 bytes per distinct hull).
    pub hull_table: u64,
    /// The instances (32 bytes each).
    pub instances: u64,
    /// One chunk's pairs (8 bytes each).
    pub pairs: u64,
    /// Each of one chunk's outputs (results, penetrations, the EPA queue).
    pub results: u64,
    /// The largest buffer: instances beyond one binding stay on the GPU whole in one buffer this large, and
    /// each run of pairs binds the window of it that they use.
    pub max_buffer: u64,
}

impl BufferLimits {
    pub fn from_device(limits: &wgpu::Limits) -> Self {
        let binding = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        Self {
            vertex_pool: binding,
            hull_table: binding,
            instances: binding,
            pairs: binding,
            results: binding,
            max_buffer: limits.max_buffer_size,
        }
    }

    /// Each limit the smaller of the two.
    pub fn min(self, other: Self) -> Self {
        Self {
            vertex_pool: self.vertex_pool.min(other.vertex_pool),
            hull_table: self.hull_table.min(other.hull_table),
            instances: self.instances.min(other.instances),
            pairs: self.pairs.min(other.pairs),
            results: self.results.min(other.results),
            max_buffer: self.max_buffer.min(other.max_buffer),
        }
    }
}

/// Pairs per chunk aimed for when a batch streams: 2 MB of pairs up and 8 MB of distance records down, a
/// fraction of a millisecond on PCIe 4, so the upload of one chunk, the kernel of the one before and the
/// readback of the one before that overlap, while per-chunk costs (a submission, two mappings) stay small.
pub(crate) const DEFAULT_STREAM_CHUNK: u32 = 1 << 18;

/// Chunks in flight at once: one being filled, one on the GPU, one being read back.
pub(crate) const DEFAULT_RING: usize = 3;

/// Everything a narrow phase splits batches by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuLimits {
    pub buffers: BufferLimits,
    /// Pairs and estimated work per dispatch.
    pub chunk: ChunkLimits,
    /// Pairs per chunk aimed for (`DEFAULT_STREAM_CHUNK`); the device's limits may make chunks smaller.
    pub stream_chunk: u32,
    /// Chunks in flight at once (`DEFAULT_RING`, at least 1).
    pub ring: usize,
}

impl GpuLimits {
    pub fn from_device(limits: &wgpu::Limits) -> Self {
        Self {
            buffers: BufferLimits::from_device(limits),
            chunk: ChunkLimits::from_device(limits),
            stream_chunk: DEFAULT_STREAM_CHUNK,
            ring: DEFAULT_RING,
        }
    }

    /// These limits, never beyond the device's own.
    pub fn capped_by(self, limits: &wgpu::Limits) -> Self {
        let device = Self::from_device(limits);
        Self {
            buffers: self.buffers.min(device.buffers),
            chunk: ChunkLimits {
                max_pairs_per_chunk: self
                    .chunk
                    .max_pairs_per_chunk
                    .min(device.chunk.max_pairs_per_chunk)
                    .max(1),
                max_work_per_chunk: self.chunk.max_work_per_chunk.max(1),
            },
            stream_chunk: self.stream_chunk.max(1),
            ring: self.ring.max(1),
        }
    }
}
