// Kernel `penetration_epa`, pass 2 of 2 of the penetration query: EPA, one invocation per queued pair, in
// fixed-size arrays with the CPU's first-try bounds, tests and named statuses, then the certificate. The arrays
// are private or in a global scratch buffer, as the kernel is assembled (src/gpu/epa_kernel.rs).
// Dispatched indirectly from the EPA queue's header over the appended queue, or, with the queue in pair order
// (`params.epa_by_pair`, software adapters), over every pair, each group taking its own pairs' tasks.

// With the queue in pair order: bit l set when lane l's pair is queued, and the lane of each queued pair by rank.
var<workgroup> queued_lanes: array<atomic<u32>, 2>;
var<workgroup> lane_of_rank: array<u32, WORKGROUP_SIZE>;

// The slot of the task lane `lane` answers, with the queue in pair order: the group's queued pairs packed to
// its first lanes in pair order, so a group's invocations run EPA together and lanes past them return at once
// (an unpacked group would hold every lane of a SIMD vector for its slowest queued pair). No loops: they would
// spend the software adapters' loop budget. NO_SLOT for a lane with nothing to do.
fn packed_slot(index: u32, lane: u32) -> u32 {
    var queued = false;
    if (index < params.pair_count) {
        queued = queue.tasks[index].queued != 0u;
    }
    if (queued) {
        atomicOr(&queued_lanes[lane / 32u], 1u << (lane % 32u));
    }
    workgroupBarrier();
    let low = atomicLoad(&queued_lanes[0]);
    let high = atomicLoad(&queued_lanes[1]);
    if (queued) {
        var below = countOneBits(low & ((1u << (lane % 32u)) - 1u));
        if (lane >= 32u) {
            below = countOneBits(low) + countOneBits(high & ((1u << (lane % 32u)) - 1u));
        }
        lane_of_rank[below] = lane;
    }
    workgroupBarrier();
    if (lane >= countOneBits(low) + countOneBits(high)) {
        return NO_SLOT;
    }
    return index - lane + lane_of_rank[lane];
}

const NO_SLOT: u32 = 0xffffffffu;

@compute @workgroup_size(WORKGROUP_SIZE)
fn penetration_epa(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    var slot = gid.x;
    if (params.epa_by_pair != 0u) {
        slot = packed_slot(gid.x, lane);
    } else if (slot >= atomicLoad(&queue.count)) {
        return;
    }
    if (slot == NO_SLOT) {
        return;
    }
    loop_cut = false;
    let task = queue.tasks[slot];
    // Each invocation its own polytope storage (a lane of the scratch buffer, in that kernel); a pair without
    // one goes back to the CPU, like a pair that outgrows the bounds.
    if (!polytope_storage_claim(gid.x)) {
        store_epa_answer(task.pair, penetration_none(PEN_EPA_OVERFLOW));
        return;
    }
    let pair = prepared_new(pairs[task.pair]);
    var answer = penetration_certified(pair.query, expand(pair.query, task));
    if (loops_were_cut()) {
        answer.status = PEN_GPU_LOOP_LIMIT;
    }
    store_epa_answer(task.pair, prepared_penetration_to_local(pair, answer));
}
