//! The shapes table into one centred `ConvexShape` per id, built once (in parallel) however many pairs
//! use it. A table that cannot be read (a missing, unknown or mistyped column, a null or repeated id) is an
//! error naming the file, row and column; a shape with a bad value (no points, a point of 2 numbers, a NaN,
//! a negative radius) only makes the pairs that use it error rows, whose message names the shape's row and
//! column.

use super::columns::{coordinate, F64Column, FixedRows, U32Column};
use super::files::{read_table, BatchFormat};
use super::known_columns::check_columns;
use super::lists::ListRows;
use super::schema::{shapes_schema, type_name};
use crate::error::GjkError;
use crate::io::batch::Executor;
use crate::io::jsonl::parse::{centred_shape, check_radius};
use crate::shape::ConvexShape;
use anyhow::{anyhow, bail};
use arrow_array::RecordBatch;
use arrow_schema::ArrowError;
use glam::DVec3;
use rustc_hash::FxHashMap;
use std::path::Path;
use std::sync::Arc;

/// Where an id leads.
#[derive(Clone, Debug)]
enum Slot {
    /// An index into [`ShapeTable::shapes`].
    Usable(u32),
    /// Why the shape cannot be used: `shapes row 3: radius: -1 is negative`.
    Unusable(Arc<str>),
}

/// The shapes of a batch, centred in float64 as the JSON reader centres a line's points (so both readers
/// give the same shape and pose for the same numbers).
#[derive(Debug, Default)]
pub struct ShapeTable {
    pub shapes: Vec<ConvexShape>,
    /// Each shape's centre, to fold into the poses of the pairs that use it.
    pub centres: Vec<DVec3>,
    slots: FxHashMap<u32, Slot>,
}

impl ShapeTable {
    /// The index of shape `id` in [`Self::shapes`], or why there is none (the message names the pair's
    /// column `side`: `b: no shape has id 99`).
    #[inline]
    pub fn lookup(&self, id: u32, side: &str) -> Result<u32, String> {
        match self.slots.get(&id) {
            Some(Slot::Usable(index)) => Ok(*index),
            Some(Slot::Unusable(why)) => Err(format!("{side}: shape {id} ({why})")),
            None => Err(format!("{side}: no shape has id {id}")),
        }
    }

    /// The index of shape `id` in [`Self::shapes`] when it is usable; [`Self::lookup`] says why not.
    #[inline]
    pub fn usable(&self, id: u32) -> Option<u32> {
        match self.slots.get(&id) {
            Some(Slot::Usable(index)) => Some(*index),
            _ => None,
        }
    }

    /// How many ids the table has, usable or not.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
}

/// One row's points and radius as read, or why the shape cannot be used.
type RawShape = Result<(Vec<DVec3>, f32), String>;

/// Reads the shapes table at `path`.
pub fn read_shapes(
    path: &Path,
    format: BatchFormat,
    exec: &Executor,
) -> anyhow::Result<ShapeTable> {
    let (schema, batches) = read_table(path, format)?;
    check_columns(&schema, "shapes", &shapes_schema())
        .map_err(|message| anyhow!("{}: {message}", path.display()))?;
    shapes_of(batches, path, exec)
}

