//! `query --kind manifold` on a columnar batch: each good pairs row's contact manifold (on the CPU's threads or
//! on the GPU, a chunk of rows at a time), written as the manifolds table ([`manifolds_schema`]) or as the JSON
//! Lines `query` writes for a JSON Lines batch, one answer per pairs row, an error row for a row that could not
//! be answered.

use super::files::{BatchFormat, TableWriter};
use super::run::{id_first, with_ids, ColumnarBatch};
use super::schema::{manifold_point_fields, manifolds_schema};
use crate::gpu::manifold::GpuManifolds;
use crate::gpu::GpuContext;
use crate::io::answers::{push_error_with_id, push_manifold};
use crate::io::batch::{manifolds_indexed, Executor};
use crate::io::sink::Destination;
use crate::manifold::Manifold;
use anyhow::{bail, Context};
use arrow_array::builder::StringBuilder;
use arrow_array::{
    ArrayRef, FixedSizeListArray, Float64Array, ListArray, RecordBatch, StructArray, UInt64Array,
};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field};
use glam::DVec3;
use std::io::{self, BufWriter, Write};
use std::sync::Arc;
use std::time::Instant;

/// Rows per chunk answered and per record batch written: a chunk's manifolds stay in the caches.
const MANIFOLD_BATCH_ROWS: usize = 1 << 12;

/// What a run of [`write_manifolds`] did.
pub struct ManifoldRun {
    /// Rows that could not be answered (each an error row, and its message on stderr).
    pub failed: usize,
    /// Seconds spent finding the manifolds alone.
    pub compute_s: f64,
}

/// Answers every row of `batch` with its contact manifold, on `gpu`'s device when given (the CPU's manifolds
/// within the GPU manifolds' band), else on `exec`'s threads, and writes them to `output` as `format` (a table,
/// or JSON Lines); each bad row's message is also echoed to stderr.
pub fn write_manifolds(
    output: &Destination,
    format: BatchFormat,
    batch: &ColumnarBatch,
    exec: &Executor,
    gpu: Option<&GpuContext>,
) -> anyhow::Result<ManifoldRun> {
    let rows = &batch.rows;
    let ids = batch.ids.as_ref();
    let mut stderr = BufWriter::new(io::stderr().lock());
    for message in rows.iter().filter_map(|row| row.as_ref().err()) {
        // Best effort: a closed stderr must not stop the answers.
        let _ = writeln!(stderr, "{message}");
    }
    let _ = stderr.flush();
    let mut run = ManifoldRun {
        failed: rows.iter().filter(|row| row.is_err()).count(),
        compute_s: 0.0,
    };
    let shapes = &batch.shapes.shapes;
    let gpu = gpu.map(|ctx| GpuManifolds::new(&ctx.device, &ctx.queue));
    let mut answer = |first: usize| -> anyhow::Result<Vec<Manifold>> {
        let start = Instant::now();
        let chunk = &rows[first..rows.len().min(first + MANIFOLD_BATCH_ROWS)];
        let valid: Vec<_> = chunk.iter().filter_map(|row| row.as_ref().ok()).collect();
        let found = manifolds_indexed(shapes, &valid, exec, gpu.as_ref())?;
        run.compute_s += start.elapsed().as_secs_f64();
        Ok(found)
    };
    let id = |row: usize| ids.and_then(|ids| ids.values[row].as_ref());
    if !format.is_columnar() {
        let mut out = output.open()?;
        let mut lines = Vec::new();
        for first in (0..rows.len()).step_by(MANIFOLD_BATCH_ROWS) {
            let found = answer(first)?;
            let mut found = found.iter();
            lines.clear();
            for (row, pair) in rows
                .iter()
                .enumerate()
                .skip(first)
                .take(MANIFOLD_BATCH_ROWS)
            {
                match pair {
                    Ok(_) => {
                        push_manifold(&mut lines, id(row), found.next().expect("one per pair"))
                    }
                    Err(message) => push_error_with_id(&mut lines, id(row), message),
                }
            }
            out.write_all(&lines)
                .with_context(|| format!("cannot write to {}", output.describe()))?;
        }
        out.flush()
            .with_context(|| format!("cannot write to {}", output.describe()))?;
        return Ok(run);
    }
    let Destination::File(path) = output else {
        bail!("an answers table is written to a file: name one with --output");
    };
    let context = || format!("cannot write {}", path.display());
    let schema = with_ids(manifolds_schema(), ids);
    let mut writer = TableWriter::create(path, format, &schema)?;
    for first in (0..rows.len()).step_by(MANIFOLD_BATCH_ROWS) {
        let found = answer(first)?;
        let mut found = found.iter();
        let chunk = &rows[first..rows.len().min(first + MANIFOLD_BATCH_ROWS)];
        let mut table = ManifoldsBuilder::default();
        for row in chunk {
            match row {
                Ok(_) => table.push_manifold(found.next().expect("one per pair")),
                Err(message) => table.push_error(message),
            }
        }
        let table = id_first(&schema, table.finish(), ids, first..first + chunk.len());
        writer.write(&table).with_context(context)?;
    }
    if rows.is_empty() {
        let table = id_first(&schema, ManifoldsBuilder::default().finish(), ids, 0..0);
        writer.write(&table).with_context(context)?;
    }
    writer.finish().with_context(context)?;
    Ok(run)
}

