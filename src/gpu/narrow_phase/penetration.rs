//! Penetration depth on the GPU: GJK over every pair, then EPA over only the pairs whose cores overlap.
//!
//! Per chunk, one submission: pass 1 (`penetration_gjk`) answers every pair it can and appends the rest to
//! a queue whose header doubles as indirect dispatch arguments; the header is copied to an indirect buffer
//! (a buffer cannot be storage and indirect in one pass) and pass 2 (`penetration_epa`) runs one invocation
//! per queued pair. Separated pairs therefore cost one GJK in distance mode and nothing more.

use super::{
    chunk_ranges, storage_entry, uniform_entry, ChunkLimits, GpuTimings, NarrowPhase,
    RESULT_STRIDE, WORKGROUP_SIZE,
};
use crate::epa::Penetration;
use crate::gjk::{GjkConfig, GjkResult, QueryKind};
use crate::gpu::buffers::GrowBuffer;
use crate::gpu::layout::{GpuEpaTask, GpuPenetration, GpuResult, EPA_QUEUE_HEADER, PAIR_STRIDE};
use crate::gpu::shader::epa_shader_source;
use crate::gpu::GpuError;
use crate::instance::Instance;
use std::time::Instant;

const PENETRATION_STRIDE: u64 = std::mem::size_of::<GpuPenetration>() as u64;
const TASK_STRIDE: u64 = std::mem::size_of::<GpuEpaTask>() as u64;
/// Indirect dispatch arguments: workgroups in x, y, z.
const INDIRECT_BYTES: u64 = 12;

/// Results of one penetration batch, in pair order and each pair's local frame (A's frame).
pub struct GpuPenetrationBatch {
    /// GJK's distance answers (as [`NarrowPhase::run`] with [`QueryKind::Distance`]).
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

/// The penetration pipelines and their buffers, built on first use.
pub(super) struct EpaResources {
    bind_layout: wgpu::BindGroupLayout,
    gjk_pass: wgpu::ComputePipeline,
    epa_pass: wgpu::ComputePipeline,
    penetrations: GrowBuffer,
    readback: GrowBuffer,
    queue: GrowBuffer,
    /// Pass 2's dispatch arguments. Every adapter with compute shaders runs indirect dispatches (GL 4.3 and
    /// GLES 3.1 brought both), so there is no direct fallback.
    indirect: wgpu::Buffer,
    /// The queue's task count, read back per chunk.
    count_readback: wgpu::Buffer,
}

impl EpaResources {
    fn new(device: &wgpu::Device) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("epa.wgsl"),
            source: wgpu::ShaderSource::Wgsl(epa_shader_source().into()),
        });
        let bind_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("epa bindings"),
            entries: &[
                uniform_entry(0),
                storage_entry(1, true),
                storage_entry(2, true),
                storage_entry(3, true),
                storage_entry(4, true),
                storage_entry(5, false),
                storage_entry(6, false),
                storage_entry(7, false),
            ],
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("epa layout"),
            bind_group_layouts: &[Some(&bind_layout)],
            immediate_size: 0,
        });
        let pipeline = |entry: &'static str| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: Some(&layout),
                module: &module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            })
        };
        let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
        Self {
            bind_layout,
            gjk_pass: pipeline("penetration_gjk"),
            epa_pass: pipeline("penetration_epa"),
            penetrations: GrowBuffer::new(device, "penetrations", storage),
            readback: GrowBuffer::new(
                device,
                "penetrations readback",
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            ),
            queue: GrowBuffer::new(device, "epa queue", storage | wgpu::BufferUsages::COPY_DST),
            indirect: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("epa indirect"),
                size: 16,
                usage: wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
            count_readback: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("epa count readback"),
                size: 4,
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
        }
    }
}

