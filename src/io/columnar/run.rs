//! `query` on a columnar batch: read the shapes table, then the pairs table into the batch's pairs, answer
//! the good rows on the CPU or the GPU, and write one answer row per pairs row (a table, or JSON Lines).

use super::answers::AnswersBuilder;
use super::files::{BatchFormat, TableWriter};
use super::pair_ids::{id_column, PairIds, ID_COLUMN};
use super::pairs::{read_pairs, PairRow};
use super::schema::answers_schema;
use super::shapes::{read_shapes, ShapeTable};
use crate::io::answers::writer::AnswerWriter;
use crate::io::batch::gpu::IndexedPair;
use crate::io::batch::Executor;
use crate::io::batch::PairAnswer;
use crate::io::batch::{query_indexed, IndexedAnswers};
use crate::io::sink::Destination;
use crate::query::AnswerKind;
use anyhow::{bail, Context};
use arrow_array::RecordBatch;
use arrow_schema::{Field, Schema};
use std::io::{self, BufWriter, Write};
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// A columnar batch as read: its shapes, one entry per pairs row, and the rows' ids when the pairs table has
/// an `id` column.
pub struct ColumnarBatch {
    pub shapes: ShapeTable,
    pub rows: Vec<PairRow>,
    pub ids: Option<PairIds>,
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
        let (rows, ids) = read_pairs(pairs, format, &shapes, exec)?;
        Ok(Self { shapes, rows, ids })
    }

    /// The rows that can be answered, in order.
    pub fn valid_pairs(&self) -> Vec<IndexedPair> {
        self.rows
            .iter()
            .filter_map(|row| row.as_ref().ok())
            .copied()
            .collect()
    }
}

/// The answers of a run of pairs rows, appended to `out`: one per valid row, in order. The writer asks
/// for them a chunk of rows at a time, so the CPU can answer each chunk just before it is written.
pub trait AnswerSource {
    fn answer(&mut self, rows: &[PairRow], out: &mut Vec<PairAnswer>);
}

/// Answers from [`IndexedAnswers`] (the GPU's, kept in the pairs' local frames), moved to world coordinates a
/// chunk at a time as the writer asks for them, in order.
pub struct RangedAnswers<'a> {
    answers: &'a IndexedAnswers<'a>,
    next: usize,
}

impl<'a> RangedAnswers<'a> {
    pub fn new(answers: &'a IndexedAnswers<'a>) -> Self {
        Self { answers, next: 0 }
    }
}

impl AnswerSource for RangedAnswers<'_> {
    fn answer(&mut self, rows: &[PairRow], out: &mut Vec<PairAnswer>) {
        let valid = rows.iter().filter(|row| row.is_ok()).count();
        self.answers.answer_range(self.next..self.next + valid, out);
        self.next += valid;
    }
}

/// The CPU answering each chunk as it is asked for, timing the answering alone (`seconds`). Measured on
/// the `bench --io` mix: answering the whole batch first and writing it after touched 4 MB of fresh answers
/// (a page fault per 4 KiB, about a tenth of the Arrow path's end-to-end time); a chunk's answers reuse
/// the same buffer and are written while still in the caches.
pub struct CpuAnswers<'a> {
    batch: &'a ColumnarBatch,
    kind: AnswerKind,
    exec: &'a Executor,
    /// Seconds spent answering, so far.
    pub seconds: f64,
}

impl<'a> CpuAnswers<'a> {
    pub fn new(batch: &'a ColumnarBatch, kind: AnswerKind, exec: &'a Executor) -> Self {
        Self {
            batch,
            kind,
            exec,
            seconds: 0.0,
        }
    }
}

impl AnswerSource for CpuAnswers<'_> {
    fn answer(&mut self, rows: &[PairRow], out: &mut Vec<PairAnswer>) {
        let start = Instant::now();
        let valid: Vec<&IndexedPair> = rows.iter().filter_map(|row| row.as_ref().ok()).collect();
        let (shapes, kind) = (&self.batch.shapes.shapes, self.kind);
        self.exec
            .map_into(&valid, |p| query_indexed(shapes, p, kind), out);
        self.seconds += start.elapsed().as_secs_f64();
    }
}

/// Rows per record batch of the answers table, and per chunk answered on the CPU: small enough that a
/// chunk's answers and columns stay in the caches and their memory is reused by the next chunk.
const ANSWER_BATCH_ROWS: usize = 1 << 12;

