//! Per-body marks kept on the GPU: one word per body, the OR of what its pairs' answers say (colliding, or not
//! answered), written by the `mark_bodies` kernel in the same submission as each chunk's GJK pass, so a renderer
//! on the same device colours bodies from them without reading anything back. The words sit in the renderer's
//! draw order (`slot_of_body`), so it binds them directly as a per-instance vertex attribute.

use super::pipeline::{bind_group, bind_group_layout, compute_pipeline_over, read_buffer, Access};
use super::shader::MARK_BODIES;
use super::GpuError;

pub use super::mark_bits::{MARK_COLLIDING, MARK_DISPUTED};

/// The mark words of a scene's bodies on one device, and the pass that writes them.
pub struct BodyMarks {
    device: wgpu::Device,
    queue: wgpu::Queue,
    pipeline: wgpu::ComputePipeline,
    bind_group: wgpu::BindGroup,
    marks: wgpu::Buffer,
    slot_of_body: Vec<u32>,
    /// Scratch for the words [`BodyMarks::write`] sends up, in draw order (kept to avoid a new `Vec` each frame).
    start: Vec<u32>,
}

impl BodyMarks {
    /// Marks for `slot_of_body.len()` bodies, body `i`'s word at `slot_of_body[i]`; `scene_layout` is the GJK
    /// job's bind group layout (group 0 of the pass, shared with the GJK pass of each chunk).
    pub(super) fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        scene_layout: &wgpu::BindGroupLayout,
        slot_of_body: &[u32],
        checked: bool,
    ) -> Result<Self, GpuError> {
        let bodies = slot_of_body.len();
        let mut taken = vec![false; bodies];
        for (body, &slot) in slot_of_body.iter().enumerate() {
            match taken.get_mut(slot as usize) {
                Some(seen) if !*seen => *seen = true,
                _ => {
                    return Err(GpuError::BadIndex(format!(
                        "body {body} is drawn at slot {slot}, which is out of range or taken \
                         ({bodies} bodies)"
                    )))
                }
            }
        }
        let words = (bodies.max(1) * 4) as u64;
        let buffer = |label, usage| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: words.next_multiple_of(16),
                usage,
                mapped_at_creation: false,
            })
        };
        let marks = buffer(
            "body marks",
            wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::VERTEX
                | wgpu::BufferUsages::COPY_DST
                | wgpu::BufferUsages::COPY_SRC,
        );
        let slots = buffer(
            "draw slot of each body",
            wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        );
        queue.write_buffer(&slots, 0, bytemuck::cast_slice(slot_of_body));
        let layout = bind_group_layout(device, "body marks", &[Access::ReadWrite, Access::Read]);
        let pipeline =
            compute_pipeline_over(device, &MARK_BODIES, &[scene_layout, &layout], checked);
        let bind_group = bind_group(
            device,
            "body marks",
            &layout,
            &[(&marks, None), (&slots, None)],
        );
        Ok(Self {
            device: device.clone(),
            queue: queue.clone(),
            pipeline,
            bind_group,
            marks,
            slot_of_body: slot_of_body.to_vec(),
            start: vec![0; bodies],
        })
    }

    /// Bodies marked.
    pub fn bodies(&self) -> usize {
        self.slot_of_body.len()
    }

    /// The words in draw order (`u32` each): usable as a per-instance vertex buffer and as storage.
    pub fn buffer(&self) -> &wgpu::Buffer {
        &self.marks
    }

    /// The pass a chunk runs after its GJK pass: pipeline and group 1.
    pub(super) fn pass(&self) -> (wgpu::ComputePipeline, wgpu::BindGroup) {
        (self.pipeline.clone(), self.bind_group.clone())
    }

    /// Sets the words a batch starts from: [`MARK_DISPUTED`] for `disputed` bodies, none for the others.
    /// Bodies out of range are ignored (a check of an earlier frame with more bodies). The words are cleared on
    /// the device, in a submission of their own, and only the disputed ones go up (4 bytes each, written
    /// before the next submission): nothing that grows with the body count crosses the bus. Returns the bytes
    /// sent up.
    pub fn reset(&mut self, disputed: &[u32]) -> u64 {
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("body marks cleared"),
            });
        encoder.clear_buffer(&self.marks, 0, None);
        self.queue.submit([encoder.finish()]);
        let mut bytes = 0;
        for &body in disputed {
            if let Some(&slot) = self.slot_of_body.get(body as usize) {
                self.queue.write_buffer(
                    &self.marks,
                    u64::from(slot) * 4,
                    bytemuck::bytes_of(&MARK_DISPUTED),
                );
                bytes += 4;
            }
        }
        bytes
    }

    /// Overwrites every word with `marks[body]` (marks made on the CPU, for instance when the CPU is the narrow
    /// phase or answered the pairs the GPU could not).
    pub fn write(&mut self, marks: &[u32]) {
        self.start.fill(0);
        for (&mark, &slot) in marks.iter().zip(&self.slot_of_body) {
            self.start[slot as usize] = mark;
        }
        self.queue
            .write_buffer(&self.marks, 0, bytemuck::cast_slice(&self.start));
    }

    /// Reads the words back in body order, waiting for the device: for tests and tools, never for a frame.
    pub fn read(&self) -> Result<Vec<u32>, GpuError> {
        let bytes = (self.bodies() * 4) as u64;
        let readback = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("body marks readback"),
            size: bytes.max(4).next_multiple_of(16),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("body marks readback"),
            });
        encoder.copy_buffer_to_buffer(&self.marks, 0, &readback, 0, bytes.max(4));
        self.queue.submit([encoder.finish()]);
        let by_slot: Vec<u32> = read_buffer(&self.device, &readback, bytes.max(4), |b| {
            bytemuck::pod_collect_to_vec(b)
        })?;
        Ok(self
            .slot_of_body
            .iter()
            .map(|&slot| by_slot[slot as usize])
            .collect())
    }
}
