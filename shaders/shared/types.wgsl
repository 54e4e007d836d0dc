// The GPU structs of the narrow phase. Their Rust twins are in src/gpu/layout.rs, and tests/shader_layout.rs
// checks every size and field offset against naga's layout of this file. Statuses, kinds and every other
// constant come from Rust (src/gpu/shader/constants.rs), prepended when a kernel is assembled.

// One convex hull: `count` points starting at `offset` in the vertex pool (padded to a multiple of four with
// copies of the first point), swept by `radius`. The points are stored about `centre`, the middle of their
// bounding box in the shape's local frame; `bound` is the bounding radius about it (sets the pair's
// tolerance scale). `climbs` is 1 when the hull's adjacency follows its points in the pool (support_hull
// climbs it), 0 when its support is a scan of every point.
struct GpuHull {
    offset: u32,
    count: u32,
    radius: f32,
    bound: f32,
    centre: vec3<f32>,
    climbs: u32,
}

// One placed body: a pose (position, unit quaternion xyzw) and the hull it uses.
struct GpuInstance {
    position: vec3<f32>,
    hull: u32,
    rotation: vec4<f32>,
}

// The answer for one pair, in the pair-local frame (A's local frame), as GjkResult on the CPU.
struct GpuResult {
    witness_a: vec3<f32>,
    distance: f32,
    witness_b: vec3<f32>,
    status: u32,
    normal: vec3<f32>,
    iterations: u32,
}

// Per-dispatch settings.
// `loop_probe` is the trip count of the probe loop that detects a loop budget running out (2); `format` is the
// record the kernel writes per pair (FORMAT_*, see output.wgsl).
struct GpuParams {
    pair_count: u32,
    max_iterations: u32,
    kind: u32,
    touch_tolerance: f32,
    loop_probe: u32,
    format: u32,
    // Nonzero: the EPA queue holds pair i's task at slot i, and pass 2 runs over every pair (software adapters).
    epa_by_pair: u32,
    // The first pair of the chunk the subgroup kernel answers (pair_count where it answers none): the per-thread
    // GJK kernel stops there.
    subgroup_from: u32,
    // The index in the batch of the chunk's first pair (a chunk fed on the device finds its share of the frame's
    // sample by it).
    first_pair: u32,
    // Keeps the struct a multiple of 16 bytes (GpuParams in src/gpu/layout.rs).
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

// Settings of a frame whose pairs stay on the device (DeviceFrameSettings in src/gpu/device_frame/mod.rs): the
// pair buffer's capacity, the pairs per chunk, the most workgroups per dispatch dimension, and the sample to draw
// (`sample_size` slots from the 64-bit seed and frame number, as two words each).
struct DeviceFrame {
    pair_capacity: u32,
    chunk_pairs: u32,
    max_groups: u32,
    sample_size: u32,
    seed_lo: u32,
    seed_hi: u32,
    frame_lo: u32,
    frame_hi: u32,
}

// The penetration answer for one pair, in the pair-local frame, as Penetration on the CPU (epa/answer.rs).
struct GpuPenetration {
    normal: vec3<f32>,
    depth: f32,
    contact_a: vec3<f32>,
    status: u32,
    contact_b: vec3<f32>,
    iterations: u32,
}

// One intersecting pair queued for the EPA pass: GJK's final simplex (support points of A and B, with the
// barycentric weight in a[i].w).
struct EpaTask {
    pair: u32,
    len: u32,
    // 1 for a queued pair; pass 1 clears it first for every pair when the queue is kept in pair order.
    queued: u32,
    pad1: u32,
    a: array<vec4<f32>, 4>,
    b: array<vec4<f32>, 4>,
}

// The EPA queue: indirect dispatch arguments (workgroups, 1, 1), the task count, then the tasks.
struct EpaQueue {
    groups: atomic<u32>,
    groups_y: u32,
    groups_z: u32,
    count: atomic<u32>,
    tasks: array<EpaTask>,
}

