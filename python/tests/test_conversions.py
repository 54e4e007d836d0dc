"""What robotics code has at hand (int64 ids, float32 poses, nested lists, pandas frames, masked arrays, Arrow
columns of other types) is read where nothing is lost, with the canonical input's answers to the bit; what
does not fit is refused naming the column and where the value is; ``strict=True`` converts nothing."""

import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import gpu_gjk
from batches import as_numpy, pairs_table, random_batch, shapes_table

SPHERE, CUBE = 1, 2


def batch(pairs=60, seed=21):
    """A random batch as dicts of NumPy arrays, its poses float32 values (so that float32 input is exact)."""
    shapes, pairs = random_batch(seed, pairs, shapes=10)
    shape_dict, pair_dict = as_numpy(shapes, pairs)
    for name in ("a_position", "a_rotation", "b_position", "b_rotation"):
        pair_dict[name] = pair_dict[name].astype(np.float32).astype(np.float64)
    shape_dict["points"] = [p.astype(np.float32).astype(np.float64) for p in shape_dict["points"]]
    return shape_dict, pair_dict


def assert_same_answers(got, expected):
    """Every answer column equal, floats to the bit, nulls in the same cells."""
    assert list(got) == list(expected)
    for name in expected:
        a, b = got[name], expected[name]
        if isinstance(b, np.ma.MaskedArray):
            assert np.array_equal(np.ma.getmaskarray(a), np.ma.getmaskarray(b)), name
            assert a.dtype == b.dtype and a.data.tobytes() == b.data.tobytes(), name
        else:
            assert list(a) == list(b), name


def canonical():
    shape_dict, pair_dict = batch()
    return shape_dict, pair_dict, gpu_gjk.query(shape_dict, pair_dict, threads=1, strict=True)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int16, np.uint64, np.uint16, np.intp])
def test_integer_ids_within_uint32_give_the_uint32_answers(dtype):
    shape_dict, pair_dict, expected = canonical()
    shapes = {**shape_dict, "id": shape_dict["id"].astype(dtype)}
    pairs = {**pair_dict, "a": pair_dict["a"].astype(dtype), "b": pair_dict["b"].astype(dtype)}
    assert_same_answers(gpu_gjk.query(shapes, pairs, threads=1), expected)


def test_ids_from_np_array_of_python_ints():
    shapes = {"id": np.array([0, 1]), "points": [np.zeros((1, 3)), np.zeros((1, 3))], "radius": np.ones(2)}
    pairs = {"a": np.array([0, 1]), "b": np.array([1, 0]), "b_position": np.array([[3.0, 0.0, 0.0]] * 2)}
    answers = gpu_gjk.query(shapes, pairs)
    assert answers["distance"].tolist() == [1.0, 1.0]
    assert list(answers["error"]) == [None, None]


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_narrow_float_poses_give_their_float64_answers(dtype):
    shape_dict, pair_dict = batch()
    narrow = {k: (v.astype(dtype) if k.endswith(("position", "rotation")) else v) for k, v in pair_dict.items()}
    exact = {k: (v.astype(np.float64) if k.endswith(("position", "rotation")) else v) for k, v in narrow.items()}
    expected = gpu_gjk.query(shape_dict, exact, threads=1, strict=True)
    assert_same_answers(gpu_gjk.query(shape_dict, narrow, threads=1), expected)
    # float32 points and radii too.
    narrow_shapes = {**shape_dict, "points": [p.astype(np.float32) for p in shape_dict["points"]],
                     "radius": shape_dict["radius"].astype(np.float32)}
    exact_shapes = {**shape_dict, "radius": shape_dict["radius"].astype(np.float32).astype(np.float64)}
    assert_same_answers(gpu_gjk.query(narrow_shapes, pair_dict, threads=1),
                        gpu_gjk.query(exact_shapes, pair_dict, threads=1, strict=True))


