//! One pair of placed shapes, answered: the layer that composes the algorithms.
//!
//! It centres the pair (the shapes' centres folded into B's pose relative to A), normalises it by a power of
//! two ([`pair_unit`]), runs GJK and, for penetration, EPA and the certificate, repeats in float64 what float32
//! cannot finish, and moves the answer back to A's local frame (or the world, [`WorldResult`]). The GPU
//! kernels are the twins of this layer for many pairs at once.

mod closed_form;
mod distance;
mod frame;
mod kind;
mod penetration;
mod point_pair;
mod solve;
pub mod trace;
mod units;
mod warm_start;
mod world;

pub use closed_form::{closed_form, closest_points_of_segments};
pub use distance::{distance, query, query_bare, query_f64, query_relative, query_relative_traced};
pub use frame::{narrow_penetration, narrow_result, Prepared, Wide};
pub use kind::{answer_relative, answer_relative_bare, AnswerKind, KindAnswer};
pub use penetration::{
    penetration_f64, penetration_query, penetration_relative, penetration_relative_float32,
    penetration_relative_traced,
};
pub use solve::{
    answer, answer_bare, answer_traced, penetration, penetration_certified, penetration_traced,
};
pub use trace::{trace_penetration, trace_query, PairRecorder, PairTrace};
pub use units::{
    pair_unit, F32_EXPONENT_BIAS, F32_MANTISSA_BITS, UNIT_MAX_EXPONENT, UNIT_OFFSET_EXPONENTS,
};
pub use warm_start::WarmStart;
pub use world::{WorldPenetration, WorldResult};
