//! One runner for every kernel: bind group layouts and pipelines built from a kernel's bindings, output buffers
//! that grow with the chunk and are read back after it, the chunk loop with its timings, and the map-and-wait
//! readback that the renderer's screenshot and the tests use too.
//!
//! A kernel's run is a [`KernelJob`]: its outputs (bindings 5 onwards, after the scene's 0 to 4), how to
//! encode one chunk (one pass or two) and what to do with the bytes read back.

use super::buffers::GrowBuffer;
use super::chunks::{chunk_ranges, ChunkLimits};
use super::layout::PAIR_STRIDE;
use super::scene::Scene;
use super::shader::Kernel;
use super::GpuError;
use crate::gjk::{GjkConfig, QueryKind};
use crate::instance::{Instance, Pair};
use std::time::Instant;

/// Where the time of one batch went, in seconds. Each phase ends with a wait for the GPU, so the phases add up
/// to the end-to-end time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GpuTimings {
    /// Writing instances, pairs and settings to the GPU.
    pub upload_s: f64,
    /// Submit to completion of the kernel's dispatches (wall clock, includes submission overhead).
    pub compute_s: f64,
    /// Kernel time from timestamp queries, where the adapter supports them.
    pub kernel_s: Option<f64>,
    /// Copying results back and mapping them.
    pub readback_s: f64,
    /// The whole call.
    pub total_s: f64,
    /// Dispatches the batch was split into.
    pub chunks: u32,
}

/// How a kernel binds a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Uniform,
    Read,
    ReadWrite,
}

/// The scene's bindings, 0 to 4, in every kernel: settings, vertex pool, hull table, instances, pairs
/// (`shaders/shared/scene.wgsl`).
pub const SCENE_BINDINGS: [Access; 5] = [
    Access::Uniform,
    Access::Read,
    Access::Read,
    Access::Read,
    Access::Read,
];

/// A bind group layout with one compute-visible buffer per entry of `bindings`, numbered from 0.
pub fn bind_group_layout(
    device: &wgpu::Device,
    label: &str,
    bindings: &[Access],
) -> wgpu::BindGroupLayout {
    let entries: Vec<wgpu::BindGroupLayoutEntry> = bindings
        .iter()
        .enumerate()
        .map(|(binding, access)| wgpu::BindGroupLayoutEntry {
            binding: binding as u32,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: match access {
                    Access::Uniform => wgpu::BufferBindingType::Uniform,
                    Access::Read => wgpu::BufferBindingType::Storage { read_only: true },
                    Access::ReadWrite => wgpu::BufferBindingType::Storage { read_only: false },
                },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        })
        .collect();
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
        entries: &entries,
    })
}

/// The compute pipeline of `kernel` (assembled from its WGSL files) over `layout`.
pub fn compute_pipeline(
    device: &wgpu::Device,
    kernel: &Kernel,
    layout: &wgpu::BindGroupLayout,
) -> wgpu::ComputePipeline {
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(kernel.file.path),
        source: wgpu::ShaderSource::Wgsl(kernel.source().into()),
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(kernel.name),
        bind_group_layouts: &[Some(layout)],
        immediate_size: 0,
    });
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(kernel.name),
        layout: Some(&pipeline_layout),
        module: &module,
        entry_point: Some(kernel.name),
        compilation_options: Default::default(),
        cache: None,
    })
}

/// Maps the first `size` bytes of `buffer` (MAP_READ), waits for the device, hands the bytes to `read` and
/// unmaps: the one blocking readback of the crate.
pub fn read_buffer<T>(
    device: &wgpu::Device,
    buffer: &wgpu::Buffer,
    size: u64,
    read: impl FnOnce(&[u8]) -> T,
) -> Result<T, GpuError> {
    let slice = buffer.slice(..size);
    let (sender, receiver) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = sender.send(r);
    });
    wait(device)?;
    receiver
        .recv()
        .map_err(|e| GpuError::Readback(e.to_string()))?
        .map_err(|e| GpuError::Readback(e.to_string()))?;
    let out = {
        let view = slice
            .get_mapped_range()
            .map_err(|e| GpuError::Readback(e.to_string()))?;
        read(&view)
    };
    buffer.unmap();
    Ok(out)
}

/// [`read_buffer`] for several buffers at once, with one wait.
pub fn read_buffers<T>(
    device: &wgpu::Device,
    buffers: &[(&wgpu::Buffer, u64)],
    read: impl FnOnce(&[&[u8]]) -> T,
) -> Result<T, GpuError> {
    let receivers: Vec<_> = buffers
        .iter()
        .map(|(buffer, size)| {
            let (sender, receiver) = std::sync::mpsc::channel();
            buffer
                .slice(..*size)
                .map_async(wgpu::MapMode::Read, move |r| {
                    let _ = sender.send(r);
                });
            receiver
        })
        .collect();
    wait(device)?;
    for receiver in receivers {
        receiver
            .recv()
            .map_err(|e| GpuError::Readback(e.to_string()))?
            .map_err(|e| GpuError::Readback(e.to_string()))?;
    }
    let out = {
        let views = buffers
            .iter()
            .map(|(buffer, size)| buffer.slice(..*size).get_mapped_range())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| GpuError::Readback(e.to_string()))?;
        let slices: Vec<&[u8]> = views.iter().map(|v| &v[..]).collect();
        read(&slices)
    };
    for (buffer, _) in buffers {
        buffer.unmap();
    }
    Ok(out)
}

