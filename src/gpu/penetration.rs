//! Penetration depth on the GPU: GJK over every pair, then EPA over only the pairs whose cores overlap.
//!
//! Per chunk, one submission: pass 1 (`penetration_gjk`) answers every pair it can and appends the rest to a
//! queue whose header doubles as indirect dispatch arguments; the header is copied to an indirect buffer (a
//! buffer cannot be storage and indirect in one pass) and pass 2 (`penetration_epa`) runs one invocation per
//! queued pair. Separated pairs therefore cost one GJK in distance mode and nothing more.

use super::layout::{GpuEpaTask, GpuPenetration, GpuResult, EPA_QUEUE_HEADER, RESULT_STRIDE};
use super::runner::{
    bind_group_layout, compute_pipeline, workgroups, Access, GpuTimings, KernelJob, OutputBuffer,
    Readback, SCENE_BINDINGS,
};
use super::shader::{PENETRATION_EPA, PENETRATION_GJK};
use crate::epa::Penetration;
use crate::gjk::GjkResult;

const PENETRATION_STRIDE: u64 = std::mem::size_of::<GpuPenetration>() as u64;
const TASK_STRIDE: u64 = std::mem::size_of::<GpuEpaTask>() as u64;
/// Indirect dispatch arguments: workgroups in x, y, z.
const INDIRECT_BYTES: u64 = 12;
/// Where the queue's task count sits in its header (after the three dispatch arguments).
const QUEUE_COUNT_OFFSET: u64 = 12;

/// Results of one penetration batch, in pair order and each pair's local frame (A's frame).
pub struct GpuPenetrationBatch {
    /// GJK's distance answers (as `NarrowPhase::run` in distance mode).
    pub results: Vec<GjkResult<f32>>,
    /// Depth, normal and contact points; a named status where no answer was found.
    pub penetrations: Vec<Penetration<f32>>,
    /// Upload, compute (both passes) and readback; `kernel_s` spans both passes.
    pub timings: GpuTimings,
    /// Pairs that went through the EPA pass (cores overlapping).
    pub epa_pairs: usize,
    /// Pairs whose GPU answer carried a failure status and were answered again on the CPU by
    /// `GpuPenetrationBatch::resolve_failures_on_cpu` (in [`crate::resolve`]).
    pub resolved_on_cpu: usize,
}

/// The penetration kernels' job: two passes and three outputs (GJK results, penetrations, the EPA queue).
pub(super) struct PenetrationJob {
    layout: wgpu::BindGroupLayout,
    gjk_pass: wgpu::ComputePipeline,
    epa_pass: wgpu::ComputePipeline,
    outputs: [OutputBuffer; 3],
    /// Pass 2's dispatch arguments. Every adapter with compute shaders runs indirect dispatches (GL 4.3 and
    /// GLES 3.1 brought both), so there is no direct fallback.
    indirect: wgpu::Buffer,
    pub(super) batch: Option<GpuPenetrationBatch>,
}

impl PenetrationJob {
    pub(super) fn new(device: &wgpu::Device) -> Self {
        let mut bindings = SCENE_BINDINGS.to_vec();
        bindings.extend([Access::ReadWrite; 3]);
        let layout = bind_group_layout(device, "penetration bindings", &bindings);
        let output = |label, stride, header, readback, usage| {
            OutputBuffer::new(device, label, stride, header, readback, usage)
        };
        Self {
            gjk_pass: compute_pipeline(device, &PENETRATION_GJK, &layout),
            epa_pass: compute_pipeline(device, &PENETRATION_EPA, &layout),
            layout,
            outputs: [
                output(
                    "results",
                    RESULT_STRIDE,
                    0,
                    Readback::PerPair,
                    wgpu::BufferUsages::empty(),
                ),
                output(
                    "penetrations",
                    PENETRATION_STRIDE,
                    0,
                    Readback::PerPair,
                    wgpu::BufferUsages::empty(),
                ),
                output(
                    "epa queue",
                    TASK_STRIDE,
                    EPA_QUEUE_HEADER,
                    Readback::Header {
                        offset: QUEUE_COUNT_OFFSET,
                        len: 4,
                    },
                    wgpu::BufferUsages::COPY_DST,
                ),
            ],
            indirect: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("epa indirect"),
                size: 16,
                usage: wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
            batch: None,
        }
    }
}

impl KernelJob for PenetrationJob {
    fn outputs(&self) -> &[OutputBuffer] {
        &self.outputs
    }

    fn outputs_mut(&mut self) -> &mut [OutputBuffer] {
        &mut self.outputs
    }

    fn layout(&self) -> &wgpu::BindGroupLayout {
        &self.layout
    }

    /// The queue starts empty: no workgroups for pass 2, one in y and z, no tasks.
    fn reset(&self, queue: &wgpu::Queue) {
        queue.write_buffer(
            self.outputs[2].buffer(),
            0,
            bytemuck::cast_slice(&[0u32, 1, 1, 0]),
        );
    }

    fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        bind_group: &wgpu::BindGroup,
        count: u32,
        timestamps: Option<&wgpu::QuerySet>,
    ) {
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("penetration gjk"),
                timestamp_writes: timestamps.map(|query_set| wgpu::ComputePassTimestampWrites {
                    query_set,
                    beginning_of_pass_write_index: Some(0),
                    end_of_pass_write_index: None,
                }),
            });
            pass.set_pipeline(&self.gjk_pass);
            pass.set_bind_group(0, bind_group, &[]);
            pass.dispatch_workgroups(workgroups(count), 1, 1);
        }
        encoder.copy_buffer_to_buffer(
            self.outputs[2].buffer(),
            0,
            &self.indirect,
            0,
            INDIRECT_BYTES,
        );
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("penetration epa"),
            timestamp_writes: timestamps.map(|query_set| wgpu::ComputePassTimestampWrites {
                query_set,
                beginning_of_pass_write_index: None,
                end_of_pass_write_index: Some(1),
            }),
        });
        pass.set_pipeline(&self.epa_pass);
        pass.set_bind_group(0, bind_group, &[]);
        pass.dispatch_workgroups_indirect(&self.indirect, 0);
    }

    fn collect(&mut self, outputs: &[&[u8]]) {
        let batch = self.batch.as_mut().expect("a batch in progress");
        let results: &[GpuResult] = bytemuck::cast_slice(outputs[0]);
        batch
            .results
            .extend(results.iter().map(GpuResult::to_result));
        let penetrations: &[GpuPenetration] = bytemuck::cast_slice(outputs[1]);
        batch
            .penetrations
            .extend(penetrations.iter().map(GpuPenetration::to_penetration));
        batch.epa_pairs += bytemuck::pod_read_unaligned::<u32>(outputs[2]) as usize;
    }
}
