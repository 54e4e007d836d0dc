"""The GPU backend against the CPU backend on the same batch, and its errors."""

import numpy as np
import pytest

import gpu_gjk
from batches import as_numpy, pairs_table, random_batch, shapes_table


def test_gpu_agrees_with_cpu(gpu_available):
    shapes, pairs = random_batch(21, 500)
    cpu = gpu_gjk.query(shapes, pairs, backend="cpu").to_pylist()
    gpu = gpu_gjk.query(shapes, pairs, backend="gpu").to_pylist()
    assert len(cpu) == len(gpu) == 500
    for k, (c, g) in enumerate(zip(cpu, gpu)):
        # The GPU's failures were answered again on the CPU: every row is an answer.
        assert g["error"] is None and g["status"] in ("separated", "intersecting"), (k, g["status"])
        assert g["intersecting"] == c["intersecting"], k
        # Float32 on both sides, in a different order of operations: equal within 1e-4 of the pair's size
        # (the shapes here are about 1 across), as the Rust GPU tests assert.
        assert g["distance"] == pytest.approx(c["distance"], abs=1e-4), k
        if c["depth"] is not None and c["depth"] > 1e-3:
            assert g["depth"] == pytest.approx(c["depth"], abs=1e-3), k
    assert 50 < sum(c["intersecting"] for c in cpu) < 450


def test_gpu_answers_numpy_dicts(gpu_available):
    shapes, pairs = random_batch(22, 100)
    table = gpu_gjk.query(shapes, pairs, backend="gpu")
    arrays = gpu_gjk.query(*as_numpy(shapes, pairs), backend="gpu")
    assert arrays["distance"].tolist() == table.column("distance").to_pylist()
    assert np.array_equal(arrays["intersecting"].data, table.column("intersecting").to_numpy())


def test_gpu_bad_rows_are_error_cells(gpu_available):
    shapes = shapes_table([1], [[[0.0, 0.0, 0.0]]], [1.0])
    pairs = pairs_table([1, 1, 7], [1, 1, 1], b_position=[[3.0, 0, 0], [0.0, 0, 0], [3.0, 0, 0]])
    rows = gpu_gjk.query(shapes, pairs, backend="gpu").to_pylist()
    assert rows[0]["distance"] == pytest.approx(1.0, abs=1e-6)
    assert rows[1]["intersecting"] and rows[1]["depth"] == pytest.approx(2.0, abs=1e-6)
    assert rows[2]["error"] == "pairs row 2: a: no shape has id 7"


def test_a_backend_that_is_not_there_raises_runtime_error():
    shapes = shapes_table([1], [[[0.0, 0.0, 0.0]]])
    with pytest.raises(RuntimeError, match="--backend metal"):
        gpu_gjk.query(shapes, pairs_table([1], [1]), backend="metal")


@pytest.mark.parametrize("kind", ["distance", "intersection"])
def test_gpu_kinds_run_their_kernels_and_agree_with_cpu(gpu_available, kind):
    # Distance and intersection run GJK alone on the GPU (no EPA pass): the kind's fields, the CPU's flags.
    shapes, pairs = random_batch(23, 2000)
    cpu = gpu_gjk.query(shapes, pairs, kind=kind, backend="cpu")
    gpu = gpu_gjk.query(shapes, pairs, kind=kind, backend="gpu")
    t = gpu_gjk.last_timings()
    assert 0.0 < t["gpu_batch_s"] <= t["answer_s"], t
    assert t["gpu_upload_s"] + t["gpu_wait_s"] + t["gpu_readback_s"] <= t["gpu_batch_s"], t
    assert gpu.column("depth").null_count == gpu.num_rows
    assert gpu.column("penetration_status").null_count == gpu.num_rows
    flips = [k for k, (c, g) in enumerate(zip(cpu.column("intersecting").to_pylist(),
                                               gpu.column("intersecting").to_pylist())) if c != g]
    # Only pairs touching within float32's tolerance may differ.
    assert all(cpu.column("distance")[k].as_py() < 1e-4 for k in flips), flips
    assert len(flips) <= 2, flips
    if kind == "distance":
        d_cpu = cpu.column("distance").to_numpy()
        d_gpu = gpu.column("distance").to_numpy()
        assert np.max(np.abs(d_cpu - d_gpu)) < 1e-4
