//! `gpu-gjk bench --io`: pairs per second from a JSON Lines file to its answers file, next to the
//! compute-only figure for the same pairs, on the CPU with one thread and with all threads.
//!
//! The seeded scene is written as a `query` input file (each pair's shapes from the scene's shape library,
//! so shapes repeat across lines as in a real data set), then answered the way `query --backend cpu` does:
//! read, parse, compute, write, each stage timed. The same file is also answered with the field-by-field
//! reader alone (the parser before the typed path), as the reference the typed path must match byte for
//! byte and as the "before" figure. The file is also converted to the two tables of a columnar batch (Arrow
//! IPC and Parquet, not timed) and answered as `query --shapes S P --output A` does, answers table included.

use crate::batch::Threads;
use crate::bench::{text_table, thousands};
use crate::io::answers::write_answer_lines;
use crate::io::batch::query_pair;
use crate::io::batch::stream_on_cpu;
use crate::io::batch::Executor;
use crate::io::columnar::{convert_jsonl, write_answers, BatchFormat, ColumnarBatch, CpuAnswers};
use crate::io::jsonl::write_mix_file;
use crate::io::jsonl::ShapeCache;
use crate::io::jsonl::{parse_line, refused_line_id, LineError, PairInput};
use crate::io::jsonl::{read_input, split_lines, ParsedLine, DEFAULT_MAX_LINE_BYTES};
use crate::io::sink::Destination;
use crate::query::AnswerKind;
use crate::scenario::MixSpec;
use crate::text::count_len;
use anyhow::{bail, Context};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Which parser a run uses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reader {
    /// The typed path with shared shapes, block by block (what `query --backend cpu` does).
    Typed,
    /// Every line through the `serde_json::Value` reader, each shape built on its own.
    FieldByField,
}

/// One end-to-end run's stage times, in seconds.
#[derive(Clone, Copy, Default)]
struct Stages {
    /// Reading and parsing overlap (the typed path reads block by block), so they are timed together: the
    /// run's wall time less the other two.
    read_parse: f64,
    compute: f64,
    /// For the typed path on more than one thread, the time the answering waited for the thread that writes
    /// (see `stream_cpu`), not the writing itself, which overlaps the next blocks.
    write: f64,
}

impl Stages {
    fn total(&self) -> f64 {
        self.read_parse + self.compute + self.write
    }
}

/// Reads, parses, answers and writes `input` to `output` as `query --backend cpu` does.
fn end_to_end(
    input: &Path,
    output: &Path,
    exec: &Executor,
    reader: Reader,
) -> anyhow::Result<(Stages, usize)> {
    let mut stages = Stages::default();
    let start = Instant::now();
    let cache = ShapeCache::default();
    if reader == Reader::Typed {
        // As `query --backend cpu` does: block by block, each block answered and written before the next.
        let destination = Destination::File(output.to_path_buf());
        let run = stream_on_cpu(
            input,
            AnswerKind::Penetration,
            exec,
            &cache,
            &destination,
            DEFAULT_MAX_LINE_BYTES,
        )?;
        stages.compute = run.compute_s;
        stages.write = run.write_s;
        stages.read_parse = start.elapsed().as_secs_f64() - run.compute_s - run.write_s;
        return Ok((stages, cache.len()));
    }
    // The parser before the typed path, in three phases: parse every line, answer, write.
    let text = read_input(input, DEFAULT_MAX_LINE_BYTES)?;
    let lines: Vec<(usize, &[u8])> = split_lines(&text).into_iter().enumerate().collect();
    let parsed = exec.map(&lines, |&(i, line)| {
        if line.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r')) {
            return ParsedLine::Blank;
        }
        match parse_line(line) {
            Ok(pair) => ParsedLine::Pair(pair),
            Err(message) => ParsedLine::Error(LineError {
                message: format!("line {}: {message}", i + 1),
                id: refused_line_id(line),
            }),
        }
    });
    let valid: Vec<&PairInput> = parsed
        .iter()
        .filter_map(|line| match line {
            ParsedLine::Pair(pair) => Some(pair),
            _ => None,
        })
        .collect();
    stages.read_parse = start.elapsed().as_secs_f64();

    let start = Instant::now();
    let results = exec.map(&valid, |pair| query_pair(pair, AnswerKind::Penetration));
    stages.compute = start.elapsed().as_secs_f64();

    let start = Instant::now();
    write_answer_lines(&Destination::File(output.to_path_buf()), &parsed, &results)?;
    stages.write = start.elapsed().as_secs_f64();
    Ok((stages, cache.len()))
}

