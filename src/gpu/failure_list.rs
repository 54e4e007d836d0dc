//! The pairs a device-fed batch answered with a failure status, listed on the GPU: after each chunk's GJK pass
//! the `list_failures` kernel (`shaders/list_failures.wgsl`) appends each failing pair, its two instances and its
//! record, behind an atomic counter. The list is bounded; failures beyond its capacity are still counted, so the
//! host knows how many it did not get (never silently). Reset before each batch, read back after it: 16 bytes
//! while nothing failed, 64 more per listed pair.

use super::layout::GpuResult;
use super::pipeline::{bind_group, bind_group_layout, compute_pipeline_over, read_buffer, Access};
use super::shader::LIST_FAILURES;
use super::GpuError;

pub use super::failure_entry::FAILURE_ENTRY_WORDS;

/// Bytes of the list's header: the failure count, the capacity and two words of padding.
const HEADER_BYTES: u64 = 16;

/// Entries a list holds unless told otherwise: far more failures than a frame's pairs ever show (one or two in
/// 100,000 on the demo's scenes), 64 KiB of device memory.
pub const DEFAULT_FAILURE_CAPACITY: u32 = 1024;

/// What a batch's failure list held.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FailedPairs {
    /// Every failure the kernels found, listed or not.
    pub count: u32,
    /// The listed pairs (instance indices) and their records, in the kernels' (run-dependent) order: the first
    /// `min(count, capacity)` failures.
    pub pairs: Vec<[u32; 2]>,
    pub records: Vec<GpuResult>,
    /// Bytes read back for them.
    pub bytes_down: u64,
    /// Blocking reads it took (1, or 2 when something was listed).
    pub reads: u32,
}

impl FailedPairs {
    /// Failures counted beyond the list's capacity: not listed, so not checked.
    pub fn overflow(&self) -> u32 {
        self.count - self.pairs.len() as u32
    }
}

/// The list on one device and the pass that fills it.
pub struct FailureList {
    device: wgpu::Device,
    queue: wgpu::Queue,
    pipeline: wgpu::ComputePipeline,
    bind_group: wgpu::BindGroup,
    buffer: wgpu::Buffer,
    capacity: u32,
}

impl FailureList {
    /// A list of `capacity` entries (at least 1); `scene_layout` is the GJK job's bind group layout (group 0 of
    /// the pass, shared with the GJK pass of each chunk).
    pub(super) fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        scene_layout: &wgpu::BindGroupLayout,
        capacity: u32,
    ) -> Self {
        let capacity = capacity.max(1);
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("failure list"),
            size: HEADER_BYTES + u64::from(capacity) * u64::from(FAILURE_ENTRY_WORDS) * 4,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_DST
                | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let layout = bind_group_layout(device, "failure list", &[Access::ReadWrite]);
        // Always with wgpu's runtime checks: a pass over a chunk's records once a checked frame, too cheap for the
        // trusted modules' gain to matter.
        let pipeline =
            compute_pipeline_over(device, &LIST_FAILURES, &[scene_layout, &layout], true);
        let bind_group = bind_group(device, "failure list", &layout, &[(&buffer, None)]);
        Self {
            device: device.clone(),
            queue: queue.clone(),
            pipeline,
            bind_group,
            buffer,
            capacity,
        }
    }

    /// Entries the list holds.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// Empties the list before a batch (a queue write: it runs before the batch's chunks).
    pub(super) fn reset(&self) {
        self.queue.write_buffer(
            &self.buffer,
            0,
            bytemuck::cast_slice(&[0, self.capacity, 0, 0]),
        );
    }

    /// The pass a chunk runs after its GJK pass: pipeline and group 1.
    pub(super) fn pass(&self) -> (wgpu::ComputePipeline, wgpu::BindGroup) {
        (self.pipeline.clone(), self.bind_group.clone())
    }

    /// Reads the list back, waiting for the batch: the header, then the listed entries if there are any.
    pub(super) fn read(&self) -> Result<FailedPairs, GpuError> {
        let header: Vec<u32> = self.copy_out(0, HEADER_BYTES)?;
        let count = header[0];
        let listed = count.min(self.capacity);
        let mut failed = FailedPairs {
            count,
            bytes_down: HEADER_BYTES,
            reads: 1,
            ..FailedPairs::default()
        };
        if listed == 0 {
            return Ok(failed);
        }
        let bytes = u64::from(listed) * u64::from(FAILURE_ENTRY_WORDS) * 4;
        let words: Vec<u32> = self.copy_out(HEADER_BYTES, bytes)?;
        for entry in words.chunks_exact(FAILURE_ENTRY_WORDS as usize) {
            failed.pairs.push([entry[0], entry[1]]);
            failed
                .records
                .push(bytemuck::pod_read_unaligned(bytemuck::cast_slice(
                    &entry[4..16],
                )));
        }
        failed.bytes_down += bytes;
        failed.reads += 1;
        Ok(failed)
    }

    fn copy_out(&self, offset: u64, bytes: u64) -> Result<Vec<u32>, GpuError> {
        let readback = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("failure list readback"),
            size: bytes.next_multiple_of(16),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("failure list readback"),
            });
        encoder.copy_buffer_to_buffer(&self.buffer, offset, &readback, 0, bytes);
        self.queue.submit([encoder.finish()]);
        read_buffer(&self.device, &readback, bytes, |b| {
            bytemuck::pod_collect_to_vec(b)
        })
    }
}
