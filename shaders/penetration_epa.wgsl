// Kernel `penetration_epa`, pass 2 of 2 of the penetration query, dispatched indirectly from the EPA queue's
// header: EPA, one invocation per queued pair, in fixed-size private arrays with the CPU's first-try bounds,
// tests and named statuses, then the certificate.

@compute @workgroup_size(WORKGROUP_SIZE)
fn penetration_epa(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.x;
    // In pair order, slot `index` is pair `index`'s, queued or not; else the first `count` slots are queued.
    let slots = select(atomicLoad(&queue.count), params.pair_count, params.epa_by_pair != 0u);
    if (index >= slots) {
        return;
    }
    let task = queue.tasks[index];
    if (task.queued == 0u) {
        return;
    }
    loop_cut = false;
    let pair = prepared_new(pairs[task.pair]);
    var answer = penetration_certified(pair.query, expand(pair.query, task));
    if (loops_were_cut()) {
        answer.status = PEN_GPU_LOOP_LIMIT;
    }
    store_epa_answer(task.pair, prepared_penetration_to_local(pair, answer));
}