/// The manifolds table's columns, row by row. Values are kept as the manifold has them (the JSON line
/// writes the same numbers), but a normal with a non-finite component (no penetration
/// answer; the line writes `null`s) is null.
#[derive(Default)]
pub struct ManifoldsBuilder {
    status: StringBuilder,
    normal: Vec<f64>,
    normal_valid: Vec<bool>,
    offsets: Vec<i32>,
    points_valid: Vec<bool>,
    point_a: Vec<f64>,
    point_b: Vec<f64>,
    depth: Vec<f64>,
    feature_id: Vec<u64>,
    error: StringBuilder,
}

impl ManifoldsBuilder {
    /// An answered row.
    pub fn push_manifold(&mut self, m: &Manifold) {
        self.status.append_value(m.status.name());
        self.push_normal(Some(m.normal).filter(|n| n.is_finite()));
        for p in &m.points {
            self.point_a.extend(p.point_a.to_array());
            self.point_b.extend(p.point_b.to_array());
            self.depth.push(p.depth);
            self.feature_id.push(p.id.packed());
        }
        self.end_points(true);
        self.error.append_null();
    }

    /// A row that could not be answered: its message, every other field null.
    pub fn push_error(&mut self, message: &str) {
        self.status.append_null();
        self.push_normal(None);
        self.end_points(false);
        self.error.append_value(message);
    }

    fn push_normal(&mut self, normal: Option<DVec3>) {
        self.normal.extend(normal.unwrap_or(DVec3::ZERO).to_array());
        self.normal_valid.push(normal.is_some());
    }

    fn end_points(&mut self, valid: bool) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        self.offsets.push(self.depth.len() as i32);
        self.points_valid.push(valid);
    }

    /// The rows pushed so far as one record batch; the builder starts empty again.
    pub fn finish(&mut self) -> RecordBatch {
        let mut b = std::mem::take(self);
        let vec3 = |values: Vec<f64>, nulls| -> ArrayRef {
            Arc::new(FixedSizeListArray::new(
                Arc::new(Field::new_list_field(DataType::Float64, true)),
                3,
                Arc::new(Float64Array::from(values)),
                nulls,
            ))
        };
        let point = StructArray::new(
            manifold_point_fields(),
            vec![
                vec3(b.point_a, None),
                vec3(b.point_b, None),
                Arc::new(Float64Array::from(b.depth)),
                Arc::new(UInt64Array::from(b.feature_id)),
            ],
            None,
        );
        if b.offsets.is_empty() {
            b.offsets.push(0);
        }
        let points = ListArray::new(
            Arc::new(Field::new_list_field(
                DataType::Struct(manifold_point_fields()),
                true,
            )),
            OffsetBuffer::new(b.offsets.into()),
            Arc::new(point),
            nulls(b.points_valid),
        );
        let columns: Vec<ArrayRef> = vec![
            Arc::new(b.status.finish()),
            vec3(b.normal, nulls(b.normal_valid)),
            Arc::new(points),
            Arc::new(b.error.finish()),
        ];
        RecordBatch::try_new(manifolds_schema(), columns).expect("the columns follow the schema")
    }
}

/// A validity bitmap, or none when every row is valid.
fn nulls(valid: Vec<bool>) -> Option<NullBuffer> {
    valid.contains(&false).then(|| NullBuffer::from(valid))
}
