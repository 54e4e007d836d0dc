//! GPU time of a frame's passes from timestamp queries: each timed pass writes a timestamp at its start and
//! one at its end into its own pair of queries, one resolve copies them to a readback buffer (16 bytes a pass),
//! and reading it back turns the ticks into milliseconds with the queue's timestamp period. Only a device with
//! `wgpu::Features::TIMESTAMP_QUERY` has them, and only a hardware adapter's time its work (a software
//! adapter's ticks do not follow the work it does on the host's cores).

use super::pipeline::read_buffer;
use super::GpuError;

/// Bytes of one pass's two timestamps.
const PASS_BYTES: u64 = 16;

/// One pass's queries of a [`PassTimes`], held by what records the pass.
#[derive(Clone, Debug)]
pub struct TimedPass {
    set: wgpu::QuerySet,
    pass: u32,
}

impl TimedPass {
    /// The pass's timestamp writes.
    pub fn writes(&self) -> wgpu::ComputePassTimestampWrites<'_> {
        pass_writes(&self.set, self.pass)
    }
}

fn pass_writes(set: &wgpu::QuerySet, pass: u32) -> wgpu::ComputePassTimestampWrites<'_> {
    wgpu::ComputePassTimestampWrites {
        query_set: set,
        beginning_of_pass_write_index: Some(2 * pass),
        end_of_pass_write_index: Some(2 * pass + 1),
    }
}

/// Timestamp queries for `passes` passes, pass `k` at queries `2k` (start) and `2k + 1` (end).
pub struct PassTimes {
    device: wgpu::Device,
    queue: wgpu::Queue,
    set: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    readback: wgpu::Buffer,
    passes: u32,
}

impl PassTimes {
    /// Queries for `passes` passes, or `None` on a device without timestamp queries.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, passes: u32) -> Option<Self> {
        if !device.features().contains(wgpu::Features::TIMESTAMP_QUERY) || passes == 0 {
            return None;
        }
        let set = device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("pass times"),
            ty: wgpu::QueryType::Timestamp,
            count: 2 * passes,
        });
        let bytes = u64::from(passes) * PASS_BYTES;
        let buffer = |label, usage| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes,
                usage,
                mapped_at_creation: false,
            })
        };
        Some(Self {
            device: device.clone(),
            queue: queue.clone(),
            set,
            resolve: buffer(
                "pass times resolve",
                wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            ),
            readback: buffer(
                "pass times readback",
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            ),
            passes,
        })
    }

    /// The timestamp writes of pass `pass` (its start and its end).
    pub fn writes(&self, pass: u32) -> wgpu::ComputePassTimestampWrites<'_> {
        assert!(pass < self.passes, "pass {pass} of {}", self.passes);
        pass_writes(&self.set, pass)
    }

    /// Pass `pass` of these queries, for a pass recorded where this is not at hand (the query set is shared).
    pub fn timed_pass(&self, pass: u32) -> TimedPass {
        assert!(pass < self.passes, "pass {pass} of {}", self.passes);
        TimedPass {
            set: self.set.clone(),
            pass,
        }
    }

    /// Submits the resolve of every pass's timestamps into the readback buffer, after the submissions that ran
    /// the passes: one submission, nothing read yet.
    pub fn submit_resolve(&self) {
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("pass times"),
            });
        encoder.resolve_query_set(&self.set, 0..2 * self.passes, &self.resolve, 0);
        encoder.copy_buffer_to_buffer(&self.resolve, 0, &self.readback, 0, self.readback_bytes());
        self.queue.submit([encoder.finish()]);
    }

    /// Bytes [`PassTimes::read`] brings back.
    pub fn readback_bytes(&self) -> u64 {
        u64::from(self.passes) * PASS_BYTES
    }

    /// Each pass's time in milliseconds, from the latest [`PassTimes::submit_resolve`] (one blocking wait). A
    /// pass whose end reads before its start (a counter that wrapped or was reset) gives 0.
    pub fn read(&self) -> Result<Vec<f64>, GpuError> {
        let ticks: Vec<u64> =
            read_buffer(&self.device, &self.readback, self.readback_bytes(), |b| {
                bytemuck::pod_collect_to_vec(b)
            })?;
        let period_ns = f64::from(self.queue.get_timestamp_period());
        Ok(ticks
            .chunks_exact(2)
            .map(|t| t[1].saturating_sub(t[0]) as f64 * period_ns * 1e-6)
            .collect())
    }
}
