// Kernel `mark_bodies`: marks each body from its pairs' answers, one invocation per pair of the chunk, run in the
// chunk's submission right after `gjk_kernel` over the same pairs and `results` words. A body's mark word is an
// OR of bits (src/gpu/marks.rs): MARK_COLLIDING for an intersecting pair, MARK_UNANSWERED for a pair the GPU
// answered with a failure status (the CPU answers those when the frame is read back). The words sit in draw
// order (`slot_of_body`), so the renderer reads them as a per-instance vertex attribute and colours bodies
// without any readback. The host writes the words before the batch (zero, or MARK_DISPUTED for bodies the
// latest CPU check disputed).

// The GJK kernel's answers for this chunk, in the format of params.format (output.wgsl).
@group(0) @binding(5) var<storage, read_write> results: array<u32>;

@group(1) @binding(0) var<storage, read_write> marks: array<atomic<u32>>;
@group(1) @binding(1) var<storage, read> slot_of_body: array<u32>;

// The status of pair `index`'s record (the low bits of the packed status word, or GpuResult.status).
fn record_status(index: u32) -> u32 {
    if (params.format == FORMAT_HIT) {
        return results[index] & ((1u << STATUS_WORD_SHIFT) - 1u);
    }
    if (params.format == FORMAT_DISTANCE) {
        return results[index * 8u + 7u] & ((1u << STATUS_WORD_SHIFT) - 1u);
    }
    return results[index * 12u + 7u];
}

// The mark a pair's answer puts on both of its bodies (0: none).
fn pair_mark(status: u32) -> u32 {
    if (status == STATUS_INTERSECTING) {
        return MARK_COLLIDING;
    }
    if (status == STATUS_SEPARATED) {
        return 0u;
    }
    return MARK_UNANSWERED;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn mark_bodies(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let index = pair_index(gid, groups);
    if (index >= params.pair_count) {
        return;
    }
    let mark = pair_mark(record_status(index));
    if (mark == 0u) {
        return;
    }
    let pair = pairs[index];
    atomicOr(&marks[slot_of_body[pair.x]], mark);
    atomicOr(&marks[slot_of_body[pair.y]], mark);
}
