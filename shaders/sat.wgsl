// The separating axis test, one invocation per pair: the WGSL twin of `separating_axis` (src/sat/mod.rs), in
// float32 in A's local frame, B placed by the rotation and shift the host formed in float64; the search itself is
// shared/sat_axes.wgsl.

struct SatParams {
    pair_count: u32,
    loop_probe: u32,
    _pad0: u32,
    _pad1: u32,
}

// B's frame to A's: columns of the rotation in xyz with the hulls' base words in w, then the shift.
struct SatPair {
    col0: vec4<u32>,
    col1: vec4<u32>,
    col2: vec4<u32>,
    shift: vec4<u32>,
}

// The unit axis from A towards B and the separation along it, then the status, the axis kind and its indices.
struct SatResult {
    axis: vec4<f32>,
    info: vec4<u32>,
}

@group(0) @binding(0) var<uniform> params: SatParams;
@group(0) @binding(1) var<storage, read> poly: array<u32>;
@group(0) @binding(2) var<storage, read> sat_pairs: array<SatPair>;
@group(0) @binding(3) var<storage, read_write> sat_results: array<SatResult>;

// From Rust (src/gpu/sat/codes.rs): SAT_ANSWERED and SAT_GPU_LOOP_LIMIT, the statuses of `info.x`; the best axis's
// kind (AXIS_FACE_A, AXIS_FACE_B, AXIS_EDGES) goes in `info.y`.

@compute @workgroup_size(WORKGROUP_SIZE)
fn sat_kernel(@builtin(global_invocation_id) id: vec3<u32>) {
    let k = id.x;
    if (k >= params.pair_count) {
        return;
    }
    let pair = sat_pairs[k];
    let a = pair.col0.w;
    let b = pair.col1.w;
    let turn = mat3x3<f32>(as_vec3(pair.col0), as_vec3(pair.col1), as_vec3(pair.col2));
    let shift = as_vec3(pair.shift);
    loop_cut = false;

    sat_search(a, b, turn, shift);

    var status = SAT_ANSWERED;
    if (loops_were_cut()) {
        status = SAT_GPU_LOOP_LIMIT;
    }
    sat_results[k] = SatResult(
        vec4<f32>(best_axis, best_separation),
        vec4<u32>(status, best_kind, best_first, best_second),
    );
}
