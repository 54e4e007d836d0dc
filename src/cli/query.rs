//! `gpu-gjk query`: pairs read as JSON Lines (or a columnar batch) answered one output line per input line:
//! penetration depth and contacts by default (the distance when apart), the distance or the intersection
//! flag alone with `--kind`.
//!
//! Three phases, so that `--stats` measures the GJK work alone: parse every line (in parallel), run every
//! valid pair as one batch, then write the answers and the error lines in input order.

use super::choices::{BackendArg, FormatArg, LineLimitArg};
use super::stdin_notice::say_when_reading_a_terminal;
use crate::io::answers::write_answer_lines;
use crate::io::batch::answer_indexed_gpu;
use crate::io::batch::IndexedAnswers;
use crate::io::batch::{parse_threads, threads_from_count, Executor};
use crate::io::batch::{select_backend, Selected, SoftwareAdapters};
use crate::io::batch::{stream_manifolds, stream_manifolds_gpu, stream_on_cpu, Streamed};
use crate::io::columnar::{
    write_answers, write_manifolds, BatchFormat, ColumnarBatch, CpuAnswers, RangedAnswers,
};
use crate::io::jsonl::ShapeCache;
use crate::io::jsonl::{indexed_batch, read_and_parse};
use crate::io::same_file::refuse_same_file;
use crate::io::sink::{note, Destination};
use crate::query::AnswerKind;
use std::path::PathBuf;

#[derive(Clone, Debug, clap::Args)]
pub struct QueryArgs {
    /// JSON Lines input, one `{"a": SHAPE, "b": SHAPE}` per line (an optional `"id"`, an integer or a string,
    /// is echoed first on the line's answer); `-` reads stdin. Or a columnar pairs table (`.arrow`, `.ipc`,
    /// `.feather`, `.parquet`, optionally with an `id` column), with its shapes table given by --shapes.
    #[arg(value_name = "FILE", default_value = "-")]
    pub input: PathBuf,
    /// The shapes table of a columnar batch (the same format as the pairs table).
    #[arg(long, value_name = "FILE")]
    pub shapes: Option<PathBuf>,
    /// The input's format, when its name does not say it (JSON Lines unless the extension names a table).
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// Which backend answers the queries. `auto` uses a hardware GPU when there is one and the CPU
    /// otherwise (a software rasteriser is slower than the CPU reference); `gpu` uses any adapter.
    #[arg(long, value_enum, default_value_t = BackendArg::Auto)]
    pub backend: BackendArg,
    /// CPU threads: 0 = all cores, 1 = a single thread, N = a pool of N threads (at most 8 per core).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// Write the results to FILE instead of stdout (`-` is stdout). A columnar batch's answers are written
    /// as a table when FILE ends in `.arrow`, `.ipc`, `.feather` or `.parquet`, as JSON Lines otherwise.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print `pairs=.. compute_s=.. pairs_per_s=..` for the query batch alone to stderr.
    #[arg(long)]
    pub stats: bool,
    /// What to answer: `penetration` (distance when apart, depth and contacts when overlapping), `distance`
    /// (no depth, no EPA) or `intersection` (the flag; GJK stops as soon as it is decided). The GPU backend
    /// runs its penetration kernels whatever the kind and prints the fields of the kind asked for.
    /// `manifold`: the contact manifold (up to four points, depths and feature ids), clipped on the GPU with
    /// `--backend gpu|vulkan|gl|metal|dx12` (`auto` stays on the CPU).
    #[arg(long, value_enum, default_value_t = KindArg::Penetration)]
    pub kind: KindArg,
    #[command(flatten)]
    pub line_limit: LineLimitArg,
}

/// `--kind`, the command line's name for [`AnswerKind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum KindArg {
    Intersection,
    Distance,
    Penetration,
    Manifold,
}

impl KindArg {
    /// The kind of answer the batch drivers give; a manifold is built on the penetration answer (and `query`
    /// sends it to its own driver, [`stream_manifolds`]).
    pub fn answer_kind(self) -> AnswerKind {
        match self {
            KindArg::Manifold => AnswerKind::Penetration,
            KindArg::Intersection => AnswerKind::Intersection,
            KindArg::Distance => AnswerKind::Distance,
            KindArg::Penetration => AnswerKind::Penetration,
        }
    }
}

