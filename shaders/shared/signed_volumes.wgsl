// The signed-volumes distance sub-algorithm (Montanari, Petrinic and Barbieri 2017): the point of a simplex of
// 1 to 4 points closest to the origin, as barycentric weights over the smallest sub-simplex holding it. The
// twin of src/gjk/signed_volumes.rs, function for function (s1d, s2d, s2d_plane, s3d).
//
// No array or vector here is indexed by a runtime value: a private array indexed that way goes to scratch
// memory on most GPUs (naga's SPIR-V spills an indexed array value to a local variable), so a slot given by
// index is picked by selects (`vertex_at`, `slot_is`) and the four slots stay in registers. Every weight and
// point is the same arithmetic as with the index, bit for bit.

struct Projection {
    lambda: vec4<f32>,
    point: vec3<f32>,
    dist2: f32,
}

// Slot `i` of `s` (`s[i]`), by selects.
fn vertex_at(s: array<vec3<f32>, 4>, i: u32) -> vec3<f32> {
    return select(select(select(s[0], s[1], i == 1u), s[2], i == 2u), s[3], i == 3u);
}

// True in the lane of slot `i` only: `select(lambda, weight, slot_is(i))` is `lambda[i] = weight`.
fn slot_is(i: u32) -> vec4<bool> {
    return vec4<u32>(0u, 1u, 2u, 3u) == vec4<u32>(i);
}

fn projection_vertex(s: array<vec3<f32>, 4>, i: u32) -> Projection {
    let lambda = select(vec4<f32>(0.0), vec4<f32>(1.0), slot_is(i));
    let p = vertex_at(s, i);
    return Projection(lambda, p, dot(p, p));
}

fn projection_from_weights(s: array<vec3<f32>, 4>, lambda: vec4<f32>) -> Projection {
    let p = s[0] * lambda[0] + s[1] * lambda[1] + s[2] * lambda[2] + s[3] * lambda[3];
    return Projection(lambda, p, dot(p, p));
}

fn projection_closer(current: Projection, found: bool, candidate: Projection) -> Projection {
    if (!found || candidate.dist2 < current.dist2) {
        return candidate;
    }
    return current;
}

// `v` divided by its largest absolute component (Real::balanced), so its square no longer underflows.
fn balanced(v: vec3<f32>) -> vec3<f32> {
    let m = max(max(abs(v.x), abs(v.y)), abs(v.z));
    if (m > 0.0) {
        return v / m;
    }
    return v;
}

// `v` or a multiple of it whose squared length neither underflows nor overflows (Real::squarable): `v` itself
// when its squared length is at least SQUARABLE_MIN_LEN2 (float32's smallest normal number over its unit of
// roundoff: a component whose square underflows is then below a unit of roundoff of the sum) and finite,
// `balanced(v)` otherwise, without balanced's three divisions. Returns the vector in xyz and its squared length
// in w.
fn squarable(v: vec3<f32>) -> vec4<f32> {
    let len2 = dot(v, v);
    if (len2 >= SQUARABLE_MIN_LEN2 && len2 <= F32_MAX) {
        return vec4<f32>(v, len2);
    }
    let b = balanced(v);
    return vec4<f32>(b, dot(b, b));
}

// `v` scaled to unit length through `balanced` (Real::unit_or_zero): `v / |v|` loses digits when |v|² is
// subnormal.
fn unit_or_zero(v: vec3<f32>) -> vec3<f32> {
    let b = balanced(v);
    let length = sqrt(dot(b, b));
    if (length > 0.0) {
        return b * (1.0 / length);
    }
    return b;
}

fn same_sign(a: f32, b: f32) -> bool {
    return (a > 0.0 && b > 0.0) || (a < 0.0 && b < 0.0);
}

fn s1d(s: array<vec3<f32>, 4>, i: u32, j: u32) -> Projection {
    let a = vertex_at(s, i);
    let t = vertex_at(s, j) - a;
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
    var lambda = select(vec4<f32>(0.0), vec4<f32>(1.0 - u), slot_is(i));
    lambda = select(lambda, vec4<f32>(u), slot_is(j));
    return projection_from_weights(s, lambda);
}

// The signed area of p q r (twice it) in the coordinate plane `plane_coords` projects to: with x, y the kept
// components, (q[x] - p[x]) (r[y] - p[y]) - (q[y] - p[y]) (r[x] - p[x]).
fn area2(p: vec2<f32>, q: vec2<f32>, r: vec2<f32>) -> f32 {
    return (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x);
}

