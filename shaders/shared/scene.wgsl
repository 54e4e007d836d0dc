// The scene every kernel reads: settings, the vertex pool, the hull table, the instances and this chunk's
// pairs (bindings 0 to 4; the bind group layout is built in src/gpu/runner.rs). Outputs are each kernel's own.

@group(0) @binding(0) var<uniform> params: GpuParams;
@group(0) @binding(1) var<storage, read> vertices: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> hulls: array<GpuHull>;
@group(0) @binding(3) var<storage, read> instances: array<GpuInstance>;
@group(0) @binding(4) var<storage, read> pairs: array<vec2<u32>>;
