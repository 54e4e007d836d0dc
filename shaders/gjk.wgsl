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
const CERTIFICATE_ULPS: f32 = 32.0;
const WEIGHT_SLACK_ULPS: f32 = 16.0;

// Set when a loop of this invocation ends before its natural end (see loops_were_cut).
var<private> loop_cut: bool;

// Software adapters (llvmpipe, lavapipe) give every group of invocations one budget of 65,535 loop trips,
// shared by all its loops, and quietly leave a loop when it runs out; every later loop then runs exactly one
// trip. So a probe loop of `params.loop_probe` (2) trips that comes out short proves the budget ran out
// somewhere in this group, and the support scans check their own trip counts against a loop cut on its own.
// Either way no answer of this invocation can be trusted.
fn loops_were_cut() -> bool {
    var trips = 0u;
    for (var i = 0u; i < params.loop_probe; i = i + 1u) {
        trips = trips + 1u;
    }
    return loop_cut || trips != params.loop_probe;
}

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
// Four points per loop trip: the pool pads each hull to a multiple of four with copies of its first point,
// which never win (a tie keeps the earlier point), so this picks what the CPU's linear scan picks with a
// quarter of the loop trips.
fn support_hull(h: GpuHull, dir: vec3<f32>) -> vec3<f32> {
    let padded = (h.count + 3u) & ~3u;
    var best = vertices[h.offset].xyz;
    var best_dot = dot(best, dir);
    var trips = 0u;
    for (var i = 0u; i < padded; i = i + 4u) {
        for (var k = 0u; k < 4u; k = k + 1u) {
            let p = vertices[h.offset + i + k].xyz;
            let d = dot(p, dir);
            if (d > best_dot) {
                best_dot = d;
                best = p;
            }
        }
        trips = trips + 1u;
    }
    if (trips != padded / 4u) {
        loop_cut = true;
    }
    return best;
}

// The pair in normalised units (PairSupport in support.rs): centred points times `unit`, B's pose relative to
// A's centred frame, and the radii times `unit`.
struct PairSupport {
    hull_a: GpuHull,
    hull_b: GpuHull,
    rotation_b: mat3x3<f32>,
    position_b: vec3<f32>,
    unit: f32,
    radius_a: f32,
    radius_b: f32,
}

fn support_a(pair: PairSupport, dir: vec3<f32>) -> vec3<f32> {
    return support_hull(pair.hull_a, dir) * pair.unit;
}

fn support_b(pair: PairSupport, dir: vec3<f32>) -> vec3<f32> {
    // transpose(m) * dir is the inverse rotation, as mat_mul_transposed on the CPU.
    let local_dir = dir * pair.rotation_b;
    return pair.rotation_b * support_hull(pair.hull_b, local_dir) * pair.unit + pair.position_b;
}

fn exponent_of(x: f32) -> i32 {
    return i32((bitcast<u32>(x) >> 23u) & 0xffu) - 127;
}

