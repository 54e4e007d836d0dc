//! A fixed-size sample of the pair buffer read back where it lies: the host names the slots (drawn from the
//! pair count alone, which it already reads), the device copies those slots' pairs into one small readback
//! buffer, and 8 bytes per sampled slot cross the bus whatever the number of pairs. This is the piece a
//! sampled CPU check needs from the broad phase when the narrow phase reads the pairs on the device.
//!
//! The slots index the buffer in the kernel's order, which its atomic counter makes run-dependent: the same
//! slots may hold other pairs on another run, so a sample drawn this way is reproducible in its slots, not in
//! its pairs.

use super::{BroadPhaseStatus, GpuBroadPhase};
use crate::gpu::pipeline::read_buffer;
use crate::gpu::GpuError;

/// Bytes of one stored pair (`vec2<u32>`).
pub const PAIR_BYTES: u64 = 8;

impl GpuBroadPhase {
    /// The pairs stored at `slots` of the frame `status` describes (the latest [`GpuBroadPhase::run`]), in the
    /// order of `slots`: one submission of copies on the device, one blocking wait, and
    /// [`PAIR_BYTES`] bytes read back per slot. A slot at or past `status.stored` is refused, naming it.
    pub fn read_pair_sample(
        &self,
        status: &BroadPhaseStatus,
        slots: &[u32],
    ) -> Result<Vec<[u32; 2]>, GpuError> {
        if let Some((k, &slot)) = slots.iter().enumerate().find(|(_, &s)| s >= status.stored) {
            return Err(GpuError::BadIndex(format!(
                "broad phase sample: slot {slot} (entry {k} of the sample) is past the {} stored pairs",
                status.stored
            )));
        }
        if slots.is_empty() {
            return Ok(Vec::new());
        }
        let b = self
            .buffers
            .as_ref()
            .ok_or_else(|| GpuError::Readback("the broad phase has not run".into()))?;
        let bytes = slots.len() as u64 * PAIR_BYTES;
        let readback = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("broad phase pair sample readback"),
            size: bytes.next_multiple_of(16),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("broad phase pair sample"),
            });
        // Slots drawn in order copy as runs: a run of consecutive slots is one copy.
        let mut k = 0;
        while k < slots.len() {
            let mut end = k + 1;
            while end < slots.len() && slots[end] == slots[end - 1].wrapping_add(1) {
                end += 1;
            }
            encoder.copy_buffer_to_buffer(
                &b.pairs,
                u64::from(slots[k]) * PAIR_BYTES,
                &readback,
                k as u64 * PAIR_BYTES,
                (end - k) as u64 * PAIR_BYTES,
            );
            k = end;
        }
        self.queue.submit([encoder.finish()]);
        read_buffer(&self.device, &readback, bytes, |bytes| {
            bytemuck::pod_collect_to_vec::<u8, [u32; 2]>(bytes)
        })
    }
}
