// EPA's polytope within the first try's bounds: the twin of src/epa/polytope.rs (`Polytope::push_face` is
// `polytope_push_face` here, and so on). Its arrays are reached through the functions of one of the storage files,
// shared/epa/storage_private.wgsl or shared/epa/storage_scratch.wgsl (`vertex_a`, `set_plane`, ...). Support
// points of A and B per vertex (w = a - b is formed on use, the same float32 subtraction as the CPU's
// push_vertex); per face the plane (unit normal, distance) and its corners packed as
// i | j << 8 | k << 16 | alive << 24; horizon edges packed as tail | head << 8.

// WGSL-only encodings, never read by Rust: `polytope_push_face` succeeded, and the live bit of a face.
const PUSH_OK: u32 = 0xffffffffu;
const FACE_ALIVE: u32 = 0x1000000u;

var<private> poly_vertices: u32;
var<private> face_slots: u32;
var<private> horizon_edges: u32;

struct Face {
    plane: vec4<f32>,
    corners: u32,
}

fn corner(corners: u32, e: u32) -> u32 {
    return (corners >> (8u * e)) & 0xffu;
}

fn poly_w(i: u32) -> vec3<f32> {
    return vertex_a(i) - vertex_b(i);
}

fn polytope_new() {
    poly_vertices = 0u;
    face_slots = 0u;
    horizon_edges = 0u;
}

fn polytope_push_vertex(a: vec3<f32>, b: vec3<f32>) -> u32 {
    let i = poly_vertices;
    set_vertex(i, a, b);
    poly_vertices = i + 1u;
    return i;
}

// Keeps only vertices `keep` (in that order): a flat start tetrahedron reduced to its largest triangle.
fn polytope_keep_vertices(keep: vec3<u32>) {
    let a = array<vec3<f32>, 3>(vertex_a(keep.x), vertex_a(keep.y), vertex_a(keep.z));
    let b = array<vec3<f32>, 3>(vertex_b(keep.x), vertex_b(keep.y), vertex_b(keep.z));
    for (var slot = 0u; slot < 3u; slot = slot + 1u) {
        set_vertex(slot, a[slot], b[slot]);
    }
    poly_vertices = 3u;
}

fn polytope_swap_vertices(i: u32, j: u32) {
    let a = vertex_a(i);
    let b = vertex_b(i);
    set_vertex(i, vertex_a(j), vertex_b(j));
    set_vertex(j, a, b);
}

// True when `w` is already a vertex.
fn polytope_contains(w: vec3<f32>) -> bool {
    var known = false;
    for (var v = 0u; v < poly_vertices; v = v + 1u) {
        if (all(poly_w(v) == w)) {
            known = true;
        }
    }
    return known;
}

// Adds face (i, j, k), counter-clockwise seen from outside; PUSH_OK, or the status that stops EPA.
fn polytope_push_face(i: u32, j: u32, k: u32) -> u32 {
    let wi = poly_w(i);
    let direction = squarable(cross(poly_w(j) - wi, poly_w(k) - wi));
    let n = direction.xyz;
    let len = sqrt(direction.w);
    if (!(len > 0.0)) {
        return PEN_EPA_DEGENERATE;
    }
    let normal = n * (1.0 / len);
    // Reuse a dead slot before growing.
    var slot = face_slots;
    for (var s = 0u; s < face_slots; s = s + 1u) {
        if ((corners_of(s) & FACE_ALIVE) == 0u) {
            slot = s;
            break;
        }
    }
    if (slot == face_slots) {
        if (face_slots < EPA_MAX_FACES) {
            face_slots = face_slots + 1u;
        } else {
            return PEN_EPA_OVERFLOW;
        }
    }
    set_plane(slot, vec4<f32>(normal, dot(normal, wi)));
    set_corners(slot, i | (j << 8u) | (k << 16u) | FACE_ALIVE);
    return PUSH_OK;
}

// The live face nearest the origin (the first one on ties), or `face_slots` when no face is alive.
fn polytope_closest_face() -> u32 {
    var best = face_slots;
    var found = false;
    for (var s = 0u; s < face_slots; s = s + 1u) {
        if ((corners_of(s) & FACE_ALIVE) != 0u && (!found || plane_of(s).w < plane_of(best).w)) {
            best = s;
            found = true;
        }
    }
    return best;
}

// Where `edge` (packed) is in the horizon, or `horizon_edges` when it is not.
fn polytope_horizon_has(edge: u32) -> u32 {
    var at = horizon_edges;
    for (var h = 0u; h < horizon_edges; h = h + 1u) {
        if (at == horizon_edges && horizon_edge(h) == edge) {
            at = h;
        }
    }
    return at;
}

