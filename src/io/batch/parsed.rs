//! A batch of parsed pairs answered on the CPU or the GPU: the step `query` and the Python module share.

use super::answer::{query_pair, PairAnswer};
use super::exec::Executor;
use super::gpu::query_pairs_gpu;
use crate::gpu::GpuContext;
use crate::io::jsonl::parse::PairInput;
use crate::query::AnswerKind;
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
