//! The GPU batch narrow phase: the WGSL twins of the shape, GJK, EPA and query layers run over uploaded hull
//! buffers, with the device kept apart from the work.
//!
//! [`context`] gets a device; [`shader`] assembles the kernels (constants emitted from Rust, shared WGSL, one
//! kernel per file); [`layout`] holds the Rust twins of the WGSL structs; [`scene`] the buffers every kernel
//! reads; [`chunks`] splits batches; [`runner`] runs any kernel's job chunk by chunk and reads it back;
//! [`narrow_phase`] and [`penetration`] are the GJK and GJK + EPA jobs.

mod buffers;
pub mod chunks;
mod context;
pub mod layout;
mod narrow_phase;
mod penetration;
pub mod runner;
mod scene;
pub mod shader;

pub use chunks::{chunk_ranges, pair_work, ChunkLimits, DEFAULT_MAX_WORK_PER_CHUNK};
pub use context::{
    check_backend_env, list_adapters, log_instance_creation, AdapterSummary, BackendChoice,
    GpuContext,
};
pub use narrow_phase::{GpuBatch, NarrowPhase, WORKGROUP_SIZE};
pub use penetration::GpuPenetrationBatch;
pub use runner::{read_buffer, GpuTimings};

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
    /// Mapping results back failed.
    #[error("reading results back from the GPU failed: {0}")]
    Readback(String),
}