/// Blocks until the device has finished everything submitted.
pub fn wait(device: &wgpu::Device) -> Result<(), GpuError> {
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map(|_| ())
        .map_err(|e| GpuError::Device {
            adapter: String::from("current device"),
            reason: e.to_string(),
        })
}

/// What of an output buffer comes back after a chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Readback {
    /// `stride` bytes per pair of the chunk.
    PerPair,
    /// `len` bytes of the header at `offset` (a queue's count).
    Header { offset: u64, len: u64 },
}

/// A kernel's output: a storage buffer of `header` bytes plus `stride` per pair, bound for the chunk's pairs,
/// and its readback buffer.
pub struct OutputBuffer {
    pub stride: u64,
    pub header: u64,
    pub readback: Readback,
    storage: GrowBuffer,
    mapped: GrowBuffer,
}

impl OutputBuffer {
    /// `extra_usage` adds to STORAGE | COPY_SRC (a queue is also written, COPY_DST, to clear its header).
    pub fn new(
        device: &wgpu::Device,
        label: &'static str,
        stride: u64,
        header: u64,
        readback: Readback,
        extra_usage: wgpu::BufferUsages,
    ) -> Self {
        let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | extra_usage;
        Self {
            stride,
            header,
            readback,
            storage: GrowBuffer::new(device, label, usage),
            mapped: GrowBuffer::new(
                device,
                label,
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            ),
        }
    }

    pub fn buffer(&self) -> &wgpu::Buffer {
        self.storage.buffer()
    }

    fn bytes(&self, pairs: u64) -> u64 {
        self.header + pairs * self.stride
    }

    /// The most pairs whose output fits `limit` bytes.
    fn max_pairs(&self, limit: u64) -> u64 {
        limit.saturating_sub(self.header) / self.stride.max(1)
    }

    fn ensure(&mut self, device: &wgpu::Device, pairs: u64, max_buffer: u64) {
        self.storage.ensure(device, self.bytes(pairs), max_buffer);
        let read = match self.readback {
            Readback::PerPair => self.bytes(pairs),
            Readback::Header { offset, len } => offset + len,
        };
        self.mapped.ensure(device, read, max_buffer);
    }

    fn binding(&self, pairs: u64) -> wgpu::BindingResource<'_> {
        range(self.storage.buffer(), self.bytes(pairs))
    }

    /// The bytes to copy back for `pairs`, as (source offset, length).
    fn read_range(&self, pairs: u64) -> (u64, u64) {
        match self.readback {
            Readback::PerPair => (self.header, pairs * self.stride),
            Readback::Header { offset, len } => (offset, len),
        }
    }
}

fn range(buffer: &wgpu::Buffer, bytes: u64) -> wgpu::BindingResource<'_> {
    wgpu::BindingResource::Buffer(wgpu::BufferBinding {
        buffer,
        offset: 0,
        size: std::num::NonZeroU64::new(bytes.max(16)),
    })
}

/// One kernel's run over a batch.
pub trait KernelJob {
    /// The kernel's outputs, bound from binding 5 on in this order.
    fn outputs(&self) -> &[OutputBuffer];
    fn outputs_mut(&mut self) -> &mut [OutputBuffer];
    fn layout(&self) -> &wgpu::BindGroupLayout;
    /// Records the chunk's passes (and whatever they need between them) for `count` pairs. `timestamps` are
    /// to be written at the start of the first pass and the end of the last one.
    fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        bind_group: &wgpu::BindGroup,
        count: u32,
        timestamps: Option<&wgpu::QuerySet>,
    );
    /// Before a chunk runs: clear what must start empty (a queue's header).
    fn reset(&self, _queue: &wgpu::Queue) {}
    /// The bytes read back from each output for one chunk, in output order.
    fn collect(&mut self, outputs: &[&[u8]]);
}

/// The dispatch of `count` pairs in workgroups of [`WORKGROUP_SIZE`](super::WORKGROUP_SIZE).
pub fn workgroups(count: u32) -> u32 {
    count.div_ceil(super::WORKGROUP_SIZE)
}

