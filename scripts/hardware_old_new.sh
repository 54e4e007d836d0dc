#!/usr/bin/env bash
# Two staged builds of `gpu-gjk` timed in alternation on a lent GPU machine: `bench --pairs 1000000 --repeat 5` on
# the hardware backend, ROUNDS rounds (default 6), the order swapped every round so neither build always runs on a
# warmer card. Stage first as scripts/hardware_gpu.sh's header says, then copy the older build's gzipped binary to
# .devbin/gpu-gjk-old.gz. Writes every bench table to $OUT/alternated.txt and the GPU rows alone to the log.
# Loaders and drivers are set up as in hardware_gpu.sh (run that one after this one in the same command, or alone).
set -u
out=${OUT:-/tmp/gpu-gjk-hardware}
mkdir -p "$out"
rounds=${ROUNDS:-6}
bindir=$(mktemp -d)
for name in gpu-gjk gpu-gjk-old; do
    gunzip -c ".devbin/$name.gz" >"$bindir/$name" || { echo "no .devbin/$name.gz staged" >&2; exit 1; }
    chmod +x "$bindir/$name"
done
if ! ldconfig -p | grep -q 'libvulkan.so.1'; then
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
fi
nvidia_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -e "$nvidia_icd" ] && export VK_DRIVER_FILES=$nvidia_icd

table=$out/alternated.txt
for round in $(seq 1 "$rounds"); do
    order="gpu-gjk-old gpu-gjk"
    [ $((round % 2)) -eq 0 ] && order="gpu-gjk gpu-gjk-old"
    for name in $order; do
        echo "== $name round $round" | tee -a "$table"
        timeout 60 "$bindir/$name" bench --pairs 1000000 --backend vulkan --repeat 5 >>"$table" 2>&1 ||
            echo "   exit $?" | tee -a "$table"
        grep -E '^GPU +[|]' "$table" | tail -2
    done
done
