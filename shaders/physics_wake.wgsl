// Kernel `physics_wake`: one invocation per pair slot, first in a step: counts each body's touching body-pair
// contacts (by which the solver splits its mass) and marks a sleeping body that a moving body touches to wake
// (`wake_touched` in src/physics/world.rs; here one contact deep per step, so a chain of sleepers wakes one
// link per step). The driver is src/gpu/physics/solver.rs.

@group(0) @binding(0) var<uniform> params: SolverParams;
@group(0) @binding(1) var<uniform> limit: SlotLimit;
@group(0) @binding(2) var<storage, read> contacts: array<PhysicsContact>;
// [0]: the broad phase's pairs found (may exceed the capacity); [1..4]: its indirect dispatch.
@group(0) @binding(3) var<storage, read> pair_count: array<u32>;
@group(0) @binding(4) var<storage, read> bodies: array<PhysicsBody>;
@group(0) @binding(5) var<storage, read_write> tallies: array<atomic<i32>>;

fn moving(b: PhysicsBody) -> bool {
    let fast = length(b.velocity.xyz) >= params.sleep_speed || length(b.spin.xyz) >= params.sleep_speed;
    return b.position.w > 0.0 && !is_asleep(b) && fast;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn physics_wake(@builtin(global_invocation_id) gid: vec3<u32>) {
    let k = gid.x;
    if (k >= min(pair_count[0], limit.capacity)) {
        return;
    }
    let c = contacts[k];
    if (!contact_usable(c, params.body_count)) {
        return;
    }
    let a = c.bodies.x;
    let b = c.bodies.y;
    atomicAdd(&tallies[a * TALLY_WORDS + TALLY_COUNT], 1);
    atomicAdd(&tallies[b * TALLY_WORDS + TALLY_COUNT], 1);
    let body_a = bodies[a];
    let body_b = bodies[b];
    if (is_asleep(body_a) && moving(body_b)) {
        atomicStore(&tallies[a * TALLY_WORDS + TALLY_WAKE], 1);
    }
    if (is_asleep(body_b) && moving(body_a)) {
        atomicStore(&tallies[b * TALLY_WORDS + TALLY_WAKE], 1);
    }
}
