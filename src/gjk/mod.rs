//! The GJK algorithm (Gilbert, Johnson and Keerthi, with the signed-volumes sub-algorithm): the simplex, its
//! closest point to the origin, and the bounded-iteration loop, on a `PairQuery` in normalised units.
//!
//! This layer knows nothing of shapes' poses, centres or units, nor of EPA: the [`crate::query`] layer
//! prepares a pair and composes GJK with EPA.

mod config;
mod pair;
mod signed_volumes;
mod simplex;
mod solver;
pub mod trace;

pub(crate) use config::BOUND_ROUNDING_ULPS;
pub(crate) use config::CERTIFICATE_ULPS;
pub(crate) use config::CONVERGENCE_ULPS;
pub(crate) use config::DIRECTION_ROUNDING_CAP;
pub(crate) use config::DIRECTION_ROUNDING_ULPS;
pub(crate) use config::INTERSECTION_CERTIFICATE_ULPS;
pub(crate) use config::LOWER_BOUND_NOISE_FACTOR;
pub(crate) use config::MAX_STALLS;
pub(crate) use config::NOISE_ULPS;
pub(crate) use config::PLANE_SLACK_CAP;
pub(crate) use config::WEIGHT_SLACK_ULPS;
pub use config::{pair_scale, GjkConfig, GjkStatus, QueryKind};
pub(crate) use pair::PairQuery;
pub(crate) use pair::PairSupport;
pub(crate) use signed_volumes::s2d;
pub(crate) use simplex::Simplex;
pub(crate) use solver::gjk_bare;
pub(crate) use solver::gjk_with_simplex_traced;
pub(crate) use solver::BareResult;
pub use solver::GjkResult;
pub(crate) use trace::GjkStep;
pub(crate) use trace::GjkTracer;
pub(crate) use trace::NoTrace;
