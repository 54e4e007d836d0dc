"""Batches for the tests: shapes and pairs tables, as Arrow and as dicts of NumPy arrays, and the same pairs
as a `gpu-gjk query` JSON Lines file."""

import json

import numpy as np
import pyarrow as pa

THREE = pa.list_(pa.float64(), 3)
FOUR = pa.list_(pa.float64(), 4)

BOX = [[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]


def shapes_table(ids, points, radius=None):
    columns = {
        "id": pa.array(ids, pa.uint32()),
        "points": pa.array(points, pa.list_(THREE)),
    }
    if radius is not None:
        columns["radius"] = pa.array(radius, pa.float64())
    return pa.table(columns)


def pairs_table(a, b, a_position=None, a_rotation=None, b_position=None, b_rotation=None):
    columns = {"a": pa.array(a, pa.uint32()), "b": pa.array(b, pa.uint32())}
    for name, value, kind in (
        ("a_position", a_position, THREE),
        ("a_rotation", a_rotation, FOUR),
        ("b_position", b_position, THREE),
        ("b_rotation", b_rotation, FOUR),
    ):
        if value is not None:
            columns[name] = pa.array(value, kind)
    return pa.table(columns)


def random_batch(seed, pairs, shapes=40):
    """A seeded mix: spheres, capsules, boxes, rounded boxes and random hulls of up to 40 points, placed in
    a few units of each other (so that about half overlap), with random rotations.

    Every number has 6 decimals at most, so that its JSON text is read exactly: `gpu-gjk query` converts
    decimals as serde_json does without its `float_roundtrip` feature, which can miss the nearest float64 by
    an ulp on 17-digit numbers (Python writes floats with up to 17), and the answers would then differ in
    their last bits for that reason alone."""
    rng = _Rounded(np.random.default_rng(seed))
    ids, points, radius = [], [], []
    for k in range(shapes):
        kind = k % 5
        size = rng.uniform(0.3, 1.5)
        if kind == 0:
            pts, r = [[0.0, 0.0, 0.0]], size
        elif kind == 1:
            pts, r = [[0.0, -size, 0.0], [0.0, size, 0.0]], round(size * 0.4, 6)
        elif kind in (2, 3):
            half = rng.uniform(0.2, 1.2, 3)
            pts = [[sx * half[0], sy * half[1], sz * half[2]] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
            r = 0.0 if kind == 2 else round(0.1 * size, 6)
        else:
            pts, r = (rng.normal(size=(int(rng.integers(4, 41)), 3)) * 2).tolist(), 0.0
        ids.append(1000 + 7 * k)
        points.append(pts)
        radius.append(r)
    pick = rng.integers(0, shapes, size=(pairs, 2))
    quats = rng.normal(size=(pairs, 2, 4))
    positions = rng.uniform(-1.5, 1.5, size=(pairs, 2, 3))
    shapes_t = shapes_table(ids, points, radius)
    pairs_t = pairs_table(
        [ids[i] for i in pick[:, 0]],
        [ids[i] for i in pick[:, 1]],
        positions[:, 0].tolist(),
        quats[:, 0].tolist(),
        positions[:, 1].tolist(),
        quats[:, 1].tolist(),
    )
    return shapes_t, pairs_t


class _Rounded:
    """A NumPy generator whose floats are rounded to 6 decimals (quaternions need not be unit length: both
    paths normalise them the same way)."""

    def __init__(self, rng):
        self.rng = rng

    def uniform(self, *args, **kwargs):
        return np.round(self.rng.uniform(*args, **kwargs), 6)

    def normal(self, *args, **kwargs):
        return np.round(self.rng.normal(*args, **kwargs), 6)

    def integers(self, *args, **kwargs):
        return self.rng.integers(*args, **kwargs)


def as_numpy(shapes, pairs):
    """The same batch as dicts of NumPy arrays."""
    shape_dict = {
        "id": shapes.column("id").to_numpy(),
        "points": [np.array(p, dtype=np.float64).reshape(-1, 3) for p in shapes.column("points").to_pylist()],
    }
    if "radius" in shapes.schema.names:
        shape_dict["radius"] = shapes.column("radius").to_numpy()
    pair_dict = {"a": pairs.column("a").to_numpy(), "b": pairs.column("b").to_numpy()}
    for name in ("a_position", "a_rotation", "b_position", "b_rotation"):
        if name in pairs.schema.names:
            pair_dict[name] = np.array(pairs.column(name).to_pylist(), dtype=np.float64)
    return shape_dict, pair_dict


def json_lines(shapes, pairs):
    """The pairs as `gpu-gjk query` lines (floats written exactly: Python's repr round-trips). A pair whose
    id is not among the shapes, or any null, cannot be written as a line and is left to the caller."""
    by_id = {}
    radius = shapes.column("radius").to_pylist() if "radius" in shapes.schema.names else None
    for k, (i, pts) in enumerate(zip(shapes.column("id").to_pylist(), shapes.column("points").to_pylist())):
        shape = {"points": pts}
        if radius is not None:
            shape["radius"] = radius[k]
        by_id[i] = shape
    rows = pairs.to_pylist()
    lines = []
    for row in rows:
        line = {}
        for side in ("a", "b"):
            shape = dict(by_id[row[side]])
            for field in ("position", "rotation"):
                value = row.get(f"{side}_{field}")
                if value is not None:
                    shape[field] = value
            line[side] = shape
        lines.append(json.dumps(line))
    return "\n".join(lines) + "\n"
