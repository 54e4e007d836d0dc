//! A batch of parsed pairs answered on the CPU or the GPU: the step `query` and the Python module share.

use super::answer::{query_pair, PairAnswer};
use super::exec::Executor;
use super::parse::PairInput;
use crate::gpu::GpuContext;
use crate::query::AnswerKind;
use std::time::Instant;

/// Answers parsed pairs on the CPU (`gpu` = `None`, on `exec`'s threads) or on the GPU, whose failures are
/// answered again on the CPU; returns the answers in order and the time of the batch alone. The GPU runs its
/// penetration kernels whatever the kind; for the other kinds the penetration answers are dropped, so both
/// backends give the same fields. `query` and the Python module answer their pairs here.
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
        Some(ctx) => {
            let (mut results, time) = super::query_gpu::query_pairs_gpu(ctx, pairs)?;
            if kind != AnswerKind::Penetration {
                results.iter_mut().for_each(|(_, hit)| *hit = None);
            }
            Ok((results, time))
        }
    }
}
