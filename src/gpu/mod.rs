//! The GPU batch narrow phase: the WGSL twins of the shape, GJK, EPA and query layers run over a scene kept on
//! the GPU, with the device kept apart from the work.
//!
//! `context` gets a device (or bring your own); [`shader`] assembles the kernels (constants emitted from Rust,
//! shared WGSL, one kernel per file); [`layout`] holds the Rust twins of the WGSL structs and [`packed`] the
//! compact result records; [`hulls`] packs identical shapes once; `scene` keeps hulls and instances on the
//! device; [`limits`] and [`chunks`] say how batches are split, `groups` how a scene too large for the device
//! goes up in parts; [`runner`] streams any kernel's batch through the ring of `ring`; `narrow_phase` and
//! `penetration` are the GJK and GJK + EPA jobs ([`work`]: the counting GJK kernel's per-pair work and its SIMT
//! proxies; `scan_kernel`: the biggest scans shared by a subgroup's lanes where the device has subgroups);
//! [`marks`] marks each body from its pairs' answers on the GPU, for a renderer to colour from, and
//! [`failure_list`] lists the pairs it could not answer; [`sat`] runs the separating axis test beside GJK;
//! [`body_pairs`] lists one body's pairs where a frame's pairs lie on the device (the demo's picked body).

mod binning;
pub mod body_pairs;
pub mod broad;
pub mod chunks;
mod contacts;
mod context;
mod copy_out;
pub mod device_frame;
mod epa_kernel;
mod epa_scratch;
mod epa_work;
mod error;
pub mod failure_list;
mod groups;
pub mod hulls;
pub mod layout;
pub mod limits;
pub mod manifold;
mod mark_bits;
pub mod marks;
mod narrow_phase;
pub mod packed;
mod pair_entry;
mod pair_kernel;
pub mod pass_times;
mod penetration;
pub mod physics;
mod pipeline;
mod ring;
pub mod runner;
pub mod sat;
mod scan_kernel;
mod scene;
pub mod shader;
mod shader_checks;
#[cfg(feature = "scenario")]
pub mod stress_motion;
pub mod work;
mod workgroup;

pub use chunks::{chunk_ranges, pair_work, ChunkLimits, DEFAULT_MAX_WORK_PER_CHUNK};
pub use context::AdapterSummary;
pub use context::{
    check_backend_env, computing_adapter, list_adapters, log_instance_creation, BackendChoice,
    GpuContext,
};
pub use device_frame::{DevicePairs, FrameReadback, SampleDraw};
pub use epa_kernel::EpaKernel;
pub use epa_work::EpaSteps;
pub use error::GpuError;
pub use failure_list::{FailedPairs, DEFAULT_FAILURE_CAPACITY};
pub use hulls::RawSets;
pub use limits::{BufferLimits, GpuLimits};
pub use marks::BodyMarks;
pub use marks::{MARK_COLLIDING, MARK_DISPUTED};
pub use narrow_phase::Records;
pub use narrow_phase::{GpuBatch, NarrowPhase};
pub use packed::PackedContact;
pub use packed::PenetrationFormat;
pub use packed::ResultFormat;
pub use packed::{PackedDistance, PackedHit};
pub use pair_entry::PairEntry;
pub use penetration::ContactRecords;
pub use penetration::GpuPenetrationBatch;
pub use pipeline::read_buffer;
pub use pipeline::wait;
pub use runner::GpuTimings;
pub use scan_kernel::{ScanKernel, SUBGROUP_SCAN_MIN_POINTS};
pub use shader_checks::{check_shader_checks_env, ShaderChecks, SHADER_CHECKS_ENV};
pub use work::{simt_efficiency, PairWork, WorkSummary, SIMT_WIDTH};
pub(crate) use workgroup::WORKGROUP_SIZE;
