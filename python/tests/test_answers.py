"""Answers on hand-computed cases, bad rows as error cells, bad arguments as exceptions."""

import math
import re

import numpy as np
import pyarrow as pa
import pytest

import gpu_gjk
from batches import BOX, as_numpy, pairs_table, random_batch, shapes_table

SPHERE, CUBE, SEGMENT = 1, 2, 3


def catalogue():
    return shapes_table(
        [SPHERE, CUBE, SEGMENT],
        [[[0.0, 0.0, 0.0]], BOX, [[0.0, -1.0, 0.0], [0.0, 1.0, 0.0]]],
        [1.0, 0.0, 0.5],
    )


def rows(table):
    return table.to_pylist()


def test_two_unit_spheres_three_apart_are_one_apart():
    answers = gpu_gjk.query(catalogue(), pairs_table([SPHERE], [SPHERE], b_position=[[3.0, 0.0, 0.0]]))
    [row] = rows(answers)
    assert row["error"] is None
    assert row["status"] == "separated" and row["penetration_status"] == "separated"
    assert not row["intersecting"]
    assert row["distance"] == pytest.approx(1.0, abs=1e-6)
    assert row["witness_a"] == pytest.approx([1.0, 0.0, 0.0], abs=1e-6)
    assert row["witness_b"] == pytest.approx([2.0, 0.0, 0.0], abs=1e-6)
    assert row["normal"] == pytest.approx([1.0, 0.0, 0.0], abs=1e-6)
    # Separated pairs have no depth or contacts.
    assert row["depth"] is None and row["contact_a"] is None and row["contact_b"] is None


def test_overlapping_cubes_have_depth_and_contacts():
    # Two boxes of half extent 0.5, B at x = 0.5: docs/commands.md's overlap example, depth 0.5 along x.
    answers = gpu_gjk.query(catalogue(), pairs_table([CUBE], [CUBE], b_position=[[0.5, 0.0, 0.0]]))
    [row] = rows(answers)
    assert row["intersecting"] and row["status"] == "intersecting"
    assert row["penetration_status"] == "penetrating"
    assert row["distance"] == 0.0
    assert row["depth"] == pytest.approx(0.5, abs=1e-6)
    assert row["normal"] == pytest.approx([1.0, 0.0, 0.0], abs=1e-6)
    moved = np.array(row["contact_a"]) - np.array(row["contact_b"])
    assert moved == pytest.approx([0.5, 0.0, 0.0], abs=1e-6)


def test_rotated_capsule_and_sphere():
    # A segment of half length 1 along Y with radius 0.5, turned 90 degrees about Z (so along X), its centre
    # at x = 4: its end is at x = 3 - 0.5 = 2.5 and the unit sphere's surface at 1, so 1.5 apart.
    s = math.sqrt(0.5)
    pairs = pairs_table([SPHERE], [SEGMENT], b_position=[[4.0, 0.0, 0.0]], b_rotation=[[0.0, 0.0, s, s]])
    [row] = rows(gpu_gjk.query(catalogue(), pairs))
    assert row["distance"] == pytest.approx(1.5, abs=1e-6)
    assert row["witness_b"] == pytest.approx([2.5, 0.0, 0.0], abs=1e-6)


def test_kinds_give_their_fields():
    pairs = pairs_table([CUBE, SPHERE], [CUBE, SPHERE], b_position=[[0.5, 0.0, 0.0], [3.0, 0.0, 0.0]])
    distance = rows(gpu_gjk.query(catalogue(), pairs, kind="distance"))
    assert [r["penetration_status"] for r in distance] == [None, None]
    assert [r["depth"] for r in distance] == [None, None]
    assert distance[1]["distance"] == pytest.approx(1.0, abs=1e-6)
    hit = rows(gpu_gjk.query(catalogue(), pairs, kind="intersection"))
    assert [r["intersecting"] for r in hit] == [True, False]


