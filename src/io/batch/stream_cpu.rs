//! A JSON Lines batch answered on the CPU block by block: each block of lines is parsed, answered and
//! written before the next is read. Measured on the `bench --io` mix: parsing every line, then answering every
//! pair, then writing every answer touched megabytes of fresh memory (a page fault per 4 KiB) and read each
//! back from main memory; a block's lines and answers stay in the caches and their buffers are reused. The
//! answers are the same, in the same order; a read error after the first block leaves the answers of the
//! blocks before it written.
//!
//! On one thread everything runs in turn on the caller's. On more, reading the next block and writing the
//! last one's answers run on threads of their own ([`crate::io::jsonl::read_ahead`], [`WriteBehind`]) while the block
//! between them is parsed and answered on the others: in turn, they left all cores but one idle for about a
//! third of a run.

use super::answer::{query_pair, PairAnswer};
use super::exec::Executor;
use crate::io::answers::lines::AnswerLines;
use crate::io::answers::write_behind::WriteBehind;
use crate::io::jsonl::reader::{for_each_block, input_error, pairs_of, ParsedLine};
use crate::io::jsonl::ShapeCache;
use crate::io::sink::Destination;
use crate::query::AnswerKind;
use anyhow::Context;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;
use std::time::Instant;

/// What a JSON Lines run did, and the seconds it spent answering and writing (with more than one thread,
/// writing is the time spent waiting for the writing thread).
#[derive(Default)]
pub struct Streamed {
    pub lines: usize,
    pub pairs: usize,
    pub failed_lines: usize,
    pub compute_s: f64,
    pub write_s: f64,
}

impl Streamed {
    /// Answers the pairs of one block of parsed lines into `results` (emptied first) on `exec`'s threads,
    /// counting the block and timing the answering.
    fn answer_block(
        &mut self,
        block: &[ParsedLine],
        results: &mut Vec<PairAnswer>,
        kind: AnswerKind,
        exec: &Executor,
    ) {
        let start = Instant::now();
        let valid = pairs_of(block);
        results.clear();
        exec.map_into(&valid, |pair| query_pair(pair, kind), results);
        self.compute_s += start.elapsed().as_secs_f64();
        self.lines += block.len();
        self.pairs += valid.len();
    }
}

/// Answers the JSON Lines batch at `path` (stdin for `-`) block by block, writing the answer lines to `output`.
/// A line longer than `max_line_bytes` stops the run (see [`crate::io::jsonl::DEFAULT_MAX_LINE_BYTES`]), the
/// lines before it answered.
pub fn stream_on_cpu(
    path: &Path,
    kind: AnswerKind,
    exec: &Executor,
    cache: &ShapeCache,
    output: &Destination,
    max_line_bytes: usize,
) -> anyhow::Result<Streamed> {
    // Not locked: the input may be read on another thread (see `for_each_block`), and a read locks it.
    let input: Box<dyn Read + Send> = if path.as_os_str() == "-" {
        Box::new(io::stdin())
    } else {
        let file = File::open(path)
            .with_context(|| format!("cannot read input file {}", path.display()))?;
        Box::new(file)
    };
    let out = output.open()?;
    let (run, read, written) = match exec.threads() {
        1 => in_turn(input, kind, exec, cache, out, max_line_bytes),
        _ => with_writer(input, kind, exec, cache, out, max_line_bytes)?,
    };
    // A read error first, unless the reading stopped because the writing had failed.
    if let Err(e) = read {
        if !stopped_by_the_writing(&e) {
            return Err(input_error(path, e));
        }
    }
    let failed_lines = written.map_err(|e| {
        anyhow::Error::new(e).context(format!("cannot write to {}", output.describe()))
    })?;
    Ok(Streamed {
        failed_lines,
        ..run
    })
}

/// The error a block's visit returns to stop the reading when its answers could not be written (the write
/// error itself is reported).
#[derive(Debug)]
struct WritingFailed;

impl std::fmt::Display for WritingFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the answers could not be written")
    }
}

impl std::error::Error for WritingFailed {}

fn stopped_by_the_writing(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<WritingFailed>())
}

/// The run, the reading's outcome and the writing's (how many error lines, or the first write error).
type Outcome = (Streamed, io::Result<()>, io::Result<usize>);

/// Each block read, answered and written in turn on the calling thread.
fn in_turn(
    input: Box<dyn Read + Send>,
    kind: AnswerKind,
    exec: &Executor,
    cache: &ShapeCache,
    out: Box<dyn Write + Send>,
    max_line_bytes: usize,
) -> Outcome {
    let mut lines = AnswerLines::new(out);
    let mut run = Streamed::default();
    let mut results = Vec::new();
    let mut write_failure = None;
    let read = for_each_block(input, exec, cache, max_line_bytes, |parsed| {
        run.answer_block(parsed, &mut results, kind, exec);
        let computed = Instant::now();
        let written = lines.write(parsed, &results);
        run.write_s += computed.elapsed().as_secs_f64();
        written.map_err(|e| {
            write_failure = Some(e);
            io::Error::other(WritingFailed)
        })
    });
    if let Some(e) = write_failure {
        return (run, read, Err(e));
    }
    let start = Instant::now();
    let written = lines.finish();
    run.write_s += start.elapsed().as_secs_f64();
    (run, read, written)
}

/// Each block answered on `exec`'s threads while a thread of its own writes the block before it.
fn with_writer(
    input: Box<dyn Read + Send>,
    kind: AnswerKind,
    exec: &Executor,
    cache: &ShapeCache,
    out: Box<dyn Write + Send>,
    max_line_bytes: usize,
) -> anyhow::Result<Outcome> {
    let writer = WriteBehind::start(out).context("cannot start the thread that writes answers")?;
    let mut run = Streamed::default();
    let read = for_each_block(input, exec, cache, max_line_bytes, |parsed| {
        let (mut block, mut results): (Vec<ParsedLine>, Vec<PairAnswer>) = writer.spare();
        // The block's lines go to the writer; the reader keeps the emptied vector for the next block.
        std::mem::swap(&mut block, parsed);
        run.answer_block(&block, &mut results, kind, exec);
        let computed = Instant::now();
        let handed = writer.write(block, results);
        run.write_s += computed.elapsed().as_secs_f64();
        match handed {
            true => Ok(()),
            false => Err(io::Error::other(WritingFailed)),
        }
    });
    let start = Instant::now();
    let written = writer.finish();
    run.write_s += start.elapsed().as_secs_f64();
    Ok((run, read, written))
}
