//! The demo's broad phase, on the GPU ([`crate::gpu::broad`]) or on the CPU grid ([`grid_pairs`]), and what
//! each frame's GPU broad phase cost on the bus.
//!
//! A frame whose narrow phase and check take their pairs from the host reads them back: 16 bytes (the pair
//! count and the indirect dispatch the kernels wrote) and then 8 bytes per candidate pair, two blocking waits.
//! A frame whose pairs stay on the device only submits the broad phase: its count comes back with the narrow
//! phase's readback. Boxes no GPU grid can hold (a coordinate not finite) are answered by the CPU grid.

use crate::broad_phase::{grid_pairs, Aabb};
use crate::gpu::broad::grid::GridFit;
use crate::gpu::broad::{BroadPhaseStatus, GpuBroadPhase};
use crate::gpu::DevicePairs;
use anyhow::{Context, Result};

/// Where the candidate pairs are found (`--broad-phase`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BroadPhaseChoice {
    /// On the GPU (the default on a hardware adapter).
    Gpu,
    /// On the CPU grid (the default on a software adapter such as llvmpipe).
    Cpu,
}

impl BroadPhaseChoice {
    /// `--broad-phase` when given, else the GPU on a hardware adapter and the CPU on a software one.
    pub fn resolve(choice: Option<Self>, software_adapter: bool) -> Self {
        match choice {
            Some(c) => c,
            None if software_adapter => Self::Cpu,
            None => Self::Gpu,
        }
    }
}

/// What one frame's broad phase moved across the bus and how often the host waited for it (zero on the CPU).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BroadTraffic {
    /// Whether the GPU found this frame's pairs.
    pub on_gpu: bool,
    pub bytes_up: u64,
    pub bytes_down: u64,
    pub submissions: u32,
    pub blocking_waits: u32,
    /// 1 when the pairs outgrew the pair buffer this frame (the frame then ran again on the grown buffer, so
    /// no pair was lost).
    pub overflows: u32,
}

/// Pairs a box the pair buffer holds before a frame whose pairs stay on the device: such a frame learns its
/// count only after its narrow phase, so an overflow costs it the pairs that did not fit (counted, and the buffer
/// grows for the next frame). The stress scenes find about 2 pairs a body.
const RESERVED_PAIRS_PER_BOX: u32 = 4;

/// The frame's broad phase: the GPU's when it is on.
pub struct FrameBroadPhase {
    gpu: Option<GpuBroadPhase>,
    /// Pairs a box reserved before a frame fed on the device (0: the buffer keeps the capacity it was given).
    reserved_per_box: u32,
}

impl FrameBroadPhase {
    pub fn new(choice: BroadPhaseChoice, device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        Self {
            gpu: (choice == BroadPhaseChoice::Gpu).then(|| GpuBroadPhase::new(device, queue)),
            reserved_per_box: RESERVED_PAIRS_PER_BOX,
        }
    }

    /// A GPU broad phase made elsewhere, keeping its pair capacity (tests give it a small pair buffer).
    #[cfg(test)]
    pub fn from_gpu(gpu: GpuBroadPhase) -> Self {
        Self {
            gpu: Some(gpu),
            reserved_per_box: 0,
        }
    }

    /// Whether the GPU finds the pairs (when the boxes fit its grid).
    pub fn on_gpu(&self) -> bool {
        self.gpu.is_some()
    }

    /// The GPU broad phase's device and queue, when it is on.
    pub fn device_queue(&self) -> Option<(&wgpu::Device, &wgpu::Queue)> {
        self.gpu.as_ref().map(|g| (g.device(), g.queue()))
    }

    /// The CPU grid.
    pub fn cpu() -> Self {
        Self {
            gpu: None,
            reserved_per_box: 0,
        }
    }

    /// Every pair `[i, j]`, `i < j`, whose boxes overlap, sorted (the CPU grid's answer, wherever found).
    pub fn pairs(&mut self, boxes: &[Aabb]) -> Result<(Vec<[u32; 2]>, BroadTraffic)> {
        let Some(gpu) = self.gpu.as_mut().filter(|_| GridFit::fit(boxes).is_ok()) else {
            return Ok((grid_pairs(boxes), BroadTraffic::default()));
        };
        let (status, mut traffic) = run_counted(gpu, boxes)?;
        let mut pairs = gpu
            .read_pairs(status.stored)
            .context("reading the GPU broad phase's pairs back")?;
        if status.stored > 0 {
            traffic.bytes_down += 8 * u64::from(status.stored);
            traffic.submissions += 1;
            traffic.blocking_waits += 1;
        }
        pairs.sort_unstable();
        Ok((pairs, traffic))
    }

    /// Submits the GPU broad phase and leaves its pairs and their count on the device
    /// ([`FrameBroadPhase::device_pairs`]) for a narrow phase that reads them there, without waiting: nothing
    /// comes back here (the count comes back with the narrow phase's readback, [`FrameBroadPhase::note_found`]).
    /// `None` on the CPU grid and for boxes it answers.
    pub fn submit_on_device(&mut self, boxes: &[Aabb]) -> Result<Option<BroadTraffic>> {
        let Some(gpu) = self.gpu.as_mut().filter(|_| GridFit::fit(boxes).is_ok()) else {
            return Ok(None);
        };
        gpu.reserve_pairs(reserve(boxes.len(), self.reserved_per_box));
        let mut encoder = gpu.device().create_command_encoder(&Default::default());
        gpu.encode(boxes, &mut encoder).context("GPU broad phase")?;
        gpu.queue().submit([encoder.finish()]);
        Ok(Some(BroadTraffic {
            on_gpu: true,
            bytes_up: 32 * boxes.len() as u64 + 32,
            submissions: 1,
            ..BroadTraffic::default()
        }))
    }

