// Kernel `physics_boxes`: one invocation per body: its world box, the shape's local box rotated and placed
// (`world_aabb` in src/broad_phase.rs), min at 2i and max at 2i + 1 of the broad phase's box buffer.

@group(0) @binding(0) var<uniform> params: SolverParams;
// Three words per shape from `shapes_at`: local box min (w: radius), local box max, the hull points' range.
@group(0) @binding(1) var<storage, read> scene: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> bodies: array<PhysicsBody>;
@group(0) @binding(3) var<storage, read_write> boxes: array<vec4<f32>>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn physics_boxes(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i >= params.body_count) {
        return;
    }
    let body = bodies[i];
    let at = params.shapes_at + 3u * body.info.x;
    let lo = scene[at].xyz;
    let hi = scene[at + 1u].xyz;
    let r = mat3_from_quat(body.rotation);
    let a = mat3x3<f32>(abs(r[0]), abs(r[1]), abs(r[2]));
    let centre = r * ((lo + hi) * 0.5) + body.position.xyz;
    let half = a * ((hi - lo) * 0.5);
    boxes[2u * i] = vec4<f32>(centre - half, 0.0);
    boxes[2u * i + 1u] = vec4<f32>(centre + half, 0.0);
}
