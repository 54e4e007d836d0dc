//! A hook that lets a caller watch EPA expand (the inspector, `gpu-gjk inspect --trace`), at no cost when
//! nobody watches: the tracer is a generic parameter and `NoTrace`'s empty method is inlined away. Like
//! GJK's hook ([`crate::gjk::trace`]) it hands out only what the loop already holds.

use super::polytope::{Face, Polytope};
use crate::gjk::{GjkTracer, NoTrace, PairQuery};
use crate::real::Real;

/// EPA's state at the top of one expansion, in the pair-local frame and normalised units: the polytope, its
/// face nearest the origin, and the support point along that face's normal (which either lies within the
/// tolerance of the face, and EPA stops, or becomes the polytope's next vertex).
pub(crate) struct EpaStep<'a, 'q, R: Real> {
    pub query: &'a PairQuery<'q, R>,
    /// Expansions made so far in this try.
    pub iteration: u32,
    pub polytope: &'a Polytope<R>,
    pub closest: &'a Face<R>,
    pub support_a: R::V,
    pub support_b: R::V,
}

/// Watches EPA. The method has an empty default.
pub(crate) trait EpaTracer<R: Real> {
    #[inline(always)]
    fn epa_step(&mut self, _step: &EpaStep<'_, '_, R>) {}
}

impl<R: Real> EpaTracer<R> for NoTrace {}

/// A tracer for a whole pair query: GJK and EPA, in float32 and in the float64 repeat.
pub(crate) trait PairTracer:
    GjkTracer<f32> + EpaTracer<f32> + GjkTracer<f64> + EpaTracer<f64>
{
}

impl<T: GjkTracer<f32> + EpaTracer<f32> + GjkTracer<f64> + EpaTracer<f64>> PairTracer for T {}
