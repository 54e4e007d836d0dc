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
or pandas DataFrames (the answers are then a dict of NumPy masked arrays); see ``query``. Ids of any integer
type, float32 poses, nested lists and pandas columns are converted where nothing is lost (``strict=True``
takes only the exact types).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping

import numpy as np

from . import _convert, _native

__all__ = ["query", "last_timings", "ANSWER_COLUMNS", "MANIFOLD_COLUMNS", "KINDS"]

KINDS = ("penetration", "distance", "intersection", "manifold")

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
    "depth_upper",
    "contact_a",
    "contact_b",
    "error",
)

#: ``kind="manifold"``'s columns as a ``pyarrow.Table``, in order: those of ``gpu-gjk query --kind manifold``'s
#: manifolds table (without its ``id``). As NumPy, ``points`` is flat arrays with per-row offsets (see ``query``).
MANIFOLD_COLUMNS = ("status", "normal", "points", "error")

_SHAPE_COLUMNS = ("id", "points", "radius")
_PAIR_COLUMNS = ("a", "b", "a_position", "a_rotation", "b_position", "b_rotation")
_VECTOR_WIDTH = {"a_position": 3, "b_position": 3, "a_rotation": 4, "b_rotation": 4}


def query(shapes, pairs, kind="penetration", backend="cpu", threads=0, first_row=0, strict=False):
    """Answers every row of ``pairs``.

    ``shapes`` and ``pairs``: both ``pyarrow.Table`` (or ``RecordBatch``) with the columns above, or both
    dicts of NumPy arrays: shapes ``{"id": uint32 (n,), "points": [float64 (k, 3) per shape],
    "radius": float64 (n,)}`` (or ``"points"`` as one float64 (P, 3) array with ``"point_offsets"``, int
    (n + 1,), shape ``i`` being rows ``point_offsets[i]:point_offsets[i + 1]``), pairs ``{"a": uint32 (m,),
    "b": uint32 (m,), "a_position": float64 (m, 3), "a_rotation": float64 (m, 4), ...}``. Contiguous
    float64 and uint32 arrays are read in place, without a copy. A pandas ``DataFrame`` is read as the dict
    of its columns (by position; the index is not read), a vector column holding one sequence per row.

    Other types are converted where nothing is lost: ids of any integer type within 0..=4294967295,
    float32 and float16 numbers, integers that float64 holds exactly, nested Python lists, pandas columns
    (nullable ones included: a null cell fails its row, as in Arrow), masked arrays (a masked value is a
    null), and in Arrow tables any integer id type, float32 or integer vectors and ``list<...>`` vector
    columns whose rows have the right length. A value that does not fit raises ``ValueError`` naming the
    column and where the value is: ``pairs['a']: expected uint32 values, got int64 -1 at index 3 (shape
    ids are 0 to 4294967295)``. ``strict=True`` converts nothing: only uint32 ids and float64 numbers (dicts
    of NumPy arrays or Arrow tables with exactly the schema's types), the rest refused by type.

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

    ``kind="manifold"``: each pair's contact manifold (up to four points, deepest first), as ``gpu-gjk query
    --kind manifold`` finds it. ``"gpu"``, ``"vulkan"``, ``"gl"``, ``"metal"`` and ``"dx12"`` clip on the GPU
    (the library's ``gpu::manifold`` kernel; shapes with a radius, flat hulls, pairs apart and the pairs the
    kernel gives up on are answered on the CPU): the same statuses, point counts and feature ids as the CPU's,
    the points and depths within 1e-5 of each pair's scale (float32). ``"cpu"`` and ``"auto"`` answer on the
    CPU (``"auto"`` too, as on the command line: on software adapters the GPU path measured slower than the
    CPU's threads). From Arrow tables a ``pyarrow.Table`` with the columns
    ``MANIFOLD_COLUMNS``: ``status`` (string), ``normal`` (fixed_size_list<float64, 3>, null where not finite),
    ``points`` (list<struct<point_a, point_b: fixed_size_list<float64, 3>, depth: float64, feature_id:
    uint64>>, empty on a pair apart) and ``error``, as the command line's manifolds table. From NumPy a dict:
    ``status`` and ``error`` (object arrays holding ``None``), ``normal`` (``(n, 3)``, masked where not finite),
    ``point_offsets`` (int64 ``(n + 1,)``: row ``k``'s points are ``point_offsets[k]:point_offsets[k + 1]``
    of) ``point_a`` and ``point_b`` (``(P, 3)``), ``depth`` (``(P,)``) and ``feature_id`` (uint64 ``(P,)``,
    ``FeatureId.packed``). A bad row has its ``error`` set and no status, normal or points.

    Raises ``ValueError`` for bad arguments (an unknown kind or backend, a missing or unknown column, a
    wrong type or shape) and ``RuntimeError`` when the GPU backend asked for has no adapter.
    """
    if not isinstance(kind, str) or kind not in KINDS:
        raise ValueError(f"kind must be 'penetration', 'distance', 'intersection' or 'manifold', got {kind!r}")
    if not isinstance(backend, str):
        raise ValueError(f"backend must be a string, got {type(backend).__name__}")
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 0:
        raise ValueError(f"threads must be a whole number >= 0 (0 uses every core), got {threads!r}")
    if isinstance(first_row, bool) or not isinstance(first_row, (int, np.integer)) or first_row < 0:
        raise ValueError(f"first_row must be a whole number >= 0, got {first_row!r}")

    if not isinstance(strict, bool):
        raise ValueError(f"strict must be True or False, got {strict!r}")

    manifold = kind == "manifold"
    if _is_arrow(shapes) and _is_arrow(pairs):
        steps = (_shapes_from_arrow, _pairs_from_arrow, _manifolds_to_arrow if manifold else _answers_to_arrow)
        return _timed(shapes, pairs, steps, strict, kind, backend, threads, first_row)
    numpy_out = _manifolds_to_numpy if manifold else _answers_to_numpy
    if strict and isinstance(shapes, Mapping) and isinstance(pairs, Mapping):
        steps = (_shapes_from_numpy, _pairs_from_numpy, numpy_out)
        return _timed(shapes, pairs, steps, strict, kind, backend, threads, first_row)
    if not strict and _is_columns(shapes) and _is_columns(pairs):
        steps = (_shapes_from_numpy, _pairs_from_numpy, numpy_out)
        return _timed(_as_dict(shapes), _as_dict(pairs), steps, strict, kind, backend, threads, first_row)
    raise ValueError(
        "shapes and pairs must both be pyarrow Tables (or RecordBatches) or both dicts of NumPy arrays"
        + ("" if strict else " or pandas DataFrames")
        + f", got {type(shapes).__name__} and {type(pairs).__name__}"
    )


