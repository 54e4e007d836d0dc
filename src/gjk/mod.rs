//! The CPU reference GJK: intersection test with early exit, and distance with witness points.

mod config;
mod query;
mod signed_volumes;
mod simplex;
mod solver;
mod support;

pub use config::{
    pair_scale, GjkConfig, GjkStatus, QueryKind, CONVERGENCE_ULPS, DEFAULT_MAX_ITERATIONS,
    DEFAULT_TOUCH_TOLERANCE,
};
pub use query::{distance, intersects, query, query_f64, query_relative, WorldResult};
pub use signed_volumes::{s1d, s2d, s3d, Projection};
pub use simplex::Simplex;
pub use solver::{gjk, GjkResult, MAX_STALLS, NOISE_ULPS};
pub use support::{support_index, support_point, PairSupport};