impl NarrowPhase {
    /// Most pairs per penetration chunk: the GJK chunk, further limited so the EPA queue (one task per pair
    /// at worst) fits one storage binding.
    fn penetration_chunk(&self) -> usize {
        let binding = self.max_binding.min(self.max_buffer);
        let by_queue = (binding.saturating_sub(EPA_QUEUE_HEADER) / TASK_STRIDE) as u32;
        let chunk = self.limits.max_pairs_per_chunk.min(by_queue);
        let rounded = chunk / WORKGROUP_SIZE * WORKGROUP_SIZE;
        (if rounded == 0 { chunk } else { rounded }).max(1) as usize
    }

    /// Penetration depth, contact normal and contact points for every pair (GJK in distance mode, then EPA
    /// where the cores overlap), blocking until the answers are back. The GPU twin of
    /// [`crate::query::penetration_relative`] except that it never repeats a pair in float64: a pair whose
    /// float32 polytope degenerates keeps the `Degenerate` status.
    pub fn run_penetration(
        &mut self,
        instances: &[Instance],
        pairs: &[[u32; 2]],
        config: &GjkConfig,
    ) -> Result<GpuPenetrationBatch, GpuError> {
        let start = Instant::now();
        self.ensure_idle()?;
        self.check_indices(instances, pairs)?;
        let mut batch = GpuPenetrationBatch {
            results: Vec::with_capacity(pairs.len()),
            penetrations: Vec::with_capacity(pairs.len()),
            timings: GpuTimings::default(),
            epa_pairs: 0,
            resolved_on_cpu: 0,
        };
        if pairs.is_empty() {
            batch.timings.total_s = start.elapsed().as_secs_f64();
            return Ok(batch);
        }
        if self.epa.is_none() {
            self.epa = Some(EpaResources::new(&self.device));
        }

        let limits = ChunkLimits {
            max_pairs_per_chunk: self.penetration_chunk() as u32,
            ..self.limits
        };
        let ranges = chunk_ranges(pairs, instances, &self.hull_points, limits);
        let largest = ranges.iter().map(|r| r.len()).max().unwrap_or(0) as u64;
        self.prepare(instances, largest);
        {
            let epa = self.epa.as_mut().expect("built above");
            epa.penetrations
                .ensure(&self.device, largest * PENETRATION_STRIDE, self.max_buffer);
            epa.readback
                .ensure(&self.device, largest * PENETRATION_STRIDE, self.max_buffer);
            epa.queue.ensure(
                &self.device,
                EPA_QUEUE_HEADER + largest * TASK_STRIDE,
                self.max_buffer,
            );
        }

        let mut kernel_ns = 0.0;
        for range in ranges {
            let chunk_pairs = &pairs[range];
            let count = chunk_pairs.len() as u32;
            let epa = self.epa.as_ref().expect("built above");
            let t0 = Instant::now();
            self.queue
                .write_buffer(self.pairs.buffer(), 0, bytemuck::cast_slice(chunk_pairs));
            self.write_params(count, QueryKind::Distance, config);
            // Queue header: no workgroups yet, y = z = 1, no tasks.
            self.queue.write_buffer(
                epa.queue.buffer(),
                0,
                bytemuck::cast_slice(&[0u32, 1, 1, 0]),
            );
            self.queue.submit([]);
            self.wait()?;
            let t1 = Instant::now();

            let mut encoder = self
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("penetration dispatch"),
                });
            self.encode_penetration(&mut encoder, count);
            self.queue.submit([encoder.finish()]);
            self.wait()?;
            let t2 = Instant::now();
            kernel_ns += self.read_kernel_ns()?;