def test_nested_lists_of_ints_and_floats_give_the_array_answers():
    shape_dict, pair_dict, expected = canonical()
    shapes = {"id": shape_dict["id"].tolist(), "points": [p.tolist() for p in shape_dict["points"]],
              "radius": shape_dict["radius"].tolist()}
    pairs = {k: v.tolist() for k, v in pair_dict.items()}
    assert_same_answers(gpu_gjk.query(shapes, pairs, threads=1), expected)
    # Integer coordinates, as a hand-written batch has them.
    ints = gpu_gjk.query({"id": [1, 2], "points": [[[0, 0, 0]], [[0, -1, 0], [0, 1, 0]]], "radius": [1, 0]},
                         {"a": [1, 1], "b": [1, 2], "b_position": [[3, 0, 0], [0, 4, 0]]})
    floats = gpu_gjk.query(
        {"id": np.array([1, 2], np.uint32), "points": [np.zeros((1, 3)), np.array([[0.0, -1, 0], [0, 1, 0]])],
         "radius": np.array([1.0, 0.0])},
        {"a": np.array([1, 1], np.uint32), "b": np.array([1, 2], np.uint32),
         "b_position": np.array([[3.0, 0, 0], [0, 4, 0]])},
        strict=True,
    )
    assert_same_answers(ints, floats)
    assert ints["distance"].tolist() == [1.0, 2.0]


def test_pandas_frames_give_the_array_answers():
    shape_dict, pair_dict, expected = canonical()
    shapes = pd.DataFrame({"id": shape_dict["id"].astype(np.int64), "points": shape_dict["points"],
                           "radius": shape_dict["radius"]})
    pairs = pd.DataFrame({"a": pair_dict["a"].astype(np.int64), "b": pair_dict["b"].astype(np.int64)})
    for name in ("a_position", "a_rotation", "b_position", "b_rotation"):
        pairs[name] = list(pair_dict[name].astype(np.float32))  # a column of one float32 array per row
    pairs.index = pairs.index + 500  # the index is not read: rows are by position
    assert_same_answers(gpu_gjk.query(shapes, pairs, threads=1), expected)
    # Series in a dict, and Arrow-backed columns (as pandas reads Parquet).
    arrow_backed = pa.Table.from_pandas(pairs.reset_index(drop=True)).to_pandas(types_mapper=pd.ArrowDtype)
    series = {name: arrow_backed[name] for name in arrow_backed.columns}
    assert_same_answers(gpu_gjk.query(shapes, series, threads=1), expected)


def test_nullable_pandas_columns_and_masked_arrays_without_nulls_give_the_array_answers():
    shape_dict, pair_dict, expected = canonical()
    pairs = {
        "a": pd.Series(pair_dict["a"], dtype="Int64"),
        "b": pd.array(pair_dict["b"], dtype="UInt32"),
        "a_position": np.ma.array(pair_dict["a_position"]),
        "a_rotation": np.ma.array(pair_dict["a_rotation"], mask=np.zeros((len(pair_dict["a"]), 4), bool)),
        "b_position": pair_dict["b_position"],
        "b_rotation": pair_dict["b_rotation"],
    }
    shapes = {**shape_dict, "radius": pd.Series(shape_dict["radius"].astype(np.float32), dtype="Float32")}
    exact_shapes = {**shape_dict, "radius": shape_dict["radius"].astype(np.float32).astype(np.float64)}
    assert_same_answers(gpu_gjk.query(shapes, pairs, threads=1),
                        gpu_gjk.query(exact_shapes, pair_dict, threads=1, strict=True))
    assert_same_answers(gpu_gjk.query(shape_dict, pairs, threads=1), expected)


