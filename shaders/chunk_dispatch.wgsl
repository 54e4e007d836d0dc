// Kernel `chunk_dispatch`: writes the indirect dispatch of one chunk of a batch whose pairs stay on the device,
// from the pair count the broad phase left there, so the host plans its chunks from the pair buffer's capacity
// and never reads the count first. Run as the chunk's first pass; the chunk then copies the word `pairs` into its
// `params.pair_count` and dispatches its kernels from the three words before it. The twin of chunk_dispatch in
// src/gpu/device_frame/dispatch.rs.

// The broad phase's count buffer: word 0 is every pair found, stored or not.
@group(1) @binding(0) var<storage, read> broad_count: array<u32>;
// Four words a chunk: workgroups in x, y and z, then the chunk's pairs.
@group(1) @binding(1) var<storage, read_write> args: array<u32>;
@group(1) @binding(3) var<uniform> frame: DeviceFrame;

@compute @workgroup_size(WORKGROUP_SIZE)
fn chunk_dispatch(@builtin(local_invocation_index) t: u32) {
    if (t != 0u) {
        return;
    }
    let stored = min(broad_count[0], frame.pair_capacity);
    let first = params.first_pair;
    var pairs = 0u;
    if (stored > first) {
        pairs = min(stored - first, frame.chunk_pairs);
    }
    // Past one dimension's limit the workgroups go in rows; the kernels number their pairs by pair_index and
    // bound them by `pairs`, so the spare invocations of the last row do nothing.
    let groups = (pairs + WORKGROUP_SIZE - 1u) / WORKGROUP_SIZE;
    let rows = max((groups + frame.max_groups - 1u) / frame.max_groups, 1u);
    let at = first / frame.chunk_pairs * 4u;
    args[at] = (groups + rows - 1u) / rows;
    args[at + 1u] = rows;
    args[at + 2u] = 1u;
    args[at + 3u] = pairs;
}
