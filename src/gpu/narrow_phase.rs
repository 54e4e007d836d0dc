//! The GPU batch narrow phase: hulls uploaded once, then batches of (instances, pairs) run through the GJK
//! kernel in chunks that respect the device's limits, and the results read back.

mod penetration;

pub use penetration::GpuPenetrationBatch;

use super::buffers::GrowBuffer;
use super::layout::{
    pack_hulls, padded_len, GpuInstance, GpuParams, GpuResult, LOOP_PROBE_TRIPS, PAIR_STRIDE,
};
use super::shader::gjk_shader_source;
use super::GpuError;
use crate::gjk::{GjkConfig, GjkResult, QueryKind};
use crate::instance::Instance;
use crate::shape::ConvexShape;
use std::time::Instant;

/// Invocations per workgroup; keep in sync with `@workgroup_size` in `shaders/gjk.wgsl`.
pub const WORKGROUP_SIZE: u32 = 64;
const RESULT_STRIDE: u64 = std::mem::size_of::<GpuResult>() as u64;
const INSTANCE_STRIDE: u64 = std::mem::size_of::<GpuInstance>() as u64;

/// How many pairs one dispatch may hold. Derived from the device limits; tests shrink it to exercise
/// chunking on small batches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkLimits {
    pub max_pairs_per_chunk: u32,
    /// Most estimated support-scan work (points visited, see [`pair_work`]) per dispatch. Real GPUs reset a
    /// dispatch that runs for seconds (Windows' watchdog allows about 2 s); at 2^31 visits a dispatch stays in
    /// the milliseconds on any discrete GPU, and batches of small hulls never reach it.
    pub max_work_per_chunk: u64,
}

/// [`ChunkLimits::max_work_per_chunk`] unless a caller asks otherwise.
pub const DEFAULT_MAX_WORK_PER_CHUNK: u64 = 1 << 31;

/// Support scans a GJK query typically makes per hull (the random mix needs 3 to 15 iterations).
const SCANS_PER_PAIR: u64 = 16;

/// The estimated work of one pair: points scanned per support call on both hulls, times the scans.
pub fn pair_work(points_a: u32, points_b: u32) -> u64 {
    (padded_len(points_a as usize) + padded_len(points_b as usize)) as u64 * SCANS_PER_PAIR
}

/// Consecutive ranges of `pairs` with at most `max_pairs` pairs and at most `max_work` estimated work each
/// (a single pair over the work bound gets a range of its own).
pub fn chunk_ranges(
    pairs: &[[u32; 2]],
    instances: &[Instance],
    hull_points: &[u32],
    limits: ChunkLimits,
) -> Vec<std::ops::Range<usize>> {
    let max_pairs = limits.max_pairs_per_chunk.max(1) as usize;
    let mut ranges = Vec::with_capacity(pairs.len() / max_pairs + 1);
    let mut start = 0;
    let mut work = 0u64;
    for (k, pair) in pairs.iter().enumerate() {
        let points = |i: u32| hull_points[instances[i as usize].shape as usize];
        let w = pair_work(points(pair[0]), points(pair[1]));
        if k > start && (k - start == max_pairs || work + w > limits.max_work_per_chunk) {
            ranges.push(start..k);
            start = k;
            work = 0;
        }
        work += w;
    }
    if start < pairs.len() {
        ranges.push(start..pairs.len());
    }
    ranges
}

impl ChunkLimits {
    /// The largest chunk whose pairs and results each fit one storage binding and one buffer, and whose
    /// workgroups fit one dispatch dimension; a multiple of the workgroup size.
    pub fn from_device(limits: &wgpu::Limits) -> Self {
        let binding = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        let by_results = binding / RESULT_STRIDE;
        let by_pairs = binding / PAIR_STRIDE;
        let by_groups = limits.max_compute_workgroups_per_dimension as u64 * WORKGROUP_SIZE as u64;
        let max = by_results.min(by_pairs).min(by_groups).min(u32::MAX as u64) as u32;
        Self {
            max_pairs_per_chunk: (max / WORKGROUP_SIZE * WORKGROUP_SIZE).max(WORKGROUP_SIZE),
            max_work_per_chunk: DEFAULT_MAX_WORK_PER_CHUNK,
        }
    }
}

/// Where the time of one batch went, in seconds. Each phase ends with a wait for the GPU, so the phases
/// add up to the end-to-end time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GpuTimings {
    /// Writing instances, pairs and settings to the GPU.
    pub upload_s: f64,
    /// Submit to completion of the GJK dispatches (wall clock, includes submission overhead).
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

