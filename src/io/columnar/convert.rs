//! A JSON Lines batch (the `query` input) as the two tables of a columnar batch (`gpu-gjk convert`), each
//! distinct shape (the same points and radius) written once and named by id.
//!
//! Values are copied as written, checked only for their structure: a line whose pose or shape breaks a
//! rule (a zero quaternion, a coordinate beyond the limit, a negative radius) becomes a row that `query`
//! answers with the same error on the table as on the line. A line that is not a pair at all (not JSON, a
//! missing or unknown field, a blank line) cannot be a row, and stops the conversion with its line number;
//! so does a coordinate or radius that a float64 column cannot hold (`1e999`, or `1e-400`, which float64
//! reads as 0 and `query` refuses as too small), with `query`'s error for the line.
//!
//! Before a table is written, every line is read as `query` reads it ([`parse_input`], the one set of
//! rules) and every row as `query` reads the tables: a line whose verdict and its row's differ (a line
//! `query` refuses but whose row it would answer, such as a position of 1e-320) stops the conversion, naming
//! the line, so that no table answers what its line does not.

use super::files::{write_table, BatchFormat};
use super::pair_ids::{id_column, ids_type, ID_COLUMN};
use super::pairs::pairs_of;
use super::schema::{pairs_schema, shapes_schema};
use super::shapes::shapes_of;
use crate::io::batch::Executor;
use crate::io::jsonl::lexical::first_vanishing_number;
use crate::io::jsonl::parse::parse_line;
use crate::io::jsonl::reader::{parse_input, read_input, split_lines, ParsedLine};
use crate::io::jsonl::repeated_keys::read_value;
use crate::io::pair_id::PairId;
use anyhow::{anyhow, bail};
use arrow_array::{
    ArrayRef, FixedSizeListArray, Float64Array, ListArray, RecordBatch, UInt32Array,
};
use arrow_buffer::OffsetBuffer;
use arrow_schema::{DataType, Field, Schema};
use rustc_hash::FxHashMap;
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;

/// What a conversion wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Converted {
    pub pairs: usize,
    pub shapes: usize,
}

/// One side of a line as written.
struct RawSide {
    shape: u32,
    position: [f64; 3],
    rotation: [f64; 4],
}

/// The tables being filled.
#[derive(Default)]
struct Tables {
    ids: FxHashMap<(Vec<u64>, u64), u32>,
    points: Vec<f64>,
    offsets: Vec<i32>,
    radii: Vec<f64>,
    sides: [Vec<RawSide>; 2],
    /// Each line's id (`None` for a line without one).
    pair_ids: Vec<Option<PairId>>,
}

/// Converts the JSON Lines batch `input` into the tables `shapes` and `pairs`, each in its format; a line
/// longer than `max_line_bytes` stops it, as it stops `query`.
pub fn convert_jsonl(
    input: &Path,
    (shapes, shapes_format): (&Path, BatchFormat),
    (pairs, pairs_format): (&Path, BatchFormat),
    max_line_bytes: usize,
) -> anyhow::Result<Converted> {
    let text = read_input(input, max_line_bytes)?;
    let mut tables = Tables {
        offsets: vec![0],
        ..Tables::default()
    };
    for (index, line) in split_lines(&text).into_iter().enumerate() {
        let sides = line_sides(line, &mut tables).ok_or_else(|| {
            let why = parse_line(line)
                .err()
                .unwrap_or_else(|| "not a pair".into());
            anyhow!(
                "{}: line {}: {why}; only a pair can be a row of the pairs table",
                input.display(),
                index + 1
            )
        })?;
        for (column, side) in tables.sides.iter_mut().zip(sides) {
            column.push(side);
        }
    }
    let id_type = ids_type(&tables.pair_ids)
        .map_err(|(index, why)| anyhow!("{}: line {}: {why}", input.display(), index + 1))?;
    let converted = Converted {
        pairs: tables.sides[0].len(),
        shapes: tables.radii.len(),
    };
    let [a, b] = std::mem::take(&mut tables.sides);
    let pair_ids = std::mem::take(&mut tables.pair_ids);
    let shapes_table = shapes_batch(tables);
    let schema = pairs_table_schema(id_type.as_ref());
    let ids = |k: usize, len: usize| {
        id_type
            .as_ref()
            .map(|t| id_column(t, &pair_ids[k * ROWS..k * ROWS + len]))
    };
    let pair_batches: Vec<RecordBatch> = a
        .chunks(ROWS)
        .zip(b.chunks(ROWS))
        .enumerate()
        .map(|(k, (a, b))| pairs_batch(&schema, a, b, ids(k, a.len())))
        .collect();
    let pair_batches = if pair_batches.is_empty() {
        vec![pairs_batch(&schema, &[], &[], ids(0, 0))]
    } else {
        pair_batches
    };
    check_rows_as_lines(
        input,
        &text,
        (shapes, &shapes_table),
        (pairs, &pair_batches),
    )?;
    write_table(shapes, shapes_format, &shapes_schema(), &[shapes_table])?;
    write_table(pairs, pairs_format, &schema, &pair_batches)?;
    Ok(converted)
}

