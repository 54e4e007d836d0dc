// Kernel `gjk_subgroup`: the GJK kernel (gjk.wgsl) for the chunk's pairs from `params.subgroup_from` on, the
// pairs whose support calls scan the most points, one subgroup per pair: every lane runs the pair's GJK and the
// lanes share each support scan (scan_subgroup.wgsl), so a 5,000-point scan costs each lane 5,000 / S reads
// instead of one lane 5,000. Dispatched after the per-thread kernel over the same chunk, which stops at
// `params.subgroup_from`; only where the adapter has wgpu's SUBGROUP feature (src/gpu/scan_kernel.rs).

@group(0) @binding(5) var<storage, read_write> results: array<vec4<u32>>;

// The host dispatches as many workgroups as a subgroup of the adapter's smallest size would need
// (WORKGROUP_SIZE / size pairs each); every subgroup then strides over the pairs by the number of subgroups in
// the dispatch, so larger subgroups, or a size that does not divide the workgroup, still answer every pair,
// some of them more than one.
@compute @workgroup_size(WORKGROUP_SIZE)
fn gjk_subgroup(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(subgroup_id) subgroup: u32,
    @builtin(num_subgroups) subgroups: u32,
) {
    scan_lane = subgroupExclusiveAdd(1u);
    scan_lanes = subgroupAdd(1u);
    let stride = groups.x * subgroups;
    for (var index = params.subgroup_from + group.x * subgroups + subgroup; index < params.pair_count;
         index = index + stride) {
        loop_cut = false;
        let pair = prepared_new(pairs[index]);
        var result = gjk(pair.query, params.kind);
        if (loops_were_cut()) {
            result.status = STATUS_GPU_LOOP_LIMIT;
        }
        if (scan_lane == 0u) {
            store_gjk_result(index, prepared_gjk_to_local(pair, result));
        }
    }
}
