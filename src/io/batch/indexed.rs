//! The answers of a batch of indexed pairs (two shape indices and two world poses each), handed out a range of
//! pairs at a time in world coordinates, so that a caller filling columns block by block never holds a whole
//! batch of world answers (about 200 bytes a pair: on a million pairs, more page faults than the conversion
//! itself). The CPU answers a range when it is asked for; the GPU answers the whole batch first and keeps its
//! answers in the pairs' local frames (48 bytes a pair) until then.

use super::answer::{query_placed, PairAnswer};
use super::exec::Executor;
use super::gpu::{run_indexed_gpu, GpuLocalAnswers, IndexedPair};
use crate::gpu::{GpuContext, GpuTimings};
use crate::query::AnswerKind;
use crate::shape::ConvexShape;
use std::ops::Range;

pub struct IndexedAnswers<'a> {
    shapes: &'a [ConvexShape],
    pairs: &'a [IndexedPair],
    kind: AnswerKind,
    /// The GPU batch's answers; `None` on the CPU.
    gpu: Option<GpuLocalAnswers>,
}

impl<'a> IndexedAnswers<'a> {
    /// The answers of `pairs` (centred shapes, every index valid): on the GPU when `gpu` is given (the batch
    /// runs now, on `exec`'s threads for its host work), else on the CPU as ranges are asked for.
    pub fn new(
        shapes: &'a [ConvexShape],
        pairs: &'a [IndexedPair],
        kind: AnswerKind,
        gpu: Option<&GpuContext>,
        exec: &Executor,
    ) -> anyhow::Result<Self> {
        let gpu = gpu
            .map(|ctx| run_indexed_gpu(ctx, shapes, pairs, kind, exec))
            .transpose()?;
        Ok(Self {
            shapes,
            pairs,
            kind,
            gpu,
        })
    }

    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// What the GPU batch cost (its upload, kernels and readback); `None` on the CPU.
    pub fn gpu_timings(&self) -> Option<&GpuTimings> {
        self.gpu.as_ref().map(|g| &g.timings)
    }

    /// The answers of pairs `range`, in order, appended to `out`.
    pub fn answer_range(&self, range: Range<usize>, out: &mut Vec<PairAnswer>) {
        let pairs = &self.pairs[range.clone()];
        match &self.gpu {
            Some(local) => out.extend(range.zip(pairs).map(|(k, pair)| local.world(k, pair))),
            None => out.extend(
                pairs
                    .iter()
                    .map(|p| query_indexed(self.shapes, p, self.kind)),
            ),
        }
    }
}

/// [`query_placed`] on a pair that indexes `shapes` (the columnar readers' pairs), on the CPU.
pub fn query_indexed(shapes: &[ConvexShape], pair: &IndexedPair, kind: AnswerKind) -> PairAnswer {
    query_placed(
        (&shapes[pair.a as usize], &pair.a_pose),
        (&shapes[pair.b as usize], &pair.b_pose),
        kind,
    )
}
