"""gpu_gjk in a few lines: a shapes table, a pairs table, one call. Run: python python/examples/quickstart.py"""

import math

import pyarrow as pa

import gpu_gjk

point3 = pa.list_(pa.float64(), 3)
box = [[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]

# Shapes by id: a point swept by a radius (a sphere), a segment swept by a radius (a capsule), a box.
shapes = pa.table(
    {
        "id": pa.array([1, 2, 3], pa.uint32()),
        "points": pa.array([[[0, 0, 0]], [[0, -1, 0], [0, 1, 0]], box], pa.list_(point3)),
        "radius": [1.0, 0.5, 0.0],
    }
)

s = math.sqrt(0.5)
pairs = pa.table(
    {
        "a": pa.array([1, 3, 1, 9], pa.uint32()),
        "b": pa.array([1, 3, 2, 1], pa.uint32()),
        "b_position": pa.array([[3, 0, 0], [0.5, 0, 0], [4, 0, 0], [0, 0, 0]], point3),
        # The capsule turned 90 degrees about z (lying along x); quaternions are [x, y, z, w].
        "b_rotation": pa.array([[0, 0, 0, 1], [0, 0, 0, 1], [0, 0, s, s], [0, 0, 0, 1]], pa.list_(pa.float64(), 4)),
    }
)

answers = gpu_gjk.query(shapes, pairs)  # kind="penetration", backend="cpu" ("gpu" for the GPU)


def vector(v):
    return "(" + ", ".join(f"{x:.3f}" for x in v) + ")"


for k, row in enumerate(answers.to_pylist()):
    if row["error"]:
        print(f"pair {k}: error: {row['error']}")
    elif row["intersecting"]:
        print(f"pair {k}: overlapping, depth {row['depth']:.3f} along {vector(row['normal'])}")
    else:
        print(f"pair {k}: {row['distance']:.3f} apart, closest points {vector(row['witness_a'])} "
              f"and {vector(row['witness_b'])}")
