//! Typed access to a record batch's columns, straight on the arrays' value buffers: a column of the wrong
//! type is an error for the whole table (its message names the column and both types); a null or a bad
//! value, or a list row of the wrong length, is an error for its row (its message names the column and the
//! element, as `query` names a JSON field: `a_position[1]: NaN is not a finite number`, `a_position:
//! expected 3 numbers, got 2`).

use super::lists::{ListRows, Spans};
use super::schema::type_name;
use crate::io::jsonl::parse::{check_coordinate, check_finite};
use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, UInt32Type};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_buffer::NullBuffer;
use arrow_schema::DataType;
use std::fmt::Display;

/// The column `name` of `batch`, if there is one.
fn column<'a>(batch: &'a RecordBatch, name: &str) -> Option<&'a ArrayRef> {
    batch.column_by_name(name)
}

fn wrong_type(name: &str, expected: &str, got: &DataType) -> String {
    format!(
        "column `{name}`: expected {expected}, got {}",
        type_name(got)
    )
}

/// A `uint32` column: its values and nulls.
#[derive(Clone, Copy)]
pub struct U32Column<'a> {
    values: &'a [u32],
    nulls: Option<&'a NullBuffer>,
}

impl<'a> U32Column<'a> {
    /// The column, `None` when the batch has none; an error when it is not `uint32`.
    pub fn find(batch: &'a RecordBatch, name: &'static str) -> Result<Option<Self>, String> {
        let Some(array) = column(batch, name) else {
            return Ok(None);
        };
        let Some(ids) = array.as_primitive_opt::<UInt32Type>() else {
            return Err(wrong_type(name, "uint32", array.data_type()));
        };
        Ok(Some(Self {
            values: ids.values(),
            nulls: ids.nulls().filter(|n| n.null_count() > 0),
        }))
    }

    /// Every row's value, when the column has no null.
    pub fn values_without_nulls(&self) -> Option<&'a [u32]> {
        self.nulls.is_none().then_some(self.values)
    }

    /// Row `row`'s value, `None` when null.
    #[inline]
    pub fn get(&self, row: usize) -> Option<u32> {
        match self.nulls {
            Some(nulls) if nulls.is_null(row) => None,
            _ => Some(self.values[row]),
        }
    }
}

/// A `float64` column.
#[derive(Clone, Copy)]
pub struct F64Column<'a> {
    pub name: &'static str,
    values: &'a [f64],
    nulls: Option<&'a NullBuffer>,
}

impl<'a> F64Column<'a> {
    pub fn find(batch: &'a RecordBatch, name: &'static str) -> Result<Option<Self>, String> {
        let Some(array) = column(batch, name) else {
            return Ok(None);
        };
        let Some(values) = array.as_primitive_opt::<Float64Type>() else {
            return Err(wrong_type(name, "float64", array.data_type()));
        };
        Ok(Some(Self {
            name,
            values: values.values(),
            nulls: values.nulls().filter(|n| n.null_count() > 0),
        }))
    }

    /// Row `row`'s value, or `expected a number, got null`.
    #[inline]
    pub fn get(&self, row: usize) -> Result<f64, String> {
        match self.nulls {
            Some(nulls) if nulls.is_null(row) => {
                Err(format!("{}: expected a number, got null", self.name))
            }
            _ => Ok(self.values[row]),
        }
    }
}

/// A column of N float64 values per row (N = 3 or 4): `fixed_size_list<float64, N>`, or any other list
/// layout of float64 ([`ListRows`]) whose rows each hold N values.
#[derive(Clone, Copy)]
pub struct FixedColumn<'a, const N: usize> {
    pub name: &'static str,
    rows: FixedRows<'a, N>,
}

impl<'a, const N: usize> FixedColumn<'a, N> {
    pub fn find(batch: &'a RecordBatch, name: &'static str) -> Result<Option<Self>, String> {
        let Some(array) = column(batch, name) else {
            return Ok(None);
        };
        let rows = FixedRows::new(array).ok_or_else(|| {
            wrong_type(
                name,
                &format!("fixed_size_list<float64, {N}> (or a list of float64, {N} per row)"),
                array.data_type(),
            )
        })?;
        Ok(Some(Self { name, rows }))
    }

