"""The Dask recipe end to end on this machine: a Parquet data set of random pairs (several files of several row
groups) answered on a local cluster of worker processes, then by one process, and the two answers compared.

    python python/examples/dask_scale_out.py [--pairs N] [--workers W] [--backend cpu|gpu|...]

It prints the cluster's time and the single process's, and exits 1 if their answers differ. At small sizes
the cluster's overhead dominates: sending the tasks and the shapes to the workers and the answers back to this
process costs more than answering the pairs, so local workers can be slower than one process (they share
this machine's cores with it, too). The cluster is for data sets too big for one process's time or memory:
many row groups per worker, on many machines.

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


#: Each backend: where it answers (for the output lines), and its help.
BACKENDS = {
    "cpu": ("on the CPU", "the CPU"),
    "gpu": ("on the GPU", "the GPU (any adapter, software ones included)"),
    "auto": ("on a hardware GPU, else the CPU", "a hardware GPU if there is one, else the CPU"),
    "vulkan": ("on the GPU (Vulkan)", "the GPU through Vulkan"),
    "gl": ("on the GPU (OpenGL)", "the GPU through OpenGL"),
    "metal": ("on the GPU (Metal)", "the GPU through Metal"),
    "dx12": ("on the GPU (Direct3D 12)", "the GPU through Direct3D 12"),
}


def parser():
    """The command line, with the module's description in full and help on every option."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=200_000, metavar="N",
                        help="pairs in the data set, in row groups of 10,000 over 4 files (default: %(default)s)")
    parser.add_argument("--workers", type=int, default=2, metavar="W",
                        help="local worker processes, one thread each (default: %(default)s)")
    parser.add_argument("--backend", default="cpu", choices=list(BACKENDS), metavar="NAME",
                        help="what answers the pairs, on each worker and in the single process: "
                        + "; ".join(f"{name}: {what}" for name, (_, what) in BACKENDS.items())
                        + " (default: %(default)s)")
    return parser


def single_label(backend):
    """What the single-process run is, for its line of output."""
    if backend == "cpu":
        return "one process, one CPU thread"
    return f"one process, {BACKENDS[backend][0]} (one CPU thread reading the rows)"


def cluster_label(workers, partitions, backend):
    """What the cluster run is, for its line of output."""
    if backend == "cpu":
        return f"{workers} worker processes, one CPU thread each, {partitions} partitions"
    return f"{workers} worker processes, each {BACKENDS[backend][0]} with one CPU thread, {partitions} partitions"


def main():
    args = parser().parse_args()

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
            print(f"{cluster_label(args.workers, frame.npartitions, args.backend)}: {spread:.2f} s "
                  f"({args.pairs / spread:,.0f} pairs/s, cluster start not counted)")

        start = time.perf_counter()
        single = gpu_gjk.query(shapes, pq.read_table(folder), backend=args.backend, threads=1)
        alone = time.perf_counter() - start
        print(f"{single_label(args.backend)}: {alone:.2f} s ({args.pairs / alone:,.0f} pairs/s)")
        if spread > alone:
            print("the cluster was slower: at this size its overhead (tasks, shipping shapes and answers) "
                  "dominates; see --help")

    same = pa.Table.from_pandas(answers, preserve_index=False).equals(single)
    hits = int(np.sum(single.column("intersecting").to_numpy(zero_copy_only=False)))
    print(f"{hits} of {args.pairs} pairs overlap; the cluster's answers equal one process's: {same}")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
