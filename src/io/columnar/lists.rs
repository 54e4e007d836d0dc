//! List columns in every layout the usual writers give them: `fixed_size_list` (this crate, pyarrow's
//! `pa.list_(pa.float64(), 3)`), `list` (Parquet read without an embedded Arrow schema, as DuckDB and other
//! non-Arrow writers store it), `large_list` (Polars) and the `list_view` variants (arrow-ipc reads them).
//! Each is read as rows of its child array's values, without a copy.

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef};
use arrow_buffer::NullBuffer;
use arrow_schema::DataType;
use std::ops::Range;

/// Where each row of a list array lies among its child's values.
#[derive(Clone, Copy, Debug)]
pub enum Spans<'a> {
    /// `fixed_size_list<_, W>`: row `i` is `i * W..(i + 1) * W` (arrow-rs slices the child with the array).
    Fixed(usize),
    /// `list`: row `i` is `offsets[i]..offsets[i + 1]`.
    List(&'a [i32]),
    /// `large_list`.
    LargeList(&'a [i64]),
    /// `list_view`: row `i` is `offsets[i]..offsets[i] + sizes[i]`.
    ListView(&'a [i32], &'a [i32]),
    /// `large_list_view`.
    LargeListView(&'a [i64], &'a [i64]),
}

impl Spans<'_> {
    /// Row `row`'s values in the child array. The readers validate offsets and sizes (in bounds, not
    /// negative) before an array reaches here.
    #[inline]
    pub fn get(&self, row: usize) -> Range<usize> {
        match *self {
            Spans::Fixed(width) => row * width..(row + 1) * width,
            Spans::List(offsets) => offsets[row] as usize..offsets[row + 1] as usize,
            Spans::LargeList(offsets) => offsets[row] as usize..offsets[row + 1] as usize,
            Spans::ListView(offsets, sizes) => {
                let start = offsets[row] as usize;
                start..start + sizes[row] as usize
            }
            Spans::LargeListView(offsets, sizes) => {
                let start = offsets[row] as usize;
                start..start + sizes[row] as usize
            }
        }
    }

    /// The first value of `rows` rows that each hold `width` values, one row after another (what a
    /// `fixed_size_list<_, width>` column holds); `None` when any row lies elsewhere or holds another count.
    pub fn regular_start(&self, rows: usize, width: usize) -> Option<usize> {
        if let Spans::Fixed(w) = *self {
            return (w == width).then_some(0);
        }
        if rows == 0 {
            return Some(0);
        }
        let start = self.get(0).start;
        (0..rows)
            .all(|i| self.get(i) == (start + i * width..start + (i + 1) * width))
            .then_some(start)
    }
}

/// A list array as rows of its child array.
#[derive(Clone, Copy)]
pub struct ListRows<'a> {
    /// The rows' nulls, when there is one.
    pub nulls: Option<&'a NullBuffer>,
    pub spans: Spans<'a>,
    pub child: &'a ArrayRef,
    pub len: usize,
}

impl<'a> ListRows<'a> {
    /// `None` when `array` is not a list of any layout.
    pub fn new(array: &'a dyn Array) -> Option<Self> {
        let (spans, child) = match array.data_type() {
            DataType::FixedSizeList(_, width) => {
                let list = array.as_fixed_size_list();
                (Spans::Fixed(usize::try_from(*width).ok()?), list.values())
            }
            DataType::List(_) => {
                let list = array.as_list::<i32>();
                (Spans::List(list.value_offsets()), list.values())
            }
            DataType::LargeList(_) => {
                let list = array.as_list::<i64>();
                (Spans::LargeList(list.value_offsets()), list.values())
            }
            DataType::ListView(_) => {
                let list = array.as_list_view::<i32>();
                let spans = Spans::ListView(list.value_offsets(), list.value_sizes());
                (spans, list.values())
            }
            DataType::LargeListView(_) => {
                let list = array.as_list_view::<i64>();
                let spans = Spans::LargeListView(list.value_offsets(), list.value_sizes());
                (spans, list.values())
            }
            _ => return None,
        };
        Some(Self {
            nulls: array.nulls().filter(|n| n.null_count() > 0),
            spans,
            child,
            len: array.len(),
        })
    }

    #[inline]
    pub fn is_null(&self, row: usize) -> bool {
        self.nulls.is_some_and(|n| n.is_null(row))
    }
}
