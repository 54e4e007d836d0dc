//! The GPU batch narrow phase: hulls uploaded once, then batches of (instances, pairs) run through a kernel in
//! chunks that respect the device's limits, and the results read back. The scene's buffers are
//! [`Scene`]'s; the chunk loop is the runner's ([`super::runner`]); each query is a job ([`GjkJob`] here, the
//! penetration job in [`super::penetration`]).

use super::chunks::ChunkLimits;
use super::layout::{GpuResult, RESULT_STRIDE};
use super::penetration::{GpuPenetrationBatch, PenetrationJob};
use super::runner::{
    bind_group_layout, compute_pipeline, workgroups, Access, GpuTimings, KernelJob, OutputBuffer,
    Readback, SCENE_BINDINGS,
};
use super::scene::Scene;
use super::shader::GJK;
use super::GpuError;
use crate::gjk::{GjkConfig, GjkResult, QueryKind};
use crate::instance::{Instance, Pair};
use crate::shape::ConvexShape;

/// Invocations per workgroup, emitted into the WGSL as `WORKGROUP_SIZE`. 64 is a multiple of every vendor's
/// SIMD width (32 or 64) and small enough that a pair's long GJK run holds back few neighbours.
pub const WORKGROUP_SIZE: u32 = 64;

/// Results of one batch, in pair order and each pair's local frame.
pub struct GpuBatch {
    pub results: Vec<GjkResult<f32>>,
    pub timings: GpuTimings,
    /// Pairs whose GPU answer carried a failure status and were answered again on the CPU by
    /// `GpuBatch::resolve_failures_on_cpu` (in [`crate::resolve`]).
    pub resolved_on_cpu: usize,
}

/// The narrow phase bound to one device. Create it once, upload hulls once, run many batches.
pub struct NarrowPhase {
    pub(super) scene: Scene,
    gjk: GjkJob,
    /// The penetration (EPA) job, built by the first `run_penetration`.
    epa: Option<PenetrationJob>,
}

impl NarrowPhase {
    /// Builds the pipeline on a device the caller owns (see [`super::GpuContext`]), with chunk limits from
    /// the device.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        Self::with_limits(device, queue, ChunkLimits::from_device(&device.limits()))
    }

    /// Like [`NarrowPhase::new`] with explicit chunk limits (capped by the device's own).
    pub fn with_limits(device: &wgpu::Device, queue: &wgpu::Queue, limits: ChunkLimits) -> Self {
        Self {
            scene: Scene::new(device, queue, limits),
            gjk: GjkJob::new(device),
            epa: None,
        }
    }

    pub fn limits(&self) -> ChunkLimits {
        self.scene.limits
    }

    /// Whether kernel times come from timestamp queries.
    pub fn has_timestamps(&self) -> bool {
        self.scene.timestamps.is_some()
    }

    /// Uploads the hulls every later batch refers to (by index), replacing any earlier set.
    pub fn upload_hulls(&mut self, shapes: &[ConvexShape]) -> Result<(), GpuError> {
        self.scene.upload_hulls(shapes)
    }

    /// Runs one batch and blocks until its results are back. Batches larger than one chunk are split
    /// automatically; instance indices are checked first, so a bad batch fails whole with the index named.
    pub fn run(
        &mut self,
        instances: &[Instance],
        pairs: &[Pair],
        kind: QueryKind,
        config: &GjkConfig,
    ) -> Result<GpuBatch, GpuError> {
        self.gjk.results = Vec::with_capacity(pairs.len());
        let timings = self
            .scene
            .run_job(instances, pairs, kind, config, &mut self.gjk)?;
        Ok(GpuBatch {
            results: std::mem::take(&mut self.gjk.results),
            timings,
            resolved_on_cpu: 0,
        })
    }
}

/// The GJK kernel's job: one pass, one output (a [`GpuResult`] per pair).
struct GjkJob {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
    outputs: [OutputBuffer; 1],
    results: Vec<GjkResult<f32>>,
}

impl GjkJob {
    fn bindings() -> Vec<Access> {
        let mut bindings = SCENE_BINDINGS.to_vec();
        bindings.push(Access::ReadWrite);
        bindings
    }

    fn new(device: &wgpu::Device) -> Self {
        let layout = bind_group_layout(device, "gjk bindings", &Self::bindings());
        Self {
            pipeline: compute_pipeline(device, &GJK, &layout),
            layout,
            outputs: [OutputBuffer::new(
                device,
                "results",
                RESULT_STRIDE,
                0,
                Readback::PerPair,
                wgpu::BufferUsages::empty(),
            )],
            results: Vec::new(),
        }
    }
}

impl KernelJob for GjkJob {
    fn outputs(&self) -> &[OutputBuffer] {
        &self.outputs
    }

    fn outputs_mut(&mut self) -> &mut [OutputBuffer] {
        &mut self.outputs
    }

    fn layout(&self) -> &wgpu::BindGroupLayout {
        &self.layout
    }

    fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        bind_group: &wgpu::BindGroup,
        count: u32,
        timestamps: Option<&wgpu::QuerySet>,
    ) {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("gjk"),
            timestamp_writes: timestamps.map(|query_set| wgpu::ComputePassTimestampWrites {
                query_set,
                beginning_of_pass_write_index: Some(0),
                end_of_pass_write_index: Some(1),
            }),
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, bind_group, &[]);
        pass.dispatch_workgroups(workgroups(count), 1, 1);
    }

    fn collect(&mut self, outputs: &[&[u8]]) {
        let gpu: &[GpuResult] = bytemuck::cast_slice(outputs[0]);
        self.results.extend(gpu.iter().map(GpuResult::to_result));
    }
}

impl NarrowPhase {
    /// Penetration depth, contact normal and contact points for every pair (GJK in distance mode, then EPA
    /// where the cores overlap), blocking until the answers are back. The GPU twin of
    /// [`crate::query::penetration_relative`] except that it never repeats a pair in float64 and has only the
    /// first try's EPA bounds: such pairs keep a named failure status for the CPU to answer.
    pub fn run_penetration(
        &mut self,
        instances: &[Instance],
        pairs: &[Pair],
        config: &GjkConfig,
    ) -> Result<GpuPenetrationBatch, GpuError> {
        let device = self.scene.device.clone();
        let job = self.epa.get_or_insert_with(|| PenetrationJob::new(&device));
        job.batch = Some(GpuPenetrationBatch {
            results: Vec::with_capacity(pairs.len()),
            penetrations: Vec::with_capacity(pairs.len()),
            timings: GpuTimings::default(),
            epa_pairs: 0,
            resolved_on_cpu: 0,
        });
        let timings = self
            .scene
            .run_job(instances, pairs, QueryKind::Distance, config, job);
        let mut batch = job.batch.take().expect("the batch set above");
        batch.timings = timings?;
        Ok(batch)
    }
}
