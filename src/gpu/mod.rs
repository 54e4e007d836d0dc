//! The GPU batch narrow phase: WGSL GJK over uploaded hull buffers, with the device kept apart from the work.

mod buffers;
mod context;
pub mod layout;
mod narrow_phase;
pub mod shader;

pub use context::{list_adapters, AdapterSummary, BackendChoice, GpuContext};
pub use narrow_phase::{
    chunk_ranges, pair_work, ChunkLimits, GpuBatch, GpuPenetrationBatch, GpuTimings, NarrowPhase,
    DEFAULT_MAX_WORK_PER_CHUNK, WORKGROUP_SIZE,
};

/// What can go wrong on the GPU path, naming the adapter, buffer or index involved.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No adapter for the requested backends (no GPU and no software rasteriser, or a backend not built).
    #[error("no GPU adapter found for backend '{backends}': {reason}")]
    NoAdapter { backends: String, reason: String },
    /// The adapter refused the device, or the device was lost.
    #[error("GPU device error on {adapter}: {reason}")]
    Device { adapter: String, reason: String },
    /// A batch refers to a hull or instance that does not exist.
    #[error("invalid batch: {0}")]
    BadIndex(String),
    /// A buffer that must be bound whole exceeds the device's limits.
    #[error("{what} needs {bytes} bytes, more than the device can bind ({limit} bytes)")]
    TooLarge {
        what: &'static str,
        bytes: u64,
        limit: u64,
    },
    /// A batch from `submit` is still waiting to be collected.
    #[error("a submitted batch is still in flight: collect it with try_collect first")]
    Busy,
    /// Mapping results back failed.
    #[error("reading results back from the GPU failed: {0}")]
    Readback(String),
}
