// Kernel `gjk_counting`: the GJK kernel (gjk.wgsl) built with COUNTING = 1, writing each pair's work instead of
// its answer: GJK steps (iterations), support calls and hull points read, and the status, in a FORMAT_FULL
// record's first four words (the rest zero). Dispatched like the GJK kernel, pairs in the same order, so the
// host can measure how evenly the lanes of each group of 32 pairs work (src/gpu/work.rs).

@group(0) @binding(5) var<storage, read_write> results: array<vec4<u32>>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn gjk_counting(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.x;
    if (index >= params.pair_count) {
        return;
    }
    loop_cut = false;
    counted_support_calls = 0u;
    counted_vertex_reads = 0u;
    let pair = prepared_new(pairs[index]);
    var result = gjk(pair.query, params.kind);
    if (loops_were_cut()) {
        result.status = STATUS_GPU_LOOP_LIMIT;
    }
    let at = index * 3u;
    results[at] = vec4<u32>(result.iterations, counted_support_calls, counted_vertex_reads, result.status);
    results[at + 1u] = vec4<u32>(0u);
    results[at + 2u] = vec4<u32>(0u);
}
