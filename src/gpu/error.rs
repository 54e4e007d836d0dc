//! The GPU path's error type, below every file of `gpu` that can fail.

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
    /// One pair's own data (its two instances and hulls) exceeds what the device can bind, so no split of the
    /// batch can run it.
    #[error("pair {pair}: its {what} needs {bytes} bytes, more than the device can bind ({limit} bytes)")]
    PairTooLarge {
        pair: usize,
        what: &'static str,
        bytes: u64,
        limit: u64,
    },
    /// A kernel does not take this shape (the GPU contact pass takes solid hulls without radius whose faces fit
    /// its bounds).
    #[error("shape {shape}: {reason}")]
    UnsupportedShape { shape: usize, reason: String },
    /// The packed shapes exceed what one binding of the device holds.
    #[error(
        "the shapes' {what} need {bytes} bytes, more than the device can bind ({limit} bytes)"
    )]
    ShapesTooLarge {
        what: &'static str,
        bytes: u64,
        limit: u64,
    },
    /// Mapping results back failed.
    #[error("reading results back from the GPU failed: {0}")]
    Readback(String),
    /// A physics world the GPU solver cannot run (a bad index, a non-finite number, settings out of range).
    #[error("invalid physics world: {0}")]
    BadWorld(String),
}
