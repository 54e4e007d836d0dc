//! The columnar batch (the shapes and pairs tables, as NumPy views) into the command line's pairs, row by
//! row, with the command line's checks and the same words in its errors: a bad cell is named by its table,
//! row (from 0) and column, `pairs row 5: a_rotation: zero quaternion (all four components are 0)`, and
//! fails that row only. Shapes are built once per id, and only those some pair refers to.

use glam::{DQuat, DVec3};
use gpu_gjk::io::batch::IndexedPair;
use gpu_gjk::io::jsonl::{centred_shape, check_coordinate, check_radius, check_rotation};
use gpu_gjk::{CentredPose, ConvexShape, DPose};
use numpy::{PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::collections::HashMap;
use std::fmt;

/// A column of `N`-vectors (points, positions, rotations): the values as an `(n, N)` float64 array, and where
/// the column had nulls, which cells (`cell_valid`, one per row) and which numbers (`value_valid`, `(n, N)`)
/// were there.
#[derive(FromPyObject)]
pub struct VectorColumn<'py> {
    #[pyo3(item)]
    values: PyReadonlyArray2<'py, f64>,
    #[pyo3(item)]
    cell_valid: Option<PyReadonlyArray1<'py, bool>>,
    #[pyo3(item)]
    value_valid: Option<PyReadonlyArray2<'py, bool>>,
}

/// A column of numbers (ids or radii), with its nulls.
#[derive(FromPyObject)]
pub struct ScalarColumn<'py, T: numpy::Element> {
    #[pyo3(item)]
    values: PyReadonlyArray1<'py, T>,
    #[pyo3(item)]
    cell_valid: Option<PyReadonlyArray1<'py, bool>>,
}

/// The shapes table: `points` row `k` is the rows `offsets[k]..offsets[k + 1]` of the points column's values.
#[derive(FromPyObject)]
pub struct ShapeColumns<'py> {
    #[pyo3(item)]
    id: PyReadonlyArray1<'py, u32>,
    #[pyo3(item)]
    offsets: PyReadonlyArray1<'py, i64>,
    #[pyo3(item)]
    points: VectorColumn<'py>,
    #[pyo3(item)]
    radius: Option<ScalarColumn<'py, f64>>,
}

/// The pairs table; an absent pose column is the identity.
#[derive(FromPyObject)]
pub struct PairColumns<'py> {
    #[pyo3(item)]
    a: ScalarColumn<'py, u32>,
    #[pyo3(item)]
    b: ScalarColumn<'py, u32>,
    #[pyo3(item)]
    a_position: Option<VectorColumn<'py>>,
    #[pyo3(item)]
    a_rotation: Option<VectorColumn<'py>>,
    #[pyo3(item)]
    b_position: Option<VectorColumn<'py>>,
    #[pyo3(item)]
    b_rotation: Option<VectorColumn<'py>>,
}

/// Borrowed slices of a [`VectorColumn`], checked for shape and contiguity.
struct Vectors<'a, const N: usize> {
    values: &'a [f64],
    cell_valid: Option<&'a [bool]>,
    value_valid: Option<&'a [bool]>,
}

fn contiguous<'a, T: numpy::Element>(
    array: &'a numpy::PyReadonlyArray<'_, T, impl numpy::ndarray::Dimension>,
    name: &str,
) -> PyResult<&'a [T]> {
    array
        .as_slice()
        .map_err(|_| PyValueError::new_err(format!("{name}: the array must be C-contiguous")))
}

/// Checks that a column of `width`-wide rows has `expected` rows.
fn rows_of(len: usize, width: usize, expected: usize, name: &str, what: &str) -> PyResult<()> {
    match len == expected * width {
        true => Ok(()),
        false => Err(PyValueError::new_err(format!(
            "{name}: {what} has {} rows, expected {expected}",
            len / width
        ))),
    }
}

