"""Scale-out with Dask: a Parquet data set of pairs answered partition by partition on a Dask cluster.

The pairs are read with ``dask.dataframe.read_parquet`` (each file, or row group, a partition, with the
Arrow types kept), the shapes table (small: a few hundred meshes against billions of pairs) is sent to every
worker once with ``Client.scatter(..., broadcast=True)``, and each partition runs ``gpu_gjk.query`` on its
worker with ``map_partitions``. Dask does the scheduling, the data movement and the retries; the same code runs
on a laptop's ``LocalCluster`` and on a real cluster (``dask-jobqueue``, ``dask-kubernetes``). For the GPU
backend, start one worker per GPU with ``--resources GPU=1`` and compute with
``client.compute(answers, resources=GPU_RESOURCES)``: each partition then runs on a worker that declared a GPU,
one at a time per GPU.
"""

from __future__ import annotations

import pandas as pd
import pyarrow as pa

import gpu_gjk

#: The worker resources a partition of the GPU backend asks for: ``client.compute(answers,
#: resources=GPU_RESOURCES)`` (or ``client.persist``). (``dask.annotate`` is not kept through the
#: dataframe's query optimiser; ``compute(resources=...)`` is.)
GPU_RESOURCES = {"GPU": 1}


def _answer_partition(frame, shapes, kind, backend, threads):
    """One partition of pairs (a pandas frame with Arrow types) into its answers, row for row."""
    pairs = pa.Table.from_pandas(frame, preserve_index=False)
    answers = gpu_gjk.query(shapes, pairs, kind=kind, backend=backend, threads=threads)
    out = answers.to_pandas(types_mapper=pd.ArrowDtype)
    out.index = frame.index
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

    Error texts name the row within its partition; the answers' rows line up with the pairs' rows.
    """
    import dask.dataframe as dd

    pairs = dd.read_parquet(pairs_path, dtype_backend="pyarrow")
    shapes_everywhere = client.scatter(shapes, broadcast=True)
    return pairs.map_partitions(
        _answer_partition,
        shapes_everywhere,
        kind,
        backend,
        threads,
        meta=answers_meta(kind),
    )
