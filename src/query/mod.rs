//! One pair of placed shapes, answered: the layer that composes the algorithms.
//!
//! It centres the pair (the shapes' centres added to B's pose relative to A once the positions have
//! cancelled), normalises it by a power of two (`pair_unit`), runs GJK and, for penetration, EPA and the
//! certificate, repeats in float64 what float32 cannot finish, and moves the answer back to A's local frame (or
//! the world, [`WorldResult`]). The GPU kernels are the twins of this layer for many pairs at once.

pub mod advanced;
mod closed_form;
mod distance;
mod frame;
mod front_door;
mod kind;
mod penetration;
mod point_pair;
mod solve;
pub mod trace;
mod units;
mod warm_start;
mod world;

pub use front_door::{distance, intersects, penetration, PairInput, Precision, QueryOptions};
pub use kind::AnswerKind;
pub use trace::{PairTrace, RunTrace};
pub use warm_start::WarmStart;
pub use world::{WorldPenetration, WorldResult};

// The layers below the front door, for the rest of the library (the CPU batch, the GPU kernels' twins, the
// validation) and for the programs.
pub(crate) use distance::query_relative;
pub(crate) use front_door::penetration_in_a;
pub(crate) use kind::answer_relative;
pub(crate) use penetration::penetration_relative;
#[cfg(test)]
pub(crate) use trace::trace_query;
pub(crate) use units::{
    F32_EXPONENT_BIAS, F32_MANTISSA_BITS, UNIT_MAX_EXPONENT, UNIT_OFFSET_EXPONENTS,
};
