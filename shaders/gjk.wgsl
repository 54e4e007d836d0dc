// GJK narrow phase: one invocation per candidate pair, bounded iterations, signed-volumes sub-algorithm.
//
// The WGSL twin of src/gjk/{support,signed_volumes,simplex,solver}.rs: same order of tests, same tolerances,
// same iteration bound (from the uniform), so a disagreement with the CPU points at one line. Keep in sync.
//
// One invocation per pair: pairs are independent and short (about 5 to 15 iterations on the random mix), so
// a thread per pair keeps every lane busy without cross-lane reductions; hulls up to a few hundred points are
// scanned linearly (see support_hull). Types come from types.wgsl, prepended by the Rust side.

@group(0) @binding(0) var<uniform> params: GpuParams;
@group(0) @binding(1) var<storage, read> vertices: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> hulls: array<GpuHull>;
@group(0) @binding(3) var<storage, read> instances: array<GpuInstance>;
@group(0) @binding(4) var<storage, read> pairs: array<vec2<u32>>;
@group(0) @binding(5) var<storage, read_write> results: array<GpuResult>;

const EPSILON: f32 = 1.1920929e-7;
const CONVERGENCE_ULPS: f32 = 16.0;
const NOISE_ULPS: f32 = 8.0;
const MAX_STALLS: u32 = 3u;

// ---- quaternions (xyzw), as glam computes them -------------------------------------------------------

fn quat_conjugate(q: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(-q.xyz, q.w);
}

fn quat_mul(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(
        a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
        a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
        a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
        a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
    );
}

fn quat_rotate(q: vec4<f32>, v: vec3<f32>) -> vec3<f32> {
    let t = 2.0 * cross(q.xyz, v);
    return v + q.w * t + cross(q.xyz, t);
}

fn mat3_from_quat(q: vec4<f32>) -> mat3x3<f32> {
    let x2 = q.x + q.x;
    let y2 = q.y + q.y;
    let z2 = q.z + q.z;
    let xx = q.x * x2;
    let xy = q.x * y2;
    let xz = q.x * z2;
    let yy = q.y * y2;
    let yz = q.y * z2;
    let zz = q.z * z2;
    let wx = q.w * x2;
    let wy = q.w * y2;
    let wz = q.w * z2;
    return mat3x3<f32>(
        vec3<f32>(1.0 - (yy + zz), xy + wz, xz - wy),
        vec3<f32>(xy - wz, 1.0 - (xx + zz), yz + wx),
        vec3<f32>(xz + wy, yz - wx, 1.0 - (xx + yy)),
    );
}

// ---- support mappings (support.rs) ---------------------------------------------------------------------

// The hull point with the largest dot product with `dir`, first one on ties (same scan order as the CPU).
fn support_hull(h: GpuHull, dir: vec3<f32>) -> vec3<f32> {
    var best = vertices[h.offset].xyz;
    var best_dot = dot(best, dir);
    for (var i = 1u; i < h.count; i = i + 1u) {
        let p = vertices[h.offset + i].xyz;
        let d = dot(p, dir);
        if (d > best_dot) {
            best_dot = d;
            best = p;
        }
    }
    return best;
}

struct PairSupport {
    hull_a: GpuHull,
    hull_b: GpuHull,
    rotation_b: mat3x3<f32>,
    position_b: vec3<f32>,
}

fn support_a(pair: PairSupport, dir: vec3<f32>) -> vec3<f32> {
    return support_hull(pair.hull_a, dir);
}

fn support_b(pair: PairSupport, dir: vec3<f32>) -> vec3<f32> {
    // transpose(m) * dir is the inverse rotation, as mat_mul_transposed on the CPU.
    let local_dir = dir * pair.rotation_b;
    return pair.rotation_b * support_hull(pair.hull_b, local_dir) + pair.position_b;
}

// ---- signed volumes (signed_volumes.rs) ----------------------------------------------------------------

struct Projection {
    lambda: vec4<f32>,
    point: vec3<f32>,
    dist2: f32,
}

