//! The GJK algorithm (Gilbert, Johnson and Keerthi, with the signed-volumes sub-algorithm): the simplex, its
//! closest point to the origin, and the bounded-iteration loop, on a [`PairQuery`] in normalised units.
//!
//! This layer knows nothing of shapes' poses, centres or units, nor of EPA: the [`crate::query`] layer
//! prepares a pair and composes GJK with EPA.

mod config;
mod pair;
mod signed_volumes;
mod simplex;
mod solver;
pub mod trace;

pub use config::{
    pair_scale, GjkConfig, GjkStatus, QueryKind, BOUND_ROUNDING_ULPS, CERTIFICATE_ULPS,
    CONVERGENCE_ULPS, DEFAULT_MAX_ITERATIONS, DEFAULT_TOUCH_TOLERANCE, DIRECTION_ROUNDING_CAP,
    DIRECTION_ROUNDING_ULPS, INTERSECTION_CERTIFICATE_ULPS, LOWER_BOUND_NOISE_FACTOR, MAX_STALLS,
    NOISE_ULPS, PLANE_SLACK_CAP, WEIGHT_SLACK_ULPS,
};
pub use pair::{PairQuery, PairSupport};
pub use signed_volumes::{s1d, s2d, s2d_plane, s3d, Projection};
pub use simplex::Simplex;
pub use solver::{gjk, gjk_bare, gjk_with_simplex, gjk_with_simplex_traced, BareResult, GjkResult};
pub use trace::{GjkStep, GjkTracer, NoTrace};