def _is_columns(value):
    return isinstance(value, Mapping) or _convert.is_pandas(value, "DataFrame")


def _as_dict(table):
    """A DataFrame as the dict of its columns (the index is not read); a dict as it is."""
    if isinstance(table, Mapping):
        return table
    return {name: table[name] for name in table.columns}


_LAST = threading.local()


def last_timings():
    """Where the last ``query`` call of this thread spent its time, in seconds: a dict with ``columns_in_s``
    (taking the input columns as arrays), ``read_rows_s`` (checking every pair row and placing its shapes, on
    the CPU threads), ``answer_s`` (answering the pairs and filling the answer arrays, the GPU batch and the
    world-frame answers included), ``gpu_batch_s`` (of that, the GPU batch: 0 on the CPU) and its parts
    ``gpu_upload_s`` (the host writing instances and pairs for the GPU), ``gpu_wait_s`` (the host blocked on
    the GPU), ``gpu_kernel_s`` (the kernels, from timestamp queries; 0 without them) and ``gpu_readback_s``
    (copying the answers out), ``table_out_s`` (making the returned table or arrays) and ``total_s`` (the
    call); ``None`` before the first call. For finding what bounds a batch's throughput. With
    ``kind="manifold"`` on a GPU, ``gpu_batch_s`` is the whole GPU run (its host penetration queries included)
    and its parts are 0.
    """
    timings = getattr(_LAST, "timings", None)
    return None if timings is None else dict(timings)


def _timed(shapes, pairs, steps, strict, kind, backend, threads, first_row):
    shapes_in, pairs_in, answers_out = steps
    start = time.perf_counter()
    shape_columns, pair_columns = shapes_in(shapes, strict), pairs_in(pairs, strict)
    native_start = time.perf_counter()
    if kind == "manifold":
        columns = _native.manifold_columns(shape_columns, pair_columns, backend, int(threads), int(first_row))
    else:
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
    unknown = sorted(set(columns) - set(known), key=str)
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


