"""Scale-out with Dask: a Parquet data set of pairs answered row group by row group on a Dask cluster.

Each row group of the data set becomes one partition (``dask.dataframe.from_map``; the row groups and their
first rows are read from the files' footers by ``pyarrow.dataset``), read by the worker that answers it; the
shapes table (small: a few hundred meshes against billions of pairs) is sent to every worker once with
``Client.scatter(..., broadcast=True)``, and each partition runs ``gpu_gjk.query`` with its first row, so
error texts name rows of the whole data set. Dask does the scheduling, the data movement and the retries; the
same code runs on a laptop's ``LocalCluster`` and on a real cluster (``dask-jobqueue``, ``dask-kubernetes``).
For the GPU backend, start one worker per GPU with ``--resources GPU=1`` and compute with
``client.compute(answers, resources=GPU_RESOURCES)``: each partition then runs on a worker that declared a GPU,
one at a time per GPU. On a machine with several GPUs, give each worker its own with the environment variable
``GPU_GJK_ADAPTER`` (the adapter's index in ``gpu-gjk adapters``), e.g. ``GPU_GJK_ADAPTER=1 dask worker ...
--resources GPU=1``; without it every worker takes the same preferred adapter.
"""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq

import gpu_gjk

__all__ = ["answer_parquet", "answers_meta", "GPU_RESOURCES"]

#: The worker resources a partition of the GPU backend asks for: ``client.compute(answers,
#: resources=GPU_RESOURCES)`` (or ``client.persist``). (``dask.annotate`` is not kept through the
#: dataframe's query optimiser; ``compute(resources=...)`` is.)
GPU_RESOURCES = {"GPU": 1}


def _row_groups(pairs_path, filesystem=None):
    """The data set's non-empty row groups in its order (the order ``pyarrow.parquet.read_table`` reads them),
    each as (file, row group, its first row in the data set), the number of rows, and the filesystem: from
    the files' footers, without reading the data."""
    dataset = pads.dataset(pairs_path, format="parquet", filesystem=filesystem)
    groups, first_row = [], 0
    for fragment in dataset.get_fragments():
        fragment.ensure_complete_metadata()
        # Empty row groups hold no pairs and would repeat a division.
        for group in (g for g in fragment.row_groups if g.num_rows > 0):
            groups.append((fragment.path, group.id, first_row))
            first_row += group.num_rows
    return groups, first_row, dataset.filesystem


def _answer_row_group(group, shapes, kind, backend, threads, filesystem):
    """One row group of pairs into its answers, row for row (indexed by their rows in the data set); its error
    texts name rows of the whole data set."""
    path, index, first_row = group
    with filesystem.open_input_file(path) as file:
        pairs = pq.ParquetFile(file).read_row_group(index)
    answers = gpu_gjk.query(
        shapes, pairs, kind=kind, backend=backend, threads=threads, first_row=first_row
    )
    out = answers.to_pandas(types_mapper=pd.ArrowDtype)
    out.index = pd.RangeIndex(first_row, first_row + len(out))
    return out


def _empty_pairs():
    three = pa.list_(pa.float64(), 3)
    four = pa.list_(pa.float64(), 4)
    return pa.table(
        {
            "a": pa.array([], pa.uint32()),
            "b": pa.array([], pa.uint32()),
            "a_position": pa.array([], three),
            "a_rotation": pa.array([], four),
            "b_position": pa.array([], three),
            "b_rotation": pa.array([], four),
        }
    )


def answers_meta(kind="penetration"):
    """An empty frame with the answers' columns and types, Dask's ``meta`` for the answers."""
    shapes = pa.table(
        {
            "id": pa.array([], pa.uint32()),
            "points": pa.array([], pa.list_(pa.list_(pa.float64(), 3))),
        }
    )
    return gpu_gjk.query(shapes, _empty_pairs(), kind=kind).to_pandas(types_mapper=pd.ArrowDtype)


def answer_parquet(client, shapes, pairs_path, kind="penetration", backend="cpu", threads=0):
    """The answers to the pairs in the Parquet data set ``pairs_path`` (a file, a folder of files or a glob),
    as a lazy Dask dataframe, one row per pair in the data set's order (``.compute()`` for a pandas frame,
    ``.to_parquet(...)`` to write them where they are computed).

    ``client``: a ``distributed.Client``; ``shapes``: the shapes table (``pyarrow.Table``), sent to every
    worker once. ``kind``, ``backend``, ``threads``: as ``gpu_gjk.query``, on each worker (``threads=0``: every
    core of the worker). With ``backend="gpu"``, compute with ``resources=GPU_RESOURCES`` (see above).

    Each row group of the data set is one partition, read by the worker that answers it; the row groups and
    their first rows come from the files' footers (``pyarrow.dataset``, any filesystem it reads), so error
    texts name the row in the whole data set, as ``gpu_gjk.query`` on the whole table would, and the answers'
    index is the pairs' row number. Row groups of a few hundred thousand pairs keep a GPU busy.
    """
    import dask.dataframe as dd

    groups, rows, filesystem = _row_groups(pairs_path)
    if not groups:
        raise ValueError(f"{pairs_path}: the Parquet data set has no pairs")
    shapes_everywhere = client.scatter(shapes, broadcast=True)
    starts = [first for _, _, first in groups]
    return dd.from_map(
        _answer_row_group,
        groups,
        args=(shapes_everywhere, kind, backend, threads, filesystem),
        meta=answers_meta(kind),
        divisions=[*starts, rows - 1],
        label="gpu-gjk-answers",
        enforce_metadata=False,
    )