// A removed face's edge: interior when its reverse is in the horizon (it leaves), else it joins the horizon.
// PUSH_OK, or PEN_EPA_OVERFLOW when the horizon is full.
fn polytope_toggle_horizon_edge(tail: u32, head: u32) -> u32 {
    let shared_at = polytope_horizon_has(head | (tail << 8u));
    if (shared_at < horizon_edges) {
        set_horizon_edge(shared_at, horizon_edge(horizon_edges - 1u));
        horizon_edges = horizon_edges - 1u;
    } else if (horizon_edges < EPA_MAX_HORIZON) {
        set_horizon_edge(horizon_edges, tail | (head << 8u));
        horizon_edges = horizon_edges + 1u;
    } else {
        return PEN_EPA_OVERFLOW;
    }
    return PUSH_OK;
}

// Whether a new point `offset` from a face's first corner sees the face: in front of its plane, or in it up to
// the rounding of that test (EPA_COPLANAR_ULPS). False for NaN.
fn sees(normal: vec3<f32>, offset: vec3<f32>) -> bool {
    let height = dot(normal, offset);
    let slack = EPA_COPLANAR_ULPS * EPSILON;
    return height > 0.0 || height * height <= slack * slack * dot(offset, offset);
}

// Removes the faces that see `w` (or hold it in their plane), grown from face `best` across shared edges, leaving the edges the removed
// faces do not share in the horizon, and those across an edge in line with `w`. PUSH_OK, or PEN_EPA_OVERFLOW.
fn polytope_carve_horizon(best: u32, w: vec3<f32>) -> u32 {
    horizon_edges = 0u;
    var grew = true;
    var first = true;
    while (grew) {
        grew = false;
        for (var f = 0u; f < face_slots; f = f + 1u) {
            let corners = corners_of(f);
            if ((corners & FACE_ALIVE) == 0u) {
                continue;
            }
            if (!sees(plane_of(f).xyz, w - poly_w(corner(corners, 0u)))) {
                continue;
            }
            var touches = false;
            if (first) {
                touches = f == best;
            } else {
                for (var e = 0u; e < 3u && !touches; e = e + 1u) {
                    let reversed = corner(corners, (e + 1u) % 3u) | (corner(corners, e) << 8u);
                    touches = polytope_horizon_has(reversed) < horizon_edges;
                }
            }
            if (!touches) {
                continue;
            }
            set_corners(f, corners & ~FACE_ALIVE);
            grew = true;
            for (var e = 0u; e < 3u; e = e + 1u) {
                let pushed = polytope_toggle_horizon_edge(corner(corners, e), corner(corners, (e + 1u) % 3u));
                if (pushed != PUSH_OK) {
                    return pushed;
                }
            }
        }
        first = false;
    }
    return polytope_absorb_flat_neighbours(w);
}

// The live face on the other side of horizon edge (tail, head): the one that runs it head to tail, or
// `face_slots` when none does.
fn polytope_face_across(tail: u32, head: u32) -> u32 {
    var across = face_slots;
    for (var f = 0u; f < face_slots && across == face_slots; f = f + 1u) {
        let corners = corners_of(f);
        if ((corners & FACE_ALIVE) == 0u) {
            continue;
        }
        for (var e = 0u; e < 3u; e = e + 1u) {
            if (corner(corners, e) == head && corner(corners, (e + 1u) % 3u) == tail) {
                across = f;
            }
        }
    }
    return across;
}

// A horizon edge in line with `w` would close with a face of no area; `w` then lies in the plane of the face
// across that edge, which goes too. PUSH_OK, or PEN_EPA_OVERFLOW.
fn polytope_absorb_flat_neighbours(w: vec3<f32>) -> u32 {
    var e = 0u;
    while (e < horizon_edges) {
        let tail = horizon_edge(e) & 0xffu;
        let head = horizon_edge(e) >> 8u;
        let n = balanced(cross(poly_w(head) - poly_w(tail), w - poly_w(tail)));
        var across = face_slots;
        if (dot(n, n) == 0.0) {
            across = polytope_face_across(tail, head);
        }
        if (across == face_slots) {
            e = e + 1u;
            continue;
        }
        let corners = corners_of(across);
        set_corners(across, corners & ~FACE_ALIVE);
        for (var k = 0u; k < 3u; k = k + 1u) {
            let pushed = polytope_toggle_horizon_edge(corner(corners, k), corner(corners, (k + 1u) % 3u));
            if (pushed != PUSH_OK) {
                return pushed;
            }
        }
        // The horizon was reshuffled: look at every edge again.
        e = 0u;
    }
    return PUSH_OK;
}
