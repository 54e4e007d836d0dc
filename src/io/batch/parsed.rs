//! A batch of parsed pairs answered on the CPU: what `bench --io` and the benchmarks time as compute only. On
//! the GPU a JSON Lines batch runs as indexed pairs ([`crate::io::batch::answer_indexed_gpu`]).

use super::answer::{query_pair, PairAnswer};
use super::exec::Executor;
use crate::io::jsonl::PairInput;
use crate::query::AnswerKind;
use std::time::Instant;

/// Answers parsed pairs on the CPU, on `exec`'s threads; returns the answers in order and the time of the
/// batch alone.
pub fn answer_pairs(
    pairs: &[&PairInput],
    kind: AnswerKind,
    exec: &Executor,
) -> (Vec<PairAnswer>, f64) {
    let start = Instant::now();
    let results = exec.map(pairs, |pair| query_pair(pair, kind));
    (results, start.elapsed().as_secs_f64())
}