/// Results of one batch, in pair order and each pair's local frame.
pub struct GpuBatch {
    pub results: Vec<GjkResult<f32>>,
    pub timings: GpuTimings,
    /// Pairs whose GPU answer carried a failure status and were answered again on the CPU by
    /// `GpuBatch::resolve_failures_on_cpu` (in [`crate::resolve`]).
    pub resolved_on_cpu: usize,
}

struct Timestamps {
    query_set: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    readback: wgpu::Buffer,
    period_ns: f64,
}

/// The narrow phase bound to one device. Create it once, upload hulls once, run many batches.
pub struct NarrowPhase {
    device: wgpu::Device,
    queue: wgpu::Queue,
    pipeline: wgpu::ComputePipeline,
    bind_layout: wgpu::BindGroupLayout,
    vertices: wgpu::Buffer,
    hulls: wgpu::Buffer,
    hull_count: u32,
    /// Points of each uploaded hull, for the work estimate of a chunk.
    hull_points: Vec<u32>,
    instances: GrowBuffer,
    pairs: GrowBuffer,
    results: GrowBuffer,
    readback: GrowBuffer,
    params: wgpu::Buffer,
    limits: ChunkLimits,
    max_buffer: u64,
    max_binding: u64,
    timestamps: Option<Timestamps>,
    in_flight: Option<InFlight>,
    /// The penetration (EPA) pipelines, built by the first `run_penetration`.
    epa: Option<penetration::EpaResources>,
}

/// A batch submitted with [`NarrowPhase::submit`] whose results are not collected yet.
struct InFlight {
    pairs: usize,
    mapped: std::sync::mpsc::Receiver<Result<(), wgpu::BufferAsyncError>>,
}

fn uniform_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