    /// Every row's N values, one row after another, when neither the lists nor their values have a null and
    /// every row holds N values.
    pub fn values_without_nulls(&self) -> Option<&'a [f64]> {
        self.rows.values_without_nulls()
    }

    /// Row `row`'s N values, or the message naming the null or the count (`a_rotation[2]: ...`).
    #[inline]
    pub fn get(&self, row: usize) -> Result<[f64; N], String> {
        self.rows
            .get(row)
            .map_err(|fault| fault.message(self.name, N))
    }
}

/// Rows of N float64 values in a list array of any layout (a column, or a shape's points).
#[derive(Clone, Copy)]
pub struct FixedRows<'a, const N: usize> {
    /// The child array's values.
    values: &'a [f64],
    list_nulls: Option<&'a NullBuffer>,
    value_nulls: Option<&'a NullBuffer>,
    /// Where each row lies in `values`.
    spans: Spans<'a>,
    /// When every row holds N values one after another (always so in a `fixed_size_list<float64, N>`):
    /// where the first starts. The rows are then read without their spans.
    regular_start: Option<usize>,
    len: usize,
}

/// Why a row has no N values: the whole list is null, element `k` is, or it holds another count.
#[derive(Clone, Copy, Debug)]
pub enum RowFault {
    NullList,
    NullElement(usize),
    Count(usize),
}

impl RowFault {
    /// `NAME: expected an array of 3 numbers, got null`, `NAME[k]: expected a number, got null` or
    /// `NAME: expected 3 numbers, got 2`, as `query` words a JSON `null` or a short array there.
    pub fn message(self, name: impl Display, width: usize) -> String {
        let what = if width == 4 { " [x, y, z, w]" } else { "" };
        match self {
            RowFault::NullList => {
                format!("{name}: expected an array of {width} numbers{what}, got null")
            }
            RowFault::NullElement(k) => format!("{name}[{k}]: expected a number, got null"),
            RowFault::Count(got) => format!("{name}: expected {width} numbers{what}, got {got}"),
        }
    }
}

impl<'a, const N: usize> FixedRows<'a, N> {
    /// `None` when `array` is not a list of float64, or is a `fixed_size_list` of another width.
    pub fn new(array: &'a dyn Array) -> Option<Self> {
        let lists = ListRows::new(array)?;
        if matches!(lists.spans, Spans::Fixed(width) if width != N) {
            return None;
        }
        let values = lists.child.as_primitive_opt::<Float64Type>()?;
        Some(Self {
            values: values.values(),
            list_nulls: lists.nulls,
            value_nulls: values.nulls().filter(|n| n.null_count() > 0),
            spans: lists.spans,
            regular_start: lists.spans.regular_start(lists.len, N),
            len: lists.len,
        })
    }

    /// Every row's N values, one row after another, when neither the lists nor their values have a null
    /// and every row holds N values.
    pub fn values_without_nulls(&self) -> Option<&'a [f64]> {
        if self.list_nulls.is_some() || self.value_nulls.is_some() {
            return None;
        }
        let start = self.regular_start?;
        self.values.get(start..start + self.len * N)
    }

    #[inline]
    pub fn get(&self, row: usize) -> Result<[f64; N], RowFault> {
        if self.list_nulls.is_some_and(|n| n.is_null(row)) {
            return Err(RowFault::NullList);
        }
        let start = match self.regular_start {
            Some(first) => first + row * N,
            None => {
                let span = self.spans.get(row);
                if span.len() != N {
                    return Err(RowFault::Count(span.len()));
                }
                span.start
            }
        };
        if let Some(nulls) = self.value_nulls {
            if let Some(k) = (0..N).find(|&k| nulls.is_null(start + k)) {
                return Err(RowFault::NullElement(k));
            }
        }
        let mut out = [0.0; N];
        out.copy_from_slice(&self.values[start..start + N]);
        Ok(out)
    }
}

/// `x`, or `AT: NaN is not a finite number` (the JSON reader's check and words).
#[inline]
pub fn finite(x: f64, at: impl Display) -> Result<f64, String> {
    check_finite(x, &at).map(|()| x)
}

/// `x` when finite and within the coordinate limit (the JSON reader's rule and words for points and
/// positions).
#[inline]
pub fn coordinate(x: f64, at: impl Display) -> Result<f64, String> {
    check_coordinate(x, &at).map(|()| x)
}