def test_nulls_in_pandas_and_masked_arrays_fail_their_rows_as_in_arrow():
    shapes = {"id": np.array([SPHERE], np.uint32), "points": [np.zeros((1, 3))], "radius": np.ones(1)}
    pairs = pd.DataFrame({
        "a": pd.array([SPHERE, None, SPHERE, SPHERE], dtype="Int64"),
        "b": [SPHERE] * 4,
        "b_position": [[3.0, 0.0, 0.0], [3.0, 0.0, 0.0], None, [3.0, None, 0.0]],
    })
    answers = gpu_gjk.query(shapes, pairs)
    assert list(answers["error"]) == [
        None,
        "pairs row 1: a: expected a shape id, got null",
        "pairs row 2: b_position: expected an array of 3 numbers, got null",
        "pairs row 3: b_position[1]: expected a number, got null",
    ]
    assert answers["distance"].mask.tolist() == [False, True, True, True]
    assert answers["distance"][0] == 1.0
    masked = np.ma.array([[3.0, 0.0, 0.0], [3.0, 0.0, 0.0]], mask=[[False] * 3, [False, False, True]])
    answers = gpu_gjk.query(shapes, {"a": [SPHERE] * 2, "b": [SPHERE] * 2, "b_position": masked})
    assert list(answers["error"]) == [None, "pairs row 1: b_position[2]: expected a number, got null"]
    # A null shape is that shape's error, in the rows that use it.
    answers = gpu_gjk.query({"id": [1, 2], "points": [[[0, 0, 0]], None]}, {"a": [1, 2], "b": [1, 1]})
    assert list(answers["error"]) == [
        None, "pairs row 1: a: shape 2 is refused: shapes row 1: points: expected an array of points, got null"]


def test_objects_with_to_numpy_or_array_are_read():
    shape_dict, pair_dict, expected = canonical()

    class ToNumpy:
        def __init__(self, array):
            self.array = array

        def to_numpy(self):
            return self.array

    class ArrayLike:
        def __init__(self, array):
            self.array = array

        def __array__(self, dtype=None, copy=None):
            return self.array

    pairs = {k: (ToNumpy(v.astype(np.int64)) if k in "ab" else ArrayLike(v)) for k, v in pair_dict.items()}
    assert_same_answers(gpu_gjk.query(shape_dict, pairs, threads=1), expected)


def arrow_canonical():
    shapes, pairs = random_batch(22, 80, shapes=10)
    return shapes, pairs, gpu_gjk.query(shapes, pairs, threads=1, strict=True)


def test_arrow_columns_of_other_types_give_the_canonical_answers():
    shapes, pairs, expected = arrow_canonical()
    # What pa.table({...}) makes of plain Python lists: int64 ids, list<double> vectors.
    loose_pairs = pa.table({name: pairs.column(name).to_pylist() for name in pairs.column_names})
    loose_shapes = pa.table({name: shapes.column(name).to_pylist() for name in shapes.column_names})
    assert loose_pairs.schema.field("a").type == pa.int64()
    assert loose_pairs.schema.field("b_position").type == pa.list_(pa.float64())
    assert loose_shapes.schema.field("points").type == pa.list_(pa.list_(pa.float64()))
    assert gpu_gjk.query(loose_shapes, loose_pairs, threads=1).equals(expected)
    # Other integer id types, and float32 vectors of float32 values.
    narrow, exact = pairs, pairs
    for k, name in enumerate(pairs.column_names):
        if name in ("a", "b"):
            narrow = narrow.set_column(k, name, pairs.column(name).cast(pa.int16() if name == "a" else pa.uint64()))
        else:
            width = pairs.schema.field(name).type.list_size
            values = pa.array(np.array(pairs.column(name).to_pylist(), dtype=np.float32).reshape(-1))
            narrow = narrow.set_column(k, name, pa.FixedSizeListArray.from_arrays(values, width))
            exact = exact.set_column(k, name, narrow.column(name).cast(pa.list_(pa.float64(), width)))
    assert gpu_gjk.query(shapes, narrow, threads=1).equals(gpu_gjk.query(shapes, exact, threads=1, strict=True))


def test_arrow_list_columns_with_nulls_and_slices_read_right():
    shapes = shapes_table([SPHERE], [[[0.0, 0.0, 0.0]]], [1.0])
    pairs = pa.table({"a": [SPHERE] * 4, "b": [SPHERE] * 4,
                      "b_position": [[3, 0, 0], None, [0, 5, 0], [3, None, 0]]})
    assert pairs.schema.field("b_position").type == pa.list_(pa.int64())
    answers = gpu_gjk.query(shapes, pairs)
    assert answers.column("error").to_pylist() == [
        None,
        "pairs row 1: b_position: expected an array of 3 numbers, got null",
        None,
        "pairs row 3: b_position[1]: expected a number, got null",
    ]
    assert answers.column("distance").to_pylist() == [1.0, None, 3.0, None]
    assert gpu_gjk.query(shapes, pairs.slice(1, 2)).column("distance").to_pylist() == [None, 3.0]