def _shape_error(label, width):
    expected = "(n,)" if width is None else f"(n, {width})"
    return lambda shape: ValueError(f"{label}: expected an array of shape {expected}, got {shape}")


def _ids(value, label, strict):
    """An id column as uint32 and its validity (None when nothing is null)."""
    if strict:
        return _array(value, np.uint32, 1, None, label), None
    values, valid = _convert.ids(value, _convert.Target(label, "uint32 values"))
    if values.ndim != 1:
        raise _shape_error(label, None)(values.shape)
    return _in_place(values), valid


def _floats(value, label, width, strict):
    """A column of numbers (``width`` None) or of vectors as float64, its cell validity and (vectors) its
    value validity."""
    if strict:
        return _array(value, np.float64, 1 if width is None else 2, width, label), None, None
    values, cells, numbers = _convert.floats(value, _convert.Target(label, "float64 values"), width,
                                             _shape_error(label, width))
    return _in_place(values), cells, numbers


def _shapes_from_numpy(shapes, strict):
    _check_keys(shapes, _SHAPE_COLUMNS + ("point_offsets",), ("id", "points"), "shapes")
    ids, valid = _ids(shapes["id"], "shapes['id']", strict)
    if valid is not None:
        raise ValueError(f"shapes row {int(np.argmin(valid))}: id: a shape needs an id, got null")
    n = len(ids)
    point_cells = None
    if "point_offsets" in shapes:
        points, cells, numbers = _floats(shapes["points"], "shapes['points']", 3, strict)
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
        points, offsets, cells, numbers, point_cells = _point_lists(lists, strict)
    # A null point is three null numbers; the null cells are the shapes'.
    if cells is not None:
        numbers = np.repeat(cells[:, None], 3, axis=1) & (True if numbers is None else numbers)
    radius = None
    if "radius" in shapes:
        values, valid, _ = _floats(shapes["radius"], "shapes['radius']", None, strict)
        radius = _scalars(values, valid)
    return {"id": ids, "offsets": offsets, "points": _vectors(points, point_cells, numbers), "radius": radius}


def _point_lists(lists, strict):
    """One (k, 3) array per shape: the points concatenated, the offsets of each shape's, the cell and value
    validity of the points (each None when nothing is null), and which shapes have points (None when all
    have)."""
    arrays, nulls = [], []
    shape_valid = np.ones(len(lists), dtype=bool)
    for i, p in enumerate(lists):
        if not strict and _convert.is_missing(p):
            shape_valid[i] = False
            p = ()
        if len(p) == 0:
            arrays.append(np.zeros((0, 3)))
            continue
        values, cell_valid, value_valid = _floats(p, f"shapes['points'][{i}]", 3, strict)
        arrays.append(values)
        if cell_valid is not None or value_valid is not None:
            nulls.append((i, cell_valid, value_valid))
    offsets = np.zeros(len(arrays) + 1, dtype=np.int64)
    np.cumsum([len(p) for p in arrays], out=offsets[1:])
    cells = numbers = None
    if nulls:
        cells, numbers = np.ones(offsets[-1], dtype=bool), np.ones((offsets[-1], 3), dtype=bool)
        for i, cell_valid, value_valid in nulls:
            rows = slice(offsets[i], offsets[i + 1])
            cells[rows] = True if cell_valid is None else cell_valid
            numbers[rows] = True if value_valid is None else value_valid
    points = np.concatenate(arrays) if arrays else np.zeros((0, 3))
    return points, offsets, cells, numbers, (None if shape_valid.all() else shape_valid)


def _pairs_from_numpy(pairs, strict):
    _check_keys(pairs, _PAIR_COLUMNS, ("a", "b"), "pairs")
    out = {}
    for name in ("a", "b"):
        out[name] = _scalars(*_ids(pairs[name], f"pairs[{name!r}]", strict))
    for name, width in _VECTOR_WIDTH.items():
        out[name] = None
        if name in pairs:
            out[name] = _vectors(*_floats(pairs[name], f"pairs[{name!r}]", width, strict))
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
        elif name == "depth_upper":
            out[name] = np.ma.array(value, mask=~columns["has_depth_upper"])
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


def _vector_column(array, width, label, strict, where):
    """A fixed_size_list<float64, width> array (or, not strict, one ``_float64_vectors`` converts) as
    (n, width) values with its cell and value validity."""
    array = _float64_vectors(array, width, label, strict, where)
    n = len(array)
    values = array.values.slice(array.offset * width, n * width)
    value_valid = _valid(values)
    if value_valid is not None:
        value_valid = value_valid.reshape(n, width)
    return _vectors(_plain(values).reshape(n, width), _valid(array), value_valid)


