"""Scale-out: a Parquet data set of pairs (several files of several row groups) answered on a local Dask
cluster of 2 worker processes equals the single-process answers, and both workers did some of it."""

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import gpu_gjk
from batches import random_batch

distributed = pytest.importorskip("distributed")
gpu_gjk_dask = pytest.importorskip("gpu_gjk.dask")


def write_data_set(folder, pairs, files=3, row_group=50):
    step = -(-pairs.num_rows // files)
    for f in range(files):
        pq.write_table(pairs.slice(f * step, step), folder / f"part-{f:02d}.parquet", row_group_size=row_group)


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster, distributed.Client(cluster) as client:
        yield client


def test_two_workers_give_the_single_process_answers(client, tmp_path):
    shapes, pairs = random_batch(31, 900)
    # Two bad rows: the error cells travel through Dask like the answers.
    a = pairs.column("a").to_pylist()
    a[10], a[700] = 5, 6
    pairs = pairs.set_column(0, "a", pa.array(a, pa.uint32()))
    write_data_set(tmp_path, pairs)

    frame = gpu_gjk_dask.answer_parquet(client, shapes, str(tmp_path), threads=1)
    assert frame.npartitions >= 2
    frame = frame.persist()
    distributed.wait(frame)
    holders = {worker for worker, keys in client.has_what().items() if keys}
    assert len(holders) == 2, "both workers should hold answered partitions"

    answers = pa.Table.from_pandas(frame.compute(), preserve_index=False)
    single = gpu_gjk.query(shapes, pq.read_table(tmp_path), threads=1)
    assert answers.num_rows == 900
    assert answers.column_names == list(gpu_gjk.ANSWER_COLUMNS)
    # Equal cell for cell, the error texts too: they name rows of the whole data set, not of a partition.
    for name in gpu_gjk.ANSWER_COLUMNS:
        assert answers.column(name).to_pylist() == single.column(name).to_pylist(), name
    errors = answers.column("error").to_pylist()
    assert [k for k, e in enumerate(errors) if e] == [10, 700]
    assert errors[700] == "pairs row 700: a: no shape has id 6"


def test_gpu_workers_give_the_single_process_gpu_answers(gpu_available, tmp_path):
    """Workers that declare a GPU (`resources={"GPU": 1}`, one per device on a real cluster) answer the
    partitions on the GPU backend (here a software adapter each), with the single process's GPU answers, and
    so do their GPU manifolds."""
    shapes, pairs = random_batch(32, 400)
    write_data_set(tmp_path, pairs, files=2, row_group=100)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, resources=gpu_gjk_dask.GPU_RESOURCES,
        dashboard_address=":0",
    ) as cluster, distributed.Client(cluster) as client:
        answers = {
            kind: client.compute(
                gpu_gjk_dask.answer_parquet(client, shapes, str(tmp_path), kind=kind, backend="gpu"),
                resources=gpu_gjk_dask.GPU_RESOURCES,
            ).result()
            for kind in ("penetration", "manifold")
        }
    for kind, frame in answers.items():
        single = gpu_gjk.query(shapes, pq.read_table(tmp_path), kind=kind, backend="gpu")
        table = pa.Table.from_pandas(frame, preserve_index=False)
        assert table.column_names == single.column_names, kind
        for name in single.column_names:
            assert table.column(name).to_pylist() == single.column(name).to_pylist(), (kind, name)
    points = single.column("points").to_pylist()
    assert sum(len(p) for p in points) > len(points) // 2


def test_two_workers_give_the_single_process_manifolds(client, tmp_path):
    shapes, pairs = random_batch(37, 400)
    # A bad row: its error travels through Dask like the manifolds, naming the row of the whole data set.
    a = pairs.column("a").to_pylist()
    a[250] = 9
    pairs = pairs.set_column(0, "a", pa.array(a, pa.uint32()))
    write_data_set(tmp_path, pairs)

    frame = gpu_gjk_dask.answer_parquet(client, shapes, str(tmp_path), kind="manifold", threads=1)
    assert frame.npartitions >= 2
    answers = pa.Table.from_pandas(frame.compute(), preserve_index=False)
    single = gpu_gjk.query(shapes, pq.read_table(tmp_path), kind="manifold", threads=1)
    assert answers.num_rows == 400
    assert answers.column_names == list(gpu_gjk.MANIFOLD_COLUMNS)
    for name in gpu_gjk.MANIFOLD_COLUMNS:
        assert answers.column(name).to_pylist() == single.column(name).to_pylist(), name
    points = answers.column("points").to_pylist()
    assert any(p for p in points), "some pairs of the random batch touch or overlap"
    errors = answers.column("error").to_pylist()
    assert [k for k, e in enumerate(errors) if e] == [250]
    assert errors[250] == "pairs row 250: a: no shape has id 9"