fn projection_vertex(s: array<vec3<f32>, 4>, i: u32) -> Projection {
    var lambda = vec4<f32>(0.0);
    lambda[i] = 1.0;
    let p = s[i];
    return Projection(lambda, p, dot(p, p));
}

fn projection_from_weights(s: array<vec3<f32>, 4>, lambda: vec4<f32>) -> Projection {
    let p = s[0] * lambda[0] + s[1] * lambda[1] + s[2] * lambda[2] + s[3] * lambda[3];
    return Projection(lambda, p, dot(p, p));
}

fn closer(current: Projection, found: bool, candidate: Projection) -> Projection {
    if (!found || candidate.dist2 < current.dist2) {
        return candidate;
    }
    return current;
}

fn same_sign(a: f32, b: f32) -> bool {
    return (a > 0.0 && b > 0.0) || (a < 0.0 && b < 0.0);
}

fn s1d(s: array<vec3<f32>, 4>, i: u32, j: u32) -> Projection {
    let a = s[i];
    let t = s[j] - a;
    let tt = dot(t, t);
    if (!(tt > 0.0)) {
        return projection_vertex(s, i);
    }
    let u = -dot(a, t) / tt;
    if (!(u > 0.0)) {
        return projection_vertex(s, i);
    }
    if (!(u < 1.0)) {
        return projection_vertex(s, j);
    }
    var lambda = vec4<f32>(0.0);
    lambda[i] = 1.0 - u;
    lambda[j] = u;
    return projection_from_weights(s, lambda);
}

fn area2(p: vec3<f32>, q: vec3<f32>, r: vec3<f32>, x: u32, y: u32) -> f32 {
    return (q[x] - p[x]) * (r[y] - p[y]) - (q[y] - p[y]) * (r[x] - p[x]);
}

fn s2d(s: array<vec3<f32>, 4>, i: u32, j: u32, k: u32, exhaustive: bool) -> Projection {
    let a = s[i];
    let b = s[j];
    let c = s[k];
    let n = cross(b - a, c - a);
    let nn = dot(n, n);
    var p0 = vec3<f32>(0.0);
    if (nn > 0.0) {
        p0 = n * (dot(a, n) / nn);
    }
    let an = abs(n);
    var x = 0u;
    var y = 1u;
    if (an.x >= an.y && an.x >= an.z) {
        x = 1u;
        y = 2u;
    } else if (an.y >= an.z) {
        x = 2u;
        y = 0u;
    }
    let mu = area2(a, b, c, x, y);
    let c_i = area2(p0, b, c, x, y);
    let c_j = area2(a, p0, c, x, y);
    let c_k = area2(a, b, p0, x, y);
    let inside = same_sign(mu, c_i) && same_sign(mu, c_j) && same_sign(mu, c_k);
    var lambda = vec4<f32>(0.0);
    if (inside) {
        lambda[i] = c_i / mu;
        lambda[j] = c_j / mu;
        lambda[k] = c_k / mu;
    }
    let interior = Projection(lambda, p0, dot(p0, p0));
    if (inside && !exhaustive) {
        return interior;
    }
    var best = interior;
    var found = inside;
    if (exhaustive || !same_sign(mu, c_i)) {
        best = closer(best, found, s1d(s, j, k));
        found = true;
    }
    if (exhaustive || !same_sign(mu, c_j)) {
        best = closer(best, found, s1d(s, i, k));
        found = true;
    }
    if (exhaustive || !same_sign(mu, c_k)) {
        best = closer(best, found, s1d(s, i, j));
        found = true;
    }
    if (!found) {
        return s1d(s, i, j);
    }
    return best;
}

fn det3(a: vec3<f32>, b: vec3<f32>, c: vec3<f32>) -> f32 {
    return dot(a, cross(b, c));
}

