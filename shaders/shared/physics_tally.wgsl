// A body's velocity change added to its fixed-point sums (`tallies`, declared by the kernel that includes this
// file); a body that does not move this step takes none.

fn tally(body: u32, m: Motion, dv: vec3<f32>, dw: vec3<f32>) {
    if (m.velocity.w == 0.0) {
        return;
    }
    let base = body * TALLY_WORDS;
    for (var c = 0u; c < 3u; c++) {
        atomicAdd(&tallies[base + c], to_fixed(dv[c]));
        atomicAdd(&tallies[base + 3u + c], to_fixed(dw[c]));
    }
}
