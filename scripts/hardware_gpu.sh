#!/usr/bin/env bash
# The hardware-GPU measurements of docs/benchmarks.md ("GPU on hardware"), as one script for a lent GPU machine: it has
# no Rust toolchain and no network, and a lease is minutes long, so everything is built beforehand and each step
# has its own time limit inside one overall deadline.
#
# Before the call, on the development machine (x86-64 Linux):
#   cargo build --release --locked --bin gpu-gjk --example gpu_hostile_check --example gpu_big_hulls
#   cargo test --release --locked --no-run --test gpu_narrow_phase --test gpu_penetration --test gpu_streaming \
#       --test gpu_limits --test reference_reproducers --test fuzz_geometry
#   cargo bench --locked --no-run --bench physics
#   scripts/hardware_gpu_stage.sh      # copies, strips and gzips those binaries into .devbin/ (git-ignored)
# and, where the GPU machine has no Vulkan/EGL loader, the Debian loader packages in .gl/ (see the device
# tool's README). On the GPU machine, from the repository root: `bash scripts/hardware_gpu.sh` (writes to $OUT).
# STEPS (default: all of them, in this order) picks steps by name: machine bench_1m penetration_1m sweep
# big_hulls climb opengl files hostile tests; epa_kernels (the two EPA kernels alternating, about 2 minutes) and
# scan_kernels (per-thread and subgroup scans of raw sets alternating, about 2 minutes) and physics (the pile
# stepped on the CPU and on the GPU world, 1,000 to 100,000 bodies, about 2 minutes) run only when named. DEADLINE_S (default 400) bounds the whole run.
set -u
out=${OUT:-/tmp/gpu-gjk-hardware}
mkdir -p "$out"
log="$out/log.txt"
tests_log="$out/tests.txt"
deadline=${DEADLINE_S:-400}
steps=${STEPS:-machine bench_1m penetration_1m sweep big_hulls climb opengl files hostile tests}

say() { echo "== $*" | tee -a "$log"; }
wanted() { [[ " $steps " == *" $1 "* ]]; }

# Runs one step with its own limit, cut to what is left before the deadline; skipped when under 15 s are left.
step() {
    local name=$1 limit=$2
    shift 2
    local left=$((deadline - SECONDS))
    if [ "$left" -lt 15 ]; then
        say "$name: skipped, $left s left before the deadline"
        return
    fi
    [ "$limit" -gt "$left" ] && limit=$left
    say "$name (limit ${limit} s, at ${SECONDS} s): $*"
    local start
    start=$(date +%s%N)
    timeout "$limit" "$@" >>"$log" 2>&1
    local rc=$?
    say "$name: exit $rc after $((($(date +%s%N) - start) / 1000000)) ms of wall time"
}

