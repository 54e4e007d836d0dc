"""Batch convex collision queries (GJK, EPA) on the CPU or the GPU, on Arrow tables or NumPy arrays.

``gpu_gjk.query(shapes, pairs)`` answers one row of ``pairs`` per pair of shapes: do they intersect, how far
apart, the closest points, and for overlapping pairs the penetration depth, normal and contact points. The
answers and the error texts are those of ``gpu-gjk query`` (the command line) for the same pairs.

The batch is two tables (the project's columnar schema):

* shapes: ``id`` uint32 (unique), ``points`` list<fixed_size_list<float64, 3>> (at least one point),
  ``radius`` float64 (>= 0; may be absent, meaning 0);
* pairs, one row per query: ``a`` and ``b`` uint32 (shape ids), ``a_position``/``b_position``
  fixed_size_list<float64, 3> and ``a_rotation``/``b_rotation`` fixed_size_list<float64, 4> (quaternions
  ``[x, y, z, w]``, normalised on input); the pose columns may be absent (identity).

Either both are ``pyarrow.Table`` (the answers are then a ``pyarrow.Table``) or both are dicts of NumPy arrays
(the answers are then a dict of NumPy masked arrays); see ``query``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping

import numpy as np

from . import _native

__all__ = ["query", "last_timings", "ANSWER_COLUMNS", "KINDS"]

KINDS = ("penetration", "distance", "intersection")

#: The answers' columns, in order: the JSON answer's fields, then ``error``.
ANSWER_COLUMNS = (
    "intersecting",
    "distance",
    "witness_a",
    "witness_b",
    "normal",
    "iterations",
    "status",
    "penetration_status",
    "depth",
    "contact_a",
    "contact_b",
    "error",
)

_SHAPE_COLUMNS = ("id", "points", "radius")
_PAIR_COLUMNS = ("a", "b", "a_position", "a_rotation", "b_position", "b_rotation")
_VECTOR_WIDTH = {"a_position": 3, "b_position": 3, "a_rotation": 4, "b_rotation": 4}


def query(shapes, pairs, kind="penetration", backend="cpu", threads=0, first_row=0):
    """Answers every row of ``pairs``.

    ``shapes`` and ``pairs``: both ``pyarrow.Table`` (or ``RecordBatch``) with the columns above, or both
    dicts of NumPy arrays: shapes ``{"id": uint32 (n,), "points": [float64 (k, 3) per shape],
    "radius": float64 (n,)}`` (or ``"points"`` as one float64 (P, 3) array with ``"point_offsets"``, int
    (n + 1,), shape ``i`` being rows ``point_offsets[i]:point_offsets[i + 1]``), pairs ``{"a": uint32 (m,),
    "b": uint32 (m,), "a_position": float64 (m, 3), "a_rotation": float64 (m, 4), ...}``. Contiguous
    float64 and uint32 arrays are read in place, without a copy.

    ``kind``: ``"penetration"`` (distance when apart; depth and contacts when overlapping), ``"distance"``
    (no EPA) or ``"intersection"`` (the flag; GJK stops as soon as it is decided). ``backend``: ``"cpu"``,
    ``"gpu"`` (any adapter, software ones included; pairs the GPU cannot answer are answered again on the
    CPU), ``"auto"`` (a hardware GPU if there is one, else the CPU) or a forced ``"vulkan"``, ``"gl"``,
    ``"metal"``, ``"dx12"``, as ``gpu-gjk query --backend``. ``threads``: CPU threads, 0 for all cores.

    Returns one row per pair row, in order, with the columns ``ANSWER_COLUMNS``: a ``pyarrow.Table`` with
    nulls where the JSON answer has no field, or a dict of ``numpy.ma.MaskedArray`` (masked where null; the
    text columns are object arrays holding ``None``). A row whose cells are bad (an unknown shape id, a null,
    a zero quaternion, a coordinate beyond +-1e9, a bad shape, ...) has its ``error`` set, naming the table,
    row (from 0) and column, and its other cells null; the other rows are answered.

    ``first_row``: the number the error texts give the first pair row (0 by default): when ``pairs`` is one
    slice of a bigger batch answered piece by piece (a record batch of a big file, a Dask partition), its
    offset in that batch, so that the errors name rows of the whole batch.

    Raises ``ValueError`` for bad arguments (an unknown kind or backend, a missing or unknown column, a
    wrong type or shape) and ``RuntimeError`` when the GPU backend asked for has no adapter.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be 'penetration', 'distance' or 'intersection', got {kind!r}")
    if not isinstance(backend, str):
        raise ValueError(f"backend must be a string, got {type(backend).__name__}")
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 0:
        raise ValueError(f"threads must be a whole number >= 0 (0 uses every core), got {threads!r}")
    if isinstance(first_row, bool) or not isinstance(first_row, (int, np.integer)) or first_row < 0:
        raise ValueError(f"first_row must be a whole number >= 0, got {first_row!r}")

    if isinstance(shapes, Mapping) and isinstance(pairs, Mapping):
        return _timed(shapes, pairs, (_shapes_from_numpy, _pairs_from_numpy, _answers_to_numpy), kind, backend,
                      threads, first_row)
    if _is_arrow(shapes) and _is_arrow(pairs):
        return _timed(shapes, pairs, (_shapes_from_arrow, _pairs_from_arrow, _answers_to_arrow), kind, backend,
                      threads, first_row)
    raise ValueError(
        "shapes and pairs must both be pyarrow Tables (or RecordBatches) or both dicts of NumPy arrays, "
        f"got {type(shapes).__name__} and {type(pairs).__name__}"
    )