/// Rows per record batch of the pairs table.
const ROWS: usize = 1 << 16;

/// [`pairs_schema`], with an `id` column of `id_type` last when the lines have ids.
fn pairs_table_schema(id_type: Option<&DataType>) -> Arc<Schema> {
    let schema = pairs_schema();
    let Some(id_type) = id_type else {
        return schema;
    };
    let mut fields = schema.fields().to_vec();
    fields.push(Arc::new(Field::new(ID_COLUMN, id_type.clone(), true)));
    Arc::new(Schema::new(fields))
}

/// Fails, naming the first such line, when a line of `text` and its row of the tables get different
/// verdicts from `query`: the line refused and the row answered, or the other way round.
fn check_rows_as_lines(
    input: &Path,
    text: &[u8],
    (shapes_path, shapes): (&Path, &RecordBatch),
    (pairs_path, pairs): (&Path, &[RecordBatch]),
) -> anyhow::Result<()> {
    let exec = Executor::Single;
    let parsed = parse_input(text, &exec);
    let shape_table = shapes_of([Ok(shapes.clone())], shapes_path, &exec)?;
    let (rows, _) = pairs_of(
        pairs.iter().cloned().map(Ok),
        pairs_path,
        &shape_table,
        &exec,
    )?;
    for (index, (line, row)) in parsed.iter().zip(&rows).enumerate() {
        match (line, row) {
            (ParsedLine::Error(why), Ok(_)) => bail!(
                "{}: {why}; `query` refuses this line but would answer its row of the tables, so it is not \
                 converted: correct the line or leave it out",
                input.display()
            ),
            (ParsedLine::Pair(_), Err(why)) => bail!(
                "{}: line {}: `query` answers this line but would refuse its row of the tables ({why}), so it \
                 is not converted",
                input.display(),
                index + 1
            ),
            _ => {}
        }
    }
    Ok(())
}

/// A line's two sides, or `None` when it is not a pair object with those fields, or when a coordinate or
/// radius is a number that a float64 column cannot hold: beyond float64 (serde_json refuses the line), or
/// not 0 as written but 0 in float64 (`1e-400`, which `query` refuses as too small and the column would
/// hold as 0).
fn line_sides(line: &[u8], tables: &mut Tables) -> Option<[RawSide; 2]> {
    // Rare (a search for `e-` rules most lines out); a quaternion component may vanish, as 0.
    if first_vanishing_number(line).is_some() && parse_line(line).is_err() {
        return None;
    }
    // A key given twice: `parse_line` names it (serde_json alone would keep the last value).
    let (value, None) = read_value(line).ok()? else {
        return None;
    };
    let fields = value.as_object()?;
    if fields.keys().any(|k| k != "a" && k != "b" && k != "id") {
        return None;
    }
    let id = match fields.get("id") {
        None => None,
        Some(id) => Some(PairId::from_json(id, |_| String::new()).ok()?),
    };
    let sides = [
        side(fields.get("a")?, tables)?,
        side(fields.get("b")?, tables)?,
    ];
    tables.pair_ids.push(id);
    Some(sides)
}

