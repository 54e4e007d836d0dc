// Kernel `physics_begin`: one invocation per body, after `physics_wake`: wakes the marked sleepers, adds gravity
// to the awake dynamic bodies, writes each body's motion for the solver (world centre of mass and inverse
// inertia, its body-pair contact count) and its contacts with the planes (`plane_contact` in
// src/physics/planes.rs), each point warm-started from the last step's point of the same core point.

@group(0) @binding(0) var<uniform> params: SolverParams;
// Planes (normal, offset) from 0, then three words per shape from `shapes_at` (local box min with the radius in
// w, local box max, the first point's index and the point count as u32 bits), then hull points (the shape's
// centre plus each core point, local frame) from `points_at`.
@group(0) @binding(1) var<storage, read> scene: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> bodies: array<PhysicsBody>;
@group(0) @binding(3) var<storage, read_write> motions: array<Motion>;
@group(0) @binding(4) var<storage, read_write> tallies: array<atomic<i32>>;
@group(0) @binding(5) var<storage, read_write> plane_contacts: array<PlaneContact>;
// [0]: contacts, [1]: points, [2]: bodies asleep, [3]: kinetic energy (f32 bits), [4]: contacts rejected,
// [5]: points warm-started.
@group(0) @binding(6) var<storage, read_write> stats: array<atomic<u32>>;

struct Shape {
    first: u32,
    count: u32,
    radius: f32,
}

fn shape_of(index: u32) -> Shape {
    let at = params.shapes_at + 3u * index;
    let words = bitcast<vec4<u32>>(scene[at + 2u]);
    return Shape(words.x, words.y, scene[at].w);
}

// Core point `i`'s surface point (radius included) towards the plane, and its depth below the plane (w).
fn surface_point(body: PhysicsBody, shape: Shape, plane: vec4<f32>, i: u32) -> vec4<f32> {
    let world = quat_rotate(body.rotation, scene[shape.first + i].xyz) + body.position.xyz;
    let depth = shape.radius - (dot(plane.xyz, world) - plane.w);
    return vec4<f32>(world - plane.xyz * shape.radius, depth);
}

// Whether core point `i`, of surface point `p`, is a candidate not among the first `n` of `taken`.
fn free_candidate(p: vec4<f32>, i: u32, taken: array<u32, 4>, n: u32) -> bool {
    var chosen = taken;
    for (var j = 0u; j < n; j++) {
        if (chosen[j] == i) {
            return false;
        }
    }
    return -p.w < params.slop;
}

// The core point among the candidates not yet taken that scores highest (`spread` in src/physics/planes.rs:
// ties go to the first): `how` 1, farthest from p0; 2, farthest from the line p0 p1; 3, farthest from the
// nearest of p0, p1, p2.
fn best_spread(body: PhysicsBody, shape: Shape, plane: vec4<f32>, taken: array<u32, 4>, how: u32) -> u32 {
    var chosen = taken;
    let p0 = surface_point(body, shape, plane, chosen[0]).xyz;
    let p1 = surface_point(body, shape, plane, chosen[min(how, 2u) - 1u]).xyz;
    let p2 = surface_point(body, shape, plane, chosen[min(how, 3u) - 1u]).xyz;
    var best = 0u;
    var best_score = -1.0;
    for (var i = 0u; i < shape.count; i++) {
        let p = surface_point(body, shape, plane, i);
        if (!free_candidate(p, i, chosen, how)) {
            continue;
        }
        let d = p.xyz - p0;
        var score = dot(d, d);
        if (how == 2u) {
            let c = cross(d, p1 - p0);
            score = dot(c, c);
        } else if (how == 3u) {
            let d1 = p.xyz - p1;
            let d2 = p.xyz - p2;
            score = min(score, min(dot(d1, d1), dot(d2, d2)));
        }
        if (score > best_score) {
            best = i;
            best_score = score;
        }
    }
    return best;
}

