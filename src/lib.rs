//! gpu-gjk: do these convex shapes collide, how far apart are they, how deep do they overlap, for one pair on
//! the CPU or for millions of pairs at once on the GPU, with a trusted CPU reference.
//!
//! # One pair: the front door
//!
//! Three calls, each with a [`PairInput`] (two shapes and their world poses) and [`QueryOptions`] (precision,
//! iteration bound and tolerance, warm start, trace): [`distance`], [`intersects`] and [`penetration`].
//!
//! ```
//! use glam::{Quat, Vec3};
//! use gpu_gjk::{distance, penetration, ConvexShape, PairInput, Pose, QueryOptions};
//!
//! let cube = ConvexShape::cuboid(Vec3::ONE)?; // half extents 1
//! let pill = ConvexShape::capsule(1.0, 0.5)?; // segment along Y, radius 0.5
//! let far = Pose::new(Vec3::new(3.0, 0.0, 0.0), Quat::from_rotation_z(0.3));
//! let gap = distance(&PairInput::new(&cube, Pose::IDENTITY, &pill, far), QueryOptions::default());
//! assert!(!gap.intersecting && gap.distance > 0.0);
//!
//! let near = Pose::from_position(Vec3::new(1.2, 0.0, 0.0));
//! let (_, hit) = penetration(&PairInput::new(&cube, Pose::IDENTITY, &pill, near), QueryOptions::default());
//! assert!((hit.depth - 0.3).abs() < 1e-5);
//! # Ok::<(), gpu_gjk::GjkError>(())
//! ```
//!
//! # Many pairs
//!
//! [`batch`] answers many pairs on the CPU (rayon), [`gpu`] on the GPU ([`gpu::NarrowPhase`]), and with the
//! `io` feature `io` reads batches from JSON Lines, Arrow IPC and Parquet and writes their answers.
//!
//! # Layers
//!
//! Lowest first; each module uses only the ones before it (`tests/architecture/` checks this, and that no
//! modules and no files use each other in a cycle):
//!
//! 1. [`real`], [`pose`], [`error`], [`text`]: scalars (f32 and f64 through one trait), poses, the error type,
//!    counts in messages.
//! 2. [`shape`]: convex shapes (points about their centre plus a radius) and their support functions.
//! 3. [`instance`]: what every batch shares, CPU or GPU: instances (shape index + pose) and pairs.
//! 4. [`gjk`], then [`epa`]: the algorithms, on a `PairQuery` in normalised units. Beside them, the
//!    helpers that need only shapes and instances: [`broad_phase`], and with the `scenario` feature
//!    `scenario` (seeded random scenes, the stress scene, the asset meshes).
//! 5. [`query`]: one pair of placed shapes answered (centring, units, GJK then EPA, certificates, the float64
//!    repeat, world coordinates): the front door above, and [`query::advanced`] below it for batch code.
//! 6. [`manifold`](mod@manifold) (where two shapes touch: up to four contact points from EPA's normal),
//!    [`sat`] (the separating axis test between polyhedra, the second algorithm beside GJK and EPA),
//!    [`batch`] (many pairs on the CPU), [`physics`] (rigid bodies over the contact manifolds, on the CPU) and
//!    [`gpu`] (many pairs on the GPU, the WGSL twins of layers 2 to 5, and the physics' contacts).
//! 7. [`resolve`] (the GPU's named failures answered again on the CPU) and [`validate`] (GPU against CPU).
//! 8. With the `io` feature, `io`: batches in and answers out (JSON Lines, Arrow IPC and Parquet tables) and
//!    the drivers that answer them on the CPU or the GPU, shared by the command line and the Python module.
//!
//! The `gpu-gjk` program (commands, the desktop stress test, the benchmark) is a user of this library like any
//! other; its modules are the binary's own. `cargo build --lib --no-default-features` builds the library alone.

pub mod batch;
pub mod broad_phase;
pub mod epa;
pub mod error;
pub mod gjk;
pub mod gpu;
pub mod instance;
pub mod manifold;
pub mod physics;
pub mod pose;
pub mod query;
pub mod real;
pub mod resolve;
pub mod sat;
pub mod shape;
pub mod text;
pub mod validate;

#[cfg(feature = "scenario")]
pub mod scenario;

pub use epa::PenetrationStatus;

#[cfg(feature = "io")]
pub mod io;
pub use error::GjkError;
pub use gjk::{GjkConfig, GjkResult, GjkStatus, QueryKind};
pub use instance::{Instance, Pair};
pub use manifold::{manifold, ContactPoint, FeatureId, Manifold};
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
