//! The scene a kernel reads, on one device: the twin of `shaders/shared/scene.wgsl` (bindings 0 to 4).

use super::buffers::GrowBuffer;
use super::chunks::ChunkLimits;
use super::layout::{pack_hulls, GpuInstance, GpuParams, LOOP_PROBE_TRIPS, PAIR_STRIDE};
use super::GpuError;
use crate::gjk::{GjkConfig, QueryKind};
use crate::instance::{check_indices, Instance, Pair};
use crate::shape::ConvexShape;

const INSTANCE_STRIDE: u64 = std::mem::size_of::<GpuInstance>() as u64;

pub(super) struct Timestamps {
    pub query_set: wgpu::QuerySet,
    pub resolve: wgpu::Buffer,
    pub readback: wgpu::Buffer,
    pub period_ns: f64,
}

impl Timestamps {
    fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Option<Self> {
        if !device.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
            return None;
        }
        Some(Self {
            query_set: device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("kernel timestamps"),
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
        })
    }
}

/// The scene on one device: settings, the vertex pool and hull table (uploaded once), the instances and the
/// chunk's pairs (per batch), the chunk limits and the timestamp queries. Every kernel binds it as bindings 0 to
/// 4.
pub struct Scene {
    pub(super) device: wgpu::Device,
    pub(super) queue: wgpu::Queue,
    pub(super) vertices: wgpu::Buffer,
    pub(super) hulls: wgpu::Buffer,
    hull_count: u32,
    /// Points of each uploaded hull, for the work estimate of a chunk.
    pub(super) hull_points: Vec<u32>,
    pub(super) instances: GrowBuffer,
    pub(super) pairs: GrowBuffer,
    pub(super) params: wgpu::Buffer,
    pub(super) limits: ChunkLimits,
    pub(super) max_buffer: u64,
    pub(super) max_binding: u64,
    pub(super) timestamps: Option<Timestamps>,
}

impl Scene {
    /// An empty scene on `device`, with chunk limits capped by the device's own.
    pub(super) fn new(device: &wgpu::Device, queue: &wgpu::Queue, limits: ChunkLimits) -> Self {
        let device_limits = device.limits();
        let limits = ChunkLimits {
            max_pairs_per_chunk: limits
                .max_pairs_per_chunk
                .min(ChunkLimits::from_device(&device_limits).max_pairs_per_chunk)
                .max(1),
            max_work_per_chunk: limits.max_work_per_chunk.max(1),
        };
        let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST;
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
            vertices: empty("vertex pool"),
            hulls: empty("hull table"),
            hull_count: 0,
            hull_points: Vec::new(),
            instances: GrowBuffer::new(device, "instances", storage),
            pairs: GrowBuffer::new(device, "pairs", storage),
            params: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("params"),
                size: std::mem::size_of::<GpuParams>() as u64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
            limits,
            max_buffer: device_limits.max_buffer_size,
            max_binding: device_limits.max_storage_buffer_binding_size,
            timestamps: Timestamps::new(device, queue),
        }
    }

    /// Uploads the hulls every later batch refers to (by index), replacing any earlier set.
    pub(super) fn upload_hulls(&mut self, shapes: &[ConvexShape]) -> Result<(), GpuError> {
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

    pub(super) fn check_indices(
        &self,
        instances: &[Instance],
        pairs: &[Pair],
    ) -> Result<(), GpuError> {
        check_indices(self.hull_count as usize, instances, pairs)
            .map_err(|e| GpuError::BadIndex(e.to_string()))?;
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

    pub(super) fn write_params(&self, count: u32, kind: QueryKind, config: &GjkConfig) {
        let params = GpuParams {
            pair_count: count,
            max_iterations: config.max_iterations,
            kind: kind as u32,
            touch_tolerance: config.touch_tolerance as f32,
            loop_probe: LOOP_PROBE_TRIPS,
            pad: [0; 3],
        };
        self.queue
            .write_buffer(&self.params, 0, bytemuck::bytes_of(&params));
    }

    /// Uploads the instances and sizes the pairs buffer for `largest` pairs.
    pub(super) fn prepare(&mut self, instances: &[Instance], largest: u64) {
        let gpu_instances: Vec<GpuInstance> =
            instances.iter().map(GpuInstance::from_instance).collect();
        let instance_bytes: &[u8] = bytemuck::cast_slice(&gpu_instances);
        self.instances
            .ensure(&self.device, instance_bytes.len() as u64, self.max_buffer);
        self.queue
            .write_buffer(self.instances.buffer(), 0, instance_bytes);
        self.pairs
            .ensure(&self.device, largest * PAIR_STRIDE, self.max_buffer);
    }
}
