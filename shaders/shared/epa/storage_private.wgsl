// Where EPA's polytope lives, first kernel: fixed arrays in private memory, per invocation (`EpaKernel::Private`
// in src/gpu/epa_kernel.rs). About 4.9 KB per lane: on a GPU, local memory with per-lane addresses. The twin,
// shared/epa/storage_scratch.wgsl, has the same functions over a global scratch buffer.
// Per vertex the support points of A and B; per face the plane (unit normal, distance) and its packed corners;
// the horizon's packed edges.

var<private> poly_a: array<vec3<f32>, EPA_MAX_VERTICES>;
var<private> poly_b: array<vec3<f32>, EPA_MAX_VERTICES>;
var<private> face_plane: array<vec4<f32>, EPA_MAX_FACES>;
var<private> face_corners: array<u32, EPA_MAX_FACES>;
var<private> horizon: array<u32, EPA_MAX_HORIZON>;

// Claims the storage of invocation `invocation`; false when there is none for it. Private arrays always exist.
fn polytope_storage_claim(invocation: u32) -> bool {
    return true;
}

fn vertex_a(i: u32) -> vec3<f32> {
    return poly_a[i];
}

fn vertex_b(i: u32) -> vec3<f32> {
    return poly_b[i];
}

fn set_vertex(i: u32, a: vec3<f32>, b: vec3<f32>) {
    poly_a[i] = a;
    poly_b[i] = b;
}

fn plane_of(face: u32) -> vec4<f32> {
    return face_plane[face];
}

fn set_plane(face: u32, plane: vec4<f32>) {
    face_plane[face] = plane;
}

fn corners_of(face: u32) -> u32 {
    return face_corners[face];
}

fn set_corners(face: u32, corners: u32) {
    face_corners[face] = corners;
}

fn horizon_edge(h: u32) -> u32 {
    return horizon[h];
}

fn set_horizon_edge(h: u32, edge: u32) {
    horizon[h] = edge;
}
