"""Column values as the native half reads them, uint32 ids and float64 numbers, from what Python code has at
hand: NumPy arrays of any integer or float type, nested lists, pandas columns (nullable ones included),
masked arrays, or anything with ``to_numpy`` or ``__array__``.

A value is converted only when nothing is lost: an integer id within 0..=4294967295, a float32 (or float16)
number, an integer that float64 holds exactly, a longdouble that is a float64. Anything else is refused with
the message ``strict=True`` gives for the wrong type, followed by the first value that does not fit and
where it is: ``pairs['a']: expected uint32 values, got int64 -1 at index 3 (shape ids are 0 to
4294967295)``. Nulls (``None``, ``pandas.NA``, a masked value) become null cells, which fail their row with
the command line's words, as a null in an Arrow table does.
"""

from __future__ import annotations

import numbers
import sys

import numpy as np

ID_MAX = 0xFFFF_FFFF
_ID_RANGE = "shape ids are 0 to 4294967295"
_NOT_EXACT = "not exactly a float64"


class Target:
    """What a column must hold, for the messages: ``{label}: expected {expected}, got ...``, a value named
    by its ``{place} {index}``."""

    def __init__(self, label, expected, place="index"):
        self.label, self.expected, self.place = label, expected, place

    def wrong_type(self, dtype):
        return ValueError(f"{self.label}: expected {self.expected}, got {dtype}")

    def wrong_value(self, what, index, why=None):
        reason = f" ({why})" if why else ""
        where = f"{self.place} {index}"
        return ValueError(f"{self.label}: expected {self.expected}, got {what} at {where}{reason}")


def is_null(x):
    if x is None:
        return True
    pandas = sys.modules.get("pandas")
    return pandas is not None and x is pandas.NA


def is_missing(cell):
    """Whether a cell that should hold a sequence is missing: a null, or the NaN pandas puts there."""
    return is_null(cell) or (isinstance(cell, (float, np.floating)) and np.isnan(cell))


def is_pandas(value, kind):
    """Whether ``value`` is a ``pandas.{kind}`` (``DataFrame``, ``Series``) or, for ``"array"``, a pandas
    extension array (``pandas.array([1, None], dtype="Int64")``); without importing pandas: if it is not
    loaded, it is not."""
    pandas = sys.modules.get("pandas")
    if pandas is None:
        return False
    if kind == "array":
        return isinstance(value, pandas.api.extensions.ExtensionArray)
    return isinstance(value, getattr(pandas, kind))


def source(value):
    """``value`` as a NumPy array and its nulls (a bool array, True where null, or None when there is none).

    An array holding Python objects (a ragged list, a column of per-row lists, a list with ``None``) is
    returned as such, for the per-cell readers below."""
    if is_pandas(value, "Series"):
        return _from_pandas(value)
    if is_pandas(value, "array"):
        return _from_pandas(sys.modules["pandas"].Series(value, copy=False))
    if isinstance(value, np.ma.MaskedArray):
        mask = np.ma.getmaskarray(value)
        if mask.any():
            return np.asarray(value.filled(0)), mask
        return np.asarray(value.data), None
    if isinstance(value, (list, tuple)):
        return _from_list(value), None
    if not isinstance(value, np.ndarray) and hasattr(value, "to_numpy"):
        try:
            value = value.to_numpy(zero_copy_only=False)  # a pyarrow Array
        except TypeError:
            value = value.to_numpy()
    return np.asarray(value), None


def _from_pandas(series):
    """A pandas column's values and nulls: a NumPy-backed column as it is (a NaN stays a number, as in a
    NumPy array), a nullable one (``Int64``, ``Float32``, ``ArrowDtype``, object) with its nulls apart."""
    dtype = series.dtype
    if isinstance(dtype, np.dtype) and dtype != object:
        return series.to_numpy(), None
    nulls = series.isna().to_numpy()
    numpy_dtype = getattr(dtype, "numpy_dtype", None)
    if numpy_dtype is not None and np.dtype(numpy_dtype).kind in "iuf":
        values = series.to_numpy(dtype=numpy_dtype, na_value=0)
    else:
        values = series.to_numpy()
        if values.dtype != object:
            values = values.astype(object)
    return values, (nulls if nulls.any() else None)