_LAST = threading.local()


def last_timings():
    """Where the last ``query`` call of this thread spent its time, in seconds: a dict with ``columns_in_s``
    (taking the input columns as arrays), ``read_rows_s`` (checking every pair row and placing its shapes, on
    the CPU threads), ``answer_s`` (answering the pairs and filling the answer arrays, the GPU batch and the
    world-frame answers included), ``gpu_batch_s`` (of that, the GPU batch: 0 on the CPU) and its parts
    ``gpu_upload_s`` (the host writing instances and pairs for the GPU), ``gpu_wait_s`` (the host blocked on
    the GPU), ``gpu_kernel_s`` (the kernels, from timestamp queries; 0 without them) and ``gpu_readback_s``
    (copying the answers out), ``table_out_s`` (making the returned table or arrays) and ``total_s`` (the
    call); ``None`` before the first call. For finding what bounds a batch's throughput.
    """
    timings = getattr(_LAST, "timings", None)
    return None if timings is None else dict(timings)


def _timed(shapes, pairs, steps, kind, backend, threads, first_row):
    shapes_in, pairs_in, answers_out = steps
    start = time.perf_counter()
    shape_columns, pair_columns = shapes_in(shapes), pairs_in(pairs)
    native_start = time.perf_counter()
    columns = _native.query_columns(shape_columns, pair_columns, kind, backend, int(threads), int(first_row))
    out_start = time.perf_counter()
    answers = answers_out(columns)
    end = time.perf_counter()
    timings = {"columns_in_s": native_start - start}
    timings.update(columns["timings"])
    timings.update({"table_out_s": end - out_start, "total_s": end - start})
    _LAST.timings = timings
    return answers


# ---- NumPy input -------------------------------------------------------------------------------------


def _check_keys(columns, known, required, table):
    unknown = sorted(set(columns) - set(known))
    if unknown:
        raise ValueError(f"{table}: unknown column {unknown[0]!r} (the columns are {', '.join(known)})")
    for name in required:
        if name not in columns:
            raise ValueError(f"{table}: required column {name!r} is missing")


def _array(value, dtype, ndim, width, label):
    """``value`` as a C-contiguous array of ``dtype`` (copied only when it is not contiguous)."""
    array = np.asarray(value)
    if array.dtype != dtype:
        raise ValueError(f"{label}: expected {np.dtype(dtype).name} values, got {array.dtype}")
    if array.ndim != ndim or (width is not None and array.shape[1] != width):
        expected = "(n,)" if ndim == 1 else f"(n, {width})"
        raise ValueError(f"{label}: expected an array of shape {expected}, got {array.shape}")
    return _in_place(array)


def _in_place(array):
    """The array itself when Rust can read it in place (C-contiguous and aligned), else one copy that is.
    (Arrow buffers that went through pickle, as Dask sends them, can be unaligned.)"""
    return np.require(array, requirements=["C", "A"])


def _scalars(values, valid=None):
    return {"values": values, "cell_valid": valid}


def _vectors(values, cell_valid=None, value_valid=None):
    return {"values": values, "cell_valid": cell_valid, "value_valid": value_valid}


