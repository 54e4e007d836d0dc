// GJK's simplex: up to four points of A - B with the support points of A and B that made them, and the
// weights of the closest point. The twin of src/gjk/simplex.rs (`Simplex::project` is `simplex_project` here,
// and so on: WGSL has no methods).

// The four slots are fixed: no slot is indexed by a runtime value (a private array indexed that way goes to
// scratch memory on most GPUs). The live vertices are slots 0 to len - 1, each function reads and writes all
// four with constant indices and selects by the mask of live slots (`simplex_live`), and a dead slot keeps what
// it held, as in the Rust twin, so every answer keeps its bits.

struct Simplex {
    w: array<vec3<f32>, 4>,
    a: array<vec3<f32>, 4>,
    b: array<vec3<f32>, 4>,
    lambda: vec4<f32>,
    len: u32,
}

// The mask of live slots: true in lanes 0 to len - 1.
fn simplex_live(s: ptr<function, Simplex>) -> vec4<bool> {
    return vec4<u32>(0u, 1u, 2u, 3u) < vec4<u32>((*s).len);
}

fn simplex_contains(s: ptr<function, Simplex>, w: vec3<f32>) -> bool {
    let equal = vec4<bool>(all((*s).w[0] == w), all((*s).w[1] == w), all((*s).w[2] == w), all((*s).w[3] == w));
    return any(equal & simplex_live(s));
}

// `a - b` and its support points into slot len (Simplex::push).
fn simplex_push(s: ptr<function, Simplex>, a: vec3<f32>, b: vec3<f32>) {
    let n = (*s).len;
    let w = a - b;
    (*s).w[0] = select((*s).w[0], w, n == 0u);
    (*s).w[1] = select((*s).w[1], w, n == 1u);
    (*s).w[2] = select((*s).w[2], w, n == 2u);
    (*s).w[3] = select((*s).w[3], w, n == 3u);
    (*s).a[0] = select((*s).a[0], a, n == 0u);
    (*s).a[1] = select((*s).a[1], a, n == 1u);
    (*s).a[2] = select((*s).a[2], a, n == 2u);
    (*s).a[3] = select((*s).a[3], a, n == 3u);
    (*s).b[0] = select((*s).b[0], b, n == 0u);
    (*s).b[1] = select((*s).b[1], b, n == 1u);
    (*s).b[2] = select((*s).b[2], b, n == 2u);
    (*s).b[3] = select((*s).b[3], b, n == 3u);
    (*s).len = n + 1u;
}

fn simplex_max_vertex_norm(s: ptr<function, Simplex>) -> f32 {
    let live = simplex_live(s);
    let n = vec4<f32>(
        dot((*s).w[0], (*s).w[0]),
        dot((*s).w[1], (*s).w[1]),
        dot((*s).w[2], (*s).w[2]),
        dot((*s).w[3], (*s).w[3]),
    );
    // The first strictly larger square wins, slot by slot (a loop over the live slots).
    var m = 0.0;
    m = select(m, n.x, live.x && n.x > m);
    m = select(m, n.y, live.y && n.y > m);
    m = select(m, n.z, live.z && n.z > m);
    m = select(m, n.w, live.w && n.w > m);
    return sqrt(m);
}

// The point of the simplex closest to the origin, with its weights, the simplex left as it is (Simplex::project).
fn simplex_project(s: ptr<function, Simplex>, exhaustive: bool) -> Projection {
    let w = (*s).w;
    var proj: Projection;
    switch ((*s).len) {
        case 1u: {
            proj = Projection(vec4<f32>(1.0, 0.0, 0.0, 0.0), w[0], dot(w[0], w[0]));
        }
        case 2u: {
            proj = s1d(w, 0u, 1u);
        }
        case 3u: {
            proj = s2d(w, 0u, 1u, 2u, exhaustive);
        }
        default: {
            proj = s3d(w, exhaustive);
        }
    }
    return proj;
}

// The slot of the k-th set bit of `mask` (k = 0 to 3; 0xffffffff past the last one, which `vertex_at` reads as
// slot 0 and the callers never keep).
fn nth_set_bit(mask: u32, k: u32) -> u32 {
    var rest = mask;
    if (k > 0u) {
        rest = rest & (rest - 1u);
    }
    if (k > 1u) {
        rest = rest & (rest - 1u);
    }
    if (k > 2u) {
        rest = rest & (rest - 1u);
    }
    return firstTrailingBit(rest);
}