def _from_list(value):
    """A nested list as NumPy reads it, unless that would round (a Python int beyond 2**53 among floats) or
    fail (rows of different lengths): then as an array of the rows, read cell by cell."""
    try:
        array = np.asarray(value)
    except (ValueError, TypeError, OverflowError):
        array = None
    if array is not None and array.dtype != object:
        if array.dtype.kind != "f" or not np.any(np.abs(array[np.isfinite(array)]) >= 2.0**53):
            return array
    rows = np.empty(len(value), dtype=object)
    for i, row in enumerate(value):
        rows[i] = row
    return rows


def _index(shape, flat, row=None):
    """Flat position ``flat`` of an array of ``shape`` as ``3`` or ``(3, 1)`` (``row`` first when given)."""
    where = [int(i) for i in np.unravel_index(flat, shape)]
    if row is not None:
        where = [row, *where]
    return where[0] if len(where) == 1 else tuple(where)


def _not_null(bad, nulls):
    """``bad`` where the value is not null (``nulls``: per value, or per row of a 2-D ``bad``)."""
    if nulls is None:
        return bad
    return bad & ~(nulls if nulls.shape == bad.shape else nulls[:, None])


# ---- ids ----------------------------------------------------------------------------------------------


def ids(value, target):
    """A column of shape ids as uint32, and its validity (None when nothing is null)."""
    array, nulls = source(value)
    if array.size == 0 and array.ndim == 1:
        return np.zeros(0, dtype=np.uint32), None  # [] reads as float64: no value, nothing to convert
    if array.dtype == object and array.ndim == 1:
        return _object_ids(array, nulls, target)
    if array.dtype == np.uint32:
        return array, _valid(nulls)
    if array.dtype.kind not in "iu":
        raise target.wrong_type(array.dtype)
    bad = _not_null((array < 0) | (array > ID_MAX), nulls)
    if bad.any():
        k = int(np.argmax(bad.reshape(-1)))
        what = f"{array.dtype} {str(array.reshape(-1)[k])}"
        raise target.wrong_value(what, _index(array.shape, k), _ID_RANGE)
    return array.astype(np.uint32), _valid(nulls)


def _object_ids(cells, nulls, target):
    out = np.zeros(len(cells), dtype=np.uint32)
    null = np.zeros(len(cells), dtype=bool) if nulls is None else nulls.copy()
    for i, x in enumerate(cells):
        if null[i] or is_null(x):
            null[i] = True
        elif isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Integral):
            raise target.wrong_value(f"{type(x).__name__} {x!r}", i)
        elif not 0 <= int(x) <= ID_MAX:
            raise target.wrong_value(f"{type(x).__name__} {x}", i, _ID_RANGE)
        else:
            out[i] = int(x)
    return out, _valid(null)


# ---- float64 numbers ----------------------------------------------------------------------------------


def exact_float64(array, target, nulls=None, row=None):
    """A numeric array as float64 when every value is one exactly, else the refusal of the first that is
    not (its index after ``row`` when given: the array is that row of a column)."""
    if array.dtype == np.float64:
        return array
    kind, size = array.dtype.kind, array.dtype.itemsize
    if (kind == "f" and size <= 8) or (kind in "iu" and size <= 4):
        return array.astype(np.float64)
    if kind not in "iuf":
        raise target.wrong_type(array.dtype)
    with np.errstate(invalid="ignore", over="ignore"):
        converted = array.astype(np.float64)
        bad = converted.astype(array.dtype) != array
        if kind == "f":
            bad &= ~np.isnan(array)
        else:
            # Beyond the integer type the cast back means nothing (it may even saturate to the original).
            bad |= np.abs(converted) >= float(np.iinfo(array.dtype).max)
    bad = _not_null(bad, nulls)
    if bad.any():
        k = int(np.argmax(bad.reshape(-1)))
        what = f"{array.dtype} {str(array.reshape(-1)[k])}"
        raise target.wrong_value(what, _index(array.shape, k, row), _NOT_EXACT)
    return converted


