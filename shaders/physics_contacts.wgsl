// The GPU physics' contacts, one invocation per broad-phase pair slot: for the pair (i, j) in slot k, the separating
// axis test between the two bodies' hulls (shared/sat_axes.wgsl) in i's local frame with j placed by the pose
// formed here in float32, then the manifold by the clipping of shared/manifold_clip.wgsl from SAT's axis, written
// as slot k's PhysicsContact (shared/physics_types.wgsl) in world coordinates. The twin on the CPU is
// `pair_contact` in src/physics/collide.rs (EPA's normal there, SAT's here; docs/gpu.md says what the check allows).

struct ContactParams {
    // The most slots written: the pair and contact buffers' capacity.
    capacity: u32,
    loop_probe: u32,
    // The touching margin, the deepest point's slack and the merge distance, as fractions of the pair's scale.
    touch_tolerance: f32,
    deepest_slack: f32,
    merge_distance: f32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

@group(0) @binding(0) var<uniform> params: ContactParams;
// Per shape: its base word in `poly`, its base word in `mhull`, its bounding radius (float bits), unused.
@group(0) @binding(1) var<storage, read> contact_shapes: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read> poly: array<u32>;
@group(0) @binding(3) var<storage, read> mhull: array<u32>;
@group(0) @binding(4) var<storage, read> bodies: array<PhysicsBody>;
@group(0) @binding(5) var<storage, read> pairs: array<vec2<u32>>;
// Word 0: pairs the broad phase found (possibly beyond the capacity); words 1 to 3: this pass's dispatch.
@group(0) @binding(6) var<storage, read> pair_count: array<u32>;
@group(0) @binding(7) var<storage, read_write> contacts: array<PhysicsContact>;

// From Rust (src/gpu/physics/layout.rs, src/gpu/physics/contacts/codes.rs): PHYSICS_BODY_ASLEEP, the body's
// flag; PHYSICS_CONTACT_NONE, PHYSICS_CONTACT_TOUCHING and the failure codes PHYSICS_CONTACT_LOOP_LIMIT,
// PHYSICS_CONTACT_POLYGON_BOUND and PHYSICS_CONTACT_INVALID, the statuses of `bodies.w`.

fn body_moves(body: PhysicsBody) -> bool {
    return body.position.w > 0.0 && (body.info.y & PHYSICS_BODY_ASLEEP) == 0u;
}

// NaN and infinities fail the comparison. Checked before the search: WGSL's `min` may drop a NaN operand, so a NaN
// placement could leave finite separations that mean nothing.
fn pose_is_finite(body: PhysicsBody) -> bool {
    return all(abs(body.position.xyz) <= vec3<f32>(F32_MAX)) && all(abs(body.rotation) <= vec4<f32>(F32_MAX));
}

var<private> low_value: f32;
var<private> low_point: vec3<f32>;

fn lower_to(hull: u32, i: u32, local: vec3<f32>) {
    let p = hull_point(hull, i);
    let v = dot(local, p);
    if (v < low_value) {
        low_value = v;
        low_point = p;
    }
}

// The placed point of hull `hull` (poly words, B's side when `placed`) lowest along `direction` (in A's frame), the
// first of ties: the support point SAT's face axis implies. Four points per loop trip, trips counted, as the scans
// of shared/polyhedron.wgsl do.
fn lowest_point(hull: u32, direction: vec3<f32>, placed: bool) -> vec3<f32> {
    var local = direction;
    if (placed) {
        local = transpose(turn) * direction;
    }
    let count = hull_point_count(hull);
    low_point = hull_point(hull, 0u);
    low_value = dot(local, low_point);
    var trips = 0u;
    for (var i = 0u; i < count; i = i + 4u) {
        trips = trips + 1u;
        lower_to(hull, i, local);
        if (i + 1u < count) { lower_to(hull, i + 1u, local); }
        if (i + 2u < count) { lower_to(hull, i + 2u, local); }
        if (i + 3u < count) { lower_to(hull, i + 3u, local); }
    }
    if (trips != (count + 3u) / 4u) {
        loop_cut = true;
    }
    if (placed) {
        return turn * low_point + shift;
    }
    return low_point;
}

// The closest points of A's edge (p, p + d) and B's placed edge (q, q + e), each clamped to its segment: where the
// edges' arcs cross on the Gauss map (the edge pair SAT kept), they are the pair's deepest points.
fn edge_closest(p: vec3<f32>, d: vec3<f32>, q: vec3<f32>, e: vec3<f32>) -> array<vec3<f32>, 2> {
    let r = p - q;
    let dd = dot(d, d);
    let ee = dot(e, e);
    let de = dot(d, e);
    let dr = dot(d, r);
    let er = dot(e, r);
    let denominator = dd * ee - de * de;
    var s = 0.0;
    if (denominator > 0.0) {
        s = clamp((de * er - dr * ee) / denominator, 0.0, 1.0);
    }
    var t = 0.0;
    if (ee > 0.0) {
        t = clamp((de * s + er) / ee, 0.0, 1.0);
    }
    return array<vec3<f32>, 2>(p + d * s, q + e * t);
}

// The deepest contact pair SAT's axis implies, in A's frame (the manifold code took EPA's contact pair; SAT has
// none): for a face of A, B's support point against that face and its projection on it; for a face of B, A's
// support point and its projection; for two edges, their closest points.
fn sat_contact_pair(a: u32, b: u32) -> array<vec3<f32>, 2> {
    if (best_kind == AXIS_FACE_A) {
        let on_b = lowest_point(b, best_axis, true);
        return array<vec3<f32>, 2>(on_b - best_axis * best_separation, on_b);
    }
    if (best_kind == AXIS_FACE_B) {
        let on_a = lowest_point(a, -best_axis, false);
        return array<vec3<f32>, 2>(on_a, on_a + best_axis * best_separation);
    }
    let edge_a = hull_edge(a, best_first);
    let edge_b = hull_edge(b, best_second);
    let pa = hull_point(a, edge_a.x);
    let pb = turn * hull_point(b, edge_b.x) + shift;
    let qb = turn * hull_point(b, edge_b.y) + shift;
    return edge_closest(pa, hull_point(a, edge_a.y) - pa, pb, qb - pb);
}

// The slot's record with no points.
fn empty_contact(i: u32, j: u32, status: u32) -> PhysicsContact {
    var c: PhysicsContact;
    c.bodies = vec4<u32>(i, j, 0u, status);
    return c;
}

// The slot's record of the `count` chosen candidates (positions in kept_index) in world coordinates: each point
// halfway between the surfaces with its depth, placed by the rank of its feature id (A's side, then B's) as
// `physics::collide` sorts a CPU contact's points; the normal along SAT's axis with the deepest depth.
fn world_contact(i: u32, j: u32, count: u32, chosen: vec4<u32>, body_i: PhysicsBody) -> PhysicsContact {
    var result = empty_contact(i, j, PHYSICS_CONTACT_TOUCHING);
    var deepest_depth = -3.4028235e38;
    for (var m = 0u; m < count; m = m + 1u) {
        let c = kept_index[chosen[m]];
        let id = cand_id[c];
        var rank = 0u;
        for (var o = 0u; o < count; o = o + 1u) {
            let other = cand_id[kept_index[chosen[o]]];
            if (other.x < id.x || (other.x == id.x && (other.y < id.y || (other.y == id.y && o < m)))) {
                rank = rank + 1u;
            }
        }
        let middle = (cand_a[c] + cand_b[c]) * 0.5;
        let world = quat_rotate(body_i.rotation, middle) + body_i.position.xyz;
        result.points[rank] = vec4<f32>(world, cand_depth[c]);
        // FeatureId::packed: A's side in the high word; stored low word first.
        if (rank % 2u == 0u) {
            result.ids[rank / 2u].x = id.y;
            result.ids[rank / 2u].y = id.x;
        } else {
            result.ids[rank / 2u].z = id.y;
            result.ids[rank / 2u].w = id.x;
        }
        deepest_depth = max(deepest_depth, cand_depth[c]);
    }
    result.normal = vec4<f32>(quat_rotate(body_i.rotation, best_axis), deepest_depth);
    return result;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn physics_contacts(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    // The slot as shared/scene.wgsl's `pair_index` numbers a pair when the dispatch goes in rows.
    let k = gid.x + gid.y * groups.x * WORKGROUP_SIZE;
    // The count is read here, on the device: the broad phase may have found more pairs than the buffers hold.
    if (k >= min(pair_count[0], min(params.capacity, arrayLength(&pairs)))) {
        return;
    }
    let ij = pairs[k];
    let i = ij.x;
    let j = ij.y;
    let body_count = arrayLength(&bodies);
    if (i >= body_count || j >= body_count) {
        contacts[k] = empty_contact(i, j, PHYSICS_CONTACT_INVALID);
        return;
    }
    let body_i = bodies[i];
    let body_j = bodies[j];
    if (!body_moves(body_i) && !body_moves(body_j)) {
        contacts[k] = empty_contact(i, j, PHYSICS_CONTACT_NONE);
        return;
    }
    let shape_count = arrayLength(&contact_shapes);
    if (body_i.info.x >= shape_count || body_j.info.x >= shape_count || !pose_is_finite(body_i)
        || !pose_is_finite(body_j)) {
        contacts[k] = empty_contact(i, j, PHYSICS_CONTACT_INVALID);
        return;
    }
    let shape_i = contact_shapes[body_i.info.x];
    let shape_j = contact_shapes[body_j.info.x];

    // j's pose relative to i's, in float32: the positions' difference is exact while the bodies are within a
    // factor of two of each other's distance from the origin (Sterbenz), so far-away neighbours keep their
    // precision.
    let inverse = quat_conjugate(body_i.rotation);
    turn = mat3_from_quat(quat_mul(inverse, body_j.rotation));
    shift = quat_rotate(inverse, body_j.position.xyz - body_i.position.xyz);
    loop_cut = false;

    sat_search(shape_i.x, shape_j.x, turn, shift);
    var status = PHYSICS_CONTACT_NONE;
    var count = 0u;
    var result = empty_contact(i, j, PHYSICS_CONTACT_NONE);
    if (!(abs(best_separation) <= F32_MAX) || !(dot(best_axis, best_axis) > 0.5)) {
        // No axis came out finite (a shape's words or the pose out of float32's range).
        status = PHYSICS_CONTACT_INVALID;
    } else if (best_separation <= 0.0) {
        let scale = max(bitcast<f32>(shape_i.z), bitcast<f32>(shape_j.z));
        let deepest = sat_contact_pair(shape_i.x, shape_j.x);
        let seed = ClipSeed(
            best_axis, -best_separation, deepest[0], deepest[1], params.touch_tolerance * scale,
            params.deepest_slack * scale, params.merge_distance * scale,
        );
        let chosen = manifold_clip(shape_i.y, shape_j.y, seed);
        count = min(kept_count, 4u);
        status = PHYSICS_CONTACT_TOUCHING;
        if (overflow) {
            status = PHYSICS_CONTACT_POLYGON_BOUND;
            count = 0u;
        }
        result = world_contact(i, j, count, chosen, body_i);
    }
    if (loops_were_cut()) {
        status = PHYSICS_CONTACT_LOOP_LIMIT;
        count = 0u;
    }
    if (count == 0u) {
        result = empty_contact(i, j, status);
    }
    result.bodies = vec4<u32>(i, j, count, status);
    contacts[k] = result;
}