impl<'py> VectorColumn<'py> {
    /// The column's slices: `rows` vectors, and `cells` cell flags (the rows of the table, which for the
    /// points column are the shapes, not the points).
    fn slices<const N: usize>(
        &self,
        name: &str,
        rows: usize,
        cells: usize,
    ) -> PyResult<Vectors<'_, N>> {
        let shape = self.values.shape();
        if shape[1] != N {
            return Err(PyValueError::new_err(format!(
                "{name}: expected an array of shape (n, {N}), got {shape:?}"
            )));
        }
        let values = contiguous(&self.values, name)?;
        rows_of(values.len(), N, rows, name, "the column")?;
        let cell_valid = self
            .cell_valid
            .as_ref()
            .map(|v| contiguous(v, name))
            .transpose()?;
        if let Some(v) = cell_valid {
            rows_of(v.len(), 1, cells, name, "the cell validity")?;
        }
        let value_valid = self
            .value_valid
            .as_ref()
            .map(|v| contiguous(v, name))
            .transpose()?;
        if let Some(v) = value_valid {
            rows_of(v.len(), N, rows, name, "the value validity")?;
        }
        Ok(Vectors {
            values,
            cell_valid,
            value_valid,
        })
    }
}

/// `pairs row 5` or `shapes row 2`, the start of every message about a cell.
#[derive(Clone, Copy)]
struct Row {
    table: &'static str,
    row: usize,
}

impl fmt::Display for Row {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} row {}", self.table, self.row)
    }
}

impl<const N: usize> Vectors<'_, N> {
    /// Vector `k`, each number checked by `check` and named `{at}: {column}[i]`; `of` is what a null cell
    /// (row `cell`) should have been, for its message.
    fn get(
        &self,
        k: usize,
        cell: usize,
        at: &dyn fmt::Display,
        of: &str,
        check: impl Fn(f64, &dyn fmt::Display) -> Result<(), String>,
    ) -> Result<[f64; N], String> {
        if self.cell_valid.is_some_and(|v| !v[cell]) {
            return Err(format!("{at}: expected {of}, got null"));
        }
        let mut out = [0.0; N];
        for (i, x) in out.iter_mut().enumerate() {
            let at = format_args!("{at}[{i}]");
            if self.value_valid.is_some_and(|v| !v[k * N + i]) {
                return Err(format!("{at}: expected a number, got null"));
            }
            *x = self.values[k * N + i];
            check(*x, &at)?;
        }
        Ok(out)
    }
}

/// A shape id's shapes row, or the first two rows of an id that is not unique.
type IdRow = Result<usize, [usize; 2]>;

/// id -> [`IdRow`]: looked up twice per pair row, the hottest step of reading one, so a table indexed by id
/// where the ids are dense enough (at most a few times as many slots as shapes), else a hash map.
enum IdIndex {
    Dense(Vec<Option<IdRow>>),
    Sparse(HashMap<u32, IdRow>),
}

/// Slots a dense index may have beyond 4 per shape.
const DENSE_SLACK: usize = 1 << 16;

impl IdIndex {
    fn new(ids: &[u32]) -> Self {
        let record = |row: &mut IdRow, k: usize| {
            if let Ok(first) = *row {
                *row = Err([first, k]);
            }
        };
        let max = ids.iter().max().map_or(0, |&m| m as usize + 1);
        if max <= 4 * ids.len() + DENSE_SLACK {
            let mut table: Vec<Option<IdRow>> = vec![None; max];
            for (k, &id) in ids.iter().enumerate() {
                match &mut table[id as usize] {
                    Some(row) => record(row, k),
                    slot => *slot = Some(Ok(k)),
                }
            }
            return IdIndex::Dense(table);
        }
        let mut map: HashMap<u32, IdRow> = HashMap::with_capacity(ids.len());
        for (k, &id) in ids.iter().enumerate() {
            map.entry(id)
                .and_modify(|row| record(row, k))
                .or_insert(Ok(k));
        }
        IdIndex::Sparse(map)
    }

    #[inline]
    fn get(&self, id: u32) -> Option<IdRow> {
        match self {
            IdIndex::Dense(table) => table.get(id as usize).copied().flatten(),
            IdIndex::Sparse(map) => map.get(&id).copied(),
        }
    }
}

/// A shape ready to be placed: its index in [`Shapes::list`] and its centre, built once and shared by every
/// pair that refers to its id.
type Built = Result<(u32, DVec3), String>;

