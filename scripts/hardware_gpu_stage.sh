#!/usr/bin/env bash
# Copies the release `gpu-gjk`, the two GPU examples, the physics bench and the GPU test binaries into .devbin/
# (git-ignored),
# stripped, for scripts/hardware_gpu.sh on a lent GPU machine (gzipped; that script unpacks them). Run after the
# cargo commands that script's header names.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .devbin
mkdir -p .devbin
cp target/release/gpu-gjk .devbin/gpu-gjk
cp target/release/examples/gpu_hostile_check .devbin/gpu_hostile_check
cp target/release/examples/gpu_big_hulls .devbin/gpu_big_hulls
for name in gpu_narrow_phase gpu_penetration gpu_streaming gpu_limits reference_reproducers fuzz_geometry; do
    # The newest executable of that test target (cargo names it NAME-HASH).
    found=$(find target/release/deps -maxdepth 1 -type f -executable -name "${name}-*" -printf '%T@ %p\n' |
        sort -n | tail -1 | cut -d' ' -f2)
    [ -n "$found" ] || { echo "no release test binary for $name: run the cargo test --no-run line" >&2; exit 1; }
    cp "$found" ".devbin/test-$name"
done
# The physics bench (CPU world against GPU world), built by `cargo bench --no-run --bench physics`.
found=$(find target/release/deps -maxdepth 1 -type f -executable -name "physics-*" -printf '%T@ %p\n' |
    sort -n | tail -1 | cut -d' ' -f2)
[ -n "$found" ] || { echo "no release bench binary for physics: run the cargo bench --no-run line" >&2; exit 1; }
cp "$found" .devbin/bench_physics
strip .devbin/*
# Compressed: the working tree that travels to the GPU machine is limited to 64 MiB.
gzip -9 .devbin/*
echo "$PWD" >.devbin/manifest_dir
du -sh .devbin