fn storage_entry(binding: u32, read_only: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

impl NarrowPhase {
    /// Builds the pipeline on a device the caller owns (see [`super::GpuContext`]), with chunk limits from
    /// the device.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        Self::with_limits(device, queue, ChunkLimits::from_device(&device.limits()))
    }

    /// Like [`NarrowPhase::new`] with explicit chunk limits (capped by the device's own).
    pub fn with_limits(device: &wgpu::Device, queue: &wgpu::Queue, limits: ChunkLimits) -> Self {
        let device_limits = device.limits();
        let limits = ChunkLimits {
            max_pairs_per_chunk: limits
                .max_pairs_per_chunk
                .min(ChunkLimits::from_device(&device_limits).max_pairs_per_chunk)
                .max(1),
            max_work_per_chunk: limits.max_work_per_chunk.max(1),
        };
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("gjk.wgsl"),
            source: wgpu::ShaderSource::Wgsl(gjk_shader_source().into()),
        });
        let bind_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("gjk bindings"),
            entries: &[
                uniform_entry(0),
                storage_entry(1, true),
                storage_entry(2, true),
                storage_entry(3, true),
                storage_entry(4, true),
                storage_entry(5, false),
            ],
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("gjk layout"),
            bind_group_layouts: &[Some(&bind_layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("gjk pipeline"),
            layout: Some(&layout),
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST;
        let timestamps = device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
            .then(|| Timestamps {
                query_set: device.create_query_set(&wgpu::QuerySetDescriptor {
                    label: Some("gjk timestamps"),
                    ty: wgpu::QueryType::Timestamp,
                    count: 2,
                }),
                resolve: device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("timestamp resolve"),
                    size: 16,
                    usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                    mapped_at_creation: false,
                }),
                readback: device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("timestamp readback"),
                    size: 16,
                    usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                }),
                period_ns: queue.get_timestamp_period() as f64,
            });
        let empty = |label| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: 16,
                usage: storage,
                mapped_at_creation: false,
            })
        };
        Self {
            device: device.clone(),
            queue: queue.clone(),
            pipeline,
            bind_layout,
            vertices: empty("vertex pool"),
            hulls: empty("hull table"),
            hull_count: 0,
            hull_points: Vec::new(),
            instances: GrowBuffer::new(device, "instances", storage),
            pairs: GrowBuffer::new(device, "pairs", storage),
            results: GrowBuffer::new(
                device,
                "results",
                wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            ),
            readback: GrowBuffer::new(
                device,
                "results readback",
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            ),
            params: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("gjk params"),
                size: std::mem::size_of::<GpuParams>() as u64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
            limits,
            max_buffer: device_limits.max_buffer_size,
            max_binding: device_limits.max_storage_buffer_binding_size,
            timestamps,
            in_flight: None,
            epa: None,
        }
    }

    pub fn limits(&self) -> ChunkLimits {
        self.limits
    }

    /// Whether kernel times come from timestamp queries.
    pub fn has_timestamps(&self) -> bool {
        self.timestamps.is_some()
    }

    /// Uploads the hulls every later batch refers to (by index), replacing any earlier set.
    pub fn upload_hulls(&mut self, shapes: &[ConvexShape]) -> Result<(), GpuError> {
        let (vertices, hulls) = pack_hulls(shapes);
        let vertex_bytes: &[u8] = bytemuck::cast_slice(&vertices);
        let hull_bytes: &[u8] = bytemuck::cast_slice(&hulls);
        let limit = self.max_binding.min(self.max_buffer);
        if vertex_bytes.len() as u64 > limit {
            return Err(GpuError::TooLarge {
                what: "vertex pool",
                bytes: vertex_bytes.len() as u64,
                limit,
            });
        }
        let make = |label, bytes: &[u8]| {
            let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: (bytes.len() as u64).max(16),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            self.queue.write_buffer(&buffer, 0, bytes);
            buffer
        };
        self.vertices = make("vertex pool", vertex_bytes);
        self.hulls = make("hull table", hull_bytes);
        self.hull_count = hulls.len() as u32;
        self.hull_points = hulls.iter().map(|h| h.count).collect();
        Ok(())
    }

    fn check_indices(&self, instances: &[Instance], pairs: &[[u32; 2]]) -> Result<(), GpuError> {
        if let Some((i, inst)) = instances
            .iter()
            .enumerate()
            .find(|(_, inst)| inst.shape >= self.hull_count)
        {
            return Err(GpuError::BadIndex(format!(
                "instance {i} refers to hull {}, but {} hulls are uploaded",
                inst.shape, self.hull_count
            )));
        }
        let n = instances.len() as u32;
        if let Some((p, pair)) = pairs
            .iter()
            .enumerate()
            .find(|(_, pair)| pair[0] >= n || pair[1] >= n)
        {
            return Err(GpuError::BadIndex(format!(
                "pair {p} refers to instances {:?}, but there are only {n} instances",
                pair
            )));
        }
        let bytes = instances.len() as u64 * INSTANCE_STRIDE;
        let limit = self.max_binding.min(self.max_buffer);
        if bytes > limit {
            return Err(GpuError::TooLarge {
                what: "instance buffer",
                bytes,
                limit,
            });
        }
        Ok(())
    }

    fn wait(&self) -> Result<(), GpuError> {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map(|_| ())
            .map_err(|e| GpuError::Device {
                adapter: String::from("current device"),
                reason: e.to_string(),
            })
    }

    /// Maps `size` bytes of `buffer`, waits, and hands the bytes to `read`.
    fn read_mapped<T>(
        &self,
        buffer: &wgpu::Buffer,
        size: u64,
        read: impl FnOnce(&[u8]) -> T,
    ) -> Result<T, GpuError> {
        let slice = buffer.slice(..size);
        let (sender, receiver) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = sender.send(r);
        });
        self.wait()?;
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

    /// Kernel time of the last timed submission from its resolved timestamps, in nanoseconds (0 without
    /// timestamp queries).
    fn read_kernel_ns(&self) -> Result<f64, GpuError> {
        let Some(t) = &self.timestamps else {
            return Ok(0.0);
        };
        let ticks = self.read_mapped(&t.readback, 16, |bytes| {
            let stamps: &[u64] = bytemuck::cast_slice(bytes);
            stamps[1].saturating_sub(stamps[0])
        })?;
        Ok(ticks as f64 * t.period_ns)
    }

    fn write_params(&self, count: u32, kind: QueryKind, config: &GjkConfig) {
        let params = GpuParams {
            pair_count: count,
            max_iterations: config.max_iterations,
            kind: match kind {
                QueryKind::Intersection => 0,
                QueryKind::Distance => 1,
            },
            touch_tolerance: config.touch_tolerance as f32,
            loop_probe: LOOP_PROBE_TRIPS,
            pad: [0; 3],
        };
        self.queue
            .write_buffer(&self.params, 0, bytemuck::bytes_of(&params));
    }

    /// Uploads the instances and sizes the per-chunk buffers for `largest` pairs.
    fn prepare(&mut self, instances: &[Instance], largest: u64) {
        let gpu_instances: Vec<GpuInstance> =
            instances.iter().map(GpuInstance::from_instance).collect();
        let instance_bytes: &[u8] = bytemuck::cast_slice(&gpu_instances);
        self.instances
            .ensure(&self.device, instance_bytes.len() as u64, self.max_buffer);
        self.queue
            .write_buffer(self.instances.buffer(), 0, instance_bytes);
        self.pairs
            .ensure(&self.device, largest * PAIR_STRIDE, self.max_buffer);
        self.results
            .ensure(&self.device, largest * RESULT_STRIDE, self.max_buffer);
        self.readback
            .ensure(&self.device, largest * RESULT_STRIDE, self.max_buffer);
    }

    /// Records the GJK dispatch for `count` pairs, with timestamps around it when `timed` and supported.
    fn encode_dispatch(&self, encoder: &mut wgpu::CommandEncoder, count: u32, timed: bool) {
        let bind_group = self.bind_group(count);
        let timestamps = self.timestamps.as_ref().filter(|_| timed);
        {
            let timestamp_writes = timestamps.map(|t| wgpu::ComputePassTimestampWrites {
                query_set: &t.query_set,
                beginning_of_pass_write_index: Some(0),
                end_of_pass_write_index: Some(1),
            });
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("gjk"),
                timestamp_writes,
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(count.div_ceil(WORKGROUP_SIZE), 1, 1);
        }
        if let Some(t) = timestamps {
            encoder.resolve_query_set(&t.query_set, 0..2, &t.resolve, 0);
            encoder.copy_buffer_to_buffer(&t.resolve, 0, &t.readback, 0, 16);
        }
    }

    fn ensure_idle(&self) -> Result<(), GpuError> {
        match self.in_flight {
            Some(_) => Err(GpuError::Busy),
            None => Ok(()),
        }
    }

    /// Starts a batch without waiting, for a renderer that collects the results later with
    /// [`NarrowPhase::try_collect`]. The batch must fit one chunk (`limits().max_pairs_per_chunk` pairs);
    /// larger ones go through [`NarrowPhase::run`].
    pub fn submit(
        &mut self,
        instances: &[Instance],
        pairs: &[[u32; 2]],
        kind: QueryKind,
        config: &GjkConfig,
    ) -> Result<(), GpuError> {
        self.ensure_idle()?;
        self.check_indices(instances, pairs)?;
        if pairs.len() > self.limits.max_pairs_per_chunk as usize {
            return Err(GpuError::TooLarge {
                what: "non-blocking batch",
                bytes: pairs.len() as u64 * RESULT_STRIDE,
                limit: self.limits.max_pairs_per_chunk as u64 * RESULT_STRIDE,
            });
        }
        let count = pairs.len() as u32;
        self.prepare(instances, (count as u64).max(1));
        let (sender, receiver) = std::sync::mpsc::channel();
        if count == 0 {
            let _ = sender.send(Ok(()));
        } else {
            self.queue
                .write_buffer(self.pairs.buffer(), 0, bytemuck::cast_slice(pairs));
            self.write_params(count, kind, config);
            let mut encoder = self
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("gjk submit"),
                });
            self.encode_dispatch(&mut encoder, count, false);
            let size = count as u64 * RESULT_STRIDE;
            encoder.copy_buffer_to_buffer(
                self.results.buffer(),
                0,
                self.readback.buffer(),
                0,
                size,
            );
            self.queue.submit([encoder.finish()]);
            self.readback
                .buffer()
                .slice(..size)
                .map_async(wgpu::MapMode::Read, move |r| {
                    let _ = sender.send(r);
                });
        }
        self.in_flight = Some(InFlight {
            pairs: pairs.len(),
            mapped: receiver,
        });
        Ok(())
    }

    /// Whether a submitted batch is waiting to be collected.
    pub fn is_busy(&self) -> bool {
        self.in_flight.is_some()
    }

    /// The results of the submitted batch once the GPU has finished it, without blocking: `Ok(None)` while it
    /// runs or when nothing was submitted.
    pub fn try_collect(&mut self) -> Result<Option<Vec<GjkResult<f32>>>, GpuError> {
        let Some(flight) = &self.in_flight else {
            return Ok(None);
        };
        let _ = self.device.poll(wgpu::PollType::Poll);
        let outcome = match flight.mapped.try_recv() {
            Ok(outcome) => outcome,
            Err(std::sync::mpsc::TryRecvError::Empty) => return Ok(None),
            Err(e) => {
                self.in_flight = None;
                return Err(GpuError::Readback(e.to_string()));
            }
        };
        let pairs = flight.pairs;
        self.in_flight = None;
        outcome.map_err(|e| GpuError::Readback(e.to_string()))?;
        if pairs == 0 {
            return Ok(Some(Vec::new()));
        }
        let buffer = self.readback.buffer();
        let size = pairs as u64 * RESULT_STRIDE;
        let results = {
            let view = buffer
                .slice(..size)
                .get_mapped_range()
                .map_err(|e| GpuError::Readback(e.to_string()))?;
            let gpu: &[GpuResult] = bytemuck::cast_slice(&view);
            gpu.iter().map(GpuResult::to_result).collect()
        };
        buffer.unmap();
        Ok(Some(results))
    }

    /// Runs one batch and blocks until its results are back. Batches larger than one chunk are split
    /// automatically; instance indices are checked first, so a bad batch fails whole with the index named.
    pub fn run(
        &mut self,
        instances: &[Instance],
        pairs: &[[u32; 2]],
        kind: QueryKind,
        config: &GjkConfig,
    ) -> Result<GpuBatch, GpuError> {
        let start = Instant::now();
        self.ensure_idle()?;
        self.check_indices(instances, pairs)?;
        let mut timings = GpuTimings::default();
        let mut results = Vec::with_capacity(pairs.len());
        if pairs.is_empty() {
            timings.total_s = start.elapsed().as_secs_f64();
            return Ok(GpuBatch {
                results,
                timings,
                resolved_on_cpu: 0,
            });
        }

        let ranges = chunk_ranges(pairs, instances, &self.hull_points, self.limits);
        let largest = ranges.iter().map(|r| r.len()).max().unwrap_or(0);
        self.prepare(instances, largest as u64);

        let mut kernel_ns = 0.0;
        for range in ranges {
            let chunk_pairs = &pairs[range];
            let count = chunk_pairs.len() as u32;
            let t0 = Instant::now();
            self.queue
                .write_buffer(self.pairs.buffer(), 0, bytemuck::cast_slice(chunk_pairs));
            self.write_params(count, kind, config);
            self.queue.submit([]);
            self.wait()?;
            let t1 = Instant::now();

            let mut encoder = self
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("gjk dispatch"),
                });
            self.encode_dispatch(&mut encoder, count, true);
            self.queue.submit([encoder.finish()]);
            self.wait()?;
            let t2 = Instant::now();
            kernel_ns += self.read_kernel_ns()?;

            let t3 = Instant::now();
            let size = count as u64 * RESULT_STRIDE;
            let mut encoder = self
                .device
                .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                    label: Some("gjk readback"),
                });
            encoder.copy_buffer_to_buffer(
                self.results.buffer(),
                0,
                self.readback.buffer(),
                0,
                size,
            );
            self.queue.submit([encoder.finish()]);
            self.read_mapped(self.readback.buffer(), size, |bytes| {
                let gpu: &[GpuResult] = bytemuck::cast_slice(bytes);
                results.extend(gpu.iter().map(GpuResult::to_result));
            })?;
            let t4 = Instant::now();

            timings.upload_s += (t1 - t0).as_secs_f64();
            timings.compute_s += (t2 - t1).as_secs_f64();
            timings.readback_s += (t4 - t3).as_secs_f64();
            timings.chunks += 1;
        }
        timings.kernel_s = self.timestamps.as_ref().map(|_| kernel_ns * 1e-9);
        timings.total_s = start.elapsed().as_secs_f64();
        Ok(GpuBatch {
            results,
            timings,
            resolved_on_cpu: 0,
        })
    }

    fn bind_group(&self, count: u32) -> wgpu::BindGroup {
        fn whole(buffer: &wgpu::Buffer) -> wgpu::BindingResource<'_> {
            buffer.as_entire_binding()
        }
        fn range(buffer: &wgpu::Buffer, bytes: u64) -> wgpu::BindingResource<'_> {
            wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer,
                offset: 0,
                size: std::num::NonZeroU64::new(bytes.max(16)),
            })
        }
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("gjk bind group"),
            layout: &self.bind_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: whole(&self.params),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: whole(&self.vertices),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: whole(&self.hulls),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: whole(self.instances.buffer()),
                },
                wgpu::BindGroupEntry {
                    binding: 4,
                    resource: range(self.pairs.buffer(), count as u64 * PAIR_STRIDE),
                },
                wgpu::BindGroupEntry {
                    binding: 5,
                    resource: range(self.results.buffer(), count as u64 * RESULT_STRIDE),
                },
            ],
        })
    }
}
