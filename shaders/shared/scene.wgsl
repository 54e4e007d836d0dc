// The scene every kernel reads: settings, the vertex pool, the hull table, the instances and this chunk's
// pairs (bindings 0 to 4; the bind group layout is built in src/gpu/runner.rs). Outputs are each kernel's own.

@group(0) @binding(0) var<uniform> params: GpuParams;
@group(0) @binding(1) var<storage, read> vertices: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> hulls: array<GpuHull>;
@group(0) @binding(3) var<storage, read> instances: array<GpuInstance>;
@group(0) @binding(4) var<storage, read> pairs: array<vec2<u32>>;

// The pair of the chunk that invocation `gid` answers in a dispatch `groups` workgroups wide: a chunk of more
// workgroups than one dimension allows goes as rows of `groups.x` workgroups (src/gpu/device_frame/dispatch.rs).
fn pair_index(gid: vec3<u32>, groups: vec3<u32>) -> u32 {
    return gid.x + gid.y * groups.x * WORKGROUP_SIZE;
}

// Instance `index`'s record as words, as the host reads it (GpuInstance, 32 bytes).
fn instance_words(index: u32) -> array<u32, 8> {
    let i = instances[index];
    return array<u32, 8>(
        bitcast<u32>(i.position.x), bitcast<u32>(i.position.y), bitcast<u32>(i.position.z), i.hull,
        bitcast<u32>(i.rotation.x), bitcast<u32>(i.rotation.y), bitcast<u32>(i.rotation.z),
        bitcast<u32>(i.rotation.w),
    );
}
