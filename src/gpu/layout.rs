//! Rust twins of the GPU structs in `shaders/shared/types.wgsl`. Sizes are checked at compile time
//! here and against naga's layout of the WGSL in `src/gpu/shader/layout_tests.rs`.

use crate::epa::{Penetration, PenetrationStatus};
use crate::gjk::{GjkResult, GjkStatus};
use bytemuck::{Pod, Zeroable};
use glam::Vec3;

/// One hull in the vertex pool (`GpuHull` in WGSL): `count` centred points from `offset` (the pool holds
/// them padded to a multiple of four), the radius, the bounding radius about the centre, and the centre.
/// `climbs` is 1 when the hull's vertex adjacency follows its points in the pool (see
/// [`super::hulls`]) and its support is found by hill climbing, 0 when by a scan of every point.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub(crate) struct GpuHull {
    pub offset: u32,
    pub count: u32,
    pub radius: f32,
    pub bound: f32,
    pub centre: [f32; 3],
    pub climbs: u32,
}

/// A placed body (`GpuInstance` in WGSL): position, hull index, rotation quaternion (xyzw).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub(crate) struct GpuInstance {
    pub position: [f32; 3],
    pub hull: u32,
    pub rotation: [f32; 4],
}

/// Bytes per instance.
pub(crate) const INSTANCE_STRIDE: u64 = std::mem::size_of::<GpuInstance>() as u64;

/// One pair's answer in the pair-local frame (`GpuResult` in WGSL).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct GpuResult {
    pub witness_a: [f32; 3],
    pub distance: f32,
    pub witness_b: [f32; 3],
    pub status: u32,
    pub normal: [f32; 3],
    pub iterations: u32,
}

/// Per-dispatch settings (`GpuParams` in WGSL).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub(crate) struct GpuParams {
    pub pair_count: u32,
    pub max_iterations: u32,
    pub kind: u32,
    pub touch_tolerance: f32,
    /// Trip count of the kernel's loop-budget probe, [`LOOP_PROBE_TRIPS`].
    pub loop_probe: u32,
    /// The record written per pair: a [`ResultFormat`](super::packed::ResultFormat) or
    /// [`PenetrationFormat`](super::packed::PenetrationFormat) value.
    pub format: u32,
    /// Nonzero: the EPA queue holds pair `i`'s task at slot `i` and pass 2 runs over every pair
    /// ([`EpaOrder::ByPair`](super::penetration::EpaOrder)); zero: tasks in the order of an atomic append.
    pub epa_by_pair: u32,
    /// The first pair of the chunk the subgroup GJK kernel answers, `pair_count` where it answers none
    /// ([`ScanKernel`](super::ScanKernel)): the per-thread GJK kernel stops there.
    pub subgroup_from: u32,
    /// The index in the batch of the chunk's first pair.
    pub first_pair: u32,
    /// Keeps the struct a multiple of 16 bytes, so what follows it in a slot's staging stays aligned.
    pub _pad: [u32; 3],
}

/// The kernels end with a loop of this many trips (read from the uniform, so no compiler can unroll it) and
/// flag their answer `gpu_loop_limit` when it comes out short: software adapters quietly cut every loop to
/// one trip once a group of invocations has used up its loop budget.
pub(crate) const LOOP_PROBE_TRIPS: u32 = 2;

/// One pair's penetration answer in the pair-local frame (`GpuPenetration` in WGSL).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub(crate) struct GpuPenetration {
    pub normal: [f32; 3],
    pub depth: f32,
    pub contact_a: [f32; 3],
    pub status: u32,
    pub contact_b: [f32; 3],
    pub iterations: u32,
}

/// One intersecting pair queued for the EPA pass (`EpaTask` in WGSL): GJK's final simplex, support points
/// of A and B with the barycentric weight in `w`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub(crate) struct GpuEpaTask {
    pub pair: u32,
    pub len: u32,
    pub pad: [u32; 2],
    pub a: [[f32; 4]; 4],
    pub b: [[f32; 4]; 4],
}

/// Bytes before the first task in the EPA queue: the indirect dispatch arguments (x, y, z) and the count.
pub(crate) const EPA_QUEUE_HEADER: u64 = 16;

const _: () = assert!(std::mem::size_of::<GpuHull>() == 32);
const _: () = assert!(std::mem::size_of::<GpuPenetration>() == 48);
const _: () = assert!(std::mem::size_of::<GpuEpaTask>() == 144);
const _: () = assert!(std::mem::size_of::<GpuInstance>() == 32);
const _: () = assert!(std::mem::size_of::<GpuResult>() == 48);
const _: () = assert!(std::mem::size_of::<GpuParams>() == 48);
/// A vertex of the pool is a `vec4<f32>` (w unused): 16-byte stride, as WGSL arrays of vec3 would pad anyway.
pub(crate) const VERTEX_STRIDE: u64 = 16;
/// Bytes per pair of the results buffer.
pub(crate) const RESULT_STRIDE: u64 = std::mem::size_of::<GpuResult>() as u64;
/// A pair is a `vec2<u32>`.
pub(crate) const PAIR_STRIDE: u64 = 8;

impl GpuResult {
    /// The CPU-side result. An unknown status code (which would be a shader bug) reads as
    /// `MaxIterations`, the "no answer" status, never as separated.
    pub fn to_result(&self) -> GjkResult<f32> {
        let status = GjkStatus::from_u32(self.status).unwrap_or(GjkStatus::MaxIterations);
        GjkResult {
            status,
            intersecting: status == GjkStatus::Intersecting,
            distance: self.distance,
            witness_a: Vec3::from_array(self.witness_a),
            witness_b: Vec3::from_array(self.witness_b),
            normal: Vec3::from_array(self.normal),
            iterations: self.iterations,
        }
    }
}

impl GpuPenetration {
    /// The CPU-side answer. An unknown status code (a shader bug) reads as `Degenerate`, a named failure,
    /// never as penetrating or separated.
    pub fn to_penetration(self) -> Penetration<f32> {
        let status = PenetrationStatus::ALL
            .get(self.status as usize)
            .copied()
            .unwrap_or(PenetrationStatus::Degenerate);
        Penetration {
            status,
            depth: self.depth,
            normal: Vec3::from_array(self.normal),
            contact_a: Vec3::from_array(self.contact_a),
            contact_b: Vec3::from_array(self.contact_b),
            iterations: self.iterations,
            depth_upper: None,
        }
    }
}

/// Points a hull takes in the vertex pool: its count rounded up to a multiple of four (the kernel scans four
/// points per loop trip).
pub(crate) fn padded_len(count: usize) -> usize {
    count.next_multiple_of(4)
}