impl Scene {
    /// Runs `job` over `pairs` chunk by chunk, blocking until every chunk's outputs are collected. Indices are
    /// checked first, so a bad batch fails whole with the index named.
    pub(super) fn run_job(
        &mut self,
        instances: &[Instance],
        pairs: &[Pair],
        kind: QueryKind,
        config: &GjkConfig,
        job: &mut dyn KernelJob,
    ) -> Result<GpuTimings, GpuError> {
        let start = Instant::now();
        self.check_indices(instances, pairs)?;
        let mut timings = GpuTimings::default();
        if pairs.is_empty() {
            timings.total_s = start.elapsed().as_secs_f64();
            return Ok(timings);
        }
        let limits = self.job_limits(job);
        let ranges = chunk_ranges(pairs, instances, &self.hull_points, limits);
        let largest = ranges.iter().map(|r| r.len()).max().unwrap_or(0) as u64;
        self.prepare(instances, largest);
        for output in job.outputs_mut() {
            output.ensure(&self.device, largest, self.max_buffer);
        }
        let mut kernel_ns = 0.0;
        for range in ranges {
            let chunk = &pairs[range];
            let count = chunk.len() as u32;
            let t0 = Instant::now();
            self.queue
                .write_buffer(self.pairs.buffer(), 0, bytemuck::cast_slice(chunk));
            self.write_params(count, kind, config);
            job.reset(&self.queue);
            self.queue.submit([]);
            wait(&self.device)?;
            let t1 = Instant::now();

            let bind_group = self.bind_group(job, count as u64);
            let mut encoder = self
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("chunk"),
                });
            job.encode(
                &mut encoder,
                &bind_group,
                count,
                self.timestamps.as_ref().map(|t| &t.query_set),
            );
            if let Some(t) = &self.timestamps {
                encoder.resolve_query_set(&t.query_set, 0..2, &t.resolve, 0);
                encoder.copy_buffer_to_buffer(&t.resolve, 0, &t.readback, 0, 16);
            }
            self.queue.submit([encoder.finish()]);
            wait(&self.device)?;
            let t2 = Instant::now();
            kernel_ns += self.read_kernel_ns()?;

            let t3 = Instant::now();
            self.read_outputs(job, count as u64)?;
            let t4 = Instant::now();
            timings.upload_s += (t1 - t0).as_secs_f64();
            timings.compute_s += (t2 - t1).as_secs_f64();
            timings.readback_s += (t4 - t3).as_secs_f64();
            timings.chunks += 1;
        }
        timings.kernel_s = self.timestamps.as_ref().map(|_| kernel_ns * 1e-9);
        timings.total_s = start.elapsed().as_secs_f64();
        Ok(timings)
    }

    /// The chunk limits for `job`: the device's, further limited so that every output fits one storage
    /// binding and one buffer, rounded down to whole workgroups.
    fn job_limits(&self, job: &dyn KernelJob) -> ChunkLimits {
        let binding = self.max_binding.min(self.max_buffer);
        let by_outputs = job
            .outputs()
            .iter()
            .map(|o| o.max_pairs(binding))
            .min()
            .unwrap_or(u64::MAX);
        let chunk = (self.limits.max_pairs_per_chunk as u64).min(by_outputs) as u32;
        let rounded = chunk / super::WORKGROUP_SIZE * super::WORKGROUP_SIZE;
        ChunkLimits {
            max_pairs_per_chunk: (if rounded == 0 { chunk } else { rounded }).max(1),
            ..self.limits
        }
    }

    fn bind_group(&self, job: &dyn KernelJob, pairs: u64) -> wgpu::BindGroup {
        let mut resources = vec![
            self.params.as_entire_binding(),
            self.vertices.as_entire_binding(),
            self.hulls.as_entire_binding(),
            self.instances.buffer().as_entire_binding(),
            range(self.pairs.buffer(), pairs * PAIR_STRIDE),
        ];
        resources.extend(job.outputs().iter().map(|o| o.binding(pairs)));
        let entries: Vec<wgpu::BindGroupEntry> = resources
            .into_iter()
            .enumerate()
            .map(|(binding, resource)| wgpu::BindGroupEntry {
                binding: binding as u32,
                resource,
            })
            .collect();
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("kernel bind group"),
            layout: job.layout(),
            entries: &entries,
        })
    }

    /// Copies every output's chunk bytes to its readback buffer in one submission, maps them all with one wait
    /// and hands them to the job.
    fn read_outputs(&self, job: &mut dyn KernelJob, pairs: u64) -> Result<(), GpuError> {
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("readback"),
            });
        for output in job.outputs().iter() {
            let (offset, len) = output.read_range(pairs);
            encoder.copy_buffer_to_buffer(output.buffer(), offset, output.mapped.buffer(), 0, len);
        }
        self.queue.submit([encoder.finish()]);
        // Buffer handles are shared references, so the job can take the bytes while they are mapped.
        let mapped: Vec<(wgpu::Buffer, u64)> = job
            .outputs()
            .iter()
            .map(|o| (o.mapped.buffer().clone(), o.read_range(pairs).1))
            .collect();
        let buffers: Vec<(&wgpu::Buffer, u64)> = mapped.iter().map(|(b, len)| (b, *len)).collect();
        read_buffers(&self.device, &buffers, |views| job.collect(views))
    }

    /// Kernel time of the last chunk from its resolved timestamps, in nanoseconds (0 without timestamp
    /// queries).
    fn read_kernel_ns(&self) -> Result<f64, GpuError> {
        let Some(t) = &self.timestamps else {
            return Ok(0.0);
        };
        let ticks = read_buffer(&self.device, &t.readback, 16, |bytes| {
            let stamps: &[u64] = bytemuck::cast_slice(bytes);
            stamps[1].saturating_sub(stamps[0])
        })?;
        Ok(ticks as f64 * t.period_ns)
    }
}
