//! The pairs table, record batch by record batch, straight into the batch's pairs: shape indices and world
//! poses read from the columns' value buffers, with the JSON reader's rules (coordinate limit, quaternion
//! normalisation, each shape's centre folded into its pose). A bad row becomes its error message; the
//! other rows are answered. A column the schema does not name stops the command before any row is read.

use super::columns::{coordinate, finite, FixedColumn, U32Column};
use super::files::{read_table, BatchFormat};
use super::known_columns::check_columns;
use super::pair_ids::{answer_id_type, append_ids, PairIds, ID_COLUMN};
use super::schema::pairs_schema;
use super::shapes::ShapeTable;
use crate::error::GjkError;
use crate::io::batch::gpu::IndexedPair;
use crate::io::batch::Executor;
use crate::io::jsonl::parse::{normalised, within_coordinate_range};
use crate::pose::{CentredPose, DPose};
use anyhow::anyhow;
use arrow_array::RecordBatch;
use arrow_schema::{ArrowError, DataType, Field, Schema};
use glam::{DQuat, DVec3};
use std::path::Path;
use std::sync::Arc;

/// One pairs-table row: the pair as the batch runs it, or its message (`pairs row 4: b_rotation: ...`).
pub type PairRow = Result<IndexedPair, String>;

/// One side's columns (`a`, `a_position`, `a_rotation`); the pose columns may be absent.
#[derive(Clone, Copy)]
struct Side<'a> {
    name: &'static str,
    id: U32Column<'a>,
    position: Option<FixedColumn<'a, 3>>,
    rotation: Option<FixedColumn<'a, 4>>,
}

impl<'a> Side<'a> {
    fn find(batch: &'a RecordBatch, names: [&'static str; 3]) -> Result<Self, String> {
        let [name, position, rotation] = names;
        let id = U32Column::find(batch, name)?.ok_or_else(|| {
            let columns: Vec<&str> = batch
                .schema_ref()
                .fields()
                .iter()
                .map(|f| f.name().as_str())
                .collect();
            format!(
                "the pairs table has no `{name}` column (it has: {})",
                columns.join(", ")
            )
        })?;
        Ok(Self {
            name,
            id,
            position: FixedColumn::find(batch, position)?,
            rotation: FixedColumn::find(batch, rotation)?,
        })
    }

    /// Row `i`'s shape index and world pose.
    #[inline]
    fn read(&self, i: usize, shapes: &ShapeTable) -> Result<(u32, CentredPose), String> {
        let id = self
            .id
            .get(i)
            .ok_or_else(|| format!("{}: expected a shape id, got null", self.name))?;
        let index = shapes.lookup(id, self.name)?;
        let position = match &self.position {
            None => DVec3::ZERO,
            Some(column) => {
                let p = column.get(i)?;
                for (k, x) in p.iter().enumerate() {
                    coordinate(*x, format_args!("{}[{k}]", column.name))?;
                }
                DVec3::from_array(p)
            }
        };
        let rotation = match &self.rotation {
            None => DQuat::IDENTITY,
            Some(column) => {
                let q = column.get(i)?;
                for (k, x) in q.iter().enumerate() {
                    finite(*x, format_args!("{}[{k}]", column.name))?;
                }
                normalised(DQuat::from_array(q)).ok_or_else(|| {
                    format!(
                        "{}: zero quaternion (all four components are 0)",
                        column.name
                    )
                })?
            }
        };
        let pose = DPose::checked(position, rotation).map_err(|e| self.pose_error(e))?;
        Ok((
            index,
            CentredPose::new(pose, shapes.centres[index as usize]),
        ))
    }

    /// The library's pose check, behind the reader's own, named by column.
    fn pose_error(&self, e: GjkError) -> String {
        let column = match e {
            GjkError::InvalidRotation => "rotation",
            _ => "position",
        };
        format!("{}_{column}: {e}", self.name)
    }
}

/// A side whose columns have no null, read straight from the value buffers without a message on hand: a
/// row that passes every check here gets the shape index and pose [`Side::read`] gives it (the same
/// functions on the same numbers, so the same bits); a row that fails any goes through `Side::read` for
/// its message. Kept apart because the messages' plumbing around the pose's divisions and square roots
/// (two normalisations, their latencies in a chain) kept the processor from working on the next rows
/// meanwhile: on the `bench --io` mix, reading its 21,000 pairs took 2.3 to 2.5 times as long that way (medians
/// of 40 alternated rounds, one thread).
#[derive(Clone, Copy)]
struct PlainSide<'a> {
    ids: &'a [u32],
    positions: Option<&'a [f64]>,
    rotations: Option<&'a [f64]>,
}

impl<'a> PlainSide<'a> {
    /// `None` when a column of `side` has a null.
    fn new(side: &Side<'a>) -> Option<Self> {
        Some(Self {
            ids: side.id.values_without_nulls()?,
            positions: match &side.position {
                None => None,
                Some(column) => Some(column.values_without_nulls()?),
            },
            rotations: match &side.rotation {
                None => None,
                Some(column) => Some(column.values_without_nulls()?),
            },
        })
    }