@pytest.mark.parametrize(
    "pairs, message",
    [
        ({"a": np.array([1, -1, 1]), "b": [1] * 3},
         "pairs['a']: expected uint32 values, got int64 -1 at index 1 (shape ids are 0 to 4294967295)"),
        ({"a": [1, 1], "b": np.array([1, 2**32], np.uint64)},
         "pairs['b']: expected uint32 values, got uint64 4294967296 at index 1 (shape ids are 0 to 4294967295)"),
        ({"a": [1, 2**40], "b": [1, 1]},
         "pairs['a']: expected uint32 values, got int64 1099511627776 at index 1 (shape ids are 0 to 4294967295)"),
        ({"a": [1, "2"], "b": [1, 1]}, "pairs['a']: expected uint32 values, got <U21"),
        ({"a": np.array([1, "x"], dtype=object), "b": [1, 1]},
         "pairs['a']: expected uint32 values, got str 'x' at index 1"),
        ({"a": [1, 1.5], "b": [1, 1]}, "pairs['a']: expected uint32 values, got float64"),
        ({"a": [True], "b": [1]}, "pairs['a']: expected uint32 values, got bool"),
        ({"a": pd.Series([1, -3], dtype="Int64"), "b": [1, 1]},
         "pairs['a']: expected uint32 values, got int64 -3 at index 1 (shape ids are 0 to 4294967295)"),
        ({"a": [1, 1], "b": [1, 1], "b_position": np.array([[0, 0, 0], [2**53 + 1, 0, 0]])},
         "pairs['b_position']: expected float64 values, got int64 9007199254740993 at index (1, 0) "
         "(not exactly a float64)"),
        ({"a": [1], "b": [1], "b_position": [[0.5, 2**53 + 1, 0]]},
         "pairs['b_position']: expected float64 values, got int 9007199254740993 at index (0, 1) "
         "(not exactly a float64)"),
        ({"a": [1], "b": [1], "b_rotation": np.array([[0, 0, 0, 1]], np.longdouble) + np.longdouble(2) ** -60},
         f"pairs['b_rotation']: expected float64 values, got {np.dtype(np.longdouble)} "),
        ({"a": [1, 1], "b": [1, 1], "b_position": [[3, 0, 0], [3, 0]]},
         "pairs['b_position'][1]: expected 3 numbers, got 2"),
        ({"a": [1], "b": [1], "b_position": [[3, "0", 0]]}, "pairs['b_position']: expected float64 values, got <U"),
        ({"a": [1], "b": [1], "b_position": [[True, False, True]]},
         "pairs['b_position']: expected float64 values, got bool"),
        ({"a": [1], "b": [1], "b_position": [3, 0, 0]},
         "pairs['b_position']: expected an array of shape (n, 3), got (3,)"),
    ],
)
def test_values_that_do_not_fit_are_refused_with_where_they_are(pairs, message):
    if str(np.dtype(np.longdouble)) in message and np.finfo(np.longdouble).nmant <= 52:
        pytest.skip("longdouble is float64 here")
    shapes = {"id": [1], "points": [[[0, 0, 0]]]}
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        gpu_gjk.query(shapes, pairs)


@pytest.mark.parametrize(
    "table, message",
    [
        (pa.table({"a": pa.array([1, -1], pa.int32()), "b": [1, 1]}),
         "pairs column 'a': expected uint32, got int32 -1 at row 1 (shape ids are 0 to 4294967295)"),
        (pa.table({"a": [1], "b": pa.array([1.0])}), "pairs column 'b': expected uint32, got double"),
        (pa.table({"a": [1], "b": [1], "b_position": pa.array([[0, 2**53 + 1, 0]], pa.list_(pa.int64(), 3))}),
         "pairs column 'b_position': expected fixed_size_list<float64, 3>, got int64 9007199254740993 at index "
         "(0, 1) (not exactly a float64)"),
        (pa.table({"a": [1, 1], "b": [1, 1], "a_rotation": [[0, 0, 0, 1], [0, 0, 1]]}),
         "pairs row 1: a_rotation: expected 4 numbers, got 3"),
    ],
)
def test_arrow_values_that_do_not_fit_are_refused(table, message):
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        gpu_gjk.query(shapes_table([1], [[[0.0, 0.0, 0.0]]]), table)


