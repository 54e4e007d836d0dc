// Kernel `gjk_null`: writes an empty answer for every pair of the chunk and does no work, in the record of
// `params.format`, so that a batch through it costs what the host, the transfers and a dispatch cost: the
// host's own ceiling, which `bench` sets beside the GJK kernel's throughput (src/gpu/work.rs).

@group(0) @binding(5) var<storage, read_write> results: array<vec4<u32>>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn gjk_null(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.x;
    if (index >= params.pair_count) {
        return;
    }
    var empty: GpuResult;
    store_gjk_result(index, empty);
}