    /// Row `i`'s shape index and world pose, `None` when a check fails.
    #[inline(always)]
    fn read(&self, i: usize, shapes: &ShapeTable) -> Option<(u32, CentredPose)> {
        let index = shapes.usable(self.ids[i])?;
        let position = self
            .positions
            .map_or(DVec3::ZERO, |p| DVec3::from_slice(&p[3 * i..3 * i + 3]));
        let rotation = match self.rotations {
            None => DQuat::IDENTITY,
            Some(r) => {
                let q = DQuat::from_slice(&r[4 * i..4 * i + 4]);
                if !q.is_finite() {
                    return None;
                }
                normalised(q)?
            }
        };
        // A coordinate other than 0 below float32's smallest normal number is refused, as on a JSON line;
        // `DPose::checked` does the rest of the reader's coordinate check (finite, within the limit).
        if !position.to_array().into_iter().all(within_coordinate_range) {
            return None;
        }
        let pose = DPose::checked(position, rotation).ok()?;
        Some((
            index,
            CentredPose::new(pose, shapes.centres[index as usize]),
        ))
    }
}

/// Row `i` read with every check in turn, for its message when one fails.
#[cold]
#[inline(never)]
fn checked_row(a: &Side, b: &Side, i: usize, first: usize, shapes: &ShapeTable) -> PairRow {
    let pair = a.read(i, shapes).and_then(|(ia, a_pose)| {
        let (ib, b_pose) = b.read(i, shapes)?;
        Ok(IndexedPair {
            a: ia,
            b: ib,
            a_pose,
            b_pose,
        })
    });
    pair.map_err(|why| format!("pairs row {}: {why}", first + i))
}

/// The pairs table's rows, and their ids when the table has an `id` column.
pub type PairRows = (Vec<PairRow>, Option<PairIds>);

/// Reads the pairs table at `path` against `shapes`; one entry per row, in order.
pub fn read_pairs(
    path: &Path,
    format: BatchFormat,
    shapes: &ShapeTable,
    exec: &Executor,
) -> anyhow::Result<PairRows> {
    let (schema, batches) = read_table(path, format)?;
    let at = |message: String| anyhow!("{}: {message}", path.display());
    check_columns(&schema, "pairs", &pairs_columns()).map_err(at)?;
    if let Ok(field) = schema.field_with_name(ID_COLUMN) {
        answer_id_type(field.data_type()).map_err(at)?;
    }
    pairs_of(batches, path, shapes, exec)
}

/// The columns a pairs table may have: [`pairs_schema`]'s and the optional `id`.
fn pairs_columns() -> Schema {
    let mut fields = pairs_schema().fields().to_vec();
    fields.push(Arc::new(Field::new(ID_COLUMN, DataType::Int64, true)));
    Schema::new(fields)
}

/// The pairs table in `batches`, read from `path` (which the errors name) against `shapes`.
pub fn pairs_of(
    batches: impl IntoIterator<Item = Result<RecordBatch, ArrowError>>,
    path: &Path,
    shapes: &ShapeTable,
    exec: &Executor,
) -> anyhow::Result<PairRows> {
    let mut rows = Vec::new();
    let mut ids: Option<PairIds> = None;
    let mut indices: Vec<usize> = Vec::new();
    for batch in batches {
        let at = |message: String| anyhow!("{}: {message}", path.display());
        let batch = batch.map_err(|e| at(format!("cannot read a record batch: {e}")))?;
        if let Some(column) = batch.column_by_name(ID_COLUMN) {
            let data_type = answer_id_type(column.data_type()).map_err(at)?;
            let ids = ids.get_or_insert_with(|| PairIds {
                data_type,
                values: Vec::new(),
            });
            ids.values.resize(rows.len(), None);
            append_ids(column.as_ref(), &mut ids.values);
        }
        let a = Side::find(&batch, ["a", "a_position", "a_rotation"]).map_err(at)?;
        let b = Side::find(&batch, ["b", "b_position", "b_rotation"]).map_err(at)?;
        let first = rows.len();
        indices.clear();
        indices.extend(0..batch.num_rows());
        // In place: collecting each batch's rows first and then appending them doubled the memory this
        // touches (each fresh page a page fault; measured at a fifth of the `bench --io` mix's end-to-end time).
        let plain = PlainSide::new(&a).zip(PlainSide::new(&b));
        exec.map_into(
            &indices,
            |&i| {
                if let Some((plain_a, plain_b)) = plain {
                    if let (Some((ia, a_pose)), Some((ib, b_pose))) =
                        (plain_a.read(i, shapes), plain_b.read(i, shapes))
                    {
                        return Ok(IndexedPair {
                            a: ia,
                            b: ib,
                            a_pose,
                            b_pose,
                        });
                    }
                }
                checked_row(&a, &b, i, first, shapes)
            },
            &mut rows,
        );
    }
    if let Some(ids) = &mut ids {
        ids.values.resize(rows.len(), None);
    }
    Ok((rows, ids))
}
