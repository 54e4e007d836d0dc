//! The pairs a device-fed batch answered with a failure status, listed on the GPU: after each chunk's GJK pass
//! the `list_failures` kernel (`shaders/list_failures.wgsl`) appends each failing pair, its record and its two
//! instances ([`PairEntry`]), behind an atomic counter, and counts the colliding pairs beside it. The list is
//! bounded; failures beyond its capacity are still counted, so the host knows how many it did not get (never
//! silently). Reset before each batch; its header and first entries come back in the frame's one readback
//! ([`super::device_frame`]), the entries past those only when there are any.

use super::pair_entry::{entries, PairEntry, PAIR_ENTRY_BYTES};
use super::pipeline::{bind_group, bind_group_layout, compute_pipeline_over, read_buffer, Access};
use super::shader::LIST_FAILURES;
use super::GpuError;

/// Bytes of the list's header: the failure count, the capacity, the colliding pairs and a word of padding.
pub(super) const HEADER_BYTES: u64 = 16;

/// Entries a list holds unless told otherwise: far more failures than a frame's pairs ever show (one or two in
/// 100,000 on the demo's scenes), 64 KiB of device memory.
pub const DEFAULT_FAILURE_CAPACITY: u32 = 1024;

/// What a batch's failure list held.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FailedPairs {
    /// Every failure the kernels found, listed or not.
    pub count: u32,
    /// The listed pairs with their records and poses, in the kernels' (run-dependent) order: the first
    /// `min(count, capacity)` failures.
    pub entries: Vec<PairEntry>,
}

impl FailedPairs {
    /// Failures counted beyond the list's capacity: not listed, so not checked.
    pub fn overflow(&self) -> u32 {
        self.count - self.entries.len() as u32
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
            size: HEADER_BYTES + u64::from(capacity) * PAIR_ENTRY_BYTES,
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

    /// The list's buffer: the header, then the entries.
    pub(super) fn buffer(&self) -> &wgpu::Buffer {
        &self.buffer
    }

    /// Entries `from..to` of the list (below its capacity), waiting for the device: one blocking read.
    pub(super) fn read_entries(&self, from: u32, to: u32) -> Result<Vec<PairEntry>, GpuError> {
        let to = to.min(self.capacity);
        if from >= to {
            return Ok(Vec::new());
        }
        let offset = HEADER_BYTES + u64::from(from) * PAIR_ENTRY_BYTES;
        let words = self.copy_out(offset, u64::from(to - from) * PAIR_ENTRY_BYTES)?;
        Ok(entries(&words))
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
