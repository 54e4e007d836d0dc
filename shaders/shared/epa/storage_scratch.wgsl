// Where EPA's polytope lives, second kernel: a global scratch buffer, one lane per invocation of the pass
// (`EpaKernel::Scratch` in src/gpu/epa_kernel.rs). The twin of shared/epa/storage_private.wgsl, same functions.
// Structure of arrays, lane-major in tiles of a workgroup's lanes: word `w` of lane `lane` of tile `t` is at
// `t * WORKGROUP_SIZE * EPA_SCRATCH_WORDS + w * width + lane` (`width` the tile's lanes), so the lanes of a SIMD
// vector that touch the same word touch neighbouring addresses (one coalesced access instead of one per lane).
// Floats are stored as their bits, so every value comes back exactly as written.
// The buffer holds `arrayLength / EPA_SCRATCH_WORDS` lanes: the host sizes it per chunk (src/gpu/penetration.rs).

@group(0) @binding(8) var<storage, read_write> epa_scratch: array<u32>;

// A lane's EPA_SCRATCH_WORDS words: per vertex x, y, z of A's support point (from EPA_SCRATCH_VERTEX_A), then of
// B's, per face the plane's four words, then the packed corners, then the horizon's edges (offsets from Rust,
// src/gpu/epa_scratch.rs).

// Where the invocation's tile starts, its lane in the tile, and the tile's width.
var<private> scratch_tile_base: u32;
var<private> scratch_lane: u32;
var<private> scratch_width: u32;

// Claims lane `invocation` of the scratch buffer; false when the buffer has no such lane (the caller answers
// with a failure status, for the CPU to redo, never from storage it does not own). The lanes go in tiles of a
// workgroup's width, the last one narrower when the buffer's lanes are not a multiple of it: lane-major within a
// tile, so a warp's accesses to one word are still neighbours, while one lane's words stay a tile's width apart
// rather than the whole buffer's.
fn polytope_storage_claim(invocation: u32) -> bool {
    let lanes = arrayLength(&epa_scratch) / EPA_SCRATCH_WORDS;
    if (invocation >= lanes) {
        return false;
    }
    let tile = invocation / WORKGROUP_SIZE;
    scratch_width = min(WORKGROUP_SIZE, lanes - tile * WORKGROUP_SIZE);
    scratch_lane = invocation % WORKGROUP_SIZE;
    scratch_tile_base = tile * WORKGROUP_SIZE * EPA_SCRATCH_WORDS;
    return true;
}

fn scratch_at(word: u32) -> u32 {
    return scratch_tile_base + word * scratch_width + scratch_lane;
}

fn scratch_vec3(word: u32) -> vec3<f32> {
    return vec3<f32>(
        bitcast<f32>(epa_scratch[scratch_at(word)]),
        bitcast<f32>(epa_scratch[scratch_at(word + 1u)]),
        bitcast<f32>(epa_scratch[scratch_at(word + 2u)]),
    );
}

fn set_scratch_vec3(word: u32, v: vec3<f32>) {
    epa_scratch[scratch_at(word)] = bitcast<u32>(v.x);
    epa_scratch[scratch_at(word + 1u)] = bitcast<u32>(v.y);
    epa_scratch[scratch_at(word + 2u)] = bitcast<u32>(v.z);
}

fn vertex_a(i: u32) -> vec3<f32> {
    return scratch_vec3(EPA_SCRATCH_VERTEX_A + 3u * i);
}

fn vertex_b(i: u32) -> vec3<f32> {
    return scratch_vec3(EPA_SCRATCH_VERTEX_B + 3u * i);
}

fn set_vertex(i: u32, a: vec3<f32>, b: vec3<f32>) {
    set_scratch_vec3(EPA_SCRATCH_VERTEX_A + 3u * i, a);
    set_scratch_vec3(EPA_SCRATCH_VERTEX_B + 3u * i, b);
}

fn plane_of(face: u32) -> vec4<f32> {
    let word = EPA_SCRATCH_PLANES + 4u * face;
    return vec4<f32>(scratch_vec3(word), bitcast<f32>(epa_scratch[scratch_at(word + 3u)]));
}

fn set_plane(face: u32, plane: vec4<f32>) {
    let word = EPA_SCRATCH_PLANES + 4u * face;
    set_scratch_vec3(word, plane.xyz);
    epa_scratch[scratch_at(word + 3u)] = bitcast<u32>(plane.w);
}

fn corners_of(face: u32) -> u32 {
    return epa_scratch[scratch_at(EPA_SCRATCH_CORNERS + face)];
}

fn set_corners(face: u32, corners: u32) {
    epa_scratch[scratch_at(EPA_SCRATCH_CORNERS + face)] = corners;
}

fn horizon_edge(h: u32) -> u32 {
    return epa_scratch[scratch_at(EPA_SCRATCH_HORIZON + h)];
}

fn set_horizon_edge(h: u32, edge: u32) {
    epa_scratch[scratch_at(EPA_SCRATCH_HORIZON + h)] = edge;
}