fn s3d(s: array<vec3<f32>, 4>, exhaustive: bool) -> Projection {
    let c = vec4<f32>(
        det3(s[1], s[2], s[3]),
        -det3(s[0], s[2], s[3]),
        det3(s[0], s[1], s[3]),
        -det3(s[0], s[1], s[2]),
    );
    let det = c[0] + c[1] + c[2] + c[3];
    if (same_sign(det, c[0]) && same_sign(det, c[1]) && same_sign(det, c[2]) && same_sign(det, c[3])) {
        return Projection(c / det, vec3<f32>(0.0), 0.0);
    }
    var best = Projection(vec4<f32>(0.0), vec3<f32>(0.0), 0.0);
    var found = false;
    if (exhaustive || !same_sign(det, c[0])) {
        best = closer(best, found, s2d(s, 1u, 2u, 3u, exhaustive));
        found = true;
    }
    if (exhaustive || !same_sign(det, c[1])) {
        best = closer(best, found, s2d(s, 0u, 2u, 3u, exhaustive));
        found = true;
    }
    if (exhaustive || !same_sign(det, c[2])) {
        best = closer(best, found, s2d(s, 0u, 1u, 3u, exhaustive));
        found = true;
    }
    if (exhaustive || !same_sign(det, c[3])) {
        best = closer(best, found, s2d(s, 0u, 1u, 2u, exhaustive));
        found = true;
    }
    if (!found) {
        return s2d(s, 0u, 1u, 2u, true);
    }
    return best;
}

// ---- the simplex (simplex.rs) ----------------------------------------------------------------------------

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

fn simplex_reduce(s: ptr<function, Simplex>, exhaustive: bool) -> Projection {
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
    var kept = 0u;
    for (var i = 0u; i < (*s).len; i = i + 1u) {
        if (proj.lambda[i] > 0.0) {
            (*s).w[kept] = (*s).w[i];
            (*s).a[kept] = (*s).a[i];
            (*s).b[kept] = (*s).b[i];
            (*s).lambda[kept] = proj.lambda[i];
            kept = kept + 1u;
        }
    }
    (*s).len = kept;
    return proj;
}

fn simplex_witness_a(s: ptr<function, Simplex>) -> vec3<f32> {
    var p = vec3<f32>(0.0);
    for (var i = 0u; i < (*s).len; i = i + 1u) {
        p = p + (*s).a[i] * (*s).lambda[i];
    }
    return p;
}

fn simplex_witness_b(s: ptr<function, Simplex>) -> vec3<f32> {
    var p = vec3<f32>(0.0);
    for (var i = 0u; i < (*s).len; i = i + 1u) {
        p = p + (*s).b[i] * (*s).lambda[i];
    }
    return p;
}

// ---- the GJK loop (solver.rs) --------------------------------------------------------------------------

fn gjk(pair: PairSupport, scale: f32, max_iterations: u32, kind: u32, touch_tolerance: f32) -> GpuResult {
    var simplex: Simplex;
    return gjk_keeping_simplex(pair, scale, max_iterations, kind, touch_tolerance, &simplex);
}