/// Writes one answer per row to `output` as `format` (a table, or JSON Lines) and echoes each error to
/// stderr; returns how many rows failed. `answers` gives the valid rows' answers, a chunk of rows at a
/// time, in order. With `ids`, each answer carries its row's id (an `id` column first in the table, the
/// first field of a JSON line).
pub fn write_answers(
    output: &Destination,
    format: BatchFormat,
    rows: &[PairRow],
    ids: Option<&PairIds>,
    answers: &mut impl AnswerSource,
) -> anyhow::Result<usize> {
    let mut stderr = BufWriter::new(io::stderr().lock());
    let failed = rows.iter().filter(|row| row.is_err()).count();
    for message in rows.iter().filter_map(|row| row.as_ref().err()) {
        // Best effort: a closed stderr must not stop the answers.
        let _ = writeln!(stderr, "{message}");
    }
    let _ = stderr.flush();
    if !format.is_columnar() {
        write_lines(output, rows, ids, answers)?;
        return Ok(failed);
    }
    let Destination::File(path) = output else {
        bail!("an answers table is written to a file: name one with --output");
    };
    let context = || format!("cannot write {}", path.display());
    let schema = with_ids(answers_schema(), ids);
    let mut writer = TableWriter::create(path, format, &schema)?;
    let mut results = Vec::with_capacity(ANSWER_BATCH_ROWS);
    for (k, chunk) in rows.chunks(ANSWER_BATCH_ROWS).enumerate() {
        results.clear();
        answers.answer(chunk, &mut results);
        let mut answered = results.iter();
        let mut table = AnswersBuilder::with_capacity(chunk.len());
        for row in chunk {
            match row {
                Ok(_) => table.push_answer(answered.next().expect("one answer per valid row")),
                Err(message) => table.push_error(message),
            }
        }
        let first = k * ANSWER_BATCH_ROWS;
        let table = id_first(&schema, table.finish(), ids, first..first + chunk.len());
        writer.write(&table).with_context(context)?;
    }
    if rows.is_empty() {
        let table = id_first(&schema, AnswersBuilder::default().finish(), ids, 0..0);
        writer.write(&table).with_context(context)?;
    }
    writer.finish().with_context(context)?;
    Ok(failed)
}

/// The answers table's schema with an `id` column first when the rows have ids.
pub(super) fn with_ids(schema: Arc<Schema>, ids: Option<&PairIds>) -> Arc<Schema> {
    let Some(ids) = ids else { return schema };
    let mut fields = vec![Arc::new(Field::new(ID_COLUMN, ids.data_type.clone(), true))];
    fields.extend(schema.fields().iter().cloned());
    Arc::new(Schema::new(fields))
}

/// `table` (the answers of `rows`) with their ids' column first, when there are ids.
pub(super) fn id_first(
    schema: &Arc<Schema>,
    table: RecordBatch,
    ids: Option<&PairIds>,
    rows: Range<usize>,
) -> RecordBatch {
    let Some(ids) = ids else { return table };
    let mut columns = vec![id_column(&ids.data_type, &ids.values[rows])];
    columns.extend(table.columns().iter().cloned());
    RecordBatch::try_new(schema.clone(), columns).expect("the columns follow the schema")
}

/// The answers as JSON Lines, the lines `query` writes for a JSON Lines batch.
fn write_lines(
    output: &Destination,
    rows: &[PairRow],
    ids: Option<&PairIds>,
    answers: &mut impl AnswerSource,
) -> anyhow::Result<()> {
    let mut out = AnswerWriter::new(output.open()?);
    let mut results = Vec::with_capacity(ANSWER_BATCH_ROWS);
    let id = |row: usize| ids.and_then(|ids| ids.values[row].as_ref());
    let mut write = || -> io::Result<()> {
        for (k, chunk) in rows.chunks(ANSWER_BATCH_ROWS).enumerate() {
            results.clear();
            answers.answer(chunk, &mut results);
            let mut answered = results.iter();
            for (i, row) in chunk.iter().enumerate() {
                let id = id(k * ANSWER_BATCH_ROWS + i);
                match row {
                    Ok(_) => {
                        let (r, hit) = answered.next().expect("one answer per valid row");
                        out.result(id, r, hit.as_ref())?;
                    }
                    Err(message) => out.error(id, message)?,
                }
            }
        }
        out.flush()
    };
    write().with_context(|| format!("cannot write to {}", output.describe()))
}
