"""The Dask recipe end to end on this machine: a Parquet data set of pairs (several files of several row
groups) answered on a local cluster of 2 worker processes, checked against one process.

    python python/examples/dask_scale_out.py [--pairs N] [--workers W] [--backend cpu|gpu]

On a real cluster, replace the LocalCluster by the cluster's client (dask-jobqueue, dask-kubernetes, or
`dask scheduler` + `dask worker SCHEDULER --resources GPU=1` per GPU) and point `answer_parquet` at the data
set's path on shared storage; the rest is unchanged.
"""

import argparse
import pathlib
import tempfile
import time

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from distributed import Client, LocalCluster

import gpu_gjk
from gpu_gjk.dask import answer_parquet

point3 = pa.list_(pa.float64(), 3)


def make_data_set(folder, pairs, files=4, seed=1):
    """A few hundred random convex hulls (the shapes table) and `pairs` random poses of them, written as
    `files` Parquet files of row groups of 10,000 pairs."""
    rng = np.random.default_rng(seed)
    hulls = [rng.normal(size=(int(rng.integers(4, 65)), 3)) for _ in range(300)]
    shapes = pa.table(
        {
            "id": pa.array(np.arange(300, dtype=np.uint32)),
            "points": pa.array([h.tolist() for h in hulls], pa.list_(point3)),
            "radius": rng.uniform(0.0, 0.2, 300),
        }
    )
    quats = rng.normal(size=(pairs, 4))
    quats /= np.linalg.norm(quats, axis=1, keepdims=True)
    table = pa.table(
        {
            "a": pa.array(rng.integers(0, 300, pairs, dtype=np.uint32)),
            "b": pa.array(rng.integers(0, 300, pairs, dtype=np.uint32)),
            "b_position": pa.FixedSizeListArray.from_arrays(pa.array(rng.uniform(-4, 4, pairs * 3)), 3),
            "b_rotation": pa.FixedSizeListArray.from_arrays(pa.array(quats.reshape(-1)), 4),
        }
    )
    step = -(-pairs // files)
    for f in range(files):
        pq.write_table(table.slice(f * step, step), folder / f"pairs-{f:02d}.parquet", row_group_size=10_000)
    return shapes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=200_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--backend", default="cpu")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        shapes = make_data_set(folder, args.pairs)
        files = sorted(folder.glob("*.parquet"))
        print(f"data set: {args.pairs} pairs in {len(files)} Parquet files, {shapes.num_rows} shapes")

        with LocalCluster(n_workers=args.workers, threads_per_worker=1, dashboard_address=":0") as cluster, \
                Client(cluster) as client:
            start = time.perf_counter()
            frame = answer_parquet(client, shapes, str(folder), backend=args.backend, threads=1)
            answers = frame.compute()
            spread = time.perf_counter() - start
            print(f"{args.workers} workers, {frame.npartitions} partitions: {spread:.2f} s "
                  f"({args.pairs / spread:,.0f} pairs/s, cluster start not counted)")

        start = time.perf_counter()
        single = gpu_gjk.query(shapes, pq.read_table(folder), backend=args.backend, threads=1)
        alone = time.perf_counter() - start
        print(f"one process, one thread: {alone:.2f} s ({args.pairs / alone:,.0f} pairs/s)")

    same = pa.Table.from_pandas(answers, preserve_index=False).equals(single)
    hits = int(np.sum(single.column("intersecting").to_numpy(zero_copy_only=False)))
    print(f"{hits} of {args.pairs} pairs overlap; the cluster's answers equal one process's: {same}")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