def test_numpy_dicts_give_the_arrow_answers():
    shapes, pairs = random_batch(3, 200)
    table = gpu_gjk.query(shapes, pairs, threads=1)
    shape_dict, pair_dict = as_numpy(shapes, pairs)
    arrays = gpu_gjk.query(shape_dict, pair_dict, threads=1)
    assert list(arrays) == list(gpu_gjk.ANSWER_COLUMNS)
    for name in gpu_gjk.ANSWER_COLUMNS:
        expected = table.column(name).to_pylist()
        got = arrays[name]
        if isinstance(got, np.ma.MaskedArray):
            # A masked row of a vector column reads [None, None, None]: the null of the Arrow column.
            got = [None if isinstance(v, list) and v == [None] * 3 else v for v in got.tolist()]
        assert list(got) == expected, name
    # The flat form of the points gives the same answers.
    flat = dict(shape_dict)
    flat["point_offsets"] = np.cumsum([0] + [len(p) for p in flat["points"]])
    flat["points"] = np.concatenate(flat["points"])
    again = gpu_gjk.query(flat, pair_dict, threads=1)
    assert again["distance"].tolist() == arrays["distance"].tolist()


def test_threads_give_the_same_answers():
    shapes, pairs = random_batch(4, 300)
    one = gpu_gjk.query(shapes, pairs, threads=1)
    assert one.equals(gpu_gjk.query(shapes, pairs, threads=0))
    assert one.equals(gpu_gjk.query(shapes, pairs, threads=3))


def test_chunked_and_sliced_tables_read_right():
    shapes, pairs = random_batch(5, 120)
    whole = gpu_gjk.query(shapes, pairs)
    chunked = pa.concat_tables([pairs.slice(0, 50), pairs.slice(50)])
    assert chunked.column("a").num_chunks == 2
    assert gpu_gjk.query(shapes, chunked).equals(whole)
    part = gpu_gjk.query(shapes.slice(0), pairs.slice(30, 40))
    assert part.equals(whole.slice(30, 40))


def test_empty_batch():
    answers = gpu_gjk.query(catalogue(), pairs_table([], []))
    assert answers.num_rows == 0 and answers.column_names == list(gpu_gjk.ANSWER_COLUMNS)


def errors(shapes, pairs):
    return gpu_gjk.query(shapes, pairs).column("error").to_pylist()


def test_bad_rows_are_error_cells_and_the_others_are_answered():
    pairs = pairs_table(
        [SPHERE, 99, SPHERE, SPHERE, SPHERE, SPHERE],
        [SPHERE, SPHERE, SPHERE, SPHERE, SPHERE, SPHERE],
        b_position=[[3, 0, 0], [3, 0, 0], [2e9, 0, 0], [3, 0, 0], None, [3, 0, 0]],
        b_rotation=[[0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 1]],
    )
    answers = gpu_gjk.query(catalogue(), pairs)
    assert answers.column("error").to_pylist() == [
        None,
        "pairs row 1: a: no shape has id 99",
        "pairs row 2: b_position[0]: 2e9 is beyond the coordinate limit +-1e9",
        "pairs row 3: b_rotation: zero quaternion (all four components are 0)",
        "pairs row 4: b_position: expected an array of 3 numbers, got null",
        None,
    ]
    for row in rows(answers)[1:5]:
        assert all(row[name] is None for name in gpu_gjk.ANSWER_COLUMNS if name != "error")
    # A slice of a bigger batch names its rows in that batch; the answers are the same.
    offset = gpu_gjk.query(catalogue(), pairs, first_row=1000)
    assert offset.column("error").to_pylist()[1:3] == [
        "pairs row 1001: a: no shape has id 99",
        "pairs row 1002: b_position[0]: 2e9 is beyond the coordinate limit +-1e9",
    ]
    assert offset.drop_columns(["error"]).equals(answers.drop_columns(["error"]))
    assert [r["distance"] for r in rows(answers)] == [pytest.approx(1.0, abs=1e-6), None, None, None, None,
                                                     pytest.approx(1.0, abs=1e-6)]


