// The separating axis test's search, shared by the kernels that run it (shaders/sat.wgsl,
// shaders/physics_contacts.wgsl): the WGSL twin of `separating_axis` (src/sat/mod.rs) over two hulls of
// shared/polyhedron.wgsl in A's local frame, B placed by `turn` and `shift`. Face normals of A, then of B, then the
// edge pairs whose arcs cross on the Gauss map (Gregorius), the largest separation kept in the `best_*` privates.
//
// From Rust (src/gpu/sat/codes.rs): AXIS_FACE_A, AXIS_FACE_B and AXIS_EDGES, the best axis's kinds;
// SAT_PARALLEL_SINE, below which two edges' cross product over their lengths' product is float32 noise (their
// plane is a face's, tested among the faces).

var<private> best_separation: f32;
var<private> best_axis: vec3<f32>;
var<private> best_kind: u32;
var<private> best_first: u32;
var<private> best_second: u32;

fn consider(separation: f32, axis: vec3<f32>, kind: u32, first: u32, second: u32) {
    if (separation > best_separation) {
        best_separation = separation;
        best_axis = axis;
        best_kind = kind;
        best_first = first;
        best_second = second;
    }
}

fn as_vec3(v: vec4<u32>) -> vec3<f32> {
    return vec3<f32>(bitcast<f32>(v.x), bitcast<f32>(v.y), bitcast<f32>(v.z));
}

// A's edge `ea` across B's edge `eb`, in A's frame: n1, n2 are A's normals around `ea` and `nxa` their
// `n2 x n1`, all in B's frame; `pa` and `qa` the edge's first point and vector in A's frame.
fn edge_pair(
    a: u32, b: u32, turn: mat3x3<f32>, shift: vec3<f32>, n1: vec3<f32>, n2: vec3<f32>, nxa: vec3<f32>,
    pa: vec3<f32>, qa: vec3<f32>, mean_a: vec3<f32>, ea: u32, eb: u32,
) {
    let edge = hull_edge(b, eb);
    let m1 = hull_plane(b, edge.z).xyz;
    let m2 = hull_plane(b, edge.w).xyz;
    // c . (b x a) and d . (b x a) for c = -m1, d = -m2: of opposite signs when B's arc crosses A's plane.
    let cba = -dot(m1, nxa);
    let dba = -dot(m2, nxa);
    if (cba * dba >= 0.0) {
        return;
    }
    let mxm = cross(m2, m1);
    let adc = dot(n1, mxm);
    let bdc = dot(n2, mxm);
    if (!(adc * bdc < 0.0 && cba * bdc > 0.0)) {
        return;
    }
    let pb0 = hull_point(b, edge.x);
    let eb_vector = turn * (hull_point(b, edge.y) - pb0);
    var axis = cross(qa, eb_vector);
    let axis_length = length(axis);
    if (axis_length <= SAT_PARALLEL_SINE * length(qa) * length(eb_vector)) {
        return;
    }
    axis = axis / axis_length;
    if (dot(axis, pa - mean_a) < 0.0) {
        axis = -axis;
    }
    let pb = turn * pb0 + shift;
    consider(dot(axis, pb - pa), axis, AXIS_EDGES, ea, eb);
}

// Every axis of hulls `a` and `b` (base words), B's frame turned by `turn` and shifted by `shift` into A's: leaves
// the largest separation and its unit axis from A towards B in the `best_*` privates, and sets `loop_cut` where
// an edge loop came out short.
fn sat_search(a: u32, b: u32, turn: mat3x3<f32>, shift: vec3<f32>) {
    let back = transpose(turn);
    best_separation = -3.4028235e38;
    best_axis = vec3<f32>(0.0);
    best_kind = AXIS_FACE_A;
    best_first = 0u;
    best_second = 0u;

    var start = 0u;
    let planes_a = hull_plane_count(a);
    for (var f = 0u; f < planes_a; f = f + 1u) {
        let plane = hull_plane(a, f);
        let low = hull_lowest(b, back * plane.xyz, &start) + dot(plane.xyz, shift);
        consider(low - plane.w, plane.xyz, AXIS_FACE_A, f, 0u);
    }
    start = 0u;
    let planes_b = hull_plane_count(b);
    for (var f = 0u; f < planes_b; f = f + 1u) {
        let plane = hull_plane(b, f);
        let normal = turn * plane.xyz;
        let offset = plane.w + dot(normal, shift);
        consider(hull_lowest(a, normal, &start) - offset, -normal, AXIS_FACE_B, f, 0u);
    }
    let edges_a = hull_edge_count(a);
    let edges_b = hull_edge_count(b);
    let mean_a = hull_mean(a);
    for (var ea = 0u; ea < edges_a; ea = ea + 1u) {
        let edge = hull_edge(a, ea);
        let na1 = hull_plane(a, edge.z).xyz;
        let na2 = hull_plane(a, edge.w).xyz;
        let n1 = back * na1;
        let n2 = back * na2;
        let nxa = back * cross(na2, na1);
        let pa = hull_point(a, edge.x);
        let qa = hull_point(a, edge.y) - pa;
        // Four of B's edges per loop trip: software adapters give a group of invocations one budget of loop trips.
        var trips = 0u;
        for (var eb = 0u; eb < edges_b; eb = eb + 4u) {
            trips = trips + 1u;
            edge_pair(a, b, turn, shift, n1, n2, nxa, pa, qa, mean_a, ea, eb);
            if (eb + 1u < edges_b) { edge_pair(a, b, turn, shift, n1, n2, nxa, pa, qa, mean_a, ea, eb + 1u); }
            if (eb + 2u < edges_b) { edge_pair(a, b, turn, shift, n1, n2, nxa, pa, qa, mean_a, ea, eb + 2u); }
            if (eb + 3u < edges_b) { edge_pair(a, b, turn, shift, n1, n2, nxa, pa, qa, mean_a, ea, eb + 3u); }
        }
        if (trips != (edges_b + 3u) / 4u) {
            loop_cut = true;
        }
    }
}
