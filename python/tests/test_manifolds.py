"""``gpu_gjk.query(..., kind="manifold")``: a cube resting on a slab (four points at depth 0.01), a pair apart
(no points), a bad row (its error, no points), the Arrow and NumPy layouts agreeing, the same manifolds as
``gpu-gjk query --kind manifold`` (floats exactly), and a GPU backend refused."""

import json
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


@pytest.mark.parametrize("backend", ["gpu", "vulkan"])
def test_manifolds_refuse_a_gpu_backend(backend):
    shapes, pairs = resting_batch()
    with pytest.raises(ValueError, match="kind='manifold' runs on the CPU"):
        gpu_gjk.query(shapes, pairs, kind="manifold", backend=backend)