def _is_number_type(kind):
    import pyarrow as pa

    return pa.types.is_integer(kind) or pa.types.is_floating(kind)


def _float64_vectors(array, width, label, strict, where):
    """``array`` as fixed_size_list<float64, width>: as it is, or (not strict) converted without loss from a
    fixed-size or variable list of any integer or float type whose rows all hold ``width`` numbers (or are
    null). ``where(i)`` names row ``i`` in a message."""
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = array.type
    expected = f"fixed_size_list<float64, {width}>"
    fixed = pa.types.is_fixed_size_list(kind) and kind.list_size == width
    if fixed and pa.types.is_float64(kind.value_type):
        return array
    listed = pa.types.is_list(kind) or pa.types.is_large_list(kind)
    if strict or not (fixed or listed) or not _is_number_type(kind.value_type):
        raise ValueError(f"{label}: expected {expected}, got {kind}")
    n = len(array)
    valid = array.is_valid().to_numpy(zero_copy_only=False)
    if fixed:
        numbers = array.values.slice(array.offset * width, n * width)
    else:
        lengths = pc.list_value_length(array).fill_null(width).to_numpy(zero_copy_only=False)
        wrong = np.flatnonzero(lengths != width)
        if len(wrong):
            raise ValueError(f"{where(int(wrong[0]))}: expected {width} numbers, got {lengths[wrong[0]]}")
        numbers = array.flatten()  # the numbers of the rows that are not null
        if not valid.all():
            index = np.zeros((n, width), dtype=np.int64)
            index[valid] = np.arange(int(valid.sum()) * width).reshape(-1, width)
            numbers = numbers.take(pa.array(index.reshape(-1), mask=np.repeat(~valid, width)))
    null = numbers.is_null().to_numpy(zero_copy_only=False).reshape(n, width)
    values = numbers.fill_null(0).to_numpy(zero_copy_only=False).reshape(n, width)
    values = _convert.exact_float64(values, _convert.Target(label, expected), null)
    numbers = pa.array(values.reshape(-1), mask=null.reshape(-1) if null.any() else None)
    return pa.FixedSizeListArray.from_arrays(numbers, width, mask=None if valid.all() else pa.array(~valid))


def _float64_scalars(array, label, strict):
    """A float64 array, or (not strict) one of any integer or float type converted without loss."""
    import pyarrow as pa

    if pa.types.is_float64(array.type):
        return array
    if strict or not _is_number_type(array.type):
        raise ValueError(f"{label}: expected float64, got {array.type}")
    null = array.is_null().to_numpy(zero_copy_only=False)
    values = array.fill_null(0).to_numpy(zero_copy_only=False)
    values = _convert.exact_float64(values, _convert.Target(label, "float64", place="row"), null)
    return pa.array(values, mask=null if null.any() else None)


def _id_column(table, name, label, strict):
    """A uint32 id column, or (not strict) one of any integer type whose ids are within uint32."""
    import pyarrow as pa

    array = _column(table, name)
    if pa.types.is_uint32(array.type):
        return array
    if strict or not pa.types.is_integer(array.type):
        raise ValueError(f"{label}: expected uint32, got {array.type}")
    null = array.is_null().to_numpy(zero_copy_only=False)
    values = array.fill_null(0).to_numpy(zero_copy_only=False)
    ids, _ = _convert.ids(np.ma.array(values, mask=null), _convert.Target(label, "uint32", place="row"))
    return pa.array(ids, mask=null if null.any() else None)


def _arrow_names(table, known, required, label):
    _check_keys(table.schema.names, known, required, label)