// GJK leaving its final simplex in `simplex` (gjk_with_simplex on the CPU), where EPA starts.
fn gjk_keeping_simplex(
    pair: PairSupport,
    scale: f32,
    max_iterations: u32,
    kind: u32,
    touch_tolerance: f32,
    simplex: ptr<function, Simplex>,
) -> GpuResult {
    let radius_a = pair.hull_a.radius;
    let radius_b = pair.hull_b.radius;
    let margin = radius_a + radius_b;
    let tol = touch_tolerance * scale;
    let margin_tol2 = (margin + tol) * (margin + tol);
    let conv = CONVERGENCE_ULPS * EPSILON;

    var dir = pair.position_b;
    if (!(dot(dir, dir) > 0.0)) {
        dir = vec3<f32>(1.0, 0.0, 0.0);
    }
    (*simplex).len = 0u;
    simplex_push(simplex, support_a(pair, dir), support_b(pair, -dir));
    (*simplex).lambda = vec4<f32>(1.0, 0.0, 0.0, 0.0);
    var v = (*simplex).w[0];
    var vv = dot(v, v);

    var status = STATUS_MAX_ITERATIONS;
    var decided = false;
    var converged = false;
    var iterations = 0u;
    var stalls = 0u;
    // Two single-point cores (spheres, points): A - B is one point, already the answer.
    let single_points = pair.hull_a.count == 1u && pair.hull_b.count == 1u;
    loop {
        if (vv <= tol * tol) {
            status = STATUS_INTERSECTING;
            decided = true;
            break;
        }
        if (kind == KIND_INTERSECTION && vv <= margin_tol2) {
            status = STATUS_INTERSECTING;
            decided = true;
            break;
        }
        if (single_points) {
            converged = true;
            break;
        }
        if (iterations >= max_iterations) {
            break;
        }
        iterations = iterations + 1u;

        let a = support_a(pair, -v);
        let b = support_b(pair, v);
        let w = a - b;
        let vw = dot(v, w);
        if (kind == KIND_INTERSECTION && vw > 0.0 && vw * vw > vv * margin_tol2) {
            status = STATUS_SEPARATED;
            decided = true;
            break;
        }
        let gap = vv - vw;
        if (gap <= conv * (vv + sqrt(vv) * scale) || simplex_contains(simplex, w)) {
            converged = true;
            break;
        }

        let previous = *simplex;
        simplex_push(simplex, a, b);
        let noise = NOISE_ULPS * EPSILON * sqrt(vv) * simplex_max_vertex_norm(simplex);
        var projection = simplex_reduce(simplex, false);
        if (!(projection.dist2 <= vv + noise)) {
            *simplex = previous;
            simplex_push(simplex, a, b);
            projection = simplex_reduce(simplex, true);
        }
        if (!(projection.dist2 <= vv + noise)) {
            *simplex = previous;
            converged = true;
            break;
        }
        if (projection.dist2 < vv) {
            stalls = 0u;
        } else {
            stalls = stalls + 1u;
            if (stalls > MAX_STALLS) {
                *simplex = previous;
                converged = true;
                break;
            }
        }
        v = projection.point;
        vv = projection.dist2;
    }

    let core_distance = sqrt(vv);
    if (!decided) {
        if (core_distance * core_distance <= margin_tol2) {
            status = STATUS_INTERSECTING;
        } else if (converged) {
            status = STATUS_SEPARATED;
        } else {
            status = STATUS_MAX_ITERATIONS;
        }
    }

    let core_a = simplex_witness_a(simplex);
    let core_b = simplex_witness_b(simplex);
    var normal = vec3<f32>(0.0);
    if (vv > 0.0) {
        normal = -v * (1.0 / core_distance);
    }
    var result: GpuResult;
    result.status = status;
    result.normal = normal;
    result.iterations = iterations;
    if (status == STATUS_INTERSECTING) {
        let lo = max(core_distance - radius_b, 0.0);
        var hi = core_distance;
        if (radius_a < core_distance) {
            hi = radius_a;
        }
        var contact = (core_a + core_b) * 0.5;
        if (vv > 0.0) {
            contact = core_a + normal * ((lo + hi) * 0.5);
        }
        result.distance = 0.0;
        result.witness_a = contact;
        result.witness_b = contact;
    } else {
        result.distance = core_distance - margin;
        result.witness_a = core_a + normal * radius_a;
        result.witness_b = core_b - normal * radius_b;
    }
    return result;
}

// The pair's shapes with B placed in A's frame, and the pair's tolerance scale.
struct PairSetup {
    support: PairSupport,
    scale: f32,
}

fn pair_setup(pair: vec2<u32>) -> PairSetup {
    let instance_a = instances[pair.x];
    let instance_b = instances[pair.y];
    let hull_a = hulls[instance_a.hull];
    let hull_b = hulls[instance_b.hull];
    // B in A's frame, formed in float32 as RelativePose::between_f32 does.
    let inv_a = quat_conjugate(instance_a.rotation);
    let rotation = quat_mul(inv_a, instance_b.rotation);
    let position = quat_rotate(inv_a, instance_b.position - instance_a.position);
    let support = PairSupport(hull_a, hull_b, mat3_from_quat(rotation), position);
    return PairSetup(support, max(hull_a.bound, hull_b.bound));
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.x;
    if (index >= params.pair_count) {
        return;
    }
    let setup = pair_setup(pairs[index]);
    results[index] = gjk(setup.support, setup.scale, params.max_iterations, params.kind, params.touch_tolerance);
}
