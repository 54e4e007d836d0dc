# Where the GPU batch's host upload goes (temporary GJK_TRACE prints in a wheel built for it); carry .gl, .whl.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site || exit 1
GJK_TRACE=1 PYTHONUNBUFFERED=1 timeout 120 python3 - <<'PY' 2>&1 | tee $OUT/upload_trace.txt
import sys
sys.path.insert(0, "python/tests")
import gpu_gjk
from batches import random_batch
shapes, pairs = random_batch(5, 1_000_000)
gpu_gjk.query(shapes, pairs.slice(0, 1000), backend="gpu", kind="distance")
for n in (100_000, 1_000_000, 1_000_000, 1_000_000):
    print(f"== {n}", flush=True)
    gpu_gjk.query(shapes, pairs.slice(0, n), backend="gpu", kind="distance")
    print({k: round(v * 1e3, 1) for k, v in gpu_gjk.last_timings().items()}, flush=True)
PY
