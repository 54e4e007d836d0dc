//! A frame whose pairs stay on the device, with one readback: the broad phase leaves its pairs and their count
//! on the GPU, and the narrow phase answers them without the host ever reading the count first. The host plans
//! the batch's chunks from the pair buffer's capacity; each chunk's first pass (`shaders/chunk_dispatch.wgsl`,
//! CPU twin [`dispatch::chunk_dispatch`]) writes its indirect dispatch and pair count from the count on the
//! device, so chunks past the count dispatch nothing. A checked frame draws its sample there too
//! (`shaders/sample_gather.wgsl`, CPU twin [`sample::sample_slot`]): each chunk's last pass copies its sampled
//! pairs, their records and their poses into one sample buffer.
//!
//! After the batch one small copy gathers the broad phase's count, the failure list's header (failures and
//! colliding pairs) and, on a checked frame, the list's first [`FOLDED_FAILURES`] entries and the sample into
//! one readback buffer: a checked frame waits for it once; an unchecked frame maps it without waiting and the
//! next frames pick it up ([`DeviceFrame::collect`]), so no overflow of the pair buffer goes unreported.

pub mod dispatch;
pub mod sample;

use super::failure_list::{FailedPairs, FailureList, HEADER_BYTES};
use super::pair_entry::{entries, PairEntry, PAIR_ENTRY_BYTES};
use super::pipeline::{
    bind_group, bind_group_layout, compute_pipeline_over, poll, read_buffer, storage, workgroups,
    Access, Dispatch,
};
use super::ring::MapState;
use super::shader::{CHUNK_DISPATCH, SAMPLE_GATHER};
use super::GpuError;
use dispatch::{ChunkDispatch, DISPATCH_WORDS};
use std::collections::VecDeque;

/// Failure-list entries a checked frame's readback carries (1 KiB): the demo's scenes show one or two failures
/// in 100,000 pairs, so a frame's failures nearly always come back with its sample, in its one wait; a frame
/// that lists more reads the rest in a second one.
pub const FOLDED_FAILURES: u32 = 8;

/// Bytes of the broad phase's count words at the head of every readback: pairs found, then its dispatch.
const COUNT_BYTES: u64 = 16;

/// Settings of the frame's two kernels (`DeviceFrame` in WGSL; keep in sync with shaders/shared/types.wgsl).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct DeviceFrameSettings {
    pub pair_capacity: u32,
    pub chunk_pairs: u32,
    pub max_groups: u32,
    pub sample_size: u32,
    pub seed_lo: u32,
    pub seed_hi: u32,
    pub frame_lo: u32,
    pub frame_hi: u32,
}

const _: () = assert!(std::mem::size_of::<DeviceFrameSettings>() == 32);

/// Where a device-fed batch finds its pairs: the broad phase's pair buffer (`vec2<u32>` each) and count buffer
/// (word 0: pairs found, stored or not), and the pair buffer's capacity in pairs.
#[derive(Clone, Copy, Debug)]
pub struct DevicePairs<'a> {
    pub pairs: &'a wgpu::Buffer,
    pub count: &'a wgpu::Buffer,
    pub capacity: u32,
}

/// The sample a checked frame draws on the device: `size` slots of the pair buffer from `seed` and `frame`
/// ([`sample::sample_slots`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SampleDraw {
    pub size: u32,
    pub seed: u64,
    pub frame: u64,
}

/// What one device-fed frame read back.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrameReadback {
    /// Pairs the broad phase found, stored or not, and the pair buffer's capacity that frame.
    pub found: u32,
    pub capacity: u32,
    /// Stored pairs the GPU answered intersecting.
    pub colliding: u32,
    /// The failure list: the count always, the entries on a sampled frame.
    pub failures: FailedPairs,
    /// The sample's entries in slot order; `None` on a frame that drew none.
    pub sample: Option<Vec<PairEntry>>,
    /// Bytes read back for this frame, and the blocking waits the host spent on them.
    pub bytes_down: u64,
    pub blocking_waits: u32,
}

impl FrameReadback {
    /// Pairs in the pair buffer: the ones the narrow phase answered.
    pub fn stored(&self) -> u32 {
        self.found.min(self.capacity)
    }

    /// Whether pairs were left out of the buffer (the broad phase grows it for the next frame).
    pub fn overflowed(&self) -> bool {
        self.found > self.capacity
    }
}

/// A frame's readback buffer, copied after its batch and mapped when it is done.
struct Pending {
    buffer: wgpu::Buffer,
    state: MapState,
    capacity: u32,
    /// Sample entries and folded failure entries it holds (`None`: an unsampled frame, the header only).
    sample: Option<u32>,
    folded: u32,
}

/// The frame's kernels, their settings and buffers, and the readbacks in flight.
pub(crate) struct DeviceFrame {
    device: wgpu::Device,
    queue: wgpu::Queue,
    layout: wgpu::BindGroupLayout,
    dispatch: wgpu::ComputePipeline,
    gather: wgpu::ComputePipeline,
    settings_buffer: wgpu::Buffer,
    args: wgpu::Buffer,
    sample: wgpu::Buffer,
    group: Option<wgpu::BindGroup>,
    settings: DeviceFrameSettings,
    /// Chunks of the latest batch.
    chunks: u64,
    /// Most workgroups per dispatch dimension (the device's, unless a test lowers it).
    pub max_groups: u32,
    pending: VecDeque<Pending>,
}