def test_bad_shapes_fail_the_rows_that_use_them():
    shapes = pa.table(
        {
            "id": pa.array([1, 2, 3, 4, 5, 6, 6], pa.uint32()),
            "points": pa.array(
                [[[0, 0, 0]], [], None, [[0, 0, 0], [1, None, 0]], [[0, 0, 0]], [[0, 0, 0]], [[1, 1, 1]]],
                pa.list_(pa.list_(pa.float64(), 3)),
            ),
            "radius": pa.array([1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0]),
        }
    )
    pairs = pairs_table([1, 2, 3, 4, 1, 6], [1, 1, 1, 1, 5, 1], b_position=[[3, 0, 0]] * 6)
    assert errors(shapes, pairs) == [
        None,
        "pairs row 1: a: shape 2 is refused: shapes row 1: points: empty point list",
        "pairs row 2: a: shape 3 is refused: shapes row 2: points: expected an array of points, got null",
        "pairs row 3: a: shape 4 is refused: shapes row 3: points[1][1]: expected a number, got null",
        "pairs row 4: b: shape 5 is refused: shapes row 4: radius: -1 is negative",
        "pairs row 5: a: shape id 6 is on shapes rows 5 and 6 (ids must be unique)",
    ]


def test_nulls_and_non_finite_numbers_are_row_errors():
    pairs = pa.table(
        {
            "a": pa.array([SPHERE, None, SPHERE], pa.uint32()),
            "b": pa.array([SPHERE, SPHERE, SPHERE], pa.uint32()),
            "a_rotation": pa.array([[0, 0, 0, 1], [0, 0, 0, 1], [0, 0, None, 1]], pa.list_(pa.float64(), 4)),
        }
    )
    assert errors(catalogue(), pairs) == [
        None,
        "pairs row 1: a: expected a shape id, got null",
        "pairs row 2: a_rotation[2]: expected a number, got null",
    ]
    shape_dict, pair_dict = as_numpy(catalogue(), pairs_table([SPHERE] * 2, [SPHERE] * 2))
    pair_dict["b_position"] = np.array([[3.0, 0.0, 0.0], [np.nan, 0.0, 0.0]])
    answered = gpu_gjk.query(shape_dict, pair_dict)
    assert list(answered["error"]) == [None, "pairs row 1: b_position[0]: NaN is not a finite number"]
    assert answered["distance"].mask.tolist() == [False, True]
    assert answered["distance"][0] == pytest.approx(1.0, abs=1e-6)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda s, p: gpu_gjk.query(s, p, kind="depth"), "kind must be"),
        (lambda s, p: gpu_gjk.query(s, p, backend="cuda"), "backend must be one of 'auto', 'cpu', 'gpu'"),
        (lambda s, p: gpu_gjk.query(s, p, threads=-1), "threads must be"),
        (lambda s, p: gpu_gjk.query(s, p, first_row=-1), "first_row must be a whole number >= 0, got -1"),
        (lambda s, p: gpu_gjk.query(s, p, threads=100000), "threads: 100000 threads is more than 8 per core"),
        (lambda s, p: gpu_gjk.query(s, p.to_pydict()), "both be pyarrow Tables"),
        (lambda s, p: gpu_gjk.query(s, p.rename_columns(["a", "bee", "b_position"])), "unknown column 'bee'"),
        (lambda s, p: gpu_gjk.query(s, p.drop_columns(["b"])), "required column 'b' is missing"),
        (lambda s, p: gpu_gjk.query(s, p.set_column(0, "a", pa.array([1], pa.int64())), strict=True),
         "pairs column 'a': expected uint32, got int64"),
        (lambda s, p: gpu_gjk.query(s, p.set_column(0, "a", pa.array([-1], pa.int64()))),
         "pairs column 'a': expected uint32, got int64 -1 at row 0 (shape ids are 0 to 4294967295)"),
        (lambda s, p: gpu_gjk.query(s, p.set_column(2, "b_position", pa.array([[1.0, 2.0, 3.0]])), strict=True),
         "pairs column 'b_position': expected fixed_size_list<float64, 3>, got list<item: double>"),
        (lambda s, p: gpu_gjk.query(s, p.set_column(2, "b_position", pa.array([[1.0, 2.0]]))),
         "pairs row 0: b_position: expected 3 numbers, got 2"),
        (lambda s, p: gpu_gjk.query(s, p.set_column(2, "b_position", pa.array([["1", "2", "3"]]))),
         "pairs column 'b_position': expected fixed_size_list<float64, 3>, got list<item: string>"),
        (lambda s, p: gpu_gjk.query(s, p, strict=1), "strict must be True or False, got 1"),
    ],
)
def test_bad_arguments_raise_value_errors(call, message):
    pairs = pairs_table([SPHERE], [SPHERE], b_position=[[3.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match=re.escape(message)):
        call(catalogue(), pairs)


def test_bad_numpy_arguments_raise_value_errors():
    shape_dict, pair_dict = as_numpy(catalogue(), pairs_table([SPHERE], [SPHERE], b_position=[[3, 0, 0]]))
    with pytest.raises(ValueError, match=r"pairs\['a'\]: expected uint32 values, got int64$"):
        gpu_gjk.query(shape_dict, {**pair_dict, "a": np.array([SPHERE])}, strict=True)
    with pytest.raises(ValueError, match=r"pairs\['a'\]: expected uint32 values, got float64$"):
        gpu_gjk.query(shape_dict, {**pair_dict, "a": np.array([1.0])})
    with pytest.raises(ValueError, match=r"pairs\['b_position'\]: expected an array of shape \(n, 3\)"):
        gpu_gjk.query(shape_dict, {**pair_dict, "b_position": np.zeros((1, 4))})
    with pytest.raises(ValueError, match=r"pairs\['b_position'\]: expected float64 values, got float32$"):
        gpu_gjk.query(shape_dict, {**pair_dict, "b_position": np.zeros((1, 3), np.float32)}, strict=True)
    with pytest.raises(ValueError, match="pairs b: the column has 2 rows, expected 1"):
        gpu_gjk.query(shape_dict, {**pair_dict, "b": np.array([1, 1], np.uint32)})
    # A non-contiguous view is read (copied once), not refused.
    positions = np.zeros((1, 6))[:, ::2]
    positions[0, 0] = 3.0
    answer = gpu_gjk.query(shape_dict, {**pair_dict, "b_position": positions})
    assert answer["distance"][0] == pytest.approx(1.0, abs=1e-6)


def _with_ids(shapes, pairs, new_id):
    """The same batch with every shape id mapped through ``new_id``."""
    ids = {old: new_id(old) for old in shapes.column("id").to_pylist()}
    shapes = shapes.set_column(0, "id", pa.array([ids[i] for i in shapes.column("id").to_pylist()], pa.uint32()))
    for side in ("a", "b"):
        k = pairs.column_names.index(side)
        pairs = pairs.set_column(k, side, pa.array([ids[i] for i in pairs.column(side).to_pylist()], pa.uint32()))
    return shapes, pairs


def test_sparse_ids_give_the_answers_of_dense_ids():
    # Ids near 2**32 are looked up in a hash map, small ones in a table indexed by id: same answers.
    shapes, pairs = random_batch(9, 400)
    dense = gpu_gjk.query(shapes, pairs)
    sparse_shapes, sparse_pairs = _with_ids(shapes, pairs, lambda i: 4_294_967_295 - 7919 * i)
    assert gpu_gjk.query(sparse_shapes, sparse_pairs).equals(dense)
    unknown = pairs_table([4_294_967_295, 5], [5, 5])
    assert errors(sparse_shapes, unknown) == [
        "pairs row 0: a: no shape has id 4294967295",
        "pairs row 1: a: no shape has id 5",
    ]


def test_error_rows_on_block_edges_keep_every_answer_in_its_row():
    # The answer columns are filled 4,096 rows per thread: failed rows on and beside the block edges must
    # not shift the answers of the rows after them.
    shapes, pairs = random_batch(10, 10_000)
    bad = [0, 4095, 4096, 4097, 8191, 8192, 9999]
    a = pairs.column("a").to_pylist()
    for row in bad:
        a[row] = 99
    broken = pairs.set_column(0, "a", pa.array(a, pa.uint32()))
    good = gpu_gjk.query(shapes, pairs, threads=0)
    answers = gpu_gjk.query(shapes, broken, threads=0)
    assert answers.equals(gpu_gjk.query(shapes, broken, threads=1))
    error = answers.column("error").to_pylist()
    assert [r for r, e in enumerate(error) if e is not None] == bad
    assert all(error[r] == f"pairs row {r}: a: no shape has id 99" for r in bad)
    keep = pa.array([r not in set(bad) for r in range(pairs.num_rows)])
    assert answers.filter(keep).drop_columns(["error"]).equals(good.filter(keep).drop_columns(["error"]))


def test_last_timings_account_for_the_call():
    import threading

    shapes, pairs = random_batch(11, 500)
    for batch in ((shapes, pairs), as_numpy(shapes, pairs)):
        gpu_gjk.query(*batch, threads=1)
        t = gpu_gjk.last_timings()
        gpu_parts = {"gpu_upload_s", "gpu_wait_s", "gpu_kernel_s", "gpu_readback_s"}
        assert set(t) == {"columns_in_s", "read_rows_s", "answer_s", "gpu_batch_s", "table_out_s",
                          "total_s"} | gpu_parts
        assert all(v >= 0.0 for v in t.values()), t
        assert t["gpu_batch_s"] == 0.0 and all(t[k] == 0.0 for k in gpu_parts), t
        parts = t["columns_in_s"] + t["read_rows_s"] + t["answer_s"] + t["table_out_s"]
        assert parts <= t["total_s"], t
    # Per thread: a thread that has not queried has none.
    seen = []
    thread = threading.Thread(target=lambda: seen.append(gpu_gjk.last_timings()))
    thread.start()
    thread.join()
    assert seen == [None]


def fibonacci_sphere(n):
    k = np.arange(n) + 0.5
    y = 1.0 - 2.0 * k / n
    ring = np.sqrt(1.0 - y * y)
    phi = np.pi * (3.0 - np.sqrt(5.0)) * k
    return np.stack([ring * np.cos(phi), y, ring * np.sin(phi)], axis=1)


def rotate(q, points):
    x, y, z, w = q
    u = np.array([x, y, z])
    return points + 2.0 * np.cross(u, np.cross(u, points) + w * points)


def test_a_depth_epa_did_not_converge_on_carries_its_upper_bound():
    # Two round hulls of 30,000 points at one centre, one turned, outgrow even the CPU's grown EPA bounds
    # (docs/algorithm.md): the answer's depth is a lower bound, and depth_upper is the shapes' support
    # functions along its normal, radii included. A converged answer (the overlapping cubes) has none.
    ball = fibonacci_sphere(30_000)
    turn = [math.sin(0.4) * v for v in (0.6, 0.0, 0.8)] + [math.cos(0.4)]
    shapes = shapes_table([1, 2], [ball.tolist(), BOX], [0.25, 0.0])
    pairs = pairs_table([1, 2], [1, 2], b_rotation=[turn, [0.0, 0.0, 0.0, 1.0]], b_position=[[0.0] * 3, [0.5, 0, 0]])
    table = gpu_gjk.query(shapes, pairs)
    deep, converged = rows(table)
    assert deep["penetration_status"] in ("epa_max_iterations", "epa_overflow"), deep["penetration_status"]
    n = np.array(deep["normal"])
    along = (ball @ n).max() + (rotate(turn, ball) @ -n).max() + 0.5
    assert deep["depth"] < deep["depth_upper"]
    assert deep["depth_upper"] == pytest.approx(along, abs=1e-5)
    assert converged["penetration_status"] == "penetrating" and converged["depth_upper"] is None
    shape_dict, pair_dict = as_numpy(shapes, pairs)
    arrays = gpu_gjk.query(shape_dict, pair_dict)
    assert arrays["depth_upper"].tolist() == [deep["depth_upper"], None]