// Keeps the vertices `proj` gives a positive weight, in order, with those weights normalised (Simplex::keep):
// the kept slots are a mask, and slot k takes the vertex of the mask's k-th bit.
fn simplex_keep(s: ptr<function, Simplex>, proj: Projection) {
    let kept_lanes = simplex_live(s) & (proj.lambda > vec4<f32>(0.0));
    let mask = select(0u, 1u, kept_lanes.x) | select(0u, 2u, kept_lanes.y) | select(0u, 4u, kept_lanes.z)
        | select(0u, 8u, kept_lanes.w);
    let kept = countOneBits(mask);
    // The sum in slot order, as the loop over the live slots adds them.
    var sum = 0.0;
    sum = select(sum, sum + proj.lambda.x, kept_lanes.x);
    sum = select(sum, sum + proj.lambda.y, kept_lanes.y);
    sum = select(sum, sum + proj.lambda.z, kept_lanes.z);
    sum = select(sum, sum + proj.lambda.w, kept_lanes.w);
    let source = vec4<u32>(nth_set_bit(mask, 0u), nth_set_bit(mask, 1u), nth_set_bit(mask, 2u), nth_set_bit(mask, 3u));
    let old = *s;
    let stays = vec4<u32>(0u, 1u, 2u, 3u) < vec4<u32>(kept);
    (*s).w[0] = select(old.w[0], vertex_at(old.w, source.x), stays.x);
    (*s).w[1] = select(old.w[1], vertex_at(old.w, source.y), stays.y);
    (*s).w[2] = select(old.w[2], vertex_at(old.w, source.z), stays.z);
    (*s).w[3] = select(old.w[3], vertex_at(old.w, source.w), stays.w);
    (*s).a[0] = select(old.a[0], vertex_at(old.a, source.x), stays.x);
    (*s).a[1] = select(old.a[1], vertex_at(old.a, source.y), stays.y);
    (*s).a[2] = select(old.a[2], vertex_at(old.a, source.z), stays.z);
    (*s).a[3] = select(old.a[3], vertex_at(old.a, source.w), stays.w);
    (*s).b[0] = select(old.b[0], vertex_at(old.b, source.x), stays.x);
    (*s).b[1] = select(old.b[1], vertex_at(old.b, source.y), stays.y);
    (*s).b[2] = select(old.b[2], vertex_at(old.b, source.z), stays.z);
    (*s).b[3] = select(old.b[3], vertex_at(old.b, source.w), stays.w);
    var lambda = vec4<f32>(
        weight_at(proj.lambda, source.x),
        weight_at(proj.lambda, source.y),
        weight_at(proj.lambda, source.z),
        weight_at(proj.lambda, source.w),
    );
    // Weights of a sliver sum to 1 only up to their rounding: normalise them (Simplex::keep).
    if (sum > 0.0) {
        lambda = lambda / sum;
    }
    (*s).lambda = select(old.lambda, lambda, stays);
    (*s).len = kept;
}

// Component `i` of `v` (`v[i]`), by selects.
fn weight_at(v: vec4<f32>, i: u32) -> f32 {
    return select(select(select(v.x, v.y, i == 1u), v.z, i == 2u), v.w, i == 3u);
}

// Drops the last vertex pushed: the simplex as it was before `simplex_push` (Simplex::pop).
fn simplex_pop(s: ptr<function, Simplex>) {
    (*s).len = (*s).len - 1u;
}

// `v` without its components along the simplex's own edges, where the simplex knows them better than `v`
// (an edge longer than |v|; a face taller than |v| over its longest edge): Simplex::perpendicular.
fn simplex_perpendicular(s: ptr<function, Simplex>, v: vec3<f32>) -> vec3<f32> {
    let vv = dot(v, v);
    if ((*s).len < 2u || (*s).len > 3u) {
        return v;
    }
    let ends = simplex_longest_edge(s);
    let w = (*s).w;
    let long = vertex_at(w, ends.y) - vertex_at(w, ends.x);
    if (!(dot(long, long) > vv)) {
        return v;
    }
    let along = unit_or_zero(long);
    var n = v - along * dot(v, along);
    if (ends.z < 3u) {
        let side = vertex_at(w, ends.z) - vertex_at(w, ends.x);
        let height = side - along * dot(side, along);
        if (dot(height, height) > vv) {
            let across = unit_or_zero(height);
            n = n - across * dot(n, across);
        }
    }
    return n;
}

// The vertices (x, y) of the longest edge of a live edge or triangle, and the third vertex of a triangle in z
// (3 for an edge): Simplex::longest_edge.
fn simplex_longest_edge(s: ptr<function, Simplex>) -> vec3<u32> {
    if ((*s).len == 2u) {
        return vec3<u32>(0u, 1u, 3u);
    }
    var best = vec3<u32>(0u, 1u, 2u);
    let e01 = (*s).w[1] - (*s).w[0];
    var best_length = dot(e01, e01);
    let e12 = (*s).w[2] - (*s).w[1];
    if (dot(e12, e12) > best_length) {
        best = vec3<u32>(1u, 2u, 0u);
        best_length = dot(e12, e12);
    }
    let e20 = (*s).w[0] - (*s).w[2];
    if (dot(e20, e20) > best_length) {
        best = vec3<u32>(2u, 0u, 1u);
    }
    return best;
}

// sum(lambda_i w_i): a point of A - B whatever the sign tests did (weighted_point in simplex.rs).
fn simplex_weighted_point(s: ptr<function, Simplex>) -> vec3<f32> {
    let live = simplex_live(s);
    let l = (*s).lambda;
    var p = vec3<f32>(0.0);
    p = select(p, p + (*s).w[0] * l.x, live.x);
    p = select(p, p + (*s).w[1] * l.y, live.y);
    p = select(p, p + (*s).w[2] * l.z, live.z);
    p = select(p, p + (*s).w[3] * l.w, live.w);
    return p;
}

// The closest points on A and on B (cores only), from the current weights.
struct Witnesses {
    a: vec3<f32>,
    b: vec3<f32>,
}

fn simplex_witnesses(s: ptr<function, Simplex>) -> Witnesses {
    let live = simplex_live(s);
    let l = (*s).lambda;
    var pa = vec3<f32>(0.0);
    var pb = vec3<f32>(0.0);
    pa = select(pa, pa + (*s).a[0] * l.x, live.x);
    pb = select(pb, pb + (*s).b[0] * l.x, live.x);
    pa = select(pa, pa + (*s).a[1] * l.y, live.y);
    pb = select(pb, pb + (*s).b[1] * l.y, live.y);
    pa = select(pa, pa + (*s).a[2] * l.z, live.z);
    pb = select(pb, pb + (*s).b[2] * l.z, live.z);
    pa = select(pa, pa + (*s).a[3] * l.w, live.w);
    pb = select(pb, pb + (*s).b[3] * l.w, live.w);
    return Witnesses(pa, pb);
}