impl DeviceFrame {
    /// The kernels over `scene_layout`, the GJK job's group 0, which their chunks share.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        scene_layout: &wgpu::BindGroupLayout,
    ) -> Self {
        use Access::{Read, ReadWrite, Uniform};
        let layout = bind_group_layout(
            device,
            "device frame",
            &[Read, ReadWrite, ReadWrite, Uniform],
        );
        // With wgpu's runtime checks: one invocation a chunk, and one a sampled pair.
        let dispatch =
            compute_pipeline_over(device, &CHUNK_DISPATCH, &[scene_layout, &layout], true);
        let gather = compute_pipeline_over(device, &SAMPLE_GATHER, &[scene_layout, &layout], true);
        use wgpu::BufferUsages as U;
        Self {
            settings_buffer: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("device frame settings"),
                size: std::mem::size_of::<DeviceFrameSettings>() as u64,
                usage: U::UNIFORM | U::COPY_DST,
                mapped_at_creation: false,
            }),
            args: storage(device, "chunk dispatches", 16, U::INDIRECT | U::COPY_SRC),
            sample: storage(device, "device frame sample", 16, U::COPY_SRC),
            device: device.clone(),
            queue: queue.clone(),
            layout,
            dispatch,
            gather,
            group: None,
            settings: DeviceFrameSettings::default(),
            chunks: 0,
            max_groups: device.limits().max_compute_workgroups_per_dimension,
            pending: VecDeque::new(),
        }
    }

    /// Sets up a batch over `pairs` in chunks of `chunk_pairs`, drawing `sample` when there is one; returns the
    /// bytes it sent up (the settings).
    pub fn begin(
        &mut self,
        pairs: DevicePairs<'_>,
        chunk_pairs: u32,
        sample: Option<SampleDraw>,
    ) -> u64 {
        let chunks = u64::from(pairs.capacity.div_ceil(chunk_pairs.max(1)).max(1));
        self.chunks = chunks;
        let sample_size = sample.map_or(0, |s| s.size);
        let (seed, frame) = sample.map_or((0, 0), |s| (s.seed, s.frame));
        self.settings = DeviceFrameSettings {
            pair_capacity: pairs.capacity,
            chunk_pairs: chunk_pairs.max(1),
            max_groups: self.max_groups.max(1),
            sample_size,
            seed_lo: seed as u32,
            seed_hi: (seed >> 32) as u32,
            frame_lo: frame as u32,
            frame_hi: (frame >> 32) as u32,
        };
        use wgpu::BufferUsages as U;
        let args_bytes = chunks * DISPATCH_WORDS * 4;
        if self.args.size() < args_bytes {
            self.args = storage(
                &self.device,
                "chunk dispatches",
                args_bytes,
                U::INDIRECT | U::COPY_SRC,
            );
        }
        let sample_bytes = u64::from(sample_size) * PAIR_ENTRY_BYTES;
        if self.sample.size() < sample_bytes {
            self.sample = storage(
                &self.device,
                "device frame sample",
                sample_bytes,
                U::COPY_SRC,
            );
        }
        self.queue
            .write_buffer(&self.settings_buffer, 0, bytemuck::bytes_of(&self.settings));
        // The broad phase may have grown its buffers since the last batch: bound afresh each time.
        self.group = Some(bind_group(
            &self.device,
            "device frame",
            &self.layout,
            &[
                (pairs.count, None),
                (&self.args, None),
                (&self.sample, None),
                (&self.settings_buffer, None),
            ],
        ));
        std::mem::size_of::<DeviceFrameSettings>() as u64
    }

    /// Records chunk `index`'s first pass, which writes its dispatch, and the copy of its pair count into its
    /// settings (`params`, whose first word is `pair_count`); returns the dispatch its kernels take.
    pub fn before_chunk(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        scene_group: &wgpu::BindGroup,
        params: &wgpu::Buffer,
        index: u32,
    ) -> Dispatch<'_> {
        let group = self.group.as_ref().expect("begin sets up the batch");
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("chunk dispatch"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&self.dispatch);
            pass.set_bind_group(0, scene_group, &[]);
            pass.set_bind_group(1, group, &[]);
            pass.dispatch_workgroups(1, 1, 1);
        }
        let offset = u64::from(index) * DISPATCH_WORDS * 4;
        encoder.copy_buffer_to_buffer(&self.args, offset + 12, params, 0, 4);
        Dispatch::Indirect {
            args: &self.args,
            offset,
        }
    }

    /// Records the chunk's last pass: the gathering of its share of the sample, when the batch draws one.
    pub fn after_chunk(&self, encoder: &mut wgpu::CommandEncoder, scene_group: &wgpu::BindGroup) {
        let size = self.settings.sample_size;
        let Some(group) = self.group.as_ref().filter(|_| size > 0) else {
            return;
        };
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("sample gather"),
            timestamp_writes: None,
        });
        pass.set_pipeline(&self.gather);
        pass.set_bind_group(0, scene_group, &[]);
        pass.set_bind_group(1, group, &[]);
        pass.dispatch_workgroups(workgroups(size), 1, 1);
    }

    /// Copies the batch's count, failure header and, for a sampled batch, its first failures and the sample into
    /// one readback buffer and asks for it to be mapped; [`DeviceFrame::collect`] picks it up. One submission.
    pub fn submit_readback(&mut self, count: &wgpu::Buffer, failures: &FailureList) {
        let sampled = self.settings.sample_size > 0;
        let sample = sampled.then_some(self.settings.sample_size);
        let folded = if sampled {
            FOLDED_FAILURES.min(failures.capacity())
        } else {
            0
        };
        let list_bytes = HEADER_BYTES + u64::from(folded) * PAIR_ENTRY_BYTES;
        let sample_bytes = u64::from(sample.unwrap_or(0)) * PAIR_ENTRY_BYTES;
        let bytes = COUNT_BYTES + list_bytes + sample_bytes;
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("device frame readback"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("device frame readback"),
            });
        encoder.copy_buffer_to_buffer(count, 0, &buffer, 0, COUNT_BYTES);
        encoder.copy_buffer_to_buffer(failures.buffer(), 0, &buffer, COUNT_BYTES, list_bytes);
        if sample_bytes > 0 {
            encoder.copy_buffer_to_buffer(
                &self.sample,
                0,
                &buffer,
                COUNT_BYTES + list_bytes,
                sample_bytes,
            );
        }
        self.queue.submit([encoder.finish()]);
        let state = MapState::default();
        state.request(&buffer, wgpu::MapMode::Read, 0..bytes);
        self.pending.push_back(Pending {
            buffer,
            state,
            capacity: self.settings.pair_capacity,
            sample,
            folded,
        });
    }

    /// The readbacks of earlier batches that are mapped, oldest first, without waiting; with `wait`, after one
    /// blocking wait for all of them (counted on the newest).
    pub fn collect(&mut self, wait: bool) -> Result<Vec<FrameReadback>, GpuError> {
        let waited = wait && !self.pending.is_empty();
        let how = if waited {
            wgpu::PollType::wait_indefinitely()
        } else {
            wgpu::PollType::Poll
        };
        poll(&self.device, how)?;
        let mut out = Vec::new();
        while let Some(state) = self.pending.front().map(|p| p.state.get()) {
            match state {
                None => break,
                Some(false) => {
                    self.pending.pop_front();
                    return Err(GpuError::Readback(
                        "mapping a device frame's readback failed".into(),
                    ));
                }
                Some(true) => {
                    let pending = self.pending.pop_front().expect("looked at above");
                    out.push(read(&pending)?);
                }
            }
        }
        if let Some(last) = out.last_mut().filter(|_| waited) {
            last.blocking_waits += 1;
        }
        Ok(out)
    }

    /// The dispatches the latest batch's chunks wrote, waiting for the device.
    pub fn read_dispatches(&self) -> Result<Vec<ChunkDispatch>, GpuError> {
        let bytes = self.chunks * DISPATCH_WORDS * 4;
        if bytes == 0 {
            return Ok(Vec::new());
        }
        let readback = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("chunk dispatches readback"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self.device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(&self.args, 0, &readback, 0, bytes);
        self.queue.submit([encoder.finish()]);
        let words: Vec<u32> = read_buffer(&self.device, &readback, bytes, |b| {
            bytemuck::pod_collect_to_vec(b)
        })?;
        Ok(words
            .chunks_exact(DISPATCH_WORDS as usize)
            .map(|w| ChunkDispatch::from_words([w[0], w[1], w[2], w[3]]))
            .collect())
    }

    /// Readbacks not yet collected.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }
}

