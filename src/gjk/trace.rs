//! A hook that lets a caller watch GJK iterate (the inspector, `gpu-gjk inspect --trace`) and costs nothing
//! when nobody watches: `gjk_with_simplex_traced` takes the tracer as a
//! generic parameter, and `NoTrace`'s empty methods are inlined away, so the untraced entry points compile to
//! the same loop as before the hook existed.
//!
//! The hook only hands out what the loop already holds (references and copies); anything derived (the new
//! support point, the bounds in the user's units) is the tracer's work. It has no WGSL twin: the GPU is never
//! traced, its answer is compared with the CPU's instead.

use super::config::GjkStatus;
use super::pair::PairQuery;
use super::simplex::Simplex;
use crate::real::Real;

/// GJK's state after one iteration, in the pair-local frame and normalised units.
pub(crate) struct GjkStep<'a, 'q, R: Real> {
    /// The pair (its support mappings give the support point along `direction` again, bit for bit).
    pub query: &'a PairQuery<'q, R>,
    /// 0 for the start (the first support point), then the answer's iteration count at that step.
    pub iteration: u32,
    /// The direction searched in this iteration (`-v` of the previous one); `None` for the start.
    pub direction: Option<R::V>,
    /// The simplex after the reduction (or as it was, when the step stopped the search).
    pub simplex: &'a Simplex<R>,
    /// `v`, the simplex's point nearest the origin, and its squared length: the upper bound on the core
    /// distance.
    pub closest: R::V,
    pub closest2: R,
    /// The square of the best lower bound on the core distance so far.
    pub lower2: R,
}

/// Watches GJK. Every method has an empty default.
pub(crate) trait GjkTracer<R: Real> {
    /// After the start and after every iteration.
    #[inline(always)]
    fn gjk_step(&mut self, _step: &GjkStep<'_, '_, R>) {}
    /// Once, with the answer's status, distance (normalised units) and iteration count, before it is
    /// returned.
    #[inline(always)]
    fn gjk_answer(&mut self, _status: GjkStatus, _distance: R, _iterations: u32) {}
}

/// The tracer that records nothing: what every untraced entry point passes.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct NoTrace;

impl<R: Real> GjkTracer<R> for NoTrace {}

const _: () = assert!(std::mem::size_of::<NoTrace>() == 0);
