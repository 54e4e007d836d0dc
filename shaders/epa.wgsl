// Penetration depth on the GPU: the WGSL twin of src/gjk/epa.rs, in two passes so that only the pairs GJK
// finds intersecting pay for EPA.
//
//   penetration_gjk  one invocation per pair: GJK in distance mode, then the cheap answers (separated, no
//                    answer, cores apart with overlapping radii); pairs whose cores overlap append their
//                    final simplex to the queue (an atomic append that also counts the workgroups).
//   penetration_epa  one invocation per queued pair, dispatched indirectly from the queue's header: EPA in
//                    fixed-size private arrays, with the same bounds, tests and named statuses as the CPU.
//
// The module is types.wgsl + gjk.wgsl + this file (prepended on the Rust side). Keep in sync with epa.rs.

@group(0) @binding(6) var<storage, read_write> penetrations: array<GpuPenetration>;
@group(0) @binding(7) var<storage, read_write> queue: EpaQueue;

const EPA_MAX_VERTICES: u32 = 64u;
const EPA_MAX_FACES: u32 = 128u;
const EPA_MAX_HORIZON: u32 = 64u;
const EPA_MAX_ITERATIONS: u32 = 60u;
const EPA_TOLERANCE: f32 = 1e-6;
const EPA_TOUCH_SLACK: f32 = 1e-4;
const EPA_WEIGHT_SLACK: f32 = 1e-3;
const EPA_CERTIFICATE_SLACK: f32 = 1e-3;
const EPA_WORKGROUP: u32 = 64u;
// push_face succeeded (any other value is the status that stops EPA).
const PUSH_OK: u32 = 0xffffffffu;
const FACE_ALIVE: u32 = 0x1000000u;

// The polytope, private to each invocation: support points of A and B per vertex (w = a - b is formed on
// use, the same float32 subtraction as the CPU's push_vertex), and per face the plane (unit normal, distance)
// and its corners packed as i | j << 8 | k << 16 | alive << 24.
var<private> poly_a: array<vec3<f32>, EPA_MAX_VERTICES>;
var<private> poly_b: array<vec3<f32>, EPA_MAX_VERTICES>;
var<private> poly_vertices: u32;
var<private> face_plane: array<vec4<f32>, EPA_MAX_FACES>;
var<private> face_corners: array<u32, EPA_MAX_FACES>;
var<private> face_slots: u32;
// Horizon edges packed as tail | head << 8.
var<private> horizon: array<u32, EPA_MAX_HORIZON>;

struct Face {
    plane: vec4<f32>,
    corners: u32,
}

fn corner(corners: u32, e: u32) -> u32 {
    return (corners >> (8u * e)) & 0xffu;
}

fn poly_w(i: u32) -> vec3<f32> {
    return poly_a[i] - poly_b[i];
}

fn push_vertex(a: vec3<f32>, b: vec3<f32>) -> u32 {
    let i = poly_vertices;
    poly_a[i] = a;
    poly_b[i] = b;
    poly_vertices = i + 1u;
    return i;
}

// Adds face (i, j, k), counter-clockwise seen from outside; PUSH_OK, or the status that stops EPA.
fn push_face(i: u32, j: u32, k: u32) -> u32 {
    let wi = poly_w(i);
    let n = cross(poly_w(j) - wi, poly_w(k) - wi);
    let len = sqrt(dot(n, n));
    if (!(len > 0.0)) {
        return PEN_DEGENERATE;
    }
    let normal = n * (1.0 / len);
    // Reuse a dead slot before growing.
    var slot = face_slots;
    for (var s = 0u; s < face_slots; s = s + 1u) {
        if ((face_corners[s] & FACE_ALIVE) == 0u) {
            slot = s;
            break;
        }
    }
    if (slot == face_slots) {
        if (face_slots < EPA_MAX_FACES) {
            face_slots = face_slots + 1u;
        } else {
            return PEN_OVERFLOW;
        }
    }
    face_plane[slot] = vec4<f32>(normal, dot(normal, wi));
    face_corners[slot] = i | (j << 8u) | (k << 16u) | FACE_ALIVE;
    return PUSH_OK;
}

