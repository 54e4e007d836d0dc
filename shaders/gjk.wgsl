// Kernel `gjk`: GJK (intersection or distance, from `params.kind`) for every pair of the chunk, one invocation
// per pair: pairs are independent and short (5 to 15 iterations on the random mix), so a thread per pair
// keeps every lane busy without cross-lane reductions. The twin of query::query_relative without its float64
// repeat: a pair float32 cannot certify comes back STATUS_UNRESOLVED for the CPU to answer. It answers the pairs
// below `params.subgroup_from`; the subgroup kernel (gjk_subgroup.wgsl) the rest, where it runs.

// The answers, as words: one record per pair in the format of params.format (output.wgsl).
@group(0) @binding(5) var<storage, read_write> results: array<vec4<u32>>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn gjk_kernel(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let index = pair_index(gid, groups);
    if (index >= min(params.pair_count, params.subgroup_from)) {
        return;
    }
    loop_cut = false;
    let pair = prepared_new(pairs[index]);
    var result = gjk(pair.query, params.kind);
    if (loops_were_cut()) {
        result.status = STATUS_GPU_LOOP_LIMIT;
    }
    store_gjk_result(index, prepared_gjk_to_local(pair, result));
}
