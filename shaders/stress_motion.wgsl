// Kernel `stress_motion`: advances the stress test's bodies on the GPU by the motion rule of the CPU scene
// (`StressScene::step` in src/scenario/stress.rs), one invocation per body, and writes what the frame's broad and
// narrow phases read where they lie: the body's world box (the broad phase's box buffer, as `world_aabb` in
// src/broad_phase.rs computes it) and its pose (the narrow phase's instance records, whose hull word it leaves).
// The driver is src/gpu/stress_motion.rs. With dt = 0 the pass moves nothing and only writes the boxes and poses
// again (the broad phase's rerun on a grown pair buffer).
//
// Kernel `render_instances`: each body's model matrix (its template mesh scaled, rotated and placed) into the
// renderer's per-instance vertex buffer at the body's draw slot, so the scene is drawn from the GPU's bodies with
// nothing uploaded per body.
//
// Constants emitted from Rust: WORKGROUP_SIZE.

struct MotionParams {
    dt: f32,
    half_extent: f32,
    count: u32,
    _pad: u32,
}

// One body (`GpuBody` in src/gpu/stress_motion.rs). The first two words are the pose, read back for the check.
struct Body {
    // w: the scale of the body's template mesh, for the renderer.
    position: vec4<f32>,
    // Quaternion xyzw.
    rotation: vec4<f32>,
    // w: the body's draw slot (a u32's bits), for the renderer.
    velocity: vec4<f32>,
    // Angular velocity: axis times radians per second.
    spin: vec4<f32>,
    // The shape's local box: centre and half extents.
    box_centre: vec4<f32>,
    box_half: vec4<f32>,
}

// The narrow phase's instance record (`GpuInstance`, shaders/shared/scene.wgsl).
struct Instance {
    position: vec3<f32>,
    hull: u32,
    rotation: vec4<f32>,
}

@group(0) @binding(0) var<uniform> params: MotionParams;
@group(0) @binding(1) var<storage, read_write> bodies: array<Body>;
@group(0) @binding(2) var<storage, read_write> instances: array<Instance>;
// Box i: min at 2i, max at 2i + 1 (w unused), as the broad phase reads them.
@group(0) @binding(3) var<storage, read_write> boxes: array<vec4<f32>>;

// sin and cos of a half-angle by their series up to x^9 and x^10: below pi / 4 the first term left out is under
// 2e-9, well inside float32's rounding, where WGSL allows the built-ins an absolute error of 2^-11. Larger angles
// (a step longer than 0.39 s at the scene's fastest spin) use the built-ins.
fn sin_cos(x: f32) -> vec2<f32> {
    if (abs(x) > 0.7853982) {
        return vec2<f32>(sin(x), cos(x));
    }
    let x2 = x * x;
    let s = x * (1.0 - x2 / 6.0 * (1.0 - x2 / 20.0 * (1.0 - x2 / 42.0 * (1.0 - x2 / 72.0))));
    let c = 1.0 - x2 / 2.0 * (1.0 - x2 / 12.0 * (1.0 - x2 / 30.0 * (1.0 - x2 / 56.0 * (1.0 - x2 / 90.0))));
    return vec2<f32>(s, c);
}

// quat_mul and mat3_from_quat come from shared/quaternion.wgsl (glam's `Quat * Quat` and `Mat3::from_quat`).

@compute @workgroup_size(WORKGROUP_SIZE)
fn stress_motion(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i >= params.count) {
        return;
    }
    var body = bodies[i];
    let h = params.half_extent;
    let dt = params.dt;
    if (dt > 0.0) {
        // Constant velocity, mirror bounces off the walls.
        var p = body.position.xyz + body.velocity.xyz * dt;
        var v = body.velocity.xyz;
        for (var axis = 0u; axis < 3u; axis++) {
            if (p[axis] > h) {
                p[axis] = 2.0 * h - p[axis];
                v[axis] = -abs(v[axis]);
            } else if (p[axis] < -h) {
                p[axis] = -2.0 * h - p[axis];
                v[axis] = abs(v[axis]);
            }
        }
        body.position = vec4<f32>(clamp(p, vec3<f32>(-h), vec3<f32>(h)), body.position.w);
        body.velocity = vec4<f32>(v, body.velocity.w);
        // Constant spin: the turn of angle |spin| dt about spin's axis, applied before the body's rotation.
        let speed = length(body.spin.xyz);
        let angle = speed * dt;
        if (angle > 0.0) {
            let sc = sin_cos(angle * 0.5);
            let turn = vec4<f32>(body.spin.xyz / speed * sc.x, sc.y);
            body.rotation = normalize(quat_mul(turn, body.rotation));
        }
        bodies[i] = body;
    }
    instances[i].position = body.position.xyz;
    instances[i].rotation = body.rotation;
    // The local box rotated: it holds the shape, so no pair is missed.
    let r = mat3_from_quat(body.rotation);
    let a = mat3x3<f32>(abs(r[0]), abs(r[1]), abs(r[2]));
    let centre = r * body.box_centre.xyz + body.position.xyz;
    let half = a * body.box_half.xyz;
    boxes[2u * i] = vec4<f32>(centre - half, 0.0);
    boxes[2u * i + 1u] = vec4<f32>(centre + half, 0.0);
}

// The renderer's per-instance record (`BodyInstance` in src/app/render/instance.rs): model matrix columns, colour.
struct RenderInstance {
    model: mat4x4<f32>,
    colour: vec4<f32>,
}

// The colour written into every record (the marks colour the bodies; this shows where a body has none).
@group(1) @binding(0) var<uniform> render_colour: vec4<f32>;
@group(1) @binding(1) var<storage, read_write> render_out: array<RenderInstance>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn render_instances(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i >= params.count) {
        return;
    }
    let body = bodies[i];
    let r = mat3_from_quat(body.rotation) * body.position.w;
    var out: RenderInstance;
    out.model = mat4x4<f32>(
        vec4<f32>(r[0], 0.0),
        vec4<f32>(r[1], 0.0),
        vec4<f32>(r[2], 0.0),
        vec4<f32>(body.position.xyz, 1.0),
    );
    out.colour = render_colour;
    render_out[bitcast<u32>(body.velocity.w)] = out;
}

// Kernel `take_physics`: each body's pose and velocities from the GPU physics' body of the same index
// (`PhysicsBody`, shaders/shared/physics_types.wgsl), keeping its mesh scale, draw slot and local box, so the
// motion pass (run with dt = 0) and the renderer's pass read the poses physics found.
@group(1) @binding(0) var<storage, read> physics_bodies: array<PhysicsBody>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn take_physics(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i >= params.count) {
        return;
    }
    let p = physics_bodies[i];
    var body = bodies[i];
    body.position = vec4<f32>(p.position.xyz, body.position.w);
    body.rotation = p.rotation;
    body.velocity = vec4<f32>(p.velocity.xyz, body.velocity.w);
    body.spin = vec4<f32>(p.spin.xyz, 0.0);
    bodies[i] = body;
}
