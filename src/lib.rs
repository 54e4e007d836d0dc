//! gpu-gjk: batch convex collision queries (intersection, distance, penetration depth) on the GPU, with a
//! trusted CPU reference.
//!
//! The library's layers, lowest first; each module uses only the ones before it (`tests/architecture/` checks
//! this, and that no modules and no files use each other in a cycle):
//!
//! 1. [`real`], [`pose`], [`error`]: scalars (f32 and f64 through one trait), poses, the error type.
//! 2. [`shape`]: convex shapes (points about their centre plus a radius) and their support functions.
//! 3. [`instance`]: what every batch shares, CPU or GPU: instances (shape index + pose) and pairs.
//! 4. [`gjk`], then [`epa`]: the algorithms, on a [`gjk::PairQuery`] in normalised units. Beside them, the
//!    helpers that need only shapes and instances: [`broad_phase`], [`mesh_gen`], and with the `scenario`
//!    feature `scenario` (seeded random scenes).
//! 5. [`query`]: one pair of placed shapes answered (centring, units, GJK then EPA, certificates, the float64
//!    repeat, world coordinates).
//! 6. [`batch`] (many pairs on the CPU) and [`gpu`] (many pairs on the GPU, the WGSL twins of layers 2 to 5).
//! 7. [`resolve`] (the GPU's named failures answered again on the CPU) and [`validate`] (GPU against CPU).
//! 8. With the `io` feature, `io`: batches in and answers out (JSON Lines, Arrow IPC and Parquet tables) and
//!    the drivers that answer them on the CPU or the GPU, shared by the command line and the Python module.
//! 9. The programs, behind cargo features: `bench` and `cli` (feature `cli`), `stress` and `app` (feature
//!    `app`). `cargo build --lib --no-default-features` builds the library without any of them.

pub mod batch;
pub mod broad_phase;
pub mod epa;
pub mod error;
pub mod gjk;
pub mod gpu;
pub mod instance;
pub mod mesh_gen;
pub mod pose;
pub mod query;
pub mod real;
pub mod resolve;
pub mod shape;
pub mod validate;

#[cfg(feature = "scenario")]
pub mod scenario;

pub use epa::PenetrationStatus;

#[cfg(feature = "io")]
pub mod io;
pub use error::GjkError;
pub use gjk::{GjkConfig, GjkResult, GjkStatus, QueryKind};
pub use instance::{Instance, Pair};
pub use pose::{CentredPose, DPose, Pose, RelativePose};
pub use query::{
    distance, intersects, penetration, PairInput, Precision, QueryOptions, WorldPenetration,
    WorldResult,
};
pub use shape::ConvexShape;

/// The README's Rust examples, compiled and run as doctests so they cannot rot.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