// The body's contact with plane `plane_index`: its core points whose surface points lie less than the slop above
// the plane, at most four (all of them in index order, or the deepest and then the widest spread), each halfway
// between the body's surface and the plane, with the target speed of the normal and the last step's impulses
// where the same core point touched.
fn plane_contact(body: PhysicsBody, m: Motion, plane_index: u32, old: PlaneContact) -> PlaneContact {
    let shape = shape_of(body.info.x);
    let plane = scene[plane_index];
    var out: PlaneContact;
    var taken = array<u32, 4>(0u, 0u, 0u, 0u);
    var candidates = 0u;
    var deepest = 0u;
    var deepest_depth = -3.0e38;
    for (var i = 0u; i < shape.count; i++) {
        let p = surface_point(body, shape, plane, i);
        if (-p.w >= params.slop) {
            continue;
        }
        if (candidates < MAX_PLANE_POINTS) {
            taken[candidates] = i;
        }
        candidates++;
        if (p.w > deepest_depth) {
            deepest = i;
            deepest_depth = p.w;
        }
    }
    if (candidates > MAX_PLANE_POINTS) {
        taken[0] = deepest;
        for (var how = 1u; how < MAX_PLANE_POINTS; how++) {
            taken[how] = best_spread(body, shape, plane, taken, how);
        }
    }
    out.count = min(candidates, MAX_PLANE_POINTS);
    var old_ids = old.ids;
    var old_points = old.points;
    // The plane's contact normal points from the body into the plane (A towards B, B static).
    let normal = -plane.xyz;
    for (var k = 0u; k < out.count; k++) {
        let p = surface_point(body, shape, plane, taken[k]);
        let r = p.xyz - normal * (0.5 * p.w) - m.centre.xyz;
        let relative = -(m.velocity.xyz + cross(m.angular.xyz, r));
        let approach = -dot(relative, normal);
        let bounce = select(0.0, params.restitution * approach, approach > params.restitution_threshold);
        let target_speed = max(bounce, min(p.w / params.dt, 0.0));
        var impulse = vec4<f32>(0.0);
        for (var j = 0u; j < old.count && params.warm_start != 0u; j++) {
            if (old_ids[j] == taken[k]) {
                impulse = vec4<f32>(old_points[j].impulse.xyz, 0.0);
                atomicAdd(&stats[5], 1u);
            }
        }
        out.ids[k] = taken[k];
        out.depths[k] = p.w;
        out.points[k] = PlanePoint(vec4<f32>(r, target_speed), impulse);
    }
    return out;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn physics_begin(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i >= params.body_count) {
        return;
    }
    var body = bodies[i];
    let base = i * TALLY_WORDS;
    if (is_asleep(body) && atomicLoad(&tallies[base + TALLY_WAKE]) != 0) {
        body.info.y = body.info.y & ~PHYSICS_BODY_ASLEEP;
        body.spin.w = 0.0;
    }
    let moves = body.position.w > 0.0 && !is_asleep(body);
    if (moves) {
        body.velocity = vec4<f32>(body.velocity.xyz + params.gravity * params.dt, body.velocity.w);
    }
    bodies[i] = body;
    // A body that does not move this step is static to the solver (`Motion::STATIC` on the CPU).
    let still = select(0.0, 1.0, moves);
    let r = mat3_from_quat(body.rotation);
    let inverse = body.inverse_inertia.xyz * still;
    let scaled = mat3x3<f32>(r[0] * inverse.x, r[1] * inverse.y, r[2] * inverse.z);
    var m: Motion;
    m.velocity = vec4<f32>(body.velocity.xyz * still, body.position.w * still);
    let contacts = f32(max(atomicLoad(&tallies[base + TALLY_COUNT]), 1));
    m.angular = vec4<f32>(body.spin.xyz * still, contacts);
    m.centre = vec4<f32>(r * body.centre.xyz + body.position.xyz, 0.0);
    m.inverse_inertia = scaled * transpose(r);
    // Targets first, from the velocities before any warm start (`prepare` on the CPU), then the warm starts.
    let planes = params.plane_count;
    for (var p = 0u; p < planes; p++) {
        var contact: PlaneContact;
        if (moves) {
            contact = plane_contact(body, m, p, plane_contacts[i * planes + p]);
        }
        if (contact.count > 0u) {
            atomicAdd(&stats[0], 1u);
            atomicAdd(&stats[1], contact.count);
        }
        plane_contacts[i * planes + p] = contact;
    }
    var side = body_side(m, false, 1.0);
    for (var p = 0u; p < planes && moves; p++) {
        var contact = plane_contacts[i * planes + p];
        let normal = -scene[p].xyz;
        let t = tangents(normal);
        for (var k = 0u; k < contact.count; k++) {
            let impulse = contact.points[k].impulse;
            let total = normal * impulse.x + t[0] * impulse.y + t[1] * impulse.z;
            side = apply_impulse(side, -total, contact.points[k].r.xyz);
        }
    }
    m.velocity = vec4<f32>(side.v, m.velocity.w);
    m.angular = vec4<f32>(side.w, m.angular.w);
    motions[i] = m;
}
