// Kernel `physics_finish`: one invocation per body, last in a step: the solved velocities kept, the pose moved
// by them plus the position correction's pseudo-velocities (`RigidBody::integrate` in src/physics/body.rs), the
// calm time counted and a body calm for the sleep time put to sleep (`settle` in src/physics/world.rs), and the
// body's kinetic energy left for `physics_energy`.

@group(0) @binding(0) var<uniform> params: SolverParams;
@group(0) @binding(1) var<storage, read_write> bodies: array<PhysicsBody>;
@group(0) @binding(2) var<storage, read_write> motions: array<Motion>;
// [0]: contacts, [1]: points, [2]: bodies asleep, [3]: kinetic energy (f32 bits), [4]: contacts rejected,
// [5]: points warm-started.
@group(0) @binding(3) var<storage, read_write> stats: array<atomic<u32>>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn physics_finish(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i >= params.body_count) {
        return;
    }
    var body = bodies[i];
    let m = motions[i];
    var energy = 0.0;
    if (m.velocity.w > 0.0) {
        let dt = params.dt;
        var v = m.velocity.xyz;
        var w = m.angular.xyz;
        let centre = m.centre.xyz + (v + m.push.xyz) * dt;
        let turn = w + m.push_angular.xyz;
        let q = body.rotation;
        let rotation = normalize(q + quat_mul(vec4<f32>(turn, 0.0), q) * (0.5 * dt));
        body.rotation = rotation;
        body.position = vec4<f32>(centre - quat_rotate(rotation, body.centre.xyz), body.position.w);
        var calm = body.spin.w;
        if (params.sleep_speed > 0.0) {
            if (length(v) < params.sleep_speed && length(w) < params.sleep_speed) {
                calm += dt;
            } else {
                calm = 0.0;
            }
            if (calm >= params.sleep_time) {
                body.info.y = body.info.y | PHYSICS_BODY_ASLEEP;
                v = vec3<f32>(0.0);
                w = vec3<f32>(0.0);
            }
        }
        body.velocity = vec4<f32>(v, body.velocity.w);
        body.spin = vec4<f32>(w, calm);
        // Translational plus rotational: 1/2 m v^2 + 1/2 w . (R I R^T) w, the inertia diagonal in local axes (an
        // axis of inverse inertia 0 does not turn, and adds nothing).
        let local = quat_rotate(quat_conjugate(rotation), w);
        let turning = body.inverse_inertia.xyz > vec3<f32>(0.0);
        let inertia = select(vec3<f32>(0.0), 1.0 / body.inverse_inertia.xyz, turning);
        energy = 0.5 * dot(v, v) / body.position.w + 0.5 * dot(local * local, inertia);
        bodies[i] = body;
    }
    if (is_asleep(body)) {
        atomicAdd(&stats[2], 1u);
    }
    motions[i].push.w = energy;
}