// The live face nearest the origin (first one on ties); faces exist whenever this is called.
fn closest_face() -> u32 {
    var best = 0u;
    var found = false;
    for (var s = 0u; s < face_slots; s = s + 1u) {
        if ((face_corners[s] & FACE_ALIVE) != 0u && (!found || face_plane[s].w < face_plane[best].w)) {
            best = s;
            found = true;
        }
    }
    return best;
}

fn penetration_none(status: u32) -> GpuPenetration {
    var p: GpuPenetration;
    p.status = status;
    p.depth = 0.0;
    p.normal = vec3<f32>(0.0);
    p.contact_a = vec3<f32>(0.0);
    p.contact_b = vec3<f32>(0.0);
    p.iterations = 0u;
    return p;
}

fn penetration_finish(
    status: u32,
    core_a: vec3<f32>,
    core_b: vec3<f32>,
    normal: vec3<f32>,
    depth: f32,
    radius_a: f32,
    radius_b: f32,
    iterations: u32,
) -> GpuPenetration {
    var p: GpuPenetration;
    p.status = status;
    p.depth = select(0.0, depth, depth > 0.0);
    p.normal = normal;
    p.contact_a = core_a + normal * radius_a;
    p.contact_b = core_b - normal * radius_b;
    p.iterations = iterations;
    return p;
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
fn towards_b(pair: PairSupport, n: vec3<f32>) -> vec3<f32> {
    if (dot(n, pair.position_b) < 0.0) {
        return -n;
    }
    return n;
}

fn min3(l: vec3<f32>) -> f32 {
    var m = l.y;
    if (l.x < l.y) {
        m = l.x;
    }
    if (m < l.z) {
        return m;
    }
    return l.z;
}

// Barycentric weights of the origin's projection onto a face (negative outside the triangle).
fn unclamped_barycentric(face: Face) -> vec3<f32> {
    let a = poly_w(corner(face.corners, 0u));
    let b = poly_w(corner(face.corners, 1u));
    let c = poly_w(corner(face.corners, 2u));
    let p = face.plane.xyz * face.plane.w;
    let n = cross(b - a, c - a);
    let nn = dot(n, n);
    if (!(nn > 0.0)) {
        let third = 1.0 / 3.0;
        return vec3<f32>(third, third, third);
    }
    let u = dot(cross(c - b, p - b), n) / nn;
    let v = dot(cross(a - c, p - c), n) / nn;
    return vec3<f32>(u, v, 1.0 - u - v);
}

// Weights clamped to the triangle and renormalised, so the contact points stay on the shapes.
fn clamp_weights(l: vec3<f32>) -> vec3<f32> {
    let u = select(0.0, l.x, l.x > 0.0);
    let v = select(0.0, l.y, l.y > 0.0);
    let w = select(0.0, l.z, l.z > 0.0);
    let sum = u + v + w;
    if (!(sum > 0.0)) {
        let third = 1.0 / 3.0;
        return vec3<f32>(third, third, third);
    }
    return vec3<f32>(u / sum, v / sum, w / sum);
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

// The support points the CPU's closure `support(dir)` gives: A along `dir`, B against it.
struct SupportPair {
    a: vec3<f32>,
    b: vec3<f32>,
}

fn support_pair(pair: PairSupport, dir: vec3<f32>) -> SupportPair {
    return SupportPair(support_a(pair, dir), support_b(pair, -dir));
}

// EPA on the cores of a pair GJK found intersecting with the cores overlapping (expand() in epa.rs).
fn expand(pair: PairSupport, task: EpaTask, scale: f32) -> GpuPenetration {
    let radius_a = pair.radius_a;
    let radius_b = pair.radius_b;
    let margin = radius_a + radius_b;
    let eps = EPA_TOLERANCE * scale;
    var core_a = vec3<f32>(0.0);
    var core_b = vec3<f32>(0.0);
    for (var i = 0u; i < task.len; i = i + 1u) {
        core_a = core_a + task.a[i].xyz * task.a[i].w;
        core_b = core_b + task.b[i].xyz * task.a[i].w;
    }

    poly_vertices = 0u;
    face_slots = 0u;
    for (var i = 0u; i < task.len; i = i + 1u) {
        push_vertex(task.a[i].xyz, task.b[i].xyz);
    }

    // Blow the simplex up to a tetrahedron; when A - B is flat there, the radii along the flat normal are
    // the depth (the CPU's `flat` closure).
    var flat = false;
    var flat_normal = vec3<f32>(0.0);
    if (poly_vertices == 4u) {
        let w0 = poly_w(0u);
        let volume = dot(cross(poly_w(1u) - w0, poly_w(2u) - w0), poly_w(3u) - w0);
        if (!(abs(volume) > eps * scale * scale)) {
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
            let k = others(best_drop);
            let a = array<vec3<f32>, 3>(poly_a[k.x], poly_a[k.y], poly_a[k.z]);
            let b = array<vec3<f32>, 3>(poly_b[k.x], poly_b[k.y], poly_b[k.z]);
            for (var slot = 0u; slot < 3u; slot = slot + 1u) {
                poly_a[slot] = a[slot];
                poly_b[slot] = b[slot];
            }
            poly_vertices = 3u;
        }
    }
    if (poly_vertices == 1u) {
        var found = false;
        for (var axis_index = 0u; axis_index < 3u && !found; axis_index = axis_index + 1u) {
            var axis = vec3<f32>(0.0);
            axis[axis_index] = 1.0;
            for (var side = 0u; side < 2u && !found; side = side + 1u) {
                let dir = select(axis, -axis, side == 1u);
                let s = support_pair(pair, dir);
                let off = (s.a - s.b) - poly_w(0u);
                if (dot(off, off) > eps * eps) {
                    push_vertex(s.a, s.b);
                    found = true;
                }
            }
        }
        if (!found) {
            // A - B is a single point at the origin (concentric spheres, coincident points).
            flat = true;
            flat_normal = vec3<f32>(1.0, 0.0, 0.0);
        }
    }
    if (!flat && poly_vertices == 2u) {
        let w0 = poly_w(0u);
        let d = poly_w(1u) - w0;
        let dd = dot(d, d);
        let e1 = perpendicular(d);
        let e2 = cross(d, e1) * (1.0 / sqrt(dd));
        let dirs = array<vec3<f32>, 4>(e1, -e1, e2, -e2);
        var found = false;
        for (var i = 0u; i < 4u && !found; i = i + 1u) {
            let s = support_pair(pair, dirs[i]);
            let off = cross(d, (s.a - s.b) - w0);
            if (dot(off, off) > eps * eps * dd) {
                push_vertex(s.a, s.b);
                found = true;
            }
        }
        if (!found) {
            // A - B is a segment through the origin: every perpendicular is as good; prefer towards B.
            let along = dot(pair.position_b, d) / dd;
            let p = pair.position_b - d * along;
            flat = true;
            flat_normal = e1;
            if (dot(p, p) > eps * eps) {
                flat_normal = p * (1.0 / sqrt(dot(p, p)));
            }
        }
    }
    if (!flat && poly_vertices == 3u) {
        let w0 = poly_w(0u);
        let m = cross(poly_w(1u) - w0, poly_w(2u) - w0);
        let len = sqrt(dot(m, m));
        if (!(len > 0.0)) {
            // GJK kept three points on one line: rounding, and no plane to search off.
            return penetration_none(PEN_DEGENERATE);
        }
        let n = m * (1.0 / len);
        var found = false;
        for (var side = 0u; side < 2u && !found; side = side + 1u) {
            let s = support_pair(pair, select(n, -n, side == 1u));
            if (abs(dot(n, (s.a - s.b) - w0)) > eps) {
                push_vertex(s.a, s.b);
                found = true;
            }
        }
        if (!found) {
            flat = true;
            flat_normal = n;
        }
    }
    if (flat) {
        return penetration_finish(
            PEN_PENETRATING, core_a, core_b, towards_b(pair, flat_normal), margin, radius_a, radius_b, 0u,
        );
    }

    // Orient the tetrahedron so that faces (0,1,2), (0,3,1), (0,2,3), (1,3,2) face outwards.
    {
        let w0 = poly_w(0u);
        let orientation = dot(cross(poly_w(1u) - w0, poly_w(2u) - w0), poly_w(3u) - w0);
        if (orientation > 0.0) {
            let a1 = poly_a[1];
            let b1 = poly_b[1];
            poly_a[1] = poly_a[2];
            poly_b[1] = poly_b[2];
            poly_a[2] = a1;
            poly_b[2] = b1;
        }
    }
    let start = array<vec3<u32>, 4>(
        vec3<u32>(0u, 1u, 2u),
        vec3<u32>(0u, 3u, 1u),
        vec3<u32>(0u, 2u, 3u),
        vec3<u32>(1u, 3u, 2u),
    );
    for (var f = 0u; f < 4u; f = f + 1u) {
        if (push_face(start[f].x, start[f].y, start[f].z) != PUSH_OK) {
            // Rounding made the start tetrahedron flat after all.
            let w0 = poly_w(0u);
            let m = cross(poly_w(1u) - w0, poly_w(2u) - w0);
            let len = sqrt(dot(m, m));
            if (len > 0.0) {
                return penetration_finish(
                    PEN_PENETRATING, core_a, core_b, towards_b(pair, m * (1.0 / len)), margin, radius_a,
                    radius_b, 0u,
                );
            }
            return penetration_none(PEN_DEGENERATE);
        }
    }

    var status = PEN_MAX_ITERATIONS;
    var iterations = 0u;
    // A copy, not a slot index: an expansion frees the closest face's slot and may reuse it.
    let first_best = closest_face();
    var face = Face(face_plane[first_best], face_corners[first_best]);
    while (iterations < EPA_MAX_ITERATIONS) {
        let best = closest_face();
        face = Face(face_plane[best], face_corners[best]);
        let s = support_pair(pair, face.plane.xyz);
        let w = s.a - s.b;
        // The support point barely beyond the closest face: that face is on the boundary of A - B.
        if (!(dot(w, face.plane.xyz) - face.plane.w > eps)) {
            status = PEN_PENETRATING;
            break;
        }
        // A vertex already on the polytope beyond its closest face: rounding folded the polytope.
        var known = false;
        for (var v = 0u; v < poly_vertices; v = v + 1u) {
            if (all(poly_w(v) == w)) {
                known = true;
            }
        }
        if (known) {
            status = PEN_DEGENERATE;
            break;
        }
        if (poly_vertices == EPA_MAX_VERTICES) {
            status = PEN_OVERFLOW;
            break;
        }
        iterations = iterations + 1u;

        // Remove the faces that see w, grown from the closest face across shared edges (the visible region
        // of a convex polytope is connected); the edges the removed faces do not share form the horizon.
        var edges = 0u;
        var overflow = false;
        var grew = true;
        var first = true;
        while (grew && !overflow) {
            grew = false;
            for (var f = 0u; f < face_slots; f = f + 1u) {
                let corners = face_corners[f];
                if ((corners & FACE_ALIVE) == 0u) {
                    continue;
                }
                if (!(dot(face_plane[f].xyz, w - poly_w(corner(corners, 0u))) > 0.0)) {
                    continue;
                }
                var touches = false;
                if (first) {
                    touches = f == best;
                } else {
                    for (var e = 0u; e < 3u && !touches; e = e + 1u) {
                        let reversed = corner(corners, (e + 1u) % 3u) | (corner(corners, e) << 8u);
                        for (var h = 0u; h < edges; h = h + 1u) {
                            if (horizon[h] == reversed) {
                                touches = true;
                            }
                        }
                    }
                }
                if (!touches) {
                    continue;
                }
                face_corners[f] = corners & ~FACE_ALIVE;
                grew = true;
                for (var e = 0u; e < 3u; e = e + 1u) {
                    let tail = corner(corners, e);
                    let head = corner(corners, (e + 1u) % 3u);
                    let reversed = head | (tail << 8u);
                    var shared_at = edges;
                    for (var h = 0u; h < edges; h = h + 1u) {
                        if (shared_at == edges && horizon[h] == reversed) {
                            shared_at = h;
                        }
                    }
                    if (shared_at < edges) {
                        horizon[shared_at] = horizon[edges - 1u];
                        edges = edges - 1u;
                    } else if (edges < EPA_MAX_HORIZON) {
                        horizon[edges] = tail | (head << 8u);
                        edges = edges + 1u;
                    } else {
                        overflow = true;
                    }
                }
            }
            first = false;
        }
        if (overflow) {
            status = PEN_OVERFLOW;
            break;
        }
        let k = push_vertex(s.a, s.b);
        var failed = PUSH_OK;
        for (var h = 0u; h < edges && failed == PUSH_OK; h = h + 1u) {
            failed = push_face(horizon[h] & 0xffu, horizon[h] >> 8u, k);
        }
        if (failed != PUSH_OK) {
            // The polytope is open now: answer from the best closed one.
            status = failed;
            break;
        }
    }

    // Coplanar neighbours share the closest distance; only the one the origin projects into rebuilds exact
    // contact points.
    var lambda = unclamped_barycentric(face);
    if (status == PEN_PENETRATING) {
        let parallel = 1.0 - 1e-6;
        for (var f = 0u; f < face_slots; f = f + 1u) {
            let other = Face(face_plane[f], face_corners[f]);
            if ((other.corners & FACE_ALIVE) != 0u
                && abs(other.plane.w - face.plane.w) <= eps
                && dot(other.plane.xyz, face.plane.xyz) > parallel) {
                let l = unclamped_barycentric(other);
                if (min3(l) > min3(lambda)) {
                    face = other;
                    lambda = l;
                }
            }
        }
    }
    // The closest face far on the wrong side of the origin, or the origin projecting clearly outside it:
    // the polytope was folded by rounding.
    if (status == PEN_PENETRATING && face.plane.w < -EPA_TOUCH_SLACK * scale) {
        status = PEN_DEGENERATE;
    }
    if (status == PEN_PENETRATING && min3(lambda) < -EPA_WEIGHT_SLACK) {
        status = PEN_DEGENERATE;
    }
    let i = corner(face.corners, 0u);
    let j = corner(face.corners, 1u);
    let k = corner(face.corners, 2u);
    let weights = clamp_weights(lambda);
    let contact_core_a = poly_a[i] * weights.x + poly_a[j] * weights.y + poly_a[k] * weights.z;
    let contact_core_b = poly_b[i] * weights.x + poly_b[j] * weights.y + poly_b[k] * weights.z;
    return penetration_finish(
        status, contact_core_a, contact_core_b, face.plane.xyz, face.plane.w + margin, radius_a, radius_b,
        iterations,
    );
}

// A penetrating answer must be what it claims: the support functions along its normal add up to its depth
// (certified() in epa.rs); otherwise rounding fooled an earlier check, and the answer is Degenerate.
fn certified(pair: PairSupport, answer: GpuPenetration, scale: f32) -> GpuPenetration {
    if (answer.status != PEN_PENETRATING) {
        return answer;
    }
    let n = answer.normal;
    let margin = pair.radius_a + pair.radius_b;
    let along = dot(support_a(pair, n) - support_b(pair, -n), n) + margin;
    // A normal that is not unit length (an overflowed or vanished cross product) certifies nothing.
    let unit_length = abs(dot(n, n) - 1.0) <= 1e-3;
    var checked = answer;
    if (!unit_length || !(abs(along - answer.depth) <= EPA_CERTIFICATE_SLACK * scale)) {
        checked.status = PEN_DEGENERATE;
    }
    return checked;
}

// A penetration answer moved from normalised units in A's centred frame to A's local frame
// (penetration_to_local in query.rs).
fn penetration_to_local(p: GpuPenetration, setup: PairSetup) -> GpuPenetration {
    let back = 1.0 / setup.support.unit;
    var out = p;
    out.depth = p.depth * back;
    out.contact_a = p.contact_a * back + setup.centre_a;
    out.contact_b = p.contact_b * back + setup.centre_a;
    return out;
}

@compute @workgroup_size(64)
fn penetration_gjk(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.x;
    if (index >= params.pair_count) {
        return;
    }
    loop_cut = false;
    let setup = pair_setup(pairs[index]);
    let pair = setup.support;
    var simplex: Simplex;
    var result = gjk_keeping_simplex(
        pair, setup.scale, params.max_iterations, KIND_DISTANCE, params.touch_tolerance, &simplex,
    );
    if (loops_were_cut()) {
        result.status = STATUS_GPU_LOOP_LIMIT;
    }
    results[index] = result_to_local(result, setup);

    var answer = penetration_none(PEN_SEPARATED);
    if (result.status == STATUS_MAX_ITERATIONS) {
        answer = penetration_none(PEN_GJK_MAX_ITERATIONS);
    } else if (result.status == STATUS_UNRESOLVED) {
        answer = penetration_none(PEN_GJK_UNRESOLVED);
    } else if (result.status == STATUS_GPU_LOOP_LIMIT) {
        answer = penetration_none(PEN_GPU_LOOP_LIMIT);
    } else if (result.status == STATUS_INTERSECTING) {
        let radius_a = pair.radius_a;
        let radius_b = pair.radius_b;
        let core_a = simplex_witness_a(&simplex);
        let core_b = simplex_witness_b(&simplex);
        let gap = core_b - core_a;
        let core_distance = sqrt(dot(gap, gap));
        if (core_distance > params.touch_tolerance * setup.scale) {
            // Cores apart, radii overlapping: the depth is what the radii add beyond the core distance,
            // along GJK's direction (overlap() in epa.rs).
            var normal = result.normal;
            if (!(dot(normal, normal) > 0.0)) {
                normal = gap * (1.0 / core_distance);
            }
            answer = certified(
                pair,
                penetration_finish(
                    PEN_PENETRATING, core_a, core_b, normal, radius_a + radius_b - core_distance, radius_a,
                    radius_b, 0u,
                ),
                setup.scale,
            );
        } else {
            // Overwritten by the EPA pass; this status stands only if that pass never ran.
            answer = penetration_none(PEN_MAX_ITERATIONS);
            let slot = atomicAdd(&queue.count, 1u);
            if (slot % EPA_WORKGROUP == 0u) {
                atomicAdd(&queue.groups, 1u);
            }
            var task: EpaTask;
            task.pair = index;
            task.len = simplex.len;
            task.pad0 = 0u;
            task.pad1 = 0u;
            for (var i = 0u; i < 4u; i = i + 1u) {
                task.a[i] = vec4<f32>(simplex.a[i], simplex.lambda[i]);
                task.b[i] = vec4<f32>(simplex.b[i], 0.0);
            }
            queue.tasks[slot] = task;
        }
    }
    // The certificate's support scans may have run out of loop budget too.
    if (loops_were_cut()) {
        answer = penetration_none(PEN_GPU_LOOP_LIMIT);
    }
    penetrations[index] = penetration_to_local(answer, setup);
}

@compute @workgroup_size(64)
fn penetration_epa(@builtin(global_invocation_id) gid: vec3<u32>) {
    let index = gid.x;
    if (index >= atomicLoad(&queue.count)) {
        return;
    }
    loop_cut = false;
    let task = queue.tasks[index];
    let setup = pair_setup(pairs[task.pair]);
    var answer = certified(setup.support, expand(setup.support, task, setup.scale), setup.scale);
    if (loops_were_cut()) {
        answer.status = PEN_GPU_LOOP_LIMIT;
    }
    penetrations[task.pair] = penetration_to_local(answer, setup);
}
