// Kernel `physics_instances`: one invocation per body: its pose into the narrow phase's instance record
// (`GpuInstance`, shaders/shared/scene.wgsl), whose hull word it leaves.

@group(0) @binding(0) var<uniform> params: SolverParams;
@group(0) @binding(1) var<storage, read> bodies: array<PhysicsBody>;
@group(0) @binding(2) var<storage, read_write> instances: array<Instance>;

struct Instance {
    position: vec3<f32>,
    hull: u32,
    rotation: vec4<f32>,
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn physics_instances(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i >= params.body_count) {
        return;
    }
    instances[i].position = bodies[i].position.xyz;
    instances[i].rotation = bodies[i].rotation;
}