def test_bad_points_name_the_shape_row_and_point():
    shapes = pa.table({"id": [1, 2], "points": [[[0, 0, 0]], [[0, 0, 0], [1, 1]]]})
    with pytest.raises(ValueError, match=re.escape("shapes row 1: points[1]: expected 3 numbers, got 2")):
        gpu_gjk.query(shapes, pairs_table([1], [1]))
    with pytest.raises(ValueError, match=re.escape("shapes['points'][1][1]: expected 3 numbers, got 2")):
        gpu_gjk.query({"id": [1, 2], "points": [[[0, 0, 0]], [[0, 0, 0], [1, 1]]]}, {"a": [1], "b": [1]})
    with pytest.raises(ValueError, match=re.escape("shapes row 1: id: a shape needs an id, got null")):
        gpu_gjk.query({"id": pd.array([1, None], dtype="Int64"), "points": [[[0, 0, 0]]] * 2}, {"a": [1], "b": [1]})


def test_strict_refuses_every_conversion():
    shape_dict, pair_dict = batch(pairs=3)
    frame = pd.DataFrame({"a": pair_dict["a"], "b": pair_dict["b"]})
    refusals = [
        ({**pair_dict, "a": pair_dict["a"].astype(np.int64)}, "pairs['a']: expected uint32 values, got int64"),
        ({**pair_dict, "b_position": pair_dict["b_position"].astype(np.float32)},
         "pairs['b_position']: expected float64 values, got float32"),
        ({**pair_dict, "b": pair_dict["b"].tolist()}, "pairs['b']: expected uint32 values, got int64"),
        ({**pair_dict, "a_position": np.array([[0, 0, 0]] * 3)},
         "pairs['a_position']: expected float64 values, got int64"),
        (frame, "shapes and pairs must both be pyarrow Tables (or RecordBatches) or both dicts of NumPy arrays, "
                "got dict and DataFrame"),
    ]
    for pairs, message in refusals:
        with pytest.raises(ValueError, match="^" + re.escape(message) + "$"):
            gpu_gjk.query(shape_dict, pairs, strict=True)
        gpu_gjk.query(shape_dict, pairs)  # read without strict
    shapes, pairs = random_batch(23, 5, shapes=5)
    with pytest.raises(ValueError, match=re.escape("pairs column 'a': expected uint32, got int64")):
        gpu_gjk.query(shapes, pairs.set_column(0, "a", pairs.column("a").cast(pa.int64())), strict=True)
    loose = pa.table({"id": shapes.column("id"), "points": shapes.column("points").to_pylist()})
    with pytest.raises(ValueError, match=re.escape("shapes column 'points': expected list<fixed_size_list<float64")):
        gpu_gjk.query(loose, pairs, strict=True)


def test_all_lists_the_public_names():
    assert sorted(gpu_gjk.__all__) == ["ANSWER_COLUMNS", "KINDS", "MANIFOLD_COLUMNS", "last_timings", "query"]
    namespace = {}
    exec("from gpu_gjk import *", namespace)
    assert sorted(k for k in namespace if k != "__builtins__") == sorted(gpu_gjk.__all__)
    # Every function and constant the package defines, and nothing else.
    defined = {name for name, value in vars(gpu_gjk).items()
               if not name.startswith("_") and (getattr(value, "__module__", None) == "gpu_gjk" or name.isupper())}
    assert defined == set(gpu_gjk.__all__)


def test_dask_module_lists_its_public_names():
    import gpu_gjk.dask

    assert sorted(gpu_gjk.dask.__all__) == ["GPU_RESOURCES", "answer_parquet", "answers_meta"]
    assert all(hasattr(gpu_gjk.dask, name) for name in gpu_gjk.dask.__all__)