/// The shapes table, borrowed, with each shape built the first time a pair refers to it.
pub struct Shapes<'a> {
    offsets: &'a [i64],
    points: Vectors<'a, 3>,
    point_cells: Option<&'a [bool]>,
    radius: Option<(&'a [f64], Option<&'a [bool]>)>,
    /// id -> shapes row, or the rows of an id that is not unique.
    rows: IdIndex,
    built: Vec<Option<Built>>,
    /// The shapes built so far (centred), which the pairs index.
    list: Vec<ConvexShape>,
}

impl<'a> Shapes<'a> {
    pub fn new(columns: &'a ShapeColumns<'_>) -> PyResult<Self> {
        let ids = contiguous(&columns.id, "shapes id")?;
        let n = ids.len();
        let offsets = contiguous(&columns.offsets, "shapes points offsets")?;
        rows_of(offsets.len(), 1, n + 1, "shapes points", "the offsets")?;
        let total = columns.points.values.shape()[0];
        if offsets.windows(2).any(|w| w[0] > w[1])
            || offsets.first().is_some_and(|&o| o < 0)
            || offsets.last().is_some_and(|&o| o as usize > total)
        {
            return Err(PyValueError::new_err(format!(
                "shapes points: the offsets must rise from 0 to at most {total}"
            )));
        }
        let mut points = columns.points.slices::<3>("shapes points", total, n)?;
        // The cells are the shapes' (a null list), the values the points' (a null point or number).
        let point_cells = points.cell_valid.take();
        let radius = match &columns.radius {
            None => None,
            Some(column) => {
                let values = contiguous(&column.values, "shapes radius")?;
                rows_of(values.len(), 1, n, "shapes radius", "the column")?;
                let valid = column
                    .cell_valid
                    .as_ref()
                    .map(|v| contiguous(v, "shapes radius"))
                    .transpose()?;
                Some((values, valid))
            }
        };
        let rows = IdIndex::new(ids);
        Ok(Self {
            offsets,
            points,
            point_cells,
            radius,
            rows,
            built: vec![None; n],
            list: Vec::new(),
        })
    }

    /// Builds the shape with `id` if a unique shapes row has it and it is not built yet.
    fn prepare(&mut self, id: u32) {
        let Some(Ok(row)) = self.rows.get(id) else {
            return;
        };
        if self.built[row].is_none() {
            let built = self.build(row).map(|(shape, centre)| {
                self.list.push(shape);
                (self.list.len() as u32 - 1, centre)
            });
            self.built[row] = Some(built);
        }
    }

    /// The shape with `id`, or why there is none (the message follows `{at}: {column}: `); `id` must have
    /// been prepared ([`Pairs::prepare_shapes`]).
    fn get(&self, id: u32) -> Built {
        let row = match self.rows.get(id) {
            None => return Err(format!("no shape has id {id}")),
            Some(Err([first, second])) => {
                return Err(format!(
                    "shape id {id} is on shapes rows {first} and {second} (ids must be unique)"
                ))
            }
            Some(Ok(row)) => row,
        };
        match self.built[row].as_ref().expect("prepared") {
            Ok(built) => Ok(*built),
            Err(message) => Err(format!("shape {id} is refused: {message}")),
        }
    }

    /// The shapes the pairs index.
    pub fn list(&self) -> &[ConvexShape] {
        &self.list
    }

    fn build(&self, k: usize) -> Result<(ConvexShape, DVec3), String> {
        let at = Row {
            table: "shapes",
            row: k,
        };
        if self.point_cells.is_some_and(|v| !v[k]) {
            return Err(format!(
                "{at}: points: expected an array of points, got null"
            ));
        }
        let (start, end) = (self.offsets[k] as usize, self.offsets[k + 1] as usize);
        if start == end {
            return Err(format!("{at}: points: empty point list"));
        }
        let mut points = Vec::with_capacity(end - start);
        for (i, p) in (start..end).enumerate() {
            let column = format_args!("{at}: points[{i}]");
            let xyz = self
                .points
                .get(p, p, &column, "3 numbers", check_coordinate)?;
            points.push(DVec3::from_array(xyz));
        }
        let radius = match self.radius {
            None => 0.0,
            Some((_, Some(valid))) if !valid[k] => {
                return Err(format!("{at}: radius: expected a number, got null"))
            }
            Some((values, _)) => check_radius(values[k], &format_args!("{at}: radius"))?,
        };
        centred_shape(&points, radius).map_err(|e| format!("{at}: points: {e}"))
    }
}