def _shapes_from_numpy(shapes):
    _check_keys(shapes, _SHAPE_COLUMNS + ("point_offsets",), ("id", "points"), "shapes")
    ids = _array(shapes["id"], np.uint32, 1, None, "shapes['id']")
    n = len(ids)
    if "point_offsets" in shapes:
        points = _array(shapes["points"], np.float64, 2, 3, "shapes['points']")
        offsets = np.asarray(shapes["point_offsets"])
        if offsets.dtype.kind not in "iu" or offsets.shape != (n + 1,):
            raise ValueError(
                f"shapes['point_offsets']: expected {n + 1} integers (one more than the shapes), "
                f"got {offsets.dtype} {offsets.shape}"
            )
        offsets = _in_place(offsets.astype(np.int64, copy=False))
    else:
        lists = shapes["points"]
        if isinstance(lists, np.ndarray) and lists.dtype != object:
            raise ValueError(
                "shapes['points']: expected one (k, 3) float64 array per shape, or a (P, 3) array with "
                "shapes['point_offsets']"
            )
        if len(lists) != n:
            raise ValueError(f"shapes['points']: expected {n} point arrays (one per id), got {len(lists)}")
        arrays = [
            _array(p, np.float64, 2, 3, f"shapes['points'][{i}]") if len(p) else np.zeros((0, 3))
            for i, p in enumerate(lists)
        ]
        offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum([len(p) for p in arrays], out=offsets[1:])
        points = np.concatenate(arrays) if arrays else np.zeros((0, 3))
    radius = None
    if "radius" in shapes:
        radius = _scalars(_array(shapes["radius"], np.float64, 1, None, "shapes['radius']"))
    return {"id": ids, "offsets": offsets, "points": _vectors(points), "radius": radius}


def _pairs_from_numpy(pairs):
    _check_keys(pairs, _PAIR_COLUMNS, ("a", "b"), "pairs")
    out = {
        "a": _scalars(_array(pairs["a"], np.uint32, 1, None, "pairs['a']")),
        "b": _scalars(_array(pairs["b"], np.uint32, 1, None, "pairs['b']")),
    }
    for name, width in _VECTOR_WIDTH.items():
        out[name] = None
        if name in pairs:
            out[name] = _vectors(_array(pairs[name], np.float64, 2, width, f"pairs[{name!r}]"))
    return out


def _text_columns(columns):
    """The native answer's text columns as object arrays holding ``None``: the statuses from their codes (one
    vectorised lookup), the errors from their (row, message) pairs."""
    out = {}
    for name in ("status", "penetration_status"):
        names = np.array(list(columns[name + "_names"]) + [None], dtype=object)
        codes = columns[name].astype(np.intp)
        codes[codes == 255] = len(names) - 1
        out[name] = names[codes]
    out["error"] = _errors(columns)
    return out


def _errors(columns):
    error = np.full(len(columns["answered"]), None, dtype=object)
    error[columns["error_rows"].astype(np.intp)] = columns["error_messages"]
    return error


def _answers_to_numpy(columns):
    texts = _text_columns(columns)
    missing = ~columns["answered"]
    no_contact = ~columns["has_contact"]
    vector_mask = {False: np.repeat(missing[:, None], 3, 1), True: np.repeat(no_contact[:, None], 3, 1)}
    contact_cells = ("depth", "contact_a", "contact_b")
    out = {}
    for name in ANSWER_COLUMNS:
        if name in texts:
            out[name] = texts[name]
            continue
        value = columns[name]
        if value.ndim == 2:
            out[name] = np.ma.array(value, mask=vector_mask[name in contact_cells])
        else:
            out[name] = np.ma.array(value, mask=no_contact if name in contact_cells else missing)
    return out


# ---- Arrow input -------------------------------------------------------------------------------------


def _is_arrow(value):
    try:
        import pyarrow as pa
    except ImportError:
        return False
    return isinstance(value, (pa.Table, pa.RecordBatch))


def _column(table, name):
    import pyarrow as pa

    column = table.column(name)
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
    return column


def _valid(array):
    """The cells that are not null, or None when there is no null (nothing to pass on)."""
    if array.null_count == 0:
        return None
    return array.is_valid().to_numpy(zero_copy_only=False)


def _plain(array):
    """A primitive array as NumPy, in place when it has no nulls (nulls read as zeros, flagged apart)."""
    if array.null_count:
        array = array.fill_null(0)
    return _in_place(array.to_numpy(zero_copy_only=True))


def _vector_column(array, width, label):
    """A fixed_size_list<float64, width> array as (n, width) values with its cell and value validity."""
    import pyarrow as pa

    kind = array.type
    if not (
        pa.types.is_fixed_size_list(kind) and kind.list_size == width and pa.types.is_float64(kind.value_type)
    ):
        raise ValueError(f"{label}: expected fixed_size_list<float64, {width}>, got {kind}")
    n = len(array)
    values = array.values.slice(array.offset * width, n * width)
    value_valid = _valid(values)
    if value_valid is not None:
        value_valid = value_valid.reshape(n, width)
    return _vectors(_plain(values).reshape(n, width), _valid(array), value_valid)


