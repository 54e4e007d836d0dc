//! `query` on a columnar batch: read the shapes table, then the pairs table into the batch's pairs, answer
//! the good rows on the CPU or the GPU, and write one answer row per pairs row (a table, or JSON Lines).

use super::answers::AnswersBuilder;
use super::files::{BatchFormat, TableWriter};
use super::pairs::{read_pairs, PairRow};
use super::schema::answers_schema;
use super::shapes::{read_shapes, ShapeTable};
use crate::cli::answer::{query_placed, PairAnswer};
use crate::cli::exec::Executor;
use crate::cli::output::{write_error, write_result};
use crate::cli::query_gpu::{query_indexed_gpu, IndexedPair};
use crate::cli::sink::Destination;
use crate::gpu::GpuContext;
use crate::query::AnswerKind;
use anyhow::{bail, Context};
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::time::Instant;

/// A columnar batch as read: its shapes, and one entry per pairs row.
pub struct ColumnarBatch {
    pub shapes: ShapeTable,
    pub rows: Vec<PairRow>,
}

impl ColumnarBatch {
    /// Reads the two tables, the pairs in `format` and the shapes in the format their name says (or the
    /// same).
    pub fn read(
        shapes: &Path,
        pairs: &Path,
        format: BatchFormat,
        exec: &Executor,
    ) -> anyhow::Result<Self> {
        let shapes_format = BatchFormat::from_extension(shapes)
            .filter(|f| f.is_columnar())
            .unwrap_or(format);
        let shapes = read_shapes(shapes, shapes_format, exec)?;
        let rows = read_pairs(pairs, format, &shapes, exec)?;
        Ok(Self { shapes, rows })
    }

    /// The rows that can be answered.
    pub fn valid(&self) -> Vec<&IndexedPair> {
        self.rows
            .iter()
            .filter_map(|row| row.as_ref().ok())
            .collect()
    }

    /// Answers the valid rows, in order, on the GPU when `gpu` is given (where the penetration kernels run
    /// whatever `kind` asks, and the answer keeps the fields of `kind`); returns them and the batch time.
    pub fn answer(
        &self,
        kind: AnswerKind,
        exec: &Executor,
        gpu: Option<&GpuContext>,
    ) -> anyhow::Result<(Vec<PairAnswer>, f64)> {
        let valid = self.valid();
        let shapes = &self.shapes.shapes;
        match gpu {
            None => {
                let start = Instant::now();
                let results = exec.map(&valid, |p| {
                    query_placed(
                        (&shapes[p.a as usize], &p.a_pose),
                        (&shapes[p.b as usize], &p.b_pose),
                        kind,
                    )
                });
                Ok((results, start.elapsed().as_secs_f64()))
            }
            Some(ctx) => {
                let pairs: Vec<IndexedPair> = valid.into_iter().copied().collect();
                let (mut results, time) = query_indexed_gpu(ctx, shapes, &pairs)?;
                if kind != AnswerKind::Penetration {
                    results.iter_mut().for_each(|(_, hit)| *hit = None);
                }
                Ok((results, time))
            }
        }
    }
}

/// Rows per record batch of the answers table.
const ANSWER_BATCH_ROWS: usize = 1 << 16;

/// Writes one answer per row to `output` as `format` (a table, or JSON Lines) and echoes each error to
/// stderr; returns how many rows failed. `results` holds the valid rows' answers, in order.
pub fn write_answers(
    output: &Destination,
    format: BatchFormat,
    rows: &[PairRow],
    results: &[PairAnswer],
) -> anyhow::Result<usize> {
    let mut stderr = BufWriter::new(io::stderr().lock());
    let failed = rows.iter().filter(|row| row.is_err()).count();
    for message in rows.iter().filter_map(|row| row.as_ref().err()) {
        // Best effort: a closed stderr must not stop the answers.
        let _ = writeln!(stderr, "{message}");
    }
    let _ = stderr.flush();
    if !format.is_columnar() {
        write_lines(output, rows, results)?;
        return Ok(failed);
    }
    let Destination::File(path) = output else {
        bail!("an answers table is written to a file: name one with --output");
    };
    let context = || format!("cannot write {}", path.display());
    let mut writer = TableWriter::create(path, format, &answers_schema())?;
    let mut answers = results.iter();
    let mut table = AnswersBuilder::default();
    for row in rows {
        match row {
            Ok(_) => table.push_answer(answers.next().expect("one answer per valid row")),
            Err(message) => table.push_error(message),
        }
        if table.len() == ANSWER_BATCH_ROWS {
            writer.write(&table.finish()).with_context(context)?;
        }
    }
    if !table.is_empty() || rows.is_empty() {
        writer.write(&table.finish()).with_context(context)?;
    }
    writer.finish().with_context(context)?;
    Ok(failed)
}

/// The answers as JSON Lines, the lines `query` writes for a JSON Lines batch.
fn write_lines(
    output: &Destination,
    rows: &[PairRow],
    results: &[PairAnswer],
) -> anyhow::Result<()> {
    let mut out = BufWriter::with_capacity(1 << 16, output.open()?);
    let mut answers = results.iter();
    let mut write = || -> io::Result<()> {
        for row in rows {
            match row {
                Ok(_) => {
                    let (r, hit) = answers.next().expect("one answer per valid row");
                    write_result(&mut out, r, hit.as_ref())?;
                }
                Err(message) => write_error(&mut out, message)?,
            }
        }
        out.flush()
    };
    write().with_context(|| format!("cannot write to {}", output.describe()))
}