# The staged binaries travel gzipped (hardware_gpu_stage.sh); unpacked outside the tree.
bindir=$(mktemp -d)
for z in .devbin/*.gz; do
    [ -e "$z" ] || continue
    gunzip -c "$z" >"$bindir/$(basename "$z" .gz)"
done
chmod +x "$bindir"/*
gjk=$bindir/gpu-gjk

# Loaders: the NVIDIA driver is mounted, the Vulkan and GLVND loaders may not be installed.
if ! ldconfig -p | grep -q 'libvulkan.so.1'; then
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
fi
nvidia_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -e "$nvidia_icd" ] && export VK_DRIVER_FILES=$nvidia_icd
nvidia_egl=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -e "$nvidia_egl" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$nvidia_egl

# The card's clocks through the run (read only: nothing here changes the card's settings).
if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,pstate,utilization.gpu,power.draw \
        --format=csv -lms 100 >"$out/clocks.csv" 2>&1 &
    sampler=$!
fi

wanted machine && step machine 20 sh -c 'nvidia-smi; nproc; grep -m1 "model name" /proc/cpuinfo; uname -r'
step adapters 60 "$gjk" adapters
# Vulkan is the hardware path; where the machine offers none, any adapter (the log names it).
backend=vulkan
"$gjk" adapters 2>&1 | grep -q '(vulkan,' || backend=gpu
say "backend: $backend"
wanted bench_1m && step bench_1m 120 "$gjk" bench --pairs 1000000 --backend "$backend" --repeat 5 \
    --json "$out/bench_1m.json"
# bench_1m runs the kernels as trusted modules (`--shader-checks auto` is off on hardware) and its JSON has the
# readback copy's rate (`readback_gb_s`, 20 GB/s and more wanted); opt-in step `checks_on` (STEPS=checks_on) is
# the same batch with wgpu's runtime checks, to compare.
wanted checks_on && step checks_on 120 "$gjk" bench --pairs 1000000 --backend "$backend" --repeat 5 \
    --shader-checks on --json "$out/bench_1m_checks_on.json"
wanted penetration_1m && step penetration_1m 100 "$gjk" bench --pairs 1000000 --backend "$backend" \
    --kind penetration --repeat 3 --json "$out/bench_penetration.json"
# The two EPA kernels (polytope in private memory, or in the global scratch buffer) alternating in one run.
wanted epa_kernels && step epa_kernels 120 "$gjk" bench --pairs 1000000 --backend "$backend" \
    --kind penetration --epa-kernel private,scratch --repeat 5 --json "$out/bench_epa_kernels.json"
# Raw point sets kept scanned, per-thread and subgroup scans alternating in one run (the subgroup kernel runs
# where the adapter offers subgroups; `subgroup_pairs` in the JSON says how many pairs it answered).
wanted scan_kernels && step scan_kernels 120 "$gjk" bench --shapes hull --raw-scan --max-hull-points 5000 \
    --pairs 100000 --backend "$backend" --scan per-thread,subgroup --repeat 5 --json "$out/bench_scan_kernels.json"
wanted sweep && step sweep 150 "$gjk" bench --sweep --sweep-max 10000000 --backend "$backend" --repeat 2 \
    --json "$out/sweep.json" --chart "$out/scaling.svg"
wanted big_hulls && step big_hulls 60 "$gjk" bench --shapes hull --max-hull-points 40000 --backend "$backend" \
    --pairs 3000 --repeat 1
# Hulls made by ConvexShape::hull, climbed and scanned on this GPU in alternation (examples/gpu_big_hulls.rs).
wanted climb && [ -e "$bindir/gpu_big_hulls" ] && step climb 90 "$bindir/gpu_big_hulls" 100000 3
# OpenGL through EGL, with wgpu's and the driver's messages (RUST_LOG) in the log.
wanted opengl && step opengl 45 env RUST_LOG=wgpu_hal=debug,wgpu_core=info,wgpu=info "$gjk" bench --pairs 1000 \
    --backend gl --repeat 1 --kind distance

# Files to answers on the GPU: the `bench --io` mix (21,000 pairs, hulls up to 640 points) as JSON Lines and
# as Arrow IPC tables.
if wanted files; then
    work=$(mktemp -d)
    step files_write 60 "$gjk" bench --io --pairs 21000 --max-hull-points 640 --repeat 3 \
        --io-input "$work/mix.jsonl"
    step files_convert 30 "$gjk" convert "$work/mix.jsonl" --shapes "$work/shapes.arrow" \
        --pairs "$work/pairs.arrow"
    for backend_files in cpu "$backend"; do
        step "files_jsonl_$backend_files" 30 "$gjk" query "$work/mix.jsonl" --backend "$backend_files" --stats \
            --output "$work/answers_$backend_files.jsonl"
        step "files_arrow_$backend_files" 30 "$gjk" query --shapes "$work/shapes.arrow" "$work/pairs.arrow" \
            --backend "$backend_files" --stats --output "$work/answers_$backend_files.arrow"
    done
fi

# Physics steps of one pile on the CPU (all cores) and on the GPU world (benches/physics.rs), side by side.
if wanted physics && [ -e "$bindir/bench_physics" ]; then
    if [ "$backend" = vulkan ]; then physics_env="WGPU_BACKEND=vulkan"; else physics_env="-u WGPU_BACKEND"; fi
    step physics 150 env $physics_env "$bindir/bench_physics" 1000 10000 100000 --steps 30
fi

# The hostile penetration set (examples/gpu_hostile_check.rs) in one batch on this GPU, against the CPU.
wanted hostile && [ -e "$bindir/gpu_hostile_check" ] && step hostile 90 "$bindir/gpu_hostile_check"

# The GPU test binaries: the same WGSL on the hardware's shader compiler. Tests that read files find the
# repository where the build put it.
if wanted tests; then
    manifest=$(cat .devbin/manifest_dir 2>/dev/null || true)
    if [ -n "$manifest" ] && [ ! -e "$manifest" ]; then
        mkdir -p "$(dirname "$manifest")" && ln -s "$PWD" "$manifest"
    fi
    for t in "$bindir"/test-*; do
        [ -e "$t" ] || continue
        step "$(basename "$t")" 90 sh -c "\"$t\" --test-threads 4 >>\"$tests_log\" 2>&1; rc=\$?; tail -3 \"$tests_log\"; exit \$rc"
    done
fi
[ -n "${sampler:-}" ] && kill "$sampler"
say "done at ${SECONDS} s"