/// Reads a mapped readback and unmaps it.
fn read(pending: &Pending) -> Result<FrameReadback, GpuError> {
    let words: Vec<u32> = {
        let view = pending
            .buffer
            .slice(..)
            .get_mapped_range()
            .map_err(|e| GpuError::Readback(e.to_string()))?;
        bytemuck::pod_collect_to_vec(&view)
    };
    pending.buffer.unmap();
    let header = 4 + (HEADER_BYTES / 4) as usize;
    let failure_count = words[4];
    let list_capacity = words[5];
    let folded_end = header + (pending.folded * (PAIR_ENTRY_BYTES / 4) as u32) as usize;
    let listed = failure_count.min(list_capacity).min(pending.folded) as usize;
    let folded = entries(&words[header..folded_end]);
    let found = words[0];
    let sample = pending.sample.map(|size| {
        let stored = found.min(pending.capacity);
        let taken = size.min(stored) as usize;
        let mut sample = entries(&words[folded_end..]);
        sample.truncate(taken);
        sample
    });
    Ok(FrameReadback {
        found,
        capacity: pending.capacity,
        colliding: words[6],
        failures: FailedPairs {
            count: failure_count,
            entries: folded.into_iter().take(listed).collect(),
        },
        sample,
        bytes_down: pending.buffer.size(),
        blocking_waits: 0,
    })
}