/// What a run did, for the exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueryReport {
    pub lines: usize,
    pub pairs: usize,
    pub failed_lines: usize,
}

/// Runs the command. Bad lines are reported in the output and on stderr and counted in the report; only
/// I/O and setup failures are errors.
pub fn run_query(args: &QueryArgs) -> anyhow::Result<QueryReport> {
    let output = args
        .output
        .as_deref()
        .map_or(Destination::Stdout, Destination::from_arg);
    if let Destination::File(path) = &output {
        let mut inputs = vec![("the input", args.input.as_path())];
        inputs.extend(args.shapes.as_deref().map(|s| ("the shapes table", s)));
        refuse_same_file("--output", path, &inputs)?;
    }
    output.check("--output", None)?;
    let exec = Executor::new(threads_from_count(args.threads))?;
    if args.kind == KindArg::Manifold {
        return manifold_query(args, &output, &exec);
    }
    if let Some(format) = columnar_input(args)? {
        return columnar_query(args, format, &output, &exec);
    }
    let kind = args.kind.answer_kind();
    let max_line_bytes = args.line_limit.max_line_bytes;
    // A missing or unreadable input is said before the GPU is probed, which takes time and prints notices of
    // its own.
    if args.input.as_os_str() != "-" {
        if let Err(e) = std::fs::File::open(&args.input) {
            anyhow::bail!("cannot read input file {}: {e}", args.input.display());
        }
    }
    say_when_reading_a_terminal("query", &args.input);
    let selected = select_backend(args.backend.into(), SoftwareAdapters::SkipInAuto)?;
    let run = match selected.gpu() {
        None => stream_on_cpu(
            &args.input,
            kind,
            &exec,
            &ShapeCache::default(),
            &output,
            max_line_bytes,
        )?,
        Some(ctx) => {
            // The GPU answers the whole batch at once: one upload of the shapes the reader listed (each
            // once), one submission per chunk.
            let cache = ShapeCache::listing();
            let parsed = read_and_parse(&args.input, &exec, &cache, max_line_bytes)?;
            let (shapes, pairs) = indexed_batch(&parsed, cache);
            let (results, compute_s) = answer_indexed_gpu(ctx, &shapes, &pairs, kind, &exec)?;
            Streamed {
                lines: parsed.len(),
                pairs: pairs.len(),
                failed_lines: write_answer_lines(&output, &parsed, &results)?,
                compute_s,
                write_s: 0.0,
            }
        }
    };
    if args.stats {
        note(format_args!("{}", stats_line(run.pairs, run.compute_s)));
    }
    Ok(QueryReport {
        lines: run.lines,
        pairs: run.pairs,
        failed_lines: run.failed_lines,
    })
}

/// `query --kind manifold`: a JSON Lines batch streamed block by block, or a columnar batch answered as a
/// manifolds table or JSON Lines; on the GPU with an explicit GPU backend (`auto` stays on the CPU's threads: on
/// software adapters the GPU route measured slower than the CPU's, and no hardware GPU has timed it).
fn manifold_query(
    args: &QueryArgs,
    output: &Destination,
    exec: &Executor,
) -> anyhow::Result<QueryReport> {
    let on_gpu = !matches!(args.backend, BackendArg::Auto | BackendArg::Cpu);
    let select = || -> anyhow::Result<Option<Selected>> {
        on_gpu
            .then(|| select_backend(args.backend.into(), SoftwareAdapters::SkipInAuto))
            .transpose()
    };
    if let Some(format) = columnar_input(args)? {
        let shapes = args.shapes.as_deref().expect("checked by columnar_input");
        let batch = ColumnarBatch::read(shapes, &args.input, format, exec)?;
        let selected = select()?;
        let output_format = args
            .output
            .as_deref()
            .and_then(BatchFormat::from_extension)
            .unwrap_or(BatchFormat::Jsonl);
        let gpu = selected.as_ref().and_then(Selected::gpu);
        let run = write_manifolds(output, output_format, &batch, exec, gpu)?;
        let pairs = batch.rows.len() - run.failed;
        if args.stats {
            note(format_args!("{}", stats_line(pairs, run.compute_s)));
        }
        return Ok(QueryReport {
            lines: batch.rows.len(),
            pairs,
            failed_lines: run.failed,
        });
    }
    let cache = ShapeCache::default();
    let max_line_bytes = args.line_limit.max_line_bytes;
    let selected = select()?;
    let run = match selected.as_ref().and_then(Selected::gpu) {
        Some(ctx) => stream_manifolds_gpu(&args.input, exec, &cache, output, max_line_bytes, ctx)?,
        None => stream_manifolds(&args.input, exec, &cache, output, max_line_bytes)?,
    };
    if args.stats {
        note(format_args!("{}", stats_line(run.pairs, run.compute_s)));
    }
    Ok(QueryReport {
        lines: run.lines,
        pairs: run.pairs,
        failed_lines: run.failed_lines,
    })
}

