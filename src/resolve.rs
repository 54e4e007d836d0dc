//! Answering again on the CPU the pairs the GPU could not answer.
//!
//! A GPU answer with a failure status (`is_failure()`: GJK or EPA ran out of a bound, float32 rounding left
//! the pair unresolved, or the adapter cut a loop of the kernel short) is no answer. The CPU reference
//! answers those pairs again, repeating float32 failures in float64, which the GPU cannot; on the random mix
//! that is a few pairs per million, on big hulls over a software adapter many more. Every command that
//! promises answers (`query --backend gpu`, the demo's colours) calls these; `bench` reports the failures
//! as they came back and how many the CPU answered.

use crate::batch::{penetration_pair, query_pair};
use crate::gjk::{GjkConfig, QueryKind};
use crate::gpu::{GpuBatch, GpuPenetrationBatch};
use crate::instance::Instance;
use crate::shape::ConvexShape;

impl GpuBatch {
    /// Answers again, on the CPU, every pair whose GPU result carries a failure status; returns how many,
    /// also added to `resolved_on_cpu`. `shapes`, `instances`, `pairs` and `kind` must be those of the batch.
    pub fn resolve_failures_on_cpu(
        &mut self,
        shapes: &[ConvexShape],
        instances: &[Instance],
        pairs: &[[u32; 2]],
        kind: QueryKind,
        config: &GjkConfig,
    ) -> usize {
        let mut resolved = 0;
        for (result, pair) in self.results.iter_mut().zip(pairs) {
            if result.status.is_failure() {
                *result = query_pair(shapes, instances, *pair, kind, config);
                resolved += 1;
            }
        }
        self.resolved_on_cpu += resolved;
        resolved
    }
}

impl GpuPenetrationBatch {
    /// Answers again, on the CPU, every pair whose GPU answer carries a failure status (its GJK answer is
    /// replaced too); returns how many, also added to `resolved_on_cpu`. `shapes`, `instances` and `pairs`
    /// must be those of the batch.
    pub fn resolve_failures_on_cpu(
        &mut self,
        shapes: &[ConvexShape],
        instances: &[Instance],
        pairs: &[[u32; 2]],
        config: &GjkConfig,
    ) -> usize {
        let mut resolved = 0;
        for (k, pair) in pairs.iter().enumerate() {
            let Some(answer) = self.penetrations.get_mut(k) else {
                break;
            };
            if !answer.status.is_failure() && !self.results[k].status.is_failure() {
                continue;
            }
            let (result, penetration) = penetration_pair(shapes, instances, *pair, config);
            *answer = penetration;
            self.results[k] = result;
            resolved += 1;
        }
        self.resolved_on_cpu += resolved;
        resolved
    }
}
