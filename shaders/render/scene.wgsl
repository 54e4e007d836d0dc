// Instanced bodies with a directional light and darkened silhouettes, plus their edges: crease outlines
// (always, in a dark shade of the body's colour), hull wireframes (V) that fade where the edges crowd on
// screen, highlight edges (the picked body and the player's), and the bounding cube. Instance matrices have
// uniform scale, so the model's upper 3x3 rotates normals correctly once renormalised.
// The Rust twin of `Frame` is `FrameUniforms` in `src/app/render/pipelines.rs`. Bodies take their colour from
// their mark word (the narrow phase's per-body marks, read on the GPU; MARK_UNSET: the instance's own colour);
// the mark bits and the palette are emitted from Rust (pipelines.rs) ahead of this file.

struct Frame {
    view_proj: mat4x4<f32>,
    camera_position: vec4<f32>,
    // Unit vector towards the light.
    light_direction: vec4<f32>,
    // Target width and height in pixels, and pixels per world unit at clip w = 1 (x: unused).
    viewport: vec4<f32>,
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

// A body's colour from its mark word: disputed over colliding over free.
fn body_colour(instance: Instance, mark: u32) -> vec4<f32> {
    if (mark == MARK_UNSET) {
        return instance.colour;
    }
    if ((mark & MARK_DISPUTED) != 0u) {
        return DISPUTED_COLOUR;
    }
    if ((mark & MARK_COLLIDING) != 0u) {
        return COLLIDING_COLOUR;
    }
    return FREE_COLOUR;
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
    @location(7) mark: u32,
) -> MeshOut {
    let model = model_matrix(instance);
    let world = model * vec4<f32>(position, 1.0);
    var out: MeshOut;
    out.clip_position = frame.view_proj * world;
    out.world_position = world.xyz;
    out.normal = (model * vec4<f32>(normal, 0.0)).xyz;
    out.colour = body_colour(instance, mark);
    return out;
}

@fragment
fn fs_mesh(in: MeshOut) -> @location(0) vec4<f32> {
    let n = normalize(in.normal);
    let to_light = frame.light_direction.xyz;
    let to_eye = normalize(frame.camera_position.xyz - in.world_position);
    let diffuse = 0.7 * max(dot(n, to_light), 0.0);
    // A weak light from the opposite side keeps faces turned away from the light readable.
    let back = 0.12 * max(-dot(n, to_light), 0.0);
    let light = 0.3 + diffuse + back;
    // Edge shading: surfaces seen edge-on darken, so two touching round bodies of one colour keep an
    // outline between them.
    let facing = max(dot(n, to_eye), 0.0);
    let silhouette = mix(0.35, 1.0, smoothstep(0.0, 0.45, facing));
    return vec4<f32>(in.colour.rgb * light * silhouette, in.colour.a);
}

// Lines move this fraction of the way towards the camera: the same pixels, slightly nearer, so edges win
// the depth test against the faces they lie on. (Depth bias is not allowed for line topologies.)
const LINE_PULL: f32 = 0.001;

struct EdgeOut {
    @builtin(position) clip_position: vec4<f32>,
    @location(0) colour: vec4<f32>,
    // How long the edge is on screen, in pixels.
    @location(1) pixels: f32,
}

fn edge_out(position: vec3<f32>, edge_length: f32, instance: Instance, colour: vec4<f32>) -> EdgeOut {
    let model = model_matrix(instance);
    let world = (model * vec4<f32>(position, 1.0)).xyz;
    let pulled = mix(world, frame.camera_position.xyz, LINE_PULL);
    var out: EdgeOut;
    out.clip_position = frame.view_proj * vec4<f32>(pulled, 1.0);
    out.colour = colour;
    let scale = length(instance.model_0.xyz);
    out.pixels = edge_length * scale * frame.viewport.z / max(out.clip_position.w, 1e-6);
    return out;
}

// Each edge is two vertices of its own carrying the edge's length in the mesh's units. Edges in the
// instance's colour (highlights, the bounding cube).
@vertex
fn vs_edge(
    @location(0) position: vec3<f32>,
    @location(1) edge_length: f32,
    instance: Instance,
) -> EdgeOut {
    return edge_out(position, edge_length, instance, instance.colour);
}

// A body's edges (outlines, wireframes), in the body's colour from its mark.
@vertex
fn vs_body_edge(
    @location(0) position: vec3<f32>,
    @location(1) edge_length: f32,
    instance: Instance,
    @location(7) mark: u32,
) -> EdgeOut {
    return edge_out(position, edge_length, instance, body_colour(instance, mark));
}

// Opacity of a wireframe edge: edges a few pixels long (a finely tessellated sphere far away) fade, so the
// body under them stays readable; long edges are opaque.
fn crowding(pixels: f32) -> f32 {
    return clamp((pixels - 1.5) / 12.0, 0.12, 0.85);
}

@fragment
fn fs_wire(in: EdgeOut) -> @location(0) vec4<f32> {
    return vec4<f32>(mix(in.colour.rgb, vec3<f32>(1.0), 0.6), crowding(in.pixels));
}

@fragment
fn fs_outline(in: EdgeOut) -> @location(0) vec4<f32> {
    return vec4<f32>(in.colour.rgb * 0.22, 1.0);
}

@fragment
fn fs_highlight(in: EdgeOut) -> @location(0) vec4<f32> {
    return vec4<f32>(in.colour.rgb, max(crowding(in.pixels), 0.6) * in.colour.a);
}

// The highlighted edges hidden behind other bodies (the depth test is inverted for this pass), faintly, so
// the picked body can be found through the crowd.
@fragment
fn fs_highlight_hidden(in: EdgeOut) -> @location(0) vec4<f32> {
    return vec4<f32>(in.colour.rgb, 0.3 * in.colour.a);
}

@fragment
fn fs_bounds(in: EdgeOut) -> @location(0) vec4<f32> {
    return frame.bounds_colour;
}
