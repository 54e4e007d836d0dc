// Kernel `penetration_gjk`, pass 1 of 2 of the penetration query, one invocation per pair: GJK in distance
// mode, then every answer that needs no polytope; pairs whose cores overlap append their final simplex to the
// EPA queue (an atomic append that also counts the workgroups of pass 2's indirect dispatch; with
// `params.epa_by_pair`, on software adapters, at the pair's own slot instead). So separated
// pairs cost one GJK and nothing more, and pass 2's threads all do EPA.

@compute @workgroup_size(WORKGROUP_SIZE)
fn penetration_gjk(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.x;
    if (index >= params.pair_count) {
        return;
    }
    loop_cut = false;
    if (params.epa_by_pair != 0u) {
        queue.tasks[index].queued = 0u;
    }
    let pair = prepared_new(pairs[index]);
    var simplex: Simplex;
    var result = gjk_with_simplex(pair.query, KIND_DISTANCE, &simplex);
    if (loops_were_cut()) {
        result.status = STATUS_GPU_LOOP_LIMIT;
    }
    var answer = penetration_after_gjk(pair.query, result, &simplex, index);
    // The certificate's support scans may have run out of loop budget too.
    if (loops_were_cut()) {
        answer = penetration_none(PEN_GPU_LOOP_LIMIT);
    }
    store_pass1_answers(index, prepared_gjk_to_local(pair, result), prepared_penetration_to_local(pair, answer));
}
