# The columnar GPU path on a lent GPU machine: the Python module (abi3 wheel carried in .whl/) and
# `gpu-gjk query` on Arrow IPC tables (release binary carried gzipped in .devbin/), CPU beside GPU in one run.
# Carry [".devbin", ".gl", ".whl"]; logs go to $OUT.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site || exit 1
d=$(mktemp -d); gunzip -c .devbin/gpu-gjk.gz > $d/gpu-gjk; chmod +x $d/gpu-gjk; export GPU_GJK_BIN=$d/gpu-gjk
nproc; git log --oneline -1 2>/dev/null; $d/gpu-gjk adapters
[ -n "$SKIP_TESTS" ] || CI=true PYTHONUNBUFFERED=1 timeout 150 python3 -m pytest python/tests -q -p no:cacheprovider -rs -x 2>&1 | tee $OUT/pytest.txt | tail -4
PYTHONUNBUFFERED=1 timeout 300 python3 - <<'PY' 2>&1 | tee $OUT/python_timing.txt
import os, sys, time
sys.path.insert(0, "python/tests")
import pyarrow as pa, pyarrow.ipc as ipc
import gpu_gjk
from batches import random_batch
t = time.perf_counter()
shapes, pairs = random_batch(5, 1_000_000)
print(f"random_batch(5, 1e6) built in {time.perf_counter() - t:.1f} s")
tmp = os.environ.get("TMPDIR", "/tmp")
for name, table in (("shapes", shapes), ("pairs", pairs)):
    with ipc.new_file(f"{tmp}/{name}.arrow", table.schema) as w:
        w.write_table(table, max_chunksize=1 << 16)
gpu_gjk.query(shapes, pairs.slice(0, 1000), backend="gpu")
for n in (100_000, 1_000_000):
    part = pairs.slice(0, n)
    for kind in ("distance", "penetration", "intersection"):
        for backend, threads in (("cpu", 1), ("cpu", 0), ("gpu", 0), ("gpu", 0)):
            if backend == "cpu" and threads == 1 and n > 100_000:
                continue
            t = time.perf_counter()
            answers = gpu_gjk.query(shapes, part, kind=kind, backend=backend, threads=threads)
            dt = time.perf_counter() - t
            t = gpu_gjk.last_timings()
            stages = " ".join(f"{k[:-2]} {v*1e3:.1f}" for k, v in t.items() if k != "total_s" and (backend == "gpu" or not k.startswith("gpu")))
            print(f"{n} pairs {kind} {backend} threads={threads}: {dt*1e3:.1f} ms, {n/dt/1e6:.2f} M pairs/s; ms: {stages}")
PY
for kind in distance penetration; do
  for backend in cpu vulkan; do
    /usr/bin/time -f "wall %e s, max rss %M KB" $d/gpu-gjk query --shapes /tmp/shapes.arrow /tmp/pairs.arrow --backend $backend --kind $kind --stats --output /tmp/answers-$backend.arrow 2>&1 | tail -3 | tee -a $OUT/cli_arrow.txt
  done
done
