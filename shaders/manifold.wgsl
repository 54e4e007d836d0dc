// Contact manifolds, one invocation per pair: the WGSL twin of `manifold_in_a` (src/manifold/), in float32 in A's
// local frame, B placed by the rotation and shift the host formed in float64. The host gives the contact normal,
// EPA's depth and contact pair (the GPU's penetration answer, read back); the clipping is
// shared/manifold_clip.wgsl, which also describes the hull words.

struct ManifoldParams {
    pair_count: u32,
    loop_probe: u32,
    _pad0: u32,
    _pad1: u32,
}

// B's frame to A's: rotation columns in xyz with the hulls' base words in w (A's, then B's), the shift; then the
// unit normal with EPA's depth, EPA's contact points with the touching margin and the deepest slack, and the
// merge distance.
struct ManifoldPair {
    col0: vec4<u32>,
    col1: vec4<u32>,
    col2: vec4<u32>,
    shift: vec4<u32>,
    normal: vec4<f32>,
    contact_a: vec4<f32>,
    contact_b: vec4<f32>,
    limits: vec4<f32>,
}

// A point on A with its depth in w, the point on B.
struct ManifoldPoint {
    on_a: vec4<f32>,
    on_b: vec4<f32>,
}

// Up to four points deepest first; ids as (a0, b0, a1, b1), (a2, b2, a3, b3); status and point count.
struct ManifoldResult {
    points: array<ManifoldPoint, 4>,
    ids: array<vec4<u32>, 2>,
    info: vec4<u32>,
}

@group(0) @binding(0) var<uniform> params: ManifoldParams;
@group(0) @binding(1) var<storage, read> mhull: array<u32>;
@group(0) @binding(2) var<storage, read> manifold_pairs: array<ManifoldPair>;
@group(0) @binding(3) var<storage, read_write> manifold_results: array<ManifoldResult>;

// From Rust (src/gpu/manifold/codes.rs): MANIFOLD_ANSWERED, MANIFOLD_GPU_LOOP_LIMIT and MANIFOLD_POLYGON_BOUND,
// the statuses of `info.x` (a pair whose clipped polygon outgrows MANIFOLD_MAX_POLYGON is answered on the CPU by
// the host).

@compute @workgroup_size(WORKGROUP_SIZE_MANIFOLD)
fn manifold_kernel(@builtin(global_invocation_id) id: vec3<u32>) {
    let k = id.x;
    if (k >= params.pair_count) {
        return;
    }
    let pair = manifold_pairs[k];
    turn = mat3x3<f32>(
        bitcast<vec3<f32>>(pair.col0.xyz), bitcast<vec3<f32>>(pair.col1.xyz), bitcast<vec3<f32>>(pair.col2.xyz),
    );
    shift = bitcast<vec3<f32>>(pair.shift.xyz);
    let normal = pair.normal.xyz;
    loop_cut = false;

    let seed = ClipSeed(
        normal, pair.normal.w, pair.contact_a.xyz, pair.contact_b.xyz, pair.contact_a.w, pair.contact_b.w,
        pair.limits.x,
    );
    let chosen = manifold_clip(pair.col0.w, pair.col1.w, seed);
    let chosen_count = min(kept_count, 4u);

    var result: ManifoldResult;
    for (var j = 0u; j < chosen_count; j = j + 1u) {
        let c = kept_index[chosen[j]];
        result.points[j] = ManifoldPoint(vec4<f32>(cand_a[c], cand_depth[c]), vec4<f32>(cand_b[c], 0.0));
        let id = cand_id[c];
        if (j % 2u == 0u) {
            result.ids[j / 2u].x = id.x;
            result.ids[j / 2u].y = id.y;
        } else {
            result.ids[j / 2u].z = id.x;
            result.ids[j / 2u].w = id.y;
        }
    }
    var status = MANIFOLD_ANSWERED;
    if (overflow) {
        status = MANIFOLD_POLYGON_BOUND;
    }
    if (loops_were_cut()) {
        status = MANIFOLD_GPU_LOOP_LIMIT;
    }
    result.info = vec4<u32>(status, chosen_count, 0u, 0u);
    manifold_results[k] = result;
}
