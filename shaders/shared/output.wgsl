// How a kernel writes a GJK answer into its `results` records, in the record `params.format` names: the twins of
// the structs in src/gpu/packed.rs (and GpuResult in layout.rs), word for word. `results` is an array of
// vec4<u32> in every kernel that writes records, so a record of 8 or 12 words is two or three 16-byte stores
// rather than 8 or 12 scalar ones (the bytes are the same: the records' words in order).

// Status code in the low bits, iteration count above (status_word in packed.rs).
fn status_word(status: u32, iterations: u32) -> u32 {
    return status | (min(iterations, MAX_PACKED_ITERATIONS) << STATUS_WORD_SHIFT);
}

// Three floats and a word, as one 16-byte store.
fn result_quad(v: vec3<f32>, w: u32) -> vec4<u32> {
    return vec4<u32>(bitcast<vec3<u32>>(v), w);
}

// FORMAT_FULL: GpuResult, 12 words. FORMAT_DISTANCE: PackedDistance, 8 words (witness A, distance, normal,
// status word; witness B is A + normal * distance, or A itself when intersecting). FORMAT_HIT: the status word,
// pair `index`'s own lane of a vec4 (a one-word store: the other lanes are other pairs').
fn store_gjk_result(index: u32, r: GpuResult) {
    if (params.format == FORMAT_HIT) {
        results[index / 4u][index % 4u] = status_word(r.status, r.iterations);
        return;
    }
    if (params.format == FORMAT_DISTANCE) {
        let at = index * 2u;
        results[at] = result_quad(r.witness_a, bitcast<u32>(r.distance));
        results[at + 1u] = result_quad(r.normal, status_word(r.status, r.iterations));
        return;
    }
    let at = index * 3u;
    results[at] = result_quad(r.witness_a, bitcast<u32>(r.distance));
    results[at + 1u] = result_quad(r.witness_b, r.status);
    results[at + 2u] = result_quad(r.normal, r.iterations);
}
