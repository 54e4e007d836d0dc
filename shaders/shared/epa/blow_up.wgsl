// EPA's start: GJK's final simplex blown up to a tetrahedron, one helper per starting simplex; the twin of
// src/epa/blow_up.rs. When A - B has no thickness there, the answer is along the flat direction.

// How the blow-up ended (Start in blow_up.rs; a WGSL-only encoding, never read by Rust).
const START_GO_ON: u32 = 0u;
const START_TETRAHEDRON: u32 = 1u;
const START_FLAT: u32 = 2u;
const START_DEGENERATE: u32 = 3u;

struct Start {
    kind: u32,
    // START_FLAT: a unit normal of either sign (the answer turns it towards B).
    normal: vec3<f32>,
}

fn start_go_on() -> Start {
    return Start(START_GO_ON, vec3<f32>(0.0));
}

// The support points of A along `dir` and of B against it.
struct SupportPair {
    a: vec3<f32>,
    b: vec3<f32>,
}

fn support_pair(q: PairQuery, dir: vec3<f32>) -> SupportPair {
    return SupportPair(support_a(q.support, dir), support_b(q.support, -dir));
}

// Blows GJK's simplex (from the EPA queue) up to a tetrahedron in the polytope.
fn blow_up(q: PairQuery, task: EpaTask, eps: f32) -> Start {
    for (var i = 0u; i < task.len; i = i + 1u) {
        polytope_push_vertex(task.a[i].xyz, task.b[i].xyz);
    }
    if (poly_vertices == 4u) {
        flatten_thin_tetrahedron(eps * q.scale * q.scale);
    }
    var end = start_go_on();
    if (poly_vertices == 1u) {
        end = blow_up_point(q, eps);
    }
    if (end.kind == START_GO_ON && poly_vertices == 2u) {
        end = blow_up_segment(q, eps);
    }
    if (end.kind == START_GO_ON && poly_vertices == 3u) {
        end = blow_up_triangle(q, eps);
    }
    if (end.kind != START_GO_ON) {
        return end;
    }
    orient_tetrahedron();
    return Start(START_TETRAHEDRON, vec3<f32>(0.0));
}

// Six times the signed volume of the tetrahedron of the first four vertices.
fn volume() -> f32 {
    let w0 = poly_w(0u);
    return dot(cross(poly_w(1u) - w0, poly_w(2u) - w0), poly_w(3u) - w0);
}

// A tetrahedron with no volume to speak of: keep its triangle of largest area.
fn flatten_thin_tetrahedron(min_volume: f32) {
    if (abs(volume()) > min_volume) {
        return;
    }
    var best_drop = 0u;
    var best_area = 0.0;
    for (var drop = 0u; drop < 4u; drop = drop + 1u) {
        let k = others(drop);
        let e = cross(poly_w(k.y) - poly_w(k.x), poly_w(k.z) - poly_w(k.x));
        let area = dot(e, e);
        if (area > best_area) {
            best_drop = drop;
            best_area = area;
        }
    }
    polytope_keep_vertices(others(best_drop));
}

// The three vertex indices of a tetrahedron other than `drop`.
fn others(drop: u32) -> vec3<u32> {
    switch (drop) {
        case 0u: {
            return vec3<u32>(1u, 2u, 3u);
        }
        case 1u: {
            return vec3<u32>(0u, 2u, 3u);
        }
        case 2u: {
            return vec3<u32>(0u, 1u, 3u);
        }
        default: {
            return vec3<u32>(0u, 1u, 2u);
        }
    }
}

// A one-point simplex: the six axis directions; none off the point means A - B is a single point.
fn blow_up_point(q: PairQuery, eps: f32) -> Start {
    for (var axis_index = 0u; axis_index < 3u; axis_index = axis_index + 1u) {
        var axis = vec3<f32>(0.0);
        axis[axis_index] = 1.0;
        for (var side = 0u; side < 2u; side = side + 1u) {
            let s = support_pair(q, select(axis, -axis, side == 1u));
            let off = (s.a - s.b) - poly_w(0u);
            if (dot(off, off) > eps * eps) {
                polytope_push_vertex(s.a, s.b);
                return start_go_on();
            }
        }
    }
    return Start(START_FLAT, vec3<f32>(1.0, 0.0, 0.0));
}

// A segment: the four perpendicular directions; none off its line means A - B is a segment through the
// origin, where the perpendicular towards B is as good as any.
fn blow_up_segment(q: PairQuery, eps: f32) -> Start {
    let w0 = poly_w(0u);
    let d = poly_w(1u) - w0;
    let dd = dot(d, d);
    let e1 = perpendicular(d);
    let e2 = cross(d, e1) * (1.0 / sqrt(dd));
    let dirs = array<vec3<f32>, 4>(e1, -e1, e2, -e2);
    for (var i = 0u; i < 4u; i = i + 1u) {
        let s = support_pair(q, dirs[i]);
        let off = cross(d, (s.a - s.b) - w0);
        if (dot(off, off) > eps * eps * dd) {
            polytope_push_vertex(s.a, s.b);
            return start_go_on();
        }
    }
    let position_b = q.support.position_b;
    let along = dot(position_b, d) / dd;
    let p = position_b - d * along;
    if (dot(p, p) > eps * eps) {
        return Start(START_FLAT, p * (1.0 / sqrt(dot(p, p))));
    }
    return Start(START_FLAT, e1);
}

// A triangle: both sides of its plane; none off it means A - B is flat there.
fn blow_up_triangle(q: PairQuery, eps: f32) -> Start {
    let w0 = poly_w(0u);
    let m = balanced(cross(poly_w(1u) - w0, poly_w(2u) - w0));
    let len = sqrt(dot(m, m));
    if (!(len > 0.0)) {
        return Start(START_DEGENERATE, vec3<f32>(0.0));
    }
    let n = m * (1.0 / len);
    for (var side = 0u; side < 2u; side = side + 1u) {
        let s = support_pair(q, select(n, -n, side == 1u));
        if (abs(dot(n, (s.a - s.b) - w0)) > eps) {
            polytope_push_vertex(s.a, s.b);
            return start_go_on();
        }
    }
    return Start(START_FLAT, n);
}

// Orders the tetrahedron so that faces (0,1,2), (0,3,1), (0,2,3), (1,3,2) face outwards.
fn orient_tetrahedron() {
    if (volume() > 0.0) {
        polytope_swap_vertices(1u, 2u);
    }
}

// A unit vector perpendicular to `d` (non-zero).
fn perpendicular(d: vec3<f32>) -> vec3<f32> {
    let x = abs(d.x);
    let y = abs(d.y);
    let z = abs(d.z);
    var axis = vec3<f32>(0.0, 0.0, 1.0);
    if (x <= y && x <= z) {
        axis = vec3<f32>(1.0, 0.0, 0.0);
    } else if (y <= z) {
        axis = vec3<f32>(0.0, 1.0, 0.0);
    }
    let p = cross(d, axis);
    return p * (1.0 / sqrt(dot(p, p)));
}

// `n` or `-n`, whichever points from A towards B's origin.
fn towards_b(q: PairQuery, n: vec3<f32>) -> vec3<f32> {
    if (dot(n, q.support.position_b) < 0.0) {
        return -n;
    }
    return n;
}
