//! gpu-gjk: batch convex collision queries (intersection and distance) with a trusted CPU reference GJK.
//!
//! Shapes are point sets swept by a sphere ([`ConvexShape`]); queries run GJK with the signed-volumes
//! sub-algorithm in the pair-local frame ([`gjk`]); [`batch`] runs many pairs on all cores.

pub mod app;
pub mod batch;
pub mod bench;
pub mod broad_phase;
pub mod cli;
pub mod error;
pub mod gjk;
pub mod gpu;
pub mod mesh_gen;
pub mod pose;
pub mod real;
pub mod resolve;
pub mod scenario;
pub mod shape;
pub mod stress;
pub mod validate;

pub use error::GjkError;
pub use gjk::{GjkConfig, GjkResult, GjkStatus, QueryKind, WorldResult};
pub use pose::{DPose, Pose, RelativePose};
pub use shape::ConvexShape;

/// The README's Rust examples, compiled and run as doctests so they cannot rot.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