def _id_column(table, name, label):
    import pyarrow as pa

    array = _column(table, name)
    if not pa.types.is_uint32(array.type):
        raise ValueError(f"{label}: expected uint32, got {array.type}")
    return array


def _arrow_names(table, known, required, label):
    _check_keys(table.schema.names, known, required, label)


def _shapes_from_arrow(table):
    import pyarrow as pa

    _arrow_names(table, _SHAPE_COLUMNS, ("id", "points"), "shapes")
    ids = _id_column(table, "id", "shapes column 'id'")
    if ids.null_count:
        row = ids.is_null().to_numpy(zero_copy_only=False).argmax()
        raise ValueError(f"shapes row {row}: id: a shape needs an id, got null")
    points = _column(table, "points")
    kind = points.type
    if not (pa.types.is_list(kind) or pa.types.is_large_list(kind)):
        raise ValueError(f"shapes column 'points': expected list<fixed_size_list<float64, 3>>, got {kind}")
    # The offsets index the whole child array (a slice of the column keeps its parent's child).
    offsets = _in_place(points.offsets.to_numpy(zero_copy_only=True).astype(np.int64, copy=False))
    child = points.values
    if not (pa.types.is_fixed_size_list(child.type) and child.type.list_size == 3):
        raise ValueError(f"shapes column 'points': expected list<fixed_size_list<float64, 3>>, got {kind}")
    coordinates = _vector_column(child, 3, "shapes column 'points'")
    # A null point is three null numbers; the null cells are the shapes'.
    if coordinates["cell_valid"] is not None:
        value_valid = np.repeat(coordinates["cell_valid"][:, None], 3, axis=1)
        if coordinates["value_valid"] is not None:
            value_valid &= coordinates["value_valid"]
        coordinates["value_valid"] = value_valid
    coordinates["cell_valid"] = _valid(points)
    radius = None
    if "radius" in table.schema.names:
        array = _column(table, "radius")
        if not pa.types.is_float64(array.type):
            raise ValueError(f"shapes column 'radius': expected float64, got {array.type}")
        radius = _scalars(_plain(array), _valid(array))
    return {"id": _plain(ids), "offsets": offsets, "points": coordinates, "radius": radius}


def _pairs_from_arrow(table):
    _arrow_names(table, _PAIR_COLUMNS, ("a", "b"), "pairs")
    out = {}
    for name in ("a", "b"):
        array = _id_column(table, name, f"pairs column {name!r}")
        out[name] = _scalars(_plain(array), _valid(array))
    for name, width in _VECTOR_WIDTH.items():
        out[name] = None
        if name in table.schema.names:
            out[name] = _vector_column(_column(table, name), width, f"pairs column {name!r}")
    return out


def _answers_to_arrow(columns):
    import pyarrow as pa

    missing = ~columns["answered"]
    no_contact = ~columns["has_contact"]
    contact_cells = ("depth", "contact_a", "contact_b")

    def vectors(values, mask):
        flat = pa.array(values.reshape(-1), type=pa.float64())
        return pa.FixedSizeListArray.from_arrays(flat, 3, mask=pa.array(mask))

    def statuses(name):
        # One vectorised gather of the names by code; 255 (no status) is a null index, so a null cell.
        codes = columns[name]
        names = pa.array(list(columns[name + "_names"]), type=pa.string())
        return names.take(pa.array(codes, mask=codes == 255))

    def errors():
        rows = columns["error_rows"].astype(np.intp)
        count = len(columns["answered"])
        if len(rows) == 0:
            return pa.nulls(count, type=pa.string())
        index = np.zeros(count, dtype=np.int64)
        index[rows] = np.arange(len(rows))
        no_error = np.ones(count, dtype=bool)
        no_error[rows] = False
        messages = pa.array(list(columns["error_messages"]), type=pa.string())
        return messages.take(pa.array(index, mask=no_error))

    arrays = []
    for name in ANSWER_COLUMNS:
        if name in ("status", "penetration_status"):
            arrays.append(statuses(name))
            continue
        if name == "error":
            arrays.append(errors())
            continue
        value = columns[name]
        mask = no_contact if name in contact_cells else missing
        if value.ndim == 2:
            arrays.append(vectors(value, mask))
        else:
            arrays.append(pa.array(value, mask=mask))
    return pa.table(arrays, names=list(ANSWER_COLUMNS))
