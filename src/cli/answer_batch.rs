//! A batch of parsed pairs answered on the CPU or the GPU: the step `query` and the Python module share.

use super::answer::{query_pair, query_placed, PairAnswer};
use super::exec::Executor;
use super::parse::PairInput;
use super::query_gpu::{query_indexed_gpu, query_pairs_gpu, IndexedPair};
use crate::gpu::GpuContext;
use crate::query::AnswerKind;
use crate::shape::ConvexShape;
use std::time::Instant;

/// Answers parsed pairs on the CPU (`gpu` = `None`, on `exec`'s threads) or on the GPU (with the kernels
/// `kind` needs), whose failures are answered again on the CPU; returns the answers in order and the time
/// of the batch alone. Both backends give `kind`'s fields. `query` answers JSON Lines batches here.
pub fn answer_pairs(
    pairs: &[&PairInput],
    kind: AnswerKind,
    gpu: Option<&GpuContext>,
    exec: &Executor,
) -> anyhow::Result<(Vec<PairAnswer>, f64)> {
    match gpu {
        None => {
            let start = Instant::now();
            let results = exec.map(pairs, |pair| query_pair(pair, kind));
            Ok((results, start.elapsed().as_secs_f64()))
        }
        Some(ctx) => query_pairs_gpu(ctx, pairs, kind, exec),
    }
}

/// [`answer_pairs`] on pairs that index `shapes` (centred shapes, every index valid), as the columnar
/// readers (files and the Python module) make them: no per-pair shape handles on either backend.
pub fn answer_indexed(
    shapes: &[ConvexShape],
    pairs: &[IndexedPair],
    kind: AnswerKind,
    gpu: Option<&GpuContext>,
    exec: &Executor,
) -> anyhow::Result<(Vec<PairAnswer>, f64)> {
    match gpu {
        None => {
            let start = Instant::now();
            let results = exec.map(pairs, |p| {
                query_placed(
                    (&shapes[p.a as usize], &p.a_pose),
                    (&shapes[p.b as usize], &p.b_pose),
                    kind,
                )
            });
            Ok((results, start.elapsed().as_secs_f64()))
        }
        Some(ctx) => query_indexed_gpu(ctx, shapes, pairs, kind, exec),
    }
}
