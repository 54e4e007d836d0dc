// Instanced bodies with simple directional lighting, plus line drawing for hull wireframes and the
// bounding cube. Instance matrices have uniform scale, so the model's upper 3x3 rotates normals correctly
// once renormalised.

struct Frame {
    view_proj: mat4x4<f32>,
    camera_position: vec4<f32>,
    // Unit vector towards the light.
    light_direction: vec4<f32>,
    wire_colour: vec4<f32>,
    bounds_colour: vec4<f32>,
}

@group(0) @binding(0) var<uniform> frame: Frame;

struct Instance {
    @location(2) model_0: vec4<f32>,
    @location(3) model_1: vec4<f32>,
    @location(4) model_2: vec4<f32>,
    @location(5) model_3: vec4<f32>,
    @location(6) colour: vec4<f32>,
}

fn model_matrix(instance: Instance) -> mat4x4<f32> {
    return mat4x4<f32>(instance.model_0, instance.model_1, instance.model_2, instance.model_3);
}

struct MeshOut {
    @builtin(position) clip_position: vec4<f32>,
    @location(0) world_position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) colour: vec4<f32>,
}

@vertex
fn vs_mesh(
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    instance: Instance,
) -> MeshOut {
    let model = model_matrix(instance);
    let world = model * vec4<f32>(position, 1.0);
    var out: MeshOut;
    out.clip_position = frame.view_proj * world;
    out.world_position = world.xyz;
    out.normal = (model * vec4<f32>(normal, 0.0)).xyz;
    out.colour = instance.colour;
    return out;
}

@fragment
fn fs_mesh(in: MeshOut) -> @location(0) vec4<f32> {
    let n = normalize(in.normal);
    let to_light = frame.light_direction.xyz;
    let to_eye = normalize(frame.camera_position.xyz - in.world_position);
    let diffuse = 0.7 * max(dot(n, to_light), 0.0);
    // A weak light from the opposite side and a rim term keep faces turned away from the light readable.
    let back = 0.12 * max(-dot(n, to_light), 0.0);
    let rim = 0.2 * pow(1.0 - max(dot(n, to_eye), 0.0), 3.0);
    let light = 0.25 + diffuse + back + rim;
    return vec4<f32>(in.colour.rgb * light, in.colour.a);
}

// Lines move this fraction of the way towards the camera: the same pixels, slightly nearer, so edges win
// the depth test against the faces they lie on. (Depth bias is not allowed for line topologies.)
const LINE_PULL: f32 = 0.001;

@vertex
fn vs_line(@location(0) position: vec3<f32>, instance: Instance) -> @builtin(position) vec4<f32> {
    let world = (model_matrix(instance) * vec4<f32>(position, 1.0)).xyz;
    let pulled = mix(world, frame.camera_position.xyz, LINE_PULL);
    return frame.view_proj * vec4<f32>(pulled, 1.0);
}

@fragment
fn fs_wire() -> @location(0) vec4<f32> {
    return frame.wire_colour;
}

@fragment
fn fs_bounds() -> @location(0) vec4<f32> {
    return frame.bounds_colour;
}