def _shapes_from_arrow(table, strict):
    import pyarrow as pa

    _arrow_names(table, _SHAPE_COLUMNS, ("id", "points"), "shapes")
    ids = _id_column(table, "id", "shapes column 'id'", strict)
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
    fixed = pa.types.is_fixed_size_list(child.type) and child.type.list_size == 3
    listed = pa.types.is_list(child.type) or pa.types.is_large_list(child.type)
    if not (fixed or (listed and not strict)):
        raise ValueError(f"shapes column 'points': expected list<fixed_size_list<float64, 3>>, got {kind}")

    def where(point):
        row = int(np.searchsorted(offsets, point, side="right")) - 1
        return f"shapes row {row}: points[{point - int(offsets[row])}]"

    coordinates = _vector_column(child, 3, "shapes column 'points'", strict, where)
    # A null point is three null numbers; the null cells are the shapes'.
    if coordinates["cell_valid"] is not None:
        value_valid = np.repeat(coordinates["cell_valid"][:, None], 3, axis=1)
        if coordinates["value_valid"] is not None:
            value_valid &= coordinates["value_valid"]
        coordinates["value_valid"] = value_valid
    coordinates["cell_valid"] = _valid(points)
    radius = None
    if "radius" in table.schema.names:
        array = _float64_scalars(_column(table, "radius"), "shapes column 'radius'", strict)
        radius = _scalars(_plain(array), _valid(array))
    return {"id": _plain(ids), "offsets": offsets, "points": coordinates, "radius": radius}


def _pairs_from_arrow(table, strict):
    _arrow_names(table, _PAIR_COLUMNS, ("a", "b"), "pairs")
    out = {}
    for name in ("a", "b"):
        array = _id_column(table, name, f"pairs column {name!r}", strict)
        out[name] = _scalars(_plain(array), _valid(array))
    for name, width in _VECTOR_WIDTH.items():
        out[name] = None
        if name in table.schema.names:
            where = (lambda row, name=name: f"pairs row {row}: {name}")
            out[name] = _vector_column(_column(table, name), width, f"pairs column {name!r}", strict, where)
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
        if name == "depth_upper":
            mask = ~columns["has_depth_upper"]
        if value.ndim == 2:
            arrays.append(vectors(value, mask))
        else:
            arrays.append(pa.array(value, mask=mask))
    return pa.table(arrays, names=list(ANSWER_COLUMNS))


# ---- kind="manifold" ---------------------------------------------------------------------------------


def _statuses_numpy(columns):
    names = np.array(list(columns["status_names"]) + [None], dtype=object)
    codes = columns["status"].astype(np.intp)
    codes[codes == 255] = len(names) - 1
    return names[codes]


def _manifolds_to_numpy(columns):
    no_normal = ~columns["has_normal"]
    return {
        "status": _statuses_numpy(columns),
        "normal": np.ma.array(columns["normal"], mask=np.repeat(no_normal[:, None], 3, 1)),
        "point_offsets": columns["point_offsets"],
        "point_a": columns["point_a"],
        "point_b": columns["point_b"],
        "depth": columns["depth"],
        "feature_id": columns["feature_id"],
        "error": _errors_of(columns, len(columns["status"])),
    }


def _errors_of(columns, count):
    error = np.full(count, None, dtype=object)
    error[columns["error_rows"].astype(np.intp)] = columns["error_messages"]
    return error


def _manifolds_to_arrow(columns):
    import pyarrow as pa

    count = len(columns["status"])
    failed = np.zeros(count, dtype=bool)
    failed[columns["error_rows"].astype(np.intp)] = True

    def vectors(values, mask=None):
        flat = pa.array(values.reshape(-1), type=pa.float64())
        return pa.FixedSizeListArray.from_arrays(flat, 3, mask=None if mask is None else pa.array(mask))

    codes = columns["status"]
    names = pa.array(list(columns["status_names"]), type=pa.string())
    status = names.take(pa.array(codes, mask=codes == 255))
    normal = vectors(columns["normal"], ~columns["has_normal"])
    point = pa.StructArray.from_arrays(
        [
            vectors(columns["point_a"]),
            vectors(columns["point_b"]),
            pa.array(columns["depth"], type=pa.float64()),
            pa.array(columns["feature_id"], type=pa.uint64()),
        ],
        fields=[
            pa.field("point_a", pa.list_(pa.float64(), 3), nullable=False),
            pa.field("point_b", pa.list_(pa.float64(), 3), nullable=False),
            pa.field("depth", pa.float64(), nullable=False),
            pa.field("feature_id", pa.uint64(), nullable=False),
        ],
    )
    offsets = pa.array(columns["point_offsets"].astype(np.int32), type=pa.int32())
    points = pa.ListArray.from_arrays(offsets, point, mask=pa.array(failed))
    error = pa.array(list(_errors_of(columns, count)), type=pa.string())
    return pa.table([status, normal, points, error], names=list(MANIFOLD_COLUMNS))
