// How a kernel writes a GJK answer into its `results` words, in the record `params.format` names: the twins of
// the structs in src/gpu/packed.rs (and GpuResult in layout.rs), word for word.

// Status code in the low bits, iteration count above (status_word in packed.rs).
fn status_word(status: u32, iterations: u32) -> u32 {
    return status | (min(iterations, MAX_PACKED_ITERATIONS) << STATUS_WORD_SHIFT);
}

fn store_result_vec3(at: u32, v: vec3<f32>) {
    results[at] = bitcast<u32>(v.x);
    results[at + 1u] = bitcast<u32>(v.y);
    results[at + 2u] = bitcast<u32>(v.z);
}

// FORMAT_FULL: GpuResult, 12 words. FORMAT_DISTANCE: PackedDistance, 8 words (witness A, distance, normal,
// status word; witness B is A + normal * distance, or A itself when intersecting). FORMAT_HIT: the status word.
fn store_gjk_result(index: u32, r: GpuResult) {
    if (params.format == FORMAT_HIT) {
        results[index] = status_word(r.status, r.iterations);
        return;
    }
    if (params.format == FORMAT_DISTANCE) {
        let at = index * 8u;
        store_result_vec3(at, r.witness_a);
        results[at + 3u] = bitcast<u32>(r.distance);
        store_result_vec3(at + 4u, r.normal);
        results[at + 7u] = status_word(r.status, r.iterations);
        return;
    }
    let at = index * 12u;
    store_result_vec3(at, r.witness_a);
    results[at + 3u] = bitcast<u32>(r.distance);
    store_result_vec3(at + 4u, r.witness_b);
    results[at + 7u] = r.status;
    store_result_vec3(at + 8u, r.normal);
    results[at + 11u] = r.iterations;
}
