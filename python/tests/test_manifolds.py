"""``gpu_gjk.query(..., kind="manifold")``: a cube resting on a slab (four points at depth 0.01), a pair apart
(no points), a bad row (its error, no points), the Arrow and NumPy layouts agreeing, the same manifolds as
``gpu-gjk query --kind manifold`` (floats exactly), and on the GPU backends the CPU's manifolds within the GPU
manifolds' band, hostile pairs in both orders included."""

import json
import os
import subprocess

import numpy as np
import pyarrow as pa
import pytest

import gpu_gjk
from batches import as_numpy, json_lines, pairs_table, random_batch, shapes_table

CUBE = [[x, y, z] for z in (-0.5, 0.5) for y in (-0.5, 0.5) for x in (-0.5, 0.5)]
SLAB = [[x, y, z] for z in (-2.0, 2.0) for y in (-0.5, 0.5) for x in (-2.0, 2.0)]


def resting_batch():
    """Row 0: the cube resting 0.01 deep on the slab; row 1: two balls apart; row 2: an unknown shape id."""
    shapes = shapes_table([1, 2, 3], [SLAB, CUBE, [[0.0, 0.0, 0.0]]], [0.0, 0.0, 0.5])
    pairs = pairs_table(
        [1, 3, 1], [2, 3, 99], b_position=[[0.0, 0.99, 0.0], [5.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    )
    return shapes, pairs


def test_a_cube_resting_on_a_slab_has_four_points():
    shapes, pairs = resting_batch()
    table = gpu_gjk.query(shapes, pairs, kind="manifold")
    assert table.column_names == list(gpu_gjk.MANIFOLD_COLUMNS)
    rows = table.to_pylist()
    resting, apart, bad = rows
    assert resting["status"] == "penetrating" and resting["error"] is None
    assert resting["normal"] == [0.0, 1.0, 0.0]
    assert len(resting["points"]) == 4
    corners = set()
    for p in resting["points"]:
        assert p["depth"] == pytest.approx(0.01, abs=1e-9)
        assert p["point_b"][1] == pytest.approx(0.49, abs=1e-9)
        assert p["point_a"][1] == pytest.approx(0.5, abs=1e-9)
        corners.add((p["point_b"][0], p["point_b"][2]))
        assert isinstance(p["feature_id"], int)
    assert corners == {(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)}
    assert apart["status"] == "separated" and apart["points"] == [] and apart["normal"] == [0.0, 0.0, 0.0]
    assert bad["error"] == "pairs row 2: b: no shape has id 99"
    assert bad["status"] is None and bad["normal"] is None and bad["points"] is None
    point = table.schema.field("points").type.value_type
    assert [point.field(i).name for i in range(point.num_fields)] == ["point_a", "point_b", "depth", "feature_id"]
    assert point.field("feature_id").type == pa.uint64()
    assert table.schema.field("normal").type == pa.list_(pa.float64(), 3)


def test_numpy_manifolds_are_the_arrow_ones_flattened():
    shapes, pairs = random_batch(21, 300)
    table = gpu_gjk.query(shapes, pairs, kind="manifold")
    arrays = gpu_gjk.query(*as_numpy(shapes, pairs), kind="manifold")
    rows = table.to_pylist()
    offsets = arrays["point_offsets"]
    assert offsets.dtype == np.int64 and len(offsets) == len(rows) + 1
    assert arrays["feature_id"].dtype == np.uint64
    for k, row in enumerate(rows):
        assert arrays["status"][k] == row["status"]
        assert arrays["error"][k] == row["error"]
        normal = arrays["normal"][k]
        assert (None if np.ma.is_masked(normal) else normal.tolist()) == row["normal"]
        points = range(offsets[k], offsets[k + 1])
        assert [
            {
                "point_a": arrays["point_a"][i].tolist(),
                "point_b": arrays["point_b"][i].tolist(),
                "depth": float(arrays["depth"][i]),
                "feature_id": int(arrays["feature_id"][i]),
            }
            for i in points
        ] == row["points"]
    assert any(len(r["points"]) > 1 for r in rows) and any(r["points"] == [] for r in rows)


def test_manifolds_equal_the_command_line(gpu_gjk_bin, tmp_path):
    shapes, pairs = random_batch(22, 400)
    path = tmp_path / "pairs.jsonl"
    path.write_text(json_lines(shapes, pairs))
    done = subprocess.run(
        [gpu_gjk_bin, "query", str(path), "--kind", "manifold"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    rows = gpu_gjk.query(shapes, pairs, kind="manifold").to_pylist()
    assert len(rows) == len(lines)
    for k, (line, row) in enumerate(zip(lines, rows)):
        # A normal the line writes as [null, null, null] is a null cell; every other number exactly equal.
        normal = None if line["normal"] == [None, None, None] else line["normal"]
        assert row["status"] == line["status"], k
        assert row["normal"] == normal, k
        assert row["points"] == line["points"], k
    assert sum(len(r["points"]) for r in rows) > len(rows) // 2


def test_the_table_is_the_command_lines_manifolds_table(gpu_gjk_bin, tmp_path):
    shapes, pairs = random_batch(23, 200)
    # The resting cube, and a row naming an unknown shape.
    shapes = pa.concat_tables([shapes, shapes_table([1, 2], [SLAB, CUBE], [0.0, 0.0])])
    extra = pairs_table(
        [1, 1], [2, 99], a_position=[[0.0, 0.0, 0.0]] * 2, a_rotation=[[0.0, 0.0, 0.0, 1.0]] * 2,
        b_position=[[0.0, 0.99, 0.0]] * 2, b_rotation=[[0.0, 0.0, 0.0, 1.0]] * 2,
    )
    pairs = pa.concat_tables([pairs, extra.select(pairs.schema.names)])
    import pyarrow.feather as feather

    feather.write_feather(shapes, tmp_path / "shapes.arrow", compression="uncompressed")
    feather.write_feather(pairs, tmp_path / "pairs.arrow", compression="uncompressed")
    out = tmp_path / "manifolds.arrow"
    done = subprocess.run(
        [gpu_gjk_bin, "query", str(tmp_path / "pairs.arrow"), "--shapes", str(tmp_path / "shapes.arrow"),
         "--kind", "manifold", "--output", str(out)],
        capture_output=True, text=True,
    )
    assert done.returncode == 2, done.stderr  # the unknown shape id of the last row
    cli = feather.read_table(out)
    ours = gpu_gjk.query(shapes, pairs, kind="manifold")
    assert cli.schema.names == ours.schema.names
    assert cli.to_pylist() == ours.to_pylist()
    assert len(ours.column("points").to_pylist()[-2]) == 4
    assert ours.column("error").to_pylist()[-1] == f"pairs row {len(pairs) - 1}: b: no shape has id 99"


# Keep in sync with gpu::manifold::compare::POINT_BAND: the GPU clips in float32, so its points and depths may
# differ from the CPU's by this fraction of the pair's scale (its larger bounding radius).
POINT_BAND = 1e-5


def backend_or_skip(backend):
    """Skips the test when ``backend`` has no adapter, except under CI=true (as the Rust GPU tests)."""
    try:
        gpu_gjk.query(shapes_table([1], [[[0.0, 0.0, 0.0]]]), pairs_table([1], [1]), kind="manifold",
                      backend=backend)
    except RuntimeError as e:
        if os.environ.get("CI") == "true":
            pytest.fail(f"no adapter for backend={backend!r} with CI=true: {e}")
        pytest.skip(f"SKIPPED: no adapter for backend={backend!r}: {e}")


def cuboid(hx, hy, hz):
    return [[x * hx, y * hy, z * hz] for z in (-1, 1) for y in (-1, 1) for x in (-1, 1)]


def round_hull(n, r):
    """``n`` points of a Fibonacci lattice on a sphere of radius ``r``: a hull of many faces."""
    k = np.arange(n) + 0.5
    y = 1 - 2 * k / n
    ring = np.sqrt(1 - y * y)
    angle = np.pi * (3 - np.sqrt(5)) * np.arange(n)
    return np.round(np.stack([r * ring * np.cos(angle), r * y, r * ring * np.sin(angle)], 1), 6).tolist()


TILT = [0.01, 0.0, 0.004, 1.0]
TWIST = [0.1, 0.2, 0.3, 0.9]
IDENTITY = [0.0, 0.0, 0.0, 1.0]


def hostile_batch():
    """Hostile pairs, each in both orders, then a row naming an unknown shape: a tilted cube resting on a slab
    1e8 from the origin, boxes corner in, a cube on a slab a thousandth as thick as wide, tiny and huge boxes,
    identical and nested boxes, a round hull on a slab, a ball on a cube (answered on the CPU) and cubes
    apart."""
    shapes = shapes_table(
        [1, 2, 3, 4, 5, 6, 7, 8, 9],
        [SLAB, CUBE, cuboid(1, 1e-3, 1), cuboid(0.05, 0.05, 0.05), cuboid(1e-3, 2e-3, 1e-3),
         cuboid(1e3, 5e2, 1e3), cuboid(0.1, 0.2, 0.1), round_hull(60, 0.7), [[0.0, 0.0, 0.0]]],
        [0.0] * 8 + [0.5],
    )
    pairs = [
        (1, [1e8, 0, 0], IDENTITY, 2, [1e8, 0.98, 0.1], TILT),
        (2, [0, 0, 0], IDENTITY, 2, [0.9, 0.6, 0.1], TWIST),
        (3, [3, -1, 2], IDENTITY, 4, [3.1, -1 + 1e-3 + 0.0499, 2.2], TILT),
        (5, [-5, 0, 1e3], TILT, 5, [-5 + 1.5e-3, 1e-3, 1e3], TWIST),
        (6, [0, 0, 0], IDENTITY, 6, [1.5e3, 9.9e2, 0], TILT),
        (2, [1e3, 1e3, 1e3], IDENTITY, 2, [1e3, 1e3, 1e3], IDENTITY),
        (1, [0, 0, 0], IDENTITY, 7, [0.2, 0.1, -0.3], TWIST),
        (1, [7, 0, 0], IDENTITY, 8, [7.3, 1.15, 0.2], TWIST),
        (2, [0, 0, 0], IDENTITY, 9, [0, 0.9, 0], IDENTITY),
        (2, [0, 0, 0], IDENTITY, 2, [0, 2, 0], IDENTITY),
    ]
    rows = [row for a, pa_, ra, b, pb, rb in pairs for row in ((a, pa_, ra, b, pb, rb), (b, pb, rb, a, pa_, ra))]
    rows.append((2, [0, 0, 0], IDENTITY, 99, [0, 0, 0], IDENTITY))
    a, a_position, a_rotation, b, b_position, b_rotation = (list(column) for column in zip(*rows))
    return shapes, pairs_table(a, b, a_position, a_rotation, b_position, b_rotation)


def scales(shapes, pairs):
    """Each pair row's scale: the larger bounding radius of its shapes (the points' distance from their bounding
    box's middle, plus the radius), as the library measures it; None for an unknown id."""
    by_id = {}
    radius = shapes.column("radius").to_pylist()
    for k, (i, points) in enumerate(zip(shapes.column("id").to_pylist(), shapes.column("points").to_pylist())):
        p = np.array(points)
        centre = (p.min(0) + p.max(0)) / 2
        by_id[i] = float(np.max(np.linalg.norm(p - centre, axis=1))) + radius[k]
    return [
        max(by_id[a], by_id[b]) if a in by_id and b in by_id else None
        for a, b in zip(pairs.column("a").to_pylist(), pairs.column("b").to_pylist())
    ]


def assert_within_band(gpu, cpu, scale, what):
    """The GPU's manifold row against the CPU's: the same status, error, point count and feature ids (points
    matched by id, then by nearness), the normal, points and depths within the band. Returns whether any number
    differs at all."""
    assert gpu["status"] == cpu["status"] and gpu["error"] == cpu["error"], (what, gpu, cpu)
    if cpu["error"] is not None:
        return False
    band = POINT_BAND * scale
    differs = gpu["normal"] != cpu["normal"]
    if cpu["normal"] is None:
        assert gpu["normal"] is None, what
    else:
        assert np.max(np.abs(np.subtract(gpu["normal"], cpu["normal"]))) <= POINT_BAND, (what, gpu, cpu)
    assert len(gpu["points"]) == len(cpu["points"]), (what, gpu, cpu)
    unused = list(cpu["points"])
    for p in gpu["points"]:
        same_id = [q for q in unused if q["feature_id"] == p["feature_id"]]
        assert same_id, (what, p, cpu["points"])
        q = min(same_id, key=lambda q: np.max(np.abs(np.subtract(p["point_b"], q["point_b"]))))
        unused.remove(q)
        differs |= p != q
        gap = max(np.max(np.abs(np.subtract(p[side], q[side]))) for side in ("point_a", "point_b"))
        assert gap <= band and abs(p["depth"] - q["depth"]) <= band, (what, p, q, band)
    return differs


@pytest.mark.parametrize("backend", ["gpu", "gl", "vulkan"])
def test_gpu_manifolds_are_the_cpus_within_the_band(backend):
    backend_or_skip(backend)
    shapes, pairs = hostile_batch()
    more_shapes, more_pairs = random_batch(24, 300)
    shapes = pa.concat_tables([shapes, more_shapes])
    pairs = pa.concat_tables([pairs, more_pairs.select(pairs.schema.names)])
    cpu = gpu_gjk.query(shapes, pairs, kind="manifold", backend="cpu")
    gpu = gpu_gjk.query(shapes, pairs, kind="manifold", backend=backend)
    assert gpu.schema == cpu.schema
    timings = gpu_gjk.last_timings()
    assert 0.0 < timings["gpu_batch_s"] <= timings["answer_s"], timings
    differs = False
    for k, (g, c, scale) in enumerate(zip(gpu.to_pylist(), cpu.to_pylist(), scales(shapes, pairs))):
        differs |= assert_within_band(g, c, scale or 1.0, f"{backend} row {k}")
    # Float32 clipping leaves its mark: had every row been answered on the CPU, every number would be the CPU's.
    assert differs, "the GPU answered no row"
    assert gpu.column("error")[20].as_py() == "pairs row 20: b: no shape has id 99"
    rows = gpu.to_pylist()
    assert len(rows[0]["points"]) == 4 and len(rows[1]["points"]) == 4, "the tilted cube rests on its corners"
    assert sum(len(r["points"] or []) for r in rows) > len(rows) // 2


def test_gpu_manifolds_as_numpy_are_the_arrow_ones(gpu_available):
    shapes, pairs = random_batch(25, 200)
    table = gpu_gjk.query(shapes, pairs, kind="manifold", backend="gpu").to_pylist()
    arrays = gpu_gjk.query(*as_numpy(shapes, pairs), kind="manifold", backend="gpu")
    offsets = arrays["point_offsets"]
    for k, row in enumerate(table):
        assert arrays["status"][k] == row["status"], k
        depths = arrays["depth"][offsets[k]:offsets[k + 1]].tolist()
        assert depths == [p["depth"] for p in row["points"]], k
        assert arrays["point_b"][offsets[k]:offsets[k + 1]].tolist() == [p["point_b"] for p in row["points"]], k


def test_an_unknown_backend_is_refused_for_manifolds():
    shapes, pairs = resting_batch()
    with pytest.raises(ValueError, match="backend must be one of"):
        gpu_gjk.query(shapes, pairs, kind="manifold", backend="cuda")