/// A columnar batch's tables, read, answered and written (as a table of the same format) as `query` does.
fn columnar_end_to_end(
    dir: &Path,
    format: BatchFormat,
    exec: &Executor,
) -> anyhow::Result<(Stages, usize)> {
    let [shapes, pairs, answers] = table_paths(dir, format);
    let mut stages = Stages::default();
    let start = Instant::now();
    let batch = ColumnarBatch::read(&shapes, &pairs, format, exec)?;
    stages.read_parse = start.elapsed().as_secs_f64();
    // As `query` does on the CPU: each chunk of rows answered just before it is written.
    let start = Instant::now();
    let mut cpu = CpuAnswers::new(&batch, AnswerKind::Penetration, exec);
    write_answers(
        &Destination::File(answers),
        format,
        &batch.rows,
        batch.ids.as_ref(),
        &mut cpu,
    )?;
    stages.compute = cpu.seconds;
    stages.write = start.elapsed().as_secs_f64() - cpu.seconds;
    Ok((stages, batch.shapes.len()))
}

/// The shapes, pairs and answers tables of `format` in `dir`.
fn table_paths(dir: &Path, format: BatchFormat) -> [PathBuf; 3] {
    let extension = match format {
        BatchFormat::Parquet => "parquet",
        _ => "arrow",
    };
    ["shapes", "pairs", "answers"].map(|name| dir.join(format!("{name}.{extension}")))
}

/// A path's best run so far (by total time) and the distinct shapes it saw.
type Best = Option<(Stages, usize)>;

/// Keeps `run` in `best` when it is faster.
fn keep_best(best: &mut Best, run: (Stages, usize)) {
    if best.is_none_or(|b| run.0.total() < b.0.total()) {
        *best = Some(run);
    }
}

/// The best of `repeat` rounds of every path (typed, field by field, Arrow IPC, Parquet). Each round runs
/// the four paths one after another, so a drift of the machine's speed (a third or more within a minute
/// on the shared VMs this was measured on) reaches them alike instead of one path's whole set of runs.
fn best_of_rounds(
    input: &Path,
    outputs: [&Path; 2],
    dir: &Path,
    exec: &Executor,
    repeat: usize,
) -> anyhow::Result<[(Stages, usize); 4]> {
    let mut best: [Best; 4] = [None; 4];
    for _ in 0..repeat.max(1) {
        keep_best(
            &mut best[0],
            end_to_end(input, outputs[0], exec, Reader::Typed)?,
        );
        keep_best(
            &mut best[1],
            end_to_end(input, outputs[1], exec, Reader::FieldByField)?,
        );
        for (k, format) in [BatchFormat::Arrow, BatchFormat::Parquet]
            .into_iter()
            .enumerate()
        {
            keep_best(&mut best[2 + k], columnar_end_to_end(dir, format, exec)?);
        }
    }
    Ok(best.map(|b| b.expect("at least one round")))
}

/// What `bench --io` measures.
pub struct IoBenchSpec {
    pub seed: u64,
    pub pairs: usize,
    pub mix: MixSpec,
    pub repeat: usize,
    /// Where to write the generated input and keep it; a temporary file otherwise.
    pub keep_input: Option<PathBuf>,
}

