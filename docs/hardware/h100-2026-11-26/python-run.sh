for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site || exit 1
d=$(mktemp -d); gunzip -c .devbin/gpu-gjk.gz > $d/gpu-gjk; chmod +x $d/gpu-gjk; export GPU_GJK_BIN=$d/gpu-gjk
$d/gpu-gjk adapters
python3 -c "import sys, gpu_gjk, dask, distributed, numpy, pyarrow; print(sys.version.split()[0], gpu_gjk.__file__, 'dask', dask.__version__, 'numpy', numpy.__version__, 'pyarrow', pyarrow.__version__)"
CI=true PYTHONUNBUFFERED=1 timeout 200 python3 -m pytest python/tests -q -p no:cacheprovider -rs 2>&1 | tee $OUT/pytest.txt | tail -15
python3 python/examples/quickstart.py | tail -4
PYTHONUNBUFFERED=1 timeout 100 python3 - <<'PY' 2>&1 | tee $OUT/python_timing.txt
import sys, time
sys.path.insert(0, "python/tests")
import gpu_gjk
from batches import random_batch
shapes, pairs = random_batch(5, 100_000)
gpu_gjk.query(shapes, pairs.slice(0, 1000), backend="gpu")
for backend, threads in (("cpu", 1), ("cpu", 0), ("gpu", 0), ("gpu", 0)):
    for kind in ("distance", "penetration"):
        t = time.perf_counter()
        answers = gpu_gjk.query(shapes, pairs, kind=kind, backend=backend, threads=threads)
        dt = time.perf_counter() - t
        print(f"{backend} threads={threads} {kind}: {pairs.num_rows} pairs in {dt*1e3:.1f} ms, {pairs.num_rows/dt:,.0f} pairs/s")
PY