    /// Like [`FrameBroadPhase::submit_on_device`] for `count` boxes that never leave the device: `write_boxes`
    /// records what writes them into the box buffer it is given and returns the bytes it sent up; `fit` holds
    /// every box. Up: the parameters only. `None` on the CPU grid.
    pub fn submit_on_device_boxes(
        &mut self,
        fit: &GridFit,
        count: usize,
        write_boxes: impl FnOnce(&wgpu::Buffer, &mut wgpu::CommandEncoder) -> u64,
    ) -> Result<Option<BroadTraffic>> {
        let Some(gpu) = self.gpu.as_mut() else {
            return Ok(None);
        };
        gpu.reserve_pairs(reserve(count, self.reserved_per_box));
        let mut encoder = gpu.device().create_command_encoder(&Default::default());
        let mut up = 32;
        gpu.encode_device_boxes(fit, count, &mut encoder, |boxes, encoder| {
            up += write_boxes(boxes, encoder);
        })
        .context("GPU broad phase on the device's boxes")?;
        gpu.queue().submit([encoder.finish()]);
        Ok(Some(BroadTraffic {
            on_gpu: true,
            bytes_up: up,
            submissions: 1,
            ..BroadTraffic::default()
        }))
    }

    /// Times the GPU grid's pass into `timed` from now on (or no longer); nothing on the CPU grid.
    pub fn time_pass(&mut self, timed: Option<crate::gpu::pass_times::TimedPass>) {
        if let Some(gpu) = self.gpu.as_mut() {
            gpu.time_pass(timed);
        }
    }

    /// The pair buffer, count buffer and capacity of the latest [`FrameBroadPhase::submit_on_device`].
    pub fn device_pairs(&self) -> Option<DevicePairs<'_>> {
        let gpu = self.gpu.as_ref()?;
        let (pairs, count) = gpu.buffers()?;
        Some(DevicePairs {
            pairs,
            count,
            capacity: gpu.buffer_capacity()?,
        })
    }

    /// Takes a device-fed frame's pair count when it comes back: an overflow is counted and the pair buffer
    /// grows for the next frame. Returns whether it overflowed.
    pub fn note_found(&mut self, found: u32, capacity: u32) -> bool {
        self.gpu
            .as_mut()
            .is_some_and(|gpu| gpu.note_found(found, capacity))
    }
}

/// The pairs `boxes` boxes reserve at `per_box` a box.
fn reserve(boxes: usize, per_box: u32) -> u32 {
    u32::try_from(boxes)
        .unwrap_or(u32::MAX)
        .saturating_mul(per_box)
}

/// Runs the GPU broad phase and reads its pair count; a frame whose pairs outgrew the buffer is counted and runs
/// again whole on the grown one, so no pair is lost.
fn run_counted(
    gpu: &mut GpuBroadPhase,
    boxes: &[Aabb],
) -> Result<(BroadPhaseStatus, BroadTraffic)> {
    let upload = 32 * boxes.len() as u64 + 32;
    let mut traffic = BroadTraffic {
        on_gpu: true,
        ..BroadTraffic::default()
    };
    let mut status = gpu.run(boxes).context("GPU broad phase")?;
    traffic.bytes_up += upload;
    traffic.bytes_down += 16;
    traffic.submissions += 1;
    traffic.blocking_waits += 1;
    if status.overflowed() {
        traffic.overflows = 1;
        status = gpu
            .run(boxes)
            .context("GPU broad phase, on the grown pair buffer")?;
        traffic.bytes_up += upload;
        traffic.bytes_down += 16;
        traffic.submissions += 1;
        traffic.blocking_waits += 1;
        anyhow::ensure!(
            !status.overflowed(),
            "GPU broad phase: {} pairs overflowed the grown buffer of {}",
            status.found,
            status.capacity
        );
    }
    Ok((status, traffic))
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn the_gpu_is_the_default_on_hardware_and_the_cpu_on_software() {
        use BroadPhaseChoice::{Cpu, Gpu};
        assert_eq!(BroadPhaseChoice::resolve(None, false), Gpu);
        assert_eq!(BroadPhaseChoice::resolve(None, true), Cpu);
        assert_eq!(BroadPhaseChoice::resolve(Some(Gpu), true), Gpu);
        assert_eq!(BroadPhaseChoice::resolve(Some(Cpu), false), Cpu);
    }

    #[test]
    fn the_cpu_grid_answers_with_no_traffic() {
        let boxes: Vec<Aabb> = (0..50)
            .map(|i| Aabb {
                min: Vec3::splat(i as f32 * 0.5),
                max: Vec3::splat(i as f32 * 0.5 + 1.0),
            })
            .collect();
        let (pairs, traffic) = FrameBroadPhase::cpu().pairs(&boxes).unwrap();
        assert_eq!(pairs, grid_pairs(&boxes));
        assert_eq!(traffic, BroadTraffic::default());
    }
}