/// The input's format when it is a table; a usage error when the flags do not fit the input.
fn columnar_input(args: &QueryArgs) -> anyhow::Result<Option<BatchFormat>> {
    let format = args
        .format
        .map(BatchFormat::from)
        .or_else(|| BatchFormat::from_extension(&args.input))
        .unwrap_or(BatchFormat::Jsonl);
    let output = args.output.as_deref().and_then(BatchFormat::from_extension);
    match (format.is_columnar(), &args.shapes) {
        (true, Some(_)) => Ok(Some(format)),
        (true, None) => anyhow::bail!(
            "{}: a columnar pairs table needs its shapes table: add --shapes FILE",
            args.input.display()
        ),
        (false, Some(_)) => anyhow::bail!(
            "--shapes is for a columnar pairs table, but {} is read as JSON Lines (name it .arrow, .ipc, \
             .feather or .parquet, or give --format arrow|parquet)",
            args.input.display()
        ),
        (false, None) if output.is_some_and(BatchFormat::is_columnar) => anyhow::bail!(
            "--output: an answers table answers a columnar batch; for a JSON Lines batch write JSON Lines \
             (or convert the batch first with `gpu-gjk convert`)"
        ),
        (false, None) => Ok(None),
    }
}

/// `query` on a columnar batch: the answers go to a table when the output's name says so, else JSON Lines.
fn columnar_query(
    args: &QueryArgs,
    format: BatchFormat,
    output: &Destination,
    exec: &Executor,
) -> anyhow::Result<QueryReport> {
    let shapes = args.shapes.as_deref().expect("checked by columnar_input");
    let batch = ColumnarBatch::read(shapes, &args.input, format, exec)?;
    let selected = select_backend(args.backend.into(), SoftwareAdapters::SkipInAuto)?;
    let kind = args.kind.answer_kind();
    let output_format = args
        .output
        .as_deref()
        .and_then(BatchFormat::from_extension)
        .unwrap_or(BatchFormat::Jsonl);
    let rows = &batch.rows;
    let ids = batch.ids.as_ref();
    let (failed_lines, compute_s) = match selected.gpu() {
        // The GPU answers the whole batch first; its answers go to world coordinates as they are written.
        Some(ctx) => {
            let valid = batch.valid_pairs();
            let answers = IndexedAnswers::new(&batch.shapes.shapes, &valid, kind, Some(ctx), exec)?;
            let seconds = answers.gpu_timings().map_or(0.0, |t| t.total_s);
            let mut source = RangedAnswers::new(&answers);
            (
                write_answers(output, output_format, rows, ids, &mut source)?,
                seconds,
            )
        }
        // The CPU answers each chunk of rows as it is written.
        None => {
            let mut answers = CpuAnswers::new(&batch, kind, exec);
            let failed = write_answers(output, output_format, rows, ids, &mut answers)?;
            (failed, answers.seconds)
        }
    };
    let pairs = rows.len() - failed_lines;
    if args.stats {
        note(format_args!("{}", stats_line(pairs, compute_s)));
    }
    Ok(QueryReport {
        lines: rows.len(),
        pairs,
        failed_lines,
    })
}

/// `pairs=1234 compute_s=0.001230 pairs_per_s=1003252`.
pub fn stats_line(pairs: usize, compute_s: f64) -> String {
    let rate = if compute_s > 0.0 {
        pairs as f64 / compute_s
    } else {
        0.0
    };
    format!("pairs={pairs} compute_s={compute_s:.6} pairs_per_s={rate:.0}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_line_format() {
        assert_eq!(
            stats_line(1234, 0.00123),
            "pairs=1234 compute_s=0.001230 pairs_per_s=1003252"
        );
        assert_eq!(
            stats_line(0, 0.0),
            "pairs=0 compute_s=0.000000 pairs_per_s=0"
        );
    }
}
