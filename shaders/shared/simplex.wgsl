// GJK's simplex: up to four points of A - B with the support points of A and B that made them, and the
// weights of the closest point. The twin of src/gjk/simplex.rs (`Simplex::project` is `simplex_project` here,
// and so on: WGSL has no methods).

struct Simplex {
    w: array<vec3<f32>, 4>,
    a: array<vec3<f32>, 4>,
    b: array<vec3<f32>, 4>,
    lambda: vec4<f32>,
    len: u32,
}

fn simplex_contains(s: ptr<function, Simplex>, w: vec3<f32>) -> bool {
    for (var i = 0u; i < (*s).len; i = i + 1u) {
        if (all((*s).w[i] == w)) {
            return true;
        }
    }
    return false;
}

fn simplex_push(s: ptr<function, Simplex>, a: vec3<f32>, b: vec3<f32>) {
    let n = (*s).len;
    (*s).w[n] = a - b;
    (*s).a[n] = a;
    (*s).b[n] = b;
    (*s).len = n + 1u;
}

fn simplex_max_vertex_norm(s: ptr<function, Simplex>) -> f32 {
    var m = 0.0;
    for (var i = 0u; i < (*s).len; i = i + 1u) {
        let n = dot((*s).w[i], (*s).w[i]);
        if (n > m) {
            m = n;
        }
    }
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

// Keeps the vertices `proj` gives a positive weight, in order, with those weights normalised (Simplex::keep).
fn simplex_keep(s: ptr<function, Simplex>, proj: Projection) {
    var kept = 0u;
    var sum = 0.0;
    for (var i = 0u; i < (*s).len; i = i + 1u) {
        if (proj.lambda[i] > 0.0) {
            (*s).w[kept] = (*s).w[i];
            (*s).a[kept] = (*s).a[i];
            (*s).b[kept] = (*s).b[i];
            (*s).lambda[kept] = proj.lambda[i];
            sum = sum + proj.lambda[i];
            kept = kept + 1u;
        }
    }
    (*s).len = kept;
    // Weights of a sliver sum to 1 only up to their rounding: normalise them (Simplex::keep).
    if (sum > 0.0) {
        for (var i = 0u; i < kept; i = i + 1u) {
            (*s).lambda[i] = (*s).lambda[i] / sum;
        }
    }
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
    let long = (*s).w[ends.y] - (*s).w[ends.x];
    if (!(dot(long, long) > vv)) {
        return v;
    }
    let along = unit_or_zero(long);
    var n = v - along * dot(v, along);
    if (ends.z < 3u) {
        let side = (*s).w[ends.z] - (*s).w[ends.x];
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
    var p = vec3<f32>(0.0);
    for (var i = 0u; i < (*s).len; i = i + 1u) {
        p = p + (*s).w[i] * (*s).lambda[i];
    }
    return p;
}

// The closest points on A and on B (cores only), from the current weights.
struct Witnesses {
    a: vec3<f32>,
    b: vec3<f32>,
}

fn simplex_witnesses(s: ptr<function, Simplex>) -> Witnesses {
    var pa = vec3<f32>(0.0);
    var pb = vec3<f32>(0.0);
    for (var i = 0u; i < (*s).len; i = i + 1u) {
        pa = pa + (*s).a[i] * (*s).lambda[i];
        pb = pb + (*s).b[i] * (*s).lambda[i];
    }
    return Witnesses(pa, pb);
}