/// The pairs table, borrowed and checked for shape.
pub struct Pairs<'a> {
    len: usize,
    ids: [(&'a [u32], Option<&'a [bool]>); 2],
    positions: [Option<Vectors<'a, 3>>; 2],
    rotations: [Option<Vectors<'a, 4>>; 2],
}

const SIDES: [&str; 2] = ["a", "b"];

impl<'a> Pairs<'a> {
    pub fn new(columns: &'a PairColumns<'_>) -> PyResult<Self> {
        let ids = |column: &'a ScalarColumn<'_, u32>, name: &str| -> PyResult<_> {
            let values = contiguous(&column.values, name)?;
            let valid = column
                .cell_valid
                .as_ref()
                .map(|v| contiguous(v, name))
                .transpose()?;
            Ok((values, valid))
        };
        let a = ids(&columns.a, "pairs a")?;
        let b = ids(&columns.b, "pairs b")?;
        let len = a.0.len();
        rows_of(b.0.len(), 1, len, "pairs b", "the column")?;
        for (name, valid) in [("pairs a", a.1), ("pairs b", b.1)] {
            if let Some(v) = valid {
                rows_of(v.len(), 1, len, name, "the cell validity")?;
            }
        }
        fn vectors<'a, const N: usize>(
            column: &'a Option<VectorColumn<'_>>,
            name: &str,
            len: usize,
        ) -> PyResult<Option<Vectors<'a, N>>> {
            column
                .as_ref()
                .map(|c| c.slices::<N>(name, len, len))
                .transpose()
        }
        Ok(Self {
            len,
            ids: [a, b],
            positions: [
                vectors(&columns.a_position, "pairs a_position", len)?,
                vectors(&columns.b_position, "pairs b_position", len)?,
            ],
            rotations: [
                vectors(&columns.a_rotation, "pairs a_rotation", len)?,
                vectors(&columns.b_rotation, "pairs b_rotation", len)?,
            ],
        })
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Builds every shape some row names (once per id), so that the rows can then be read in parallel.
    pub fn prepare_shapes(&self, shapes: &mut Shapes) {
        for (ids, valid) in self.ids {
            for (k, &id) in ids.iter().enumerate() {
                if valid.is_none_or(|v| v[k]) {
                    shapes.prepare(id);
                }
            }
        }
    }

    /// Row `k` as the command line's pair (indices into [`Shapes::list`] and world poses), or the message
    /// of its first bad cell (A's cells, then B's), which names it as row `first_row + k`.
    pub fn pair(&self, k: usize, first_row: usize, shapes: &Shapes) -> Result<IndexedPair, String> {
        let at = Row {
            table: "pairs",
            row: first_row + k,
        };
        let (a, a_pose) = self.placed(k, 0, at, shapes)?;
        let (b, b_pose) = self.placed(k, 1, at, shapes)?;
        Ok(IndexedPair {
            a,
            b,
            a_pose,
            b_pose,
        })
    }

    fn placed(
        &self,
        k: usize,
        side: usize,
        at: Row,
        shapes: &Shapes,
    ) -> Result<(u32, CentredPose), String> {
        let name = SIDES[side];
        let (ids, valid) = self.ids[side];
        if valid.is_some_and(|v| !v[k]) {
            return Err(format!("{at}: {name}: expected a shape id, got null"));
        }
        let (index, centre) = shapes
            .get(ids[k])
            .map_err(|e| format!("{at}: {name}: {e}"))?;
        let position = match &self.positions[side] {
            None => DVec3::ZERO,
            Some(column) => DVec3::from_array(column.get(
                k,
                k,
                &format_args!("{at}: {name}_position"),
                "an array of 3 numbers",
                check_coordinate,
            )?),
        };
        let rotation = match &self.rotations[side] {
            None => DQuat::IDENTITY,
            Some(column) => {
                let label = format_args!("{at}: {name}_rotation");
                let q = column.get(
                    k,
                    k,
                    &label,
                    "an array of 4 numbers [x, y, z, w]",
                    |_, _| Ok(()),
                )?;
                check_rotation(q, &label)?
            }
        };
        let pose = DPose::checked(position, rotation)
            .map_err(|e| format!("{at}: {name}_position: {e}"))?;
        Ok((index, CentredPose::new(pose, centre)))
    }
}
