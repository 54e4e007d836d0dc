// Kernel `physics_prepare`: one invocation per pair slot of the step, after `physics_begin` and `physics_table`:
// each touching pair's solver state (`prepare` in src/physics/solver.rs: offsets from the centres of mass,
// effective masses with each body's mass split by its contact count, the normal's target speed, the push speed),
// each point's impulses carried from the last step's contact of the same body pair and feature id, and those
// impulses applied (warm starting) into the bodies' fixed-point velocity sums.

@group(0) @binding(0) var<uniform> params: SolverParams;
@group(0) @binding(1) var<uniform> limit: SlotLimit;
@group(0) @binding(2) var<storage, read> contacts: array<PhysicsContact>;
@group(0) @binding(3) var<storage, read> pair_count: array<u32>;
@group(0) @binding(4) var<storage, read> motions: array<Motion>;
@group(0) @binding(5) var<storage, read_write> manifolds: array<SolverManifold>;
@group(0) @binding(6) var<storage, read> previous: array<SolverManifold>;
@group(0) @binding(7) var<storage, read> table: array<u32>;
@group(0) @binding(8) var<storage, read_write> tallies: array<atomic<i32>>;
// [0]: contacts, [1]: points, [2]: bodies asleep, [3]: kinetic energy (f32 bits), [4]: contacts rejected,
// [5]: points warm-started.
@group(0) @binding(9) var<storage, read_write> stats: array<atomic<u32>>;

// The last step's slot of body pair (a, b), plus 1; 0 when it had none.
fn find_previous(a: u32, b: u32) -> u32 {
    let size = arrayLength(&table);
    var h = pair_hash(a, b, size);
    for (var probe = 0u; probe < size; probe++) {
        let entry = table[h];
        if (entry == 0u) {
            return 0u;
        }
        let s = entry - 1u;
        if (s < arrayLength(&previous) && previous[s].bodies.x == a && previous[s].bodies.y == b) {
            return entry;
        }
        h = (h + 1u) & (size - 1u);
    }
    return 0u;
}

fn point_id(ids: array<vec4<u32>, 2>, i: u32) -> vec2<u32> {
    var words = ids;
    let w = words[i / 2u];
    return select(w.xy, w.zw, i % 2u == 1u);
}

fn finite_unit(n: vec3<f32>) -> bool {
    let l = length(n);
    return abs(l - 1.0) < 1e-3;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn physics_prepare(@builtin(global_invocation_id) gid: vec3<u32>) {
    let k = gid.x;
    if (k >= min(pair_count[0], limit.capacity)) {
        return;
    }
    var c = contacts[k];
    var out: SolverManifold;
    out.bodies = vec4<u32>(c.bodies.x, c.bodies.y, 0u, 0u);
    let claims = c.bodies.w == PHYSICS_CONTACT_TOUCHING && c.bodies.z > 0u;
    // A NaN normal fails the unit test too (every comparison with NaN is false).
    let usable = contact_usable(c, params.body_count) && finite_unit(c.normal.xyz);
    if (claims && !usable) {
        atomicAdd(&stats[4], 1u);
    }
    if (!usable) {
        manifolds[k] = out;
        return;
    }
    let a = c.bodies.x;
    let b = c.bodies.y;
    let ma = motions[a];
    let mb = motions[b];
    // Neither body moves (static or asleep): nothing to solve (`pair_contact` on the CPU skips the pair).
    if (ma.velocity.w == 0.0 && mb.velocity.w == 0.0) {
        manifolds[k] = out;
        return;
    }
    let count = c.bodies.z;
    let normal = c.normal.xyz;
    let t = tangents(normal);
    out.bodies = vec4<u32>(a, b, count, 1u);
    out.normal = vec4<f32>(normal, 0.0);
    out.ids = c.ids;
    let split_a = body_side(ma, false, ma.angular.w);
    let split_b = body_side(mb, false, mb.angular.w);
    var side_a = body_side(ma, false, 1.0);
    var side_b = body_side(mb, false, 1.0);
    var last = 0u;
    if (params.warm_start != 0u) {
        last = find_previous(a, b);
    }
    var old: SolverManifold;
    if (last != 0u) {
        old = previous[last - 1u];
    }
    for (var i = 0u; i < count; i++) {
        let p = c.points[i];
        let r_a = p.xyz - ma.centre.xyz;
        let r_b = p.xyz - mb.centre.xyz;
        let k_n = inverse_mass_along(split_a, r_a, normal) + inverse_mass_along(split_b, r_b, normal);
        let k_0 = inverse_mass_along(split_a, r_a, t[0]) + inverse_mass_along(split_b, r_b, t[0]);
        let k_1 = inverse_mass_along(split_a, r_a, t[1]) + inverse_mass_along(split_b, r_b, t[1]);
        let approach = -dot(relative_velocity(side_a, side_b, r_a, r_b), normal);
        let bounce = select(0.0, params.restitution * approach, approach > params.restitution_threshold);
        // A gap: B may approach by the gap within the step.
        let target_speed = max(bounce, min(p.w / params.dt, 0.0));
        let push_speed = params.baumgarte / params.dt * max(p.w - params.slop, 0.0);
        var impulse = vec4<f32>(0.0);
        let id = point_id(c.ids, i);
        for (var j = 0u; j < old.bodies.z; j++) {
            if (all(point_id(old.ids, j) == id)) {
                impulse = vec4<f32>(old.points[j].impulse.xyz, 0.0);
                atomicAdd(&stats[5], 1u);
            }
        }
        out.points[i] = SolverPoint(
            vec4<f32>(r_a, inverse_or_zero(k_n)),
            vec4<f32>(r_b, target_speed),
            vec4<f32>(inverse_or_zero(k_0), inverse_or_zero(k_1), push_speed, 0.0),
            impulse,
        );
    }
    // Warm starting, after every target speed is taken from the velocities before it.
    let start_a = side_a;
    let start_b = side_b;
    for (var i = 0u; i < count; i++) {
        let point = out.points[i];
        let impulse = point.impulse;
        let total = normal * impulse.x + t[0] * impulse.y + t[1] * impulse.z;
        side_a = apply_impulse(side_a, -total, point.r_a.xyz);
        side_b = apply_impulse(side_b, total, point.r_b.xyz);
    }
    tally(a, ma, side_a.v - start_a.v, side_a.w - start_a.w);
    tally(b, mb, side_b.v - start_b.v, side_b.w - start_b.w);
    atomicAdd(&stats[0], 1u);
    atomicAdd(&stats[1], count);
    manifolds[k] = out;
}