// `v` in the coordinate plane that drops component `dropped`, its kept components in cyclic order (y z, z x or
// x y), picked by selects.
fn plane_coords(v: vec3<f32>, dropped: u32) -> vec2<f32> {
    return select(select(v.xy, v.zx, dropped == 1u), v.yz, dropped == 0u);
}

fn s2d(s: array<vec3<f32>, 4>, i: u32, j: u32, k: u32, exhaustive: bool) -> Projection {
    let a = vertex_at(s, i);
    let b = vertex_at(s, j);
    let c = vertex_at(s, k);
    // The normal's direction is all the projection needs (Real::squarable).
    let direction = squarable(cross(b - a, c - a));
    let n = direction.xyz;
    let nn = direction.w;
    var p0 = vec3<f32>(0.0);
    if (nn > 0.0) {
        p0 = n * (dot(a, n) / nn);
    }
    // The largest component of the normal is dropped.
    let an = abs(n);
    var dropped = 2u;
    if (an.x >= an.y && an.x >= an.z) {
        dropped = 0u;
    } else if (an.y >= an.z) {
        dropped = 1u;
    }
    let a2 = plane_coords(a, dropped);
    let b2 = plane_coords(b, dropped);
    let c2 = plane_coords(c, dropped);
    let p2 = plane_coords(p0, dropped);
    let mu = area2(a2, b2, c2);
    let c_i = area2(p2, b2, c2);
    let c_j = area2(a2, p2, c2);
    let c_k = area2(a2, b2, p2);
    let inside = same_sign(mu, c_i) && same_sign(mu, c_j) && same_sign(mu, c_k);
    var lambda = vec4<f32>(0.0);
    if (inside) {
        lambda = select(lambda, vec4<f32>(c_i / mu), slot_is(i));
        lambda = select(lambda, vec4<f32>(c_j / mu), slot_is(j));
        lambda = select(lambda, vec4<f32>(c_k / mu), slot_is(k));
    }
    let interior = Projection(lambda, p0, dot(p0, p0));
    if (inside && !exhaustive) {
        return interior;
    }
    var best = interior;
    var found = inside;
    if (exhaustive || !same_sign(mu, c_i)) {
        best = projection_closer(best, found, s1d(s, j, k));
        found = true;
    }
    if (exhaustive || !same_sign(mu, c_j)) {
        best = projection_closer(best, found, s1d(s, i, k));
        found = true;
    }
    if (exhaustive || !same_sign(mu, c_k)) {
        best = projection_closer(best, found, s1d(s, i, j));
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

fn plane_weight(p: vec3<f32>, q: vec3<f32>, p0: vec3<f32>, n: vec3<f32>, area_n: f32) -> f32 {
    return dot(cross(q - p, p0 - p), n) / area_n;
}

fn s2d_plane(s: array<vec3<f32>, 4>) -> PlaneProjection {
    let a = s[0];
    let b = s[1];
    let c = s[2];
    let raw = cross(b - a, c - a);
    let n = balanced(raw);
    let nn = dot(n, n);
    let area_n = dot(raw, n);
    var none: PlaneProjection;
    none.found = false;
    if (!(nn > 0.0) || !(area_n > 0.0)) {
        return none;
    }
    let p0 = n * (dot(a, n) / nn);
    var lambda = vec4<f32>(
        plane_weight(b, c, p0, n, area_n),
        plane_weight(c, a, p0, n, area_n),
        plane_weight(a, b, p0, n, area_n),
        0.0,
    );
    let largest = max(max(dot(a, a), dot(b, b)), dot(c, c));
    let slack = WEIGHT_SLACK_ULPS * EPSILON * largest * sqrt(nn) / area_n;
    if (!(slack < PLANE_SLACK_CAP) || !(lambda.x >= -slack) || !(lambda.y >= -slack) || !(lambda.z >= -slack)) {
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
        best = projection_closer(best, found, s2d(s, 1u, 2u, 3u, exhaustive));
        found = true;
    }
    if (exhaustive || !same_sign(det, c[1])) {
        best = projection_closer(best, found, s2d(s, 0u, 2u, 3u, exhaustive));
        found = true;
    }
    if (exhaustive || !same_sign(det, c[2])) {
        best = projection_closer(best, found, s2d(s, 0u, 1u, 3u, exhaustive));
        found = true;
    }
    if (exhaustive || !same_sign(det, c[3])) {
        best = projection_closer(best, found, s2d(s, 0u, 1u, 2u, exhaustive));
        found = true;
    }
    if (!found) {
        return s2d(s, 0u, 1u, 2u, true);
    }
    return best;
}