/// The shapes table in `batches`, read from `path` (which the errors name).
pub fn shapes_of(
    batches: impl IntoIterator<Item = Result<RecordBatch, ArrowError>>,
    path: &Path,
    exec: &Executor,
) -> anyhow::Result<ShapeTable> {
    let at = |message: String| anyhow!("{}: {message}", path.display());
    let mut rows: Vec<(u32, usize, RawShape)> = Vec::new();
    let mut first_row_of: FxHashMap<u32, usize> = FxHashMap::default();
    for batch in batches {
        let batch = batch.map_err(|e| at(format!("cannot read a record batch: {e}")))?;
        let first = rows.len();
        read_batch(&batch, first, &mut rows).map_err(at)?;
        for &(id, row, _) in &rows[first..] {
            if let Some(earlier) = first_row_of.insert(id, row) {
                bail!(
                    "{}: shapes row {row}: id: {id} is also the id of row {earlier}",
                    path.display()
                );
            }
        }
    }
    let built = exec.map(&rows, |(_, row, raw)| {
        let (points, radius) = raw
            .as_ref()
            .map_err(|why| format!("shapes row {row}: {why}"))?;
        centred_shape(points, *radius).map_err(|e| format!("shapes row {row}: {}", shape_error(e)))
    });
    let mut table = ShapeTable::default();
    for ((id, _, _), shape) in rows.iter().zip(built) {
        let slot = match shape {
            Ok((shape, centre)) => {
                table.shapes.push(shape);
                table.centres.push(centre);
                Slot::Usable(table.shapes.len() as u32 - 1)
            }
            Err(why) => Slot::Unusable(why.into()),
        };
        table.slots.insert(*id, slot);
    }
    Ok(table)
}

/// Appends one record batch's rows (`first` is the table row of its first).
fn read_batch(
    batch: &RecordBatch,
    first: usize,
    rows: &mut Vec<(u32, usize, RawShape)>,
) -> Result<(), String> {
    let columns = batch
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let missing =
        |name: &str| format!("the shapes table has no `{name}` column (it has: {columns})");
    let ids = U32Column::find(batch, "id")?.ok_or_else(|| missing("id"))?;
    let radii = F64Column::find(batch, "radius")?;
    let points = batch
        .column_by_name("points")
        .ok_or_else(|| missing("points"))?;
    let mistyped = || {
        format!(
            "column `points`: expected list<fixed_size_list<float64, 3>> (or lists of lists of float64, 3 \
             per point), got {}",
            type_name(points.data_type())
        )
    };
    let lists = ListRows::new(points.as_ref()).ok_or_else(mistyped)?;
    let coordinates = FixedRows::<3>::new(lists.child.as_ref()).ok_or_else(mistyped)?;
    for i in 0..batch.num_rows() {
        let row = first + i;
        let id = ids
            .get(i)
            .ok_or_else(|| format!("shapes row {row}: id: null"))?;
        let raw = if lists.is_null(i) {
            Err("points: expected an array of points, got null".to_string())
        } else {
            shape_points(&coordinates, lists.spans.get(i)).and_then(|p| Ok((p, radius(radii, i)?)))
        };
        rows.push((id, row, raw));
    }
    Ok(())
}

/// A shape's points, each coordinate finite and within the coordinate limit.
fn shape_points(
    coordinates: &FixedRows<3>,
    span: std::ops::Range<usize>,
) -> Result<Vec<DVec3>, String> {
    if span.is_empty() {
        return Err("points: empty point list".into());
    }
    let mut points = Vec::with_capacity(span.len());
    for (k, index) in span.enumerate() {
        let p = coordinates
            .get(index)
            .map_err(|fault| fault.message(format_args!("points[{k}]"), 3))?;
        for (j, x) in p.iter().enumerate() {
            coordinate(*x, format_args!("points[{k}][{j}]"))?;
        }
        points.push(DVec3::from_array(p));
    }
    Ok(points)
}

/// Row `i`'s radius (0 without a `radius` column), with the JSON reader's checks.
fn radius(radii: Option<F64Column>, i: usize) -> Result<f32, String> {
    match radii {
        Some(radii) => check_radius(radii.get(i)?, &"radius"),
        None => Ok(0.0),
    }
}

/// The library's own check, behind the reader's, named by column as the JSON reader names it by field.
fn shape_error(e: GjkError) -> String {
    match e {
        GjkError::EmptyPoints => "points: empty point list".into(),
        GjkError::NonFinitePoint { index } | GjkError::PointOutOfRange { index, .. } => {
            format!("points[{index}]: {e}")
        }
        GjkError::InvalidRadius { .. } => format!("radius: {e}"),
        other => other.to_string(),
    }
}