/// Runs the I/O benchmark; returns the report (table and notes) and the JSON document.
pub fn run_io_bench(spec: &IoBenchSpec) -> anyhow::Result<(String, String)> {
    let dir = scratch_dir()?;
    let result = measure(spec, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn scratch_dir() -> anyhow::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("gpu-gjk-bench-io-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    Ok(dir)
}

fn measure(spec: &IoBenchSpec, dir: &Path) -> anyhow::Result<(String, String)> {
    let input = spec
        .keep_input
        .clone()
        .unwrap_or_else(|| dir.join("pairs.jsonl"));
    let bytes = write_mix_file(&input, spec.seed, spec.pairs, &spec.mix)?;
    let typed_out = dir.join("typed.jsonl");
    let columnar = [BatchFormat::Arrow, BatchFormat::Parquet];
    for format in columnar {
        let [shapes, pairs, _] = table_paths(dir, format);
        convert_jsonl(
            &input,
            (shapes.as_path(), format),
            (pairs.as_path(), format),
            DEFAULT_MAX_LINE_BYTES,
        )?;
    }
    let reader_out = dir.join("field_by_field.jsonl");

    let headers = [
        "path",
        "threads",
        "read + parse (s)",
        "compute (s)",
        "write (s)",
        "total (s)",
        "pairs/s",
        "of compute-only",
    ];
    let mut rows = Vec::new();
    let mut records = Vec::new();
    let mut shapes = 0;
    for (threads, label) in [(Threads::Single, "1"), (Threads::All, "all")] {
        let exec = Executor::new(threads)?;
        let [typed, reader, arrow, parquet] =
            best_of_rounds(&input, [&typed_out, &reader_out], dir, &exec, spec.repeat)?;
        shapes = typed.1;
        let (typed, reader) = (typed.0, reader.0);
        if std::fs::read(&typed_out)? != std::fs::read(&reader_out)? {
            bail!("the typed reader's answers differ from the field-by-field reader's");
        }
        let tables = [arrow, parquet];
        // Compute-only: the best compute stage over all the runs (the same pairs and answers).
        let compute = tables
            .iter()
            .fold(typed.compute.min(reader.compute), |c, (s, _)| {
                c.min(s.compute)
            });
        let rate = |s: f64| spec.pairs as f64 / s;
        rows.push(vec![
            "compute only".into(),
            label.into(),
            String::new(),
            format!("{compute:.3}"),
            String::new(),
            format!("{compute:.3}"),
            thousands(rate(compute)),
            "100%".into(),
        ]);
        for (name, s) in [
            ("file to answers, typed", typed),
            ("file to answers, field by field", reader),
            ("file to answers, Arrow IPC", tables[0].0),
            ("file to answers, Parquet", tables[1].0),
        ] {
            rows.push(vec![
                name.into(),
                label.into(),
                format!("{:.3}", s.read_parse),
                format!("{:.3}", s.compute),
                format!("{:.3}", s.write),
                format!("{:.3}", s.total()),
                thousands(rate(s.total())),
                format!("{:.0}%", 100.0 * compute / s.total()),
            ]);
            records.push(json!({
                "path": name,
                "threads": label,
                "read_parse_s": s.read_parse,
                "compute_s": s.compute,
                "write_s": s.write,
                "total_s": s.total(),
                "pairs_per_s": rate(s.total()),
                "compute_only_s": compute,
                "compute_only_pairs_per_s": rate(compute),
                "fraction_of_compute_only": compute / s.total(),
            }));
        }
    }
    let report = format!(
        "gpu-gjk bench --io: seed {}, {}, hull points {}..{}, a {:.1} MB JSON Lines file with {} \
         (as tables: Arrow IPC {:.1} MB, Parquet {:.1} MB, both written with the answers as a table of \
         the same format); CPU, best of {} (each round runs every path once, in turn); the files were just written (read from the page cache); \
         answers of both JSON readers identical byte for byte\n{}",
        spec.seed,
        count_len(spec.pairs, "pair"),
        spec.mix.hull_points.0,
        spec.mix.hull_points.1,
        bytes as f64 / 1e6,
        count_len(shapes, "distinct shape"),
        table_bytes(dir, BatchFormat::Arrow) as f64 / 1e6,
        table_bytes(dir, BatchFormat::Parquet) as f64 / 1e6,
        count_len(spec.repeat, "round"),
        text_table(&headers, &rows)
    );
    let document = json!({
        "seed": spec.seed,
        "pairs": spec.pairs,
        "hull_points": [spec.mix.hull_points.0, spec.mix.hull_points.1],
        "file_bytes": bytes,
        "arrow_ipc_bytes": table_bytes(dir, BatchFormat::Arrow),
        "parquet_bytes": table_bytes(dir, BatchFormat::Parquet),
        "distinct_shapes": shapes,
        "repeat": spec.repeat,
        "io": records,
    });
    Ok((report, format!("{document:#}\n")))
}

/// The size of a format's shapes and pairs tables together.
fn table_bytes(dir: &Path, format: BatchFormat) -> u64 {
    let [shapes, pairs, _] = table_paths(dir, format);
    [shapes, pairs]
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum()
}