def _object_number(x, at, target):
    """One Python number as float64 exactly, or None for a null."""
    if is_null(x):
        return None
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
        raise target.wrong_value(f"{type(x).__name__} {x!r}", at)
    if isinstance(x, numbers.Integral):
        n = int(x)
        if abs(n) >= 2**1024 or int(float(n)) != n:
            raise target.wrong_value(f"{type(x).__name__} {x}", at, _NOT_EXACT)
        return float(n)
    value = np.float64(x)
    if not (value == x or np.isnan(value)):
        raise target.wrong_value(f"{type(x).__name__} {x!r}", at, _NOT_EXACT)
    return float(value)


def floats(value, target, width, shape_error):
    """A column of numbers (``width`` None) or of ``width``-vectors as float64 (n,) or (n, width), with its
    cell validity (n,) and, for vectors, its value validity (n, width), each None when nothing is null.
    ``shape_error(shape)`` refuses an array of the wrong shape."""
    array, nulls = source(value)
    if array.size == 0 and array.ndim == 1:
        array = np.zeros((0,) if width is None else (0, width))  # [] has no shape beyond its length
    cell_null = value_null = None
    if array.dtype == object:
        array, cell_null, value_null = _object_floats(array, nulls, width, target, shape_error)
    elif nulls is not None:
        cell_null, value_null = (nulls, None) if nulls.ndim == 1 else (None, nulls)
    ndim = 1 if width is None else 2
    if array.ndim != ndim or (width is not None and array.shape[1] != width):
        raise shape_error(array.shape)
    values = exact_float64(array, target, value_null if value_null is not None else cell_null)
    return values, _valid(cell_null), _valid(value_null)


def _valid(null):
    return None if null is None or not null.any() else ~null


def _object_floats(cells, nulls, width, target, shape_error):
    """An object array as float64, its cell nulls and its value nulls: numbers (or nulls) in an array of the
    final shape, or, for vectors, a 1-D array of cells each holding ``width`` numbers or a null."""
    if width is None or cells.ndim == 2:
        out = np.zeros(cells.shape, dtype=np.float64)
        null = np.zeros(cells.shape, dtype=bool) if nulls is None else nulls.copy()
        for k, x in enumerate(cells.reshape(-1)):
            at = _index(cells.shape, k)
            if null[at]:
                continue
            number = _object_number(x, at, target)
            if number is None:
                null[at] = True
            else:
                out[at] = number
        return (out, null, None) if null.ndim == 1 else (out, None, null)
    if cells.ndim != 1:
        raise shape_error(cells.shape)
    if nulls is None and len(cells) and all(isinstance(c, np.ndarray) for c in cells):
        if len({(c.dtype, c.shape) for c in cells}) == 1 and cells[0].dtype != object:
            return np.stack(cells), None, None  # one array per row, all alike (a pandas column of arrays)
    out = np.zeros((len(cells), width), dtype=np.float64)
    cell_null = np.zeros(len(cells), dtype=bool) if nulls is None else nulls.copy()
    value_null = np.zeros((len(cells), width), dtype=bool)
    for i, cell in enumerate(cells):
        if cell_null[i] or is_missing(cell):
            cell_null[i] = True
            continue
        row, row_nulls = source(cell)
        if row.dtype == object and row.ndim == 1:
            row, row_nulls = _object_row(row, i, target)
        if row.shape != (width,):
            got = len(row) if row.ndim == 1 else f"{type(cell).__name__} {cell!r}"
            raise ValueError(f"{target.label}[{i}]: expected {width} numbers, got {got}")
        out[i] = exact_float64(row, target, row_nulls, row=i)
        if row_nulls is not None:
            value_null[i] = row_nulls
    return out, cell_null, value_null


def _object_row(row, i, target):
    out = np.zeros(len(row), dtype=np.float64)
    null = np.zeros(len(row), dtype=bool)
    for j, x in enumerate(row):
        number = _object_number(x, (i, j), target)
        if number is None:
            null[j] = True
        else:
            out[j] = number
    return out, (null if null.any() else None)