fn side(value: &Value, tables: &mut Tables) -> Option<RawSide> {
    let fields = value.as_object()?;
    let known = ["points", "radius", "position", "rotation"];
    if fields.keys().any(|k| !known.contains(&k.as_str())) {
        return None;
    }
    let points = fields
        .get("points")?
        .as_array()?
        .iter()
        .map(numbers::<3>)
        .collect::<Option<Vec<_>>>()?;
    let radius = match fields.get("radius") {
        None => 0.0,
        Some(r) => r.as_f64()?,
    };
    let position = match fields.get("position") {
        None => [0.0; 3],
        Some(p) => numbers::<3>(p)?,
    };
    let rotation = match fields.get("rotation") {
        None => [0.0, 0.0, 0.0, 1.0],
        Some(q) => numbers::<4>(q)?,
    };
    Some(RawSide {
        shape: tables.shape_id(&points, radius),
        position,
        rotation,
    })
}

fn numbers<const N: usize>(value: &Value) -> Option<[f64; N]> {
    let list = value.as_array()?;
    if list.len() != N {
        return None;
    }
    let mut out = [0.0; N];
    for (x, v) in out.iter_mut().zip(list) {
        *x = v.as_f64()?;
    }
    Some(out)
}

impl Tables {
    /// The id of the shape with these points and radius, added on first sight.
    fn shape_id(&mut self, points: &[[f64; 3]], radius: f64) -> u32 {
        let key = (
            points.iter().flatten().map(|x| x.to_bits()).collect(),
            radius.to_bits(),
        );
        let next = self.radii.len() as u32;
        *self.ids.entry(key).or_insert_with(|| {
            self.points.extend(points.iter().flatten());
            self.offsets.push((self.points.len() / 3) as i32);
            self.radii.push(radius);
            next
        })
    }
}

fn fixed(values: Vec<f64>, width: i32) -> ArrayRef {
    Arc::new(FixedSizeListArray::new(
        Arc::new(Field::new_list_field(DataType::Float64, true)),
        width,
        Arc::new(Float64Array::from(values)),
        None,
    ))
}

fn shapes_batch(tables: Tables) -> RecordBatch {
    let ids = UInt32Array::from_iter_values(0..tables.radii.len() as u32);
    let points = fixed(tables.points, 3);
    let lists = ListArray::new(
        Arc::new(Field::new_list_field(points.data_type().clone(), true)),
        OffsetBuffer::new(tables.offsets.into()),
        points,
        None,
    );
    let columns: Vec<ArrayRef> = vec![
        Arc::new(ids),
        Arc::new(lists),
        Arc::new(Float64Array::from(tables.radii)),
    ];
    RecordBatch::try_new(shapes_schema(), columns).expect("the columns follow shapes_schema")
}

fn pairs_batch(
    schema: &Arc<Schema>,
    a: &[RawSide],
    b: &[RawSide],
    ids: Option<ArrayRef>,
) -> RecordBatch {
    let mut columns: Vec<ArrayRef> = Vec::with_capacity(7);
    for side in [a, b] {
        columns.push(Arc::new(UInt32Array::from_iter_values(
            side.iter().map(|s| s.shape),
        )));
    }
    for side in [a, b] {
        columns.push(fixed(side.iter().flat_map(|s| s.position).collect(), 3));
        columns.push(fixed(side.iter().flat_map(|s| s.rotation).collect(), 4));
    }
    columns.extend(ids);
    RecordBatch::try_new(schema.clone(), columns).expect("the columns follow the schema")
}