// The power of two that brings the pair to unit scale (pair_unit in config.rs).
fn pair_unit(scale: f32, offset: f32) -> f32 {
    var e = 0;
    if (scale > 0.0) {
        e = exponent_of(scale);
    } else if (offset > 0.0) {
        e = exponent_of(offset);
    }
    if (offset > 0.0) {
        e = max(e, exponent_of(offset) - 60);
    }
    e = clamp(e, -126, 126);
    return bitcast<f32>(u32(127 - e) << 23u);
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

// The origin's projection on the plane of triangle s[0] s[1] s[2], kept when it falls inside the triangle up
// to the rounding of the sign tests, with the weights clamped to it (s2d_plane in signed_volumes.rs).
struct PlaneProjection {
    found: bool,
    projection: Projection,
}

fn plane_weight(p: vec3<f32>, q: vec3<f32>, p0: vec3<f32>, n: vec3<f32>, nn: f32) -> f32 {
    return dot(cross(q - p, p0 - p), n) / nn;
}

fn s2d_plane(s: array<vec3<f32>, 4>) -> PlaneProjection {
    let a = s[0];
    let b = s[1];
    let c = s[2];
    let n = cross(b - a, c - a);
    let nn = dot(n, n);
    var none: PlaneProjection;
    none.found = false;
    if (!(nn > 0.0)) {
        return none;
    }
    let p0 = n * (dot(a, n) / nn);
    var lambda = vec4<f32>(
        plane_weight(b, c, p0, n, nn),
        plane_weight(c, a, p0, n, nn),
        plane_weight(a, b, p0, n, nn),
        0.0,
    );
    let largest = max(max(dot(a, a), dot(b, b)), dot(c, c));
    let slack = WEIGHT_SLACK_ULPS * EPSILON * largest / sqrt(nn);
    if (!(slack < 1e-3) || !(lambda.x >= -slack) || !(lambda.y >= -slack) || !(lambda.z >= -slack)) {
        return none;
    }
    lambda = max(lambda, vec4<f32>(0.0));
    let sum = lambda.x + lambda.y + lambda.z;
    lambda = vec4<f32>(lambda.x / sum, lambda.y / sum, lambda.z / sum, 0.0);
    return PlaneProjection(true, Projection(lambda, p0, dot(p0, p0)));
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

// sum(lambda_i w_i): a point of A - B whatever the sign tests did (weighted_point in simplex.rs).
fn simplex_weighted_point(s: ptr<function, Simplex>) -> vec3<f32> {
    var p = vec3<f32>(0.0);
    for (var i = 0u; i < (*s).len; i = i + 1u) {
        p = p + (*s).w[i] * (*s).lambda[i];
    }
    return p;
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

// Whether the answer is backed by GJK's own bounds (certified() in solver.rs).
fn gjk_certified(
    simplex: ptr<function, Simplex>,
    status: u32,
    core_distance: f32,
    lower2: f32,
    margin_tol2: f32,
    tol: f32,
    scale: f32,
) -> bool {
    let weighted = simplex_weighted_point(simplex);
    var upper = sqrt(dot(weighted, weighted));
    let largest = simplex_max_vertex_norm(simplex);
    if (status == STATUS_INTERSECTING) {
        return upper <= sqrt(margin_tol2) + 8.0 * EPSILON * largest;
    }
    if (status == STATUS_SEPARATED) {
        if (core_distance > upper) {
            upper = core_distance;
        }
        let direction_rounding = 4.0 * EPSILON * largest * largest / upper;
        let cap = tol * (1.0 / 16.0);
        var band = CERTIFICATE_ULPS * EPSILON * (upper + scale) + 4.0 * EPSILON * largest;
        if (direction_rounding < cap) {
            band = band + direction_rounding;
        } else {
            band = band + cap;
        }
        return upper - sqrt(lower2) <= band;
    }
    return true;
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
    let radius_a = pair.radius_a;
    let radius_b = pair.radius_b;
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
    // The square of the best lower bound on the core distance, v.w / |v|.
    var lower2 = 0.0;
    var separated_by_lower_bound = false;
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
        if (vw > 0.0 && vw * vw > lower2 * vv) {
            lower2 = vw * vw / vv;
        }
        if (kind == KIND_INTERSECTION && vw > 0.0 && vw * vw > vv * margin_tol2) {
            status = STATUS_SEPARATED;
            decided = true;
            separated_by_lower_bound = true;
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
            // A segment plus the new point the sign tests dropped again: keep the whole triangle when the
            // origin projects into it up to rounding (s2d_plane).
            if (previous.len == 2u && !simplex_contains(simplex, w)) {
                var triangle = previous;
                simplex_push(&triangle, a, b);
                let plane = s2d_plane(triangle.w);
                if (plane.found && plane.projection.dist2 <= vv + noise) {
                    triangle.lambda = plane.projection.lambda;
                    *simplex = triangle;
                    projection = plane.projection;
                }
            }
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
    let exact = single_points || separated_by_lower_bound;
    if (!exact && !gjk_certified(simplex, status, core_distance, lower2, margin_tol2, tol, scale)) {
        status = STATUS_UNRESOLVED;
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

// The pair's shapes with B placed in A's centred frame, in normalised units, and what it takes to move the
// answer back to A's local frame in the user's units.
struct PairSetup {
    support: PairSupport,
    scale: f32,
    centre_a: vec3<f32>,
}

fn pair_setup(pair: vec2<u32>) -> PairSetup {
    let instance_a = instances[pair.x];
    let instance_b = instances[pair.y];
    let hull_a = hulls[instance_a.hull];
    let hull_b = hulls[instance_b.hull];
    // B in A's frame, formed in float32 as RelativePose::between_f32 does, then between the centred frames
    // (core_relative in query.rs).
    let inv_a = quat_conjugate(instance_a.rotation);
    let rotation = quat_mul(inv_a, instance_b.rotation);
    let local = quat_rotate(inv_a, instance_b.position - instance_a.position);
    let position = local + quat_rotate(rotation, hull_b.centre) - hull_a.centre;
    let scale = max(hull_a.bound, hull_b.bound);
    let offset = abs(position);
    let unit = pair_unit(scale, max(max(offset.x, offset.y), offset.z));
    let support = PairSupport(
        hull_a, hull_b, mat3_from_quat(rotation), position * unit, unit, hull_a.radius * unit,
        hull_b.radius * unit,
    );
    return PairSetup(support, scale * unit, hull_a.centre);
}

// A GJK answer moved from normalised units in A's centred frame to A's local frame (gjk_to_local in query.rs).
fn result_to_local(r: GpuResult, setup: PairSetup) -> GpuResult {
    let back = 1.0 / setup.support.unit;
    var out = r;
    out.distance = r.distance * back;
    out.witness_a = r.witness_a * back + setup.centre_a;
    out.witness_b = r.witness_b * back + setup.centre_a;
    return out;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.x;
    if (index >= params.pair_count) {
        return;
    }
    loop_cut = false;
    let setup = pair_setup(pairs[index]);
    var result = gjk(setup.support, setup.scale, params.max_iterations, params.kind, params.touch_tolerance);
    if (loops_were_cut()) {
        result.status = STATUS_GPU_LOOP_LIMIT;
    }
    results[index] = result_to_local(result, setup);
}
