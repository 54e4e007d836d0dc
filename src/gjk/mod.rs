//! The CPU reference GJK: intersection test with early exit, distance with witness points, and (EPA)
//! penetration depth with contact normal and points.

mod config;
mod epa;
mod query;
mod signed_volumes;
mod simplex;
mod solver;
mod support;

pub use config::{
    pair_scale, pair_unit, GjkConfig, GjkStatus, QueryKind, CONVERGENCE_ULPS,
    DEFAULT_MAX_ITERATIONS, DEFAULT_TOUCH_TOLERANCE,
};
pub use epa::{
    penetration, EpaLimits, Penetration, PenetrationStatus, EPA_MAX_FACES, EPA_MAX_HORIZON,
    EPA_MAX_ITERATIONS, EPA_MAX_VERTICES, EPA_TOLERANCE,
};
pub use query::{
    distance, penetration_f64, penetration_query, penetration_relative,
    penetration_relative_float32, query, query_f64, query_relative, WorldPenetration, WorldResult,
};
pub use signed_volumes::{s1d, s2d, s2d_plane, s3d, Projection, WEIGHT_SLACK_ULPS};
pub use simplex::Simplex;
pub use solver::{gjk, gjk_with_simplex, GjkResult, CERTIFICATE_ULPS, MAX_STALLS, NOISE_ULPS};
pub use support::{support_index, support_point, PairSupport};