            let t3 = Instant::now();
            let result_bytes = count as u64 * RESULT_STRIDE;
            let penetration_bytes = count as u64 * PENETRATION_STRIDE;
            let mut encoder = self
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("penetration readback"),
                });
            encoder.copy_buffer_to_buffer(
                self.results.buffer(),
                0,
                self.readback.buffer(),
                0,
                result_bytes,
            );
            encoder.copy_buffer_to_buffer(
                epa.penetrations.buffer(),
                0,
                epa.readback.buffer(),
                0,
                penetration_bytes,
            );
            encoder.copy_buffer_to_buffer(epa.queue.buffer(), 12, &epa.count_readback, 0, 4);
            self.queue.submit([encoder.finish()]);
            self.read_mapped(self.readback.buffer(), result_bytes, |bytes| {
                let gpu: &[GpuResult] = bytemuck::cast_slice(bytes);
                batch.results.extend(gpu.iter().map(GpuResult::to_result));
            })?;
            self.read_mapped(epa.readback.buffer(), penetration_bytes, |bytes| {
                let gpu: &[GpuPenetration] = bytemuck::cast_slice(bytes);
                batch
                    .penetrations
                    .extend(gpu.iter().map(GpuPenetration::to_penetration));
            })?;
            batch.epa_pairs += self.read_mapped(&epa.count_readback, 4, |bytes| {
                bytemuck::pod_read_unaligned::<u32>(bytes) as usize
            })?;
            let t4 = Instant::now();

            batch.timings.upload_s += (t1 - t0).as_secs_f64();
            batch.timings.compute_s += (t2 - t1).as_secs_f64();
            batch.timings.readback_s += (t4 - t3).as_secs_f64();
            batch.timings.chunks += 1;
        }
        batch.timings.kernel_s = self.timestamps.as_ref().map(|_| kernel_ns * 1e-9);
        batch.timings.total_s = start.elapsed().as_secs_f64();
        Ok(batch)
    }

    /// Records both passes for `count` pairs, with timestamps from the start of the first to the end of the
    /// second where supported.
    fn encode_penetration(&self, encoder: &mut wgpu::CommandEncoder, count: u32) {
        let epa = self.epa.as_ref().expect("built before encoding");
        let bind_group = self.penetration_bind_group(epa, count);
        let timestamps = self.timestamps.as_ref();
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("penetration gjk"),
                timestamp_writes: timestamps.map(|t| wgpu::ComputePassTimestampWrites {
                    query_set: &t.query_set,
                    beginning_of_pass_write_index: Some(0),
                    end_of_pass_write_index: None,
                }),
            });
            pass.set_pipeline(&epa.gjk_pass);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(count.div_ceil(WORKGROUP_SIZE), 1, 1);
        }
        encoder.copy_buffer_to_buffer(epa.queue.buffer(), 0, &epa.indirect, 0, INDIRECT_BYTES);
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("penetration epa"),
                timestamp_writes: timestamps.map(|t| wgpu::ComputePassTimestampWrites {
                    query_set: &t.query_set,
                    beginning_of_pass_write_index: None,
                    end_of_pass_write_index: Some(1),
                }),
            });
            pass.set_pipeline(&epa.epa_pass);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups_indirect(&epa.indirect, 0);
        }
        if let Some(t) = timestamps {
            encoder.resolve_query_set(&t.query_set, 0..2, &t.resolve, 0);
            encoder.copy_buffer_to_buffer(&t.resolve, 0, &t.readback, 0, 16);
        }
    }

    fn penetration_bind_group(&self, epa: &EpaResources, count: u32) -> wgpu::BindGroup {
        let range = |buffer, bytes: u64| {
            wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer,
                offset: 0,
                size: std::num::NonZeroU64::new(bytes.max(16)),
            })
        };
        let count = count as u64;
        let resources = [
            self.params.as_entire_binding(),
            self.vertices.as_entire_binding(),
            self.hulls.as_entire_binding(),
            self.instances.buffer().as_entire_binding(),
            range(self.pairs.buffer(), count * PAIR_STRIDE),
            range(self.results.buffer(), count * RESULT_STRIDE),
            range(epa.penetrations.buffer(), count * PENETRATION_STRIDE),
            range(epa.queue.buffer(), EPA_QUEUE_HEADER + count * TASK_STRIDE),
        ];
        let entries: Vec<wgpu::BindGroupEntry> = resources
            .into_iter()
            .enumerate()
            .map(|(binding, resource)| wgpu::BindGroupEntry {
                binding: binding as u32,
                resource,
            })
            .collect();
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("epa bind group"),
            layout: &epa.bind_layout,
            entries: &entries,
        })
    }
}
