#!/usr/bin/env bash
# The desktop stress test on a lent GPU machine, which has no display: `gpu-gjk demo --no-window` (the same
# scene, narrow phase, CPU check and renderer as the window, drawn offscreen, each frame waited for; no HUD,
# nothing presented). Stage the release `gpu-gjk` as .devbin/gpu-gjk.gz first (scripts/hardware_gpu_stage.sh,
# or strip and gzip target/release/gpu-gjk). Writes each run's JSON summary, their standard error and a
# screenshot to $OUT.
set -u
out=${OUT:-/tmp/gpu-gjk-demo}
mkdir -p "$out"
bin=$(mktemp -d)/gpu-gjk
gunzip -c .devbin/gpu-gjk.gz >"$bin" && chmod +x "$bin" || { echo "no .devbin/gpu-gjk.gz staged" >&2; exit 1; }
if ! ldconfig -p | grep -q 'libvulkan.so.1'; then
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
fi
nvidia_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -e "$nvidia_icd" ] && export VK_DRIVER_FILES=$nvidia_icd

# name, then the demo's options after `demo --no-window`.
runs=(
    "d10k_idle --bodies 10000 --frames 600 --check when-idle --screenshot $out/d10k.png"
    "i10k_idle --bodies 10000 --frames 600 --check when-idle --query intersection"
    "d10k_every --bodies 10000 --frames 300"
    "d2k_every --bodies 2000 --frames 300"
)
for run in "${runs[@]}"; do
    read -r name args <<<"$run"
    echo "== $name: demo --no-window $args"
    start=$(date +%s%N)
    echo "== $name" >>"$out/stderr.txt"
    # shellcheck disable=SC2086
    timeout "${RUN_LIMIT_S:-45}" "$bin" demo --no-window $args >"$out/$name.json" 2>>"$out/stderr.txt"
    echo "exit $? after $((($(date +%s%N) - start) / 1000000)) ms"
    grep -E '"(frame|broad_phase|gpu_narrow_phase|cpu_narrow_phase|render)"|candidate_pairs_mean|disagreements"|adapter|frames_checked' "$out/$name.json"
done
