//! One runner for every kernel: a batch streams through a ring of chunk slots (`ring`). Per chunk the
//! host writes the pairs straight into a mapped staging buffer, and one submission copies them in, runs the
//! kernel's passes, resolves its timestamps and copies the outputs out; the host blocks only when every slot is
//! in flight and once at the end of the batch. A scene too large for the device goes group by group
//! (`groups`).
//!
//! A kernel's side is a `KernelJob`: its outputs (bindings 5 onwards, after the scene's 0 to 4), how to
//! encode one chunk (one pass or two) and where the bytes read back go.

use super::chunks::{chunk_ranges_by, pair_work};
use super::device_frame::DeviceFrame;
use super::groups::{plan_groups, plan_windows, Group, Window};
use super::layout::{GpuParams, LOOP_PROBE_TRIPS, PAIR_STRIDE};
use super::pipeline::{bind_group, poll, Dispatch};
pub(crate) use super::ring::OutputSpec;
pub use super::ring::Read;
use super::ring::{read_offsets, InFlight, Ring, Slot, PARAMS_BYTES, TIMESTAMP_BYTES};
use super::scene::{Scene, SceneBinding};
use super::GpuError;
use crate::gjk::{GjkConfig, QueryKind};
use crate::instance::{IndexError, Pair};
use std::ops::Range;
use std::time::Instant;

/// What one batch cost: where the host's time went, the kernel's time, and what crossed the bus.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GpuTimings {
    /// Host time writing to the GPU: pairs (binned by work, when binning is on) and settings into the staging ring, and any instances or hulls
    /// uploaded for this batch (since the previous one, or group by group for a scene too large to stay).
    pub upload_s: f64,
    /// Host time blocked waiting for the GPU: when every slot of the ring was in flight, and at the end.
    pub compute_s: f64,
    /// Kernel time from timestamp queries (all chunks), where the adapter supports them.
    pub kernel_s: Option<f64>,
    /// Host time copying results out of the readback ring (and back to pair order after binning).
    pub readback_s: f64,
    /// Of `readback_s`: the copies out of the mapped readback buffers alone, and the bytes they copied
    /// ([`GpuTimings::readback_gb_s`]).
    pub readback_copy_s: f64,
    pub readback_copy_bytes: u64,
    /// The whole call, uploads since the previous batch included.
    pub total_s: f64,
    /// Dispatches the batch was split into.
    pub chunks: u32,
    /// Queue submissions: one per chunk.
    pub submissions: u32,
    /// Times the host blocked on the GPU.
    pub blocking_waits: u32,
    /// Bytes written to the GPU (staging copies and queue writes) and read back.
    pub bytes_up: u64,
    pub bytes_down: u64,
    /// Most chunks submitted and not yet collected at one time.
    pub max_in_flight: u32,
    /// Scene groups (1 when the whole scene stays on the GPU).
    pub groups: u32,
}

impl GpuTimings {
    /// Counts the host's binning ([`super::binning`]) in: sorting the pairs as upload time, putting the records
    /// back in pair order as readback time, both in the total.
    pub(crate) fn add_binning(&mut self, sort_s: f64, restore_s: f64) {
        self.upload_s += sort_s;
        self.readback_s += restore_s;
        self.total_s += sort_s + restore_s;
    }

    /// The rate of the copies out of the mapped readback buffers, in GB/s (10^9 bytes); `None` when nothing
    /// was copied.
    pub fn readback_gb_s(&self) -> Option<f64> {
        (self.readback_copy_bytes > 0 && self.readback_copy_s > 0.0)
            .then(|| self.readback_copy_bytes as f64 / self.readback_copy_s / 1e9)
    }

    /// Host time per pair, in nanoseconds: wall time minus kernel time (`None` without timestamps).
    pub fn host_ns_per_pair(&self, pairs: usize) -> Option<f64> {
        let kernel = self.kernel_s?;
        Some((self.total_s - kernel).max(0.0) * 1e9 / pairs.max(1) as f64)
    }
}

/// One kernel's side of a batch.
pub(crate) trait KernelJob {
    fn layout(&self) -> &wgpu::BindGroupLayout;
    /// The outputs, bound from binding 5 on in this order, for the batch's format.
    fn outputs(&self) -> &[OutputSpec];
    /// The format code the kernel reads from its settings (`FORMAT_*`).
    fn format(&self) -> u32;
    /// Records the chunk's passes over its pairs, from pair `first` of the batch, each dispatched by `dispatch`.
    /// `timestamps` are to be written at the start of the first pass and the end of the last. `outputs` are the
    /// slot's output buffers.
    fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        bind_group: &wgpu::BindGroup,
        first: usize,
        dispatch: Dispatch<'_>,
        timestamps: Option<&wgpu::QuerySet>,
        outputs: &[wgpu::Buffer],
    );
    /// Takes the bytes read back from each output (in output order) for the chunk whose first pair is `first`.
    fn collect(&mut self, first: usize, outputs: &[&[u8]]);
    /// Whether this batch copies its per-pair records out (else they stay on the device and `collect` gets
    /// none); the ring is sized for them either way.
    fn reads_back(&self) -> bool {
        true
    }
    /// Whether the EPA queue is kept in pair order (`GpuParams::epa_by_pair`); only the penetration job has one.
    fn epa_by_pair(&self) -> bool {
        false
    }
    /// The first of the chunk's `count` pairs (from pair `first` of the batch) that the subgroup kernel answers
    /// (`GpuParams::subgroup_from`); `count` where it answers none, as for every job but GJK's.
    fn subgroup_from(&self, _first: usize, count: u32) -> u32 {
        count
    }
}

/// The most pairs one chunk of `outputs` may hold under the scene's limits: the device's pairs per dispatch,
/// the streaming chunk size, every chunk buffer's binding limit; whole workgroups where possible.
pub(crate) fn chunk_capacity(scene: &Scene, outputs: &[OutputSpec]) -> u64 {
    let limits = scene.limits;
    let by_outputs = outputs
        .iter()
        .map(|o| limits.buffers.results.saturating_sub(o.header) / o.max_stride.max(1))
        .min()
        .unwrap_or(u64::MAX);
    let capacity = u64::from(limits.chunk.max_pairs_per_chunk)
        .min(u64::from(limits.stream_chunk))
        .min(limits.buffers.pairs / PAIR_STRIDE)
        .min(by_outputs);
    let group = u64::from(super::WORKGROUP_SIZE);
    if capacity >= group {
        capacity / group * group
    } else {
        capacity.max(1)
    }
}

/// The first pair that names an instance the scene does not have.
fn check_pairs(pairs: &[Pair], instances: usize) -> Result<(), GpuError> {
    let largest = pairs.iter().flatten().copied().max().unwrap_or(0);
    if (largest as usize) < instances || pairs.is_empty() {
        return Ok(());
    }
    let (pair, index) = pairs
        .iter()
        .enumerate()
        .find_map(|(k, p)| {
            p.iter()
                .find(|&&i| i as usize >= instances)
                .map(|&i| (k, i))
        })
        .unwrap_or((0, largest));
    Err(GpuError::BadIndex(
        IndexError::BadInstanceIndex {
            pair,
            index,
            instances,
        }
        .to_string(),
    ))
}

/// The settings of one batch.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BatchSettings<'a> {
    pub kind: QueryKind,
    pub config: &'a GjkConfig,
}

/// How a batch reaches the scene: through windows of the resident instances (one, the whole buffer, when the
/// scene fits one binding), or in gathered groups uploaded one after the other.
enum Plan {
    Windows(Vec<Window>),
    Gathered(Vec<Group>),
}

impl Plan {
    fn new(scene: &mut Scene, pairs: &[Pair]) -> Result<Self, GpuError> {
        if scene.resident() {
            let (window, align) = scene.instance_window();
            if scene.instance_count() <= window as usize {
                return Ok(Plan::Windows(vec![Window {
                    pairs: 0..pairs.len(),
                    base: 0,
                }]));
            }
            if let Some(windows) = plan_windows(pairs, window, align) {
                return Ok(Plan::Windows(windows));
            }
        }
        let groups = plan_groups(
            pairs,
            scene.gpu_instances(),
            scene.hull_set(),
            scene.hulls_resident(),
            &scene.limits.buffers,
        )?;
        scene.reserve_groups(&groups);
        Ok(Plan::Gathered(groups))
    }

    /// Pairs of each run, for sizing the ring.
    fn runs(&self) -> Vec<usize> {
        match self {
            Plan::Windows(windows) => windows.iter().map(|w| w.pairs.len()).collect(),
            Plan::Gathered(groups) => groups.iter().map(|g| g.pairs.len()).collect(),
        }
    }
}

/// One batch in progress: counters and the slot to use next.
struct Stream<'a> {
    scene: &'a Scene,
    ring: &'a mut Ring,
    ring_size: usize,
    settings: BatchSettings<'a>,
    timings: GpuTimings,
    kernel_ns: f64,
    period_ns: f64,
    next_slot: usize,
    /// Pairs rebased to a window's first instance, reused chunk after chunk.
    rebased: Vec<Pair>,
}

impl<'a> Stream<'a> {
    fn new(
        scene: &'a Scene,
        ring: &'a mut Ring,
        settings: BatchSettings<'a>,
        timings: GpuTimings,
    ) -> Self {
        Self {
            scene,
            ring_size: ring.slots.len().max(1),
            ring,
            settings,
            timings,
            kernel_ns: 0.0,
            period_ns: f64::from(scene.queue.get_timestamp_period()),
            next_slot: 0,
            rebased: Vec::new(),
        }
    }
}

/// A run of pairs as the GPU indexes them: rebased to a window of the resident instances, or a gathered
/// group's own indices.
#[derive(Clone, Copy)]
enum Source<'p> {
    Rebased(u32),
    Local(&'p [Pair]),
}

/// Where a chunk's pairs come from: the host's slice, written through the staging buffer, or up to `count`
/// pairs from pair `first` of a device buffer, copied on the device, chunk `index` of a batch whose `frame`
/// dispatches each chunk from the pair count on the device.
#[derive(Clone, Copy)]
enum ChunkPairs<'p> {
    Host(&'p [Pair]),
    Device {
        buffer: &'p wgpu::Buffer,
        first: u64,
        count: u64,
        index: u32,
        frame: &'p DeviceFrame,
    },
}

impl ChunkPairs<'_> {
    /// The chunk's pairs, or the most it may hold when they lie on the device.
    fn count(&self) -> u64 {
        match self {
            ChunkPairs::Host(pairs) => pairs.len() as u64,
            ChunkPairs::Device { count, .. } => *count,
        }
    }
}

/// Runs `job` over `pairs`, blocking until every chunk's outputs are collected. Pair indices are checked first,
/// so a bad batch fails whole with the index named.
pub(crate) fn run_batch(
    scene: &mut Scene,
    ring: &mut Ring,
    job: &mut dyn KernelJob,
    pairs: &[Pair],
    settings: BatchSettings<'_>,
) -> Result<GpuTimings, GpuError> {
    stream_batch(scene, ring, job, pairs, settings, true)
}

/// Like [`run_batch`] without the wait at the end: chunks still running stay in flight (collected when done),
/// and [`settle`] collects them, with this same job, before the ring serves another batch. The host still
/// blocks when every slot is in flight. For a frame that renders from outputs that stay on the device.
pub(crate) fn run_batch_deferred(
    scene: &mut Scene,
    ring: &mut Ring,
    job: &mut dyn KernelJob,
    pairs: &[Pair],
    settings: BatchSettings<'_>,
) -> Result<GpuTimings, GpuError> {
    stream_batch(scene, ring, job, pairs, settings, false)
}

/// The pairs per chunk of a batch whose pairs lie on the device (see [`run_batch_from_device`]): the chunk
/// capacity, cut short where the largest hulls could exceed the work per chunk (the host cannot see which pairs
/// hold them).
pub(crate) fn device_chunk_pairs(scene: &Scene, job: &dyn KernelJob) -> u32 {
    let capacity = chunk_capacity(scene, job.outputs());
    let most = pair_work(scene.max_points, scene.max_points);
    let by_work = (scene.limits.chunk.max_work_per_chunk / most.max(1)).max(1);
    capacity.min(by_work).min(u64::from(u32::MAX)) as u32
}

/// Like [`run_batch_deferred`] over pairs that already lie on the device, in `pairs` (`vec2<u32>` each, indices
/// of the scene's instances, as the GPU broad phase writes them), as many as its count on the device says, up
/// to `capacity`: the host never reads the count. It plans `capacity` pairs in chunks of `chunk` (from
/// [`device_chunk_pairs`]); each chunk copies its share of the buffer on the device and `frame` writes its
/// dispatch from the count ([`DeviceFrame::before_chunk`]), so a chunk past the count dispatches nothing. Only
/// for a scene the batch indexes directly (every instance resident in one binding; refused otherwise, as the
/// host cannot rebase or gather pairs it does not see). The indices are not checked on the host: a kernel's
/// reads stay in its bindings whatever they are, and the broad phase writes only indices of the boxes it was
/// given.
pub(crate) fn run_batch_from_device(
    scene: &mut Scene,
    ring: &mut Ring,
    job: &mut dyn KernelJob,
    device_pairs: (&wgpu::Buffer, u32, u32),
    frame: &DeviceFrame,
    settings: BatchSettings<'_>,
) -> Result<GpuTimings, GpuError> {
    let (pairs, capacity, chunk) = device_pairs;
    let start = Instant::now();
    if !scene.in_one_window() {
        return Err(GpuError::BadIndex(format!(
            "pairs on the device need every one of the {} instances resident in one binding",
            scene.instance_count()
        )));
    }
    if u64::from(capacity) * PAIR_STRIDE > pairs.size() {
        return Err(GpuError::BadIndex(format!(
            "{capacity} pairs asked of a pair buffer of {} bytes",
            pairs.size()
        )));
    }
    let pending = std::mem::take(&mut scene.pending);
    let timings = GpuTimings {
        upload_s: pending.seconds,
        bytes_up: pending.bytes,
        ..GpuTimings::default()
    };
    let (capacity, chunk) = (capacity as usize, chunk.max(1) as usize);
    let chunks = capacity.div_ceil(chunk).max(1);
    ring.ensure(
        &scene.device,
        job.outputs(),
        chunk.min(capacity.max(1)) as u64,
        scene.limits.ring.min(chunks),
    );
    let scene: &Scene = scene;
    let binding = scene.resident_binding(0);
    let mut stream = Stream::new(scene, ring, settings, timings);
    for (index, first) in (0..capacity.max(1)).step_by(chunk).enumerate() {
        let slot = stream.next_slot;
        stream.next_slot = (stream.next_slot + 1) % stream.ring_size;
        stream.free(slot, job)?;
        let source = ChunkPairs::Device {
            buffer: pairs,
            first: first as u64,
            count: chunk.min(capacity - first) as u64,
            index: index as u32,
            frame,
        };
        stream.submit(slot, job, source, first, &binding)?;
        stream.collect_ready(job)?;
    }
    stream.collect_ready(job)?;
    let mut timings = stream.timings;
    timings.groups = 1;
    timings.kernel_s = stream
        .ring
        .slots
        .first()
        .and_then(|s| s.timestamps.as_ref())
        .map(|_| stream.kernel_ns * 1e-9);
    timings.total_s = start.elapsed().as_secs_f64() + pending.seconds;
    Ok(timings)
}

/// Collects every chunk a deferred batch left in flight, waiting (once) only if one is still running. Returns
/// what that cost: the wait, the copy out, the kernel time of the chunks collected here.
pub(crate) fn settle(
    scene: &Scene,
    ring: &mut Ring,
    job: &mut dyn KernelJob,
) -> Result<GpuTimings, GpuError> {
    let start = Instant::now();
    let config = GjkConfig::default();
    let settings = BatchSettings {
        kind: QueryKind::Distance,
        config: &config,
    };
    let mut stream = Stream::new(scene, ring, settings, GpuTimings::default());
    stream.finish(job)?;
    let mut timings = stream.timings;
    timings.kernel_s = stream
        .ring
        .slots
        .first()
        .and_then(|s| s.timestamps.as_ref())
        .map(|_| stream.kernel_ns * 1e-9);
    timings.total_s = start.elapsed().as_secs_f64();
    Ok(timings)
}

fn stream_batch(
    scene: &mut Scene,
    ring: &mut Ring,
    job: &mut dyn KernelJob,
    pairs: &[Pair],
    settings: BatchSettings<'_>,
    wait_at_end: bool,
) -> Result<GpuTimings, GpuError> {
    let start = Instant::now();
    let pending = std::mem::take(&mut scene.pending);
    let mut timings = GpuTimings {
        upload_s: pending.seconds,
        bytes_up: pending.bytes,
        ..GpuTimings::default()
    };
    check_pairs(pairs, scene.instance_count())?;
    if pairs.is_empty() {
        timings.total_s = start.elapsed().as_secs_f64() + pending.seconds;
        return Ok(timings);
    }
    let plan = Plan::new(scene, pairs)?;
    let capacity = chunk_capacity(scene, job.outputs());
    let runs = plan.runs();
    let chunks: usize = runs.iter().map(|n| n.div_ceil(capacity as usize)).sum();
    let longest = runs.iter().copied().max().unwrap_or(0) as u64;
    ring.ensure(
        &scene.device,
        job.outputs(),
        capacity.min(longest),
        scene.limits.ring.min(chunks),
    );
    let scene: &Scene = scene;
    let mut stream = Stream::new(scene, ring, settings, timings);
    match &plan {
        Plan::Windows(windows) => {
            for w in windows {
                let binding = scene.resident_binding(w.base);
                let run = &pairs[w.pairs.clone()];
                let source = Source::Rebased(w.base);
                stream.run_pairs(job, run, source, w.pairs.start, &binding, capacity)?;
            }
        }
        Plan::Gathered(groups) => {
            for group in groups {
                let start = Instant::now();
                stream.timings.bytes_up += scene.upload_group(group);
                stream.timings.upload_s += start.elapsed().as_secs_f64();
                let binding = scene.gathered_binding();
                let run = &pairs[group.pairs.clone()];
                let source = Source::Local(&group.local_pairs);
                stream.run_pairs(job, run, source, group.pairs.start, &binding, capacity)?;
            }
        }
    }
    if wait_at_end {
        stream.finish(job)?;
    } else {
        stream.collect_ready(job)?;
    }
    let mut timings = stream.timings;
    timings.groups = runs.len() as u32;
    timings.kernel_s = stream
        .ring
        .slots
        .first()
        .and_then(|s| s.timestamps.as_ref())
        .map(|_| stream.kernel_ns * 1e-9);
    timings.total_s = start.elapsed().as_secs_f64() + pending.seconds;
    Ok(timings)
}

impl Stream<'_> {
    /// Streams one run of pairs in chunks: `global` as the scene indexes them (for the work estimate), `source`
    /// says how the GPU indexes them, `first` is their index in the batch.
    fn run_pairs(
        &mut self,
        job: &mut dyn KernelJob,
        global: &[Pair],
        source: Source<'_>,
        first: usize,
        binding: &SceneBinding,
        capacity: u64,
    ) -> Result<(), GpuError> {
        for range in self.chunks(global, capacity) {
            let slot = self.next_slot;
            self.next_slot = (self.next_slot + 1) % self.ring_size;
            self.free(slot, job)?;
            let mut rebased = std::mem::take(&mut self.rebased);
            let chunk: &[Pair] = match source {
                Source::Rebased(0) => &global[range.clone()],
                Source::Rebased(base) => {
                    rebased.clear();
                    rebased.extend(global[range.clone()].iter().map(|p| p.map(|i| i - base)));
                    &rebased
                }
                Source::Local(local) => &local[range.clone()],
            };
            let submitted = self.submit(
                slot,
                job,
                ChunkPairs::Host(chunk),
                first + range.start,
                binding,
            );
            self.rebased = rebased;
            submitted?;
            self.collect_ready(job)?;
        }
        Ok(())
    }

    /// Chunk ranges by pair count and, where big hulls make it matter, by estimated work.
    fn chunks(&self, pairs: &[Pair], capacity: u64) -> Vec<Range<usize>> {
        let limits = self.scene.limits.chunk;
        let max_pairs = capacity as usize;
        let most = pair_work(self.scene.max_points, self.scene.max_points);
        if most.saturating_mul(capacity) <= limits.max_work_per_chunk {
            return (0..pairs.len())
                .step_by(max_pairs)
                .map(|s| s..(s + max_pairs).min(pairs.len()))
                .collect();
        }
        chunk_ranges_by(pairs.len(), max_pairs, limits.max_work_per_chunk, |k| {
            let [a, b] = pairs[k];
            pair_work(self.scene.points_of(a), self.scene.points_of(b))
        })
    }

    /// Makes `slot` free for a new chunk: collects its chunk (waiting if it is still running) and makes sure its
    /// staging buffer is mapped.
    fn free(&mut self, slot: usize, job: &mut dyn KernelJob) -> Result<(), GpuError> {
        if self.ring.slots[slot].in_flight.is_some() {
            if self.ring.slots[slot].readback_state.get().is_none() {
                let index = self.ring.slots[slot]
                    .in_flight
                    .as_ref()
                    .map(|f| f.submission.clone());
                self.block(index)?;
            }
            self.collect(slot, job)?;
        }
        if self.ring.slots[slot].staging_state.get().is_none() {
            self.block(None)?;
        }
        match self.ring.slots[slot].staging_state.get() {
            Some(true) => Ok(()),
            _ => Err(GpuError::Readback("mapping a staging buffer failed".into())),
        }
    }

    fn block(&mut self, submission: Option<wgpu::SubmissionIndex>) -> Result<(), GpuError> {
        let start = Instant::now();
        poll(
            &self.scene.device,
            wgpu::PollType::Wait {
                submission_index: submission,
                timeout: None,
            },
        )?;
        self.timings.blocking_waits += 1;
        self.timings.compute_s += start.elapsed().as_secs_f64();
        Ok(())
    }

    /// Fills the slot's staging buffer, records the chunk and submits it: copy in, the kernel's passes,
    /// timestamps, copy out, in one submission. Then asks for both of the slot's buffers to be mapped again.
    fn submit(
        &mut self,
        slot: usize,
        job: &mut dyn KernelJob,
        pairs: ChunkPairs<'_>,
        first: usize,
        binding: &SceneBinding,
    ) -> Result<(), GpuError> {
        let start = Instant::now();
        let count = pairs.count();
        let layout = self.ring.layout.clone();
        let outputs = job.outputs();
        let params = GpuParams {
            pair_count: count as u32,
            max_iterations: self.settings.config.max_iterations,
            kind: self.settings.kind as u32,
            touch_tolerance: self.settings.config.touch_tolerance as f32,
            loop_probe: LOOP_PROBE_TRIPS,
            format: job.format(),
            epa_by_pair: u32::from(job.epa_by_pair()),
            subgroup_from: job.subgroup_from(first, count as u32),
            first_pair: first as u32,
            _pad: [0; 3],
        };
        let pairs_bytes: &[u8] = match pairs {
            ChunkPairs::Host(pairs) => bytemuck::cast_slice(pairs),
            ChunkPairs::Device { .. } => &[],
        };
        let staged = layout.pairs_offset + pairs_bytes.len() as u64;
        let s = &mut self.ring.slots[slot];
        {
            let mut view = s
                .staging
                .get_mapped_range_mut(..staged)
                .map_err(|e| GpuError::Readback(e.to_string()))?;
            let mut write = view.slice(..);
            write
                .slice(..PARAMS_BYTES as usize)
                .copy_from_slice(bytemuck::bytes_of(&params));
            for (o, &at) in outputs.iter().zip(&layout.init_offsets) {
                if !o.init.is_empty() {
                    let at = at as usize;
                    write.slice(at..at + o.init.len()).copy_from_slice(o.init);
                }
            }
            write
                .slice(layout.pairs_offset as usize..)
                .copy_from_slice(pairs_bytes);
        }
        s.staging.unmap();
        let device = &self.scene.device;
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("chunk"),
        });
        encoder.copy_buffer_to_buffer(&s.staging, 0, &s.params, 0, PARAMS_BYTES);
        for ((o, &at), buffer) in outputs.iter().zip(&layout.init_offsets).zip(&s.outputs) {
            if !o.init.is_empty() {
                encoder.copy_buffer_to_buffer(&s.staging, at, buffer, 0, o.init.len() as u64);
            }
        }
        match pairs {
            ChunkPairs::Host(_) => encoder.copy_buffer_to_buffer(
                &s.staging,
                layout.pairs_offset,
                &s.pairs,
                0,
                pairs_bytes.len() as u64,
            ),
            ChunkPairs::Device { buffer, first, .. } => encoder.copy_buffer_to_buffer(
                buffer,
                first * PAIR_STRIDE,
                &s.pairs,
                0,
                count * PAIR_STRIDE,
            ),
        }
        if s.bind_group
            .as_ref()
            .is_none_or(|(key, _)| *key != binding.key)
        {
            let mut buffers = vec![
                (&s.params, None),
                (&binding.vertices, None),
                (&binding.hulls, None),
                (
                    &binding.instances,
                    Some((binding.instance_offset, binding.instance_size)),
                ),
                (&s.pairs, None),
            ];
            buffers.extend(s.outputs.iter().map(|b| (b, None)));
            let group = bind_group(device, "chunk bindings", job.layout(), &buffers);
            s.bind_group = Some((binding.key, group));
        }
        let (_, group) = s.bind_group.as_ref().expect("made above");
        let dispatch = match pairs {
            ChunkPairs::Host(_) => Dispatch::Pairs(count as u32),
            ChunkPairs::Device { index, frame, .. } => {
                frame.before_chunk(&mut encoder, group, &s.params, index)
            }
        };
        job.encode(
            &mut encoder,
            group,
            first,
            dispatch,
            s.timestamps.as_ref().map(|(set, _)| set),
            &s.outputs,
        );
        if let ChunkPairs::Device { frame, .. } = pairs {
            frame.after_chunk(&mut encoder, group);
        }
        if let Some((set, resolve)) = &s.timestamps {
            encoder.resolve_query_set(set, 0..2, resolve, 0);
            encoder.copy_buffer_to_buffer(resolve, 0, &s.readback, 0, TIMESTAMP_BYTES);
        }
        // Per-pair records of a batch that keeps them on the device: none copied out.
        let read_count = if job.reads_back() { count } else { 0 };
        let (read_at, read_len) = read_offsets(outputs, read_count);
        for ((o, &at), buffer) in outputs.iter().zip(&read_at).zip(&s.outputs) {
            let (offset, len) = o.read_range(read_count);
            if len > 0 {
                encoder.copy_buffer_to_buffer(buffer, offset, &s.readback, at, len);
            }
        }
        let submission = self.scene.queue.submit([encoder.finish()]);
        s.staging_state
            .request(&s.staging, wgpu::MapMode::Write, 0..s.staging.size());
        s.readback_state
            .request(&s.readback, wgpu::MapMode::Read, 0..read_len);
        s.in_flight = Some(InFlight {
            first,
            count,
            submission,
            read_len,
        });
        self.timings.chunks += 1;
        self.timings.submissions += 1;
        self.timings.bytes_up += staged;
        self.timings.bytes_down += read_len;
        let in_flight = self
            .ring
            .slots
            .iter()
            .filter(|s| s.in_flight.is_some())
            .count();
        self.timings.max_in_flight = self.timings.max_in_flight.max(in_flight as u32);
        self.timings.upload_s += start.elapsed().as_secs_f64();
        Ok(())
    }

    /// Collects every chunk whose outputs are already mapped, without waiting.
    fn collect_ready(&mut self, job: &mut dyn KernelJob) -> Result<(), GpuError> {
        poll(&self.scene.device, wgpu::PollType::Poll)?;
        for slot in 0..self.ring.slots.len() {
            let s = &self.ring.slots[slot];
            if s.in_flight.is_some() && s.readback_state.get().is_some() {
                self.collect(slot, job)?;
            }
        }
        Ok(())
    }

    /// Hands a mapped chunk's outputs to the job and adds up its kernel time.
    fn collect(&mut self, slot: usize, job: &mut dyn KernelJob) -> Result<(), GpuError> {
        let start = Instant::now();
        let s: &mut Slot = &mut self.ring.slots[slot];
        let Some(chunk) = s.in_flight.take() else {
            return Ok(());
        };
        if s.readback_state.get() != Some(true) {
            return Err(GpuError::Readback(
                "mapping a readback buffer failed".into(),
            ));
        }
        {
            let view = s
                .readback
                .get_mapped_range(..chunk.read_len)
                .map_err(|e| GpuError::Readback(e.to_string()))?;
            if s.timestamps.is_some() {
                let ticks: [u64; 2] = bytemuck::pod_read_unaligned(&view[..16]);
                self.kernel_ns += ticks[1].saturating_sub(ticks[0]) as f64 * self.period_ns;
            }
            let read_count = if job.reads_back() { chunk.count } else { 0 };
            let (read_at, _) = read_offsets(job.outputs(), read_count);
            let slices: Vec<&[u8]> = job
                .outputs()
                .iter()
                .zip(&read_at)
                .map(|(o, &at)| {
                    let len = o.read_range(read_count).1;
                    if len == 0 {
                        &view[..0]
                    } else {
                        &view[at as usize..(at + len) as usize]
                    }
                })
                .collect();
            let copy_start = Instant::now();
            job.collect(chunk.first, &slices);
            if job.reads_back() {
                self.timings.readback_copy_s += copy_start.elapsed().as_secs_f64();
                self.timings.readback_copy_bytes +=
                    slices.iter().map(|s| s.len() as u64).sum::<u64>();
            }
        }
        s.readback.unmap();
        self.timings.readback_s += start.elapsed().as_secs_f64();
        Ok(())
    }

    /// The end of the batch: one wait if anything is still running, then every remaining chunk is collected.
    fn finish(&mut self, job: &mut dyn KernelJob) -> Result<(), GpuError> {
        self.collect_ready(job)?;
        if self.ring.slots.iter().any(|s| s.in_flight.is_some()) {
            self.block(None)?;
            for slot in 0..self.ring.slots.len() {
                self.collect(slot, job)?;
            }
        }
        Ok(())
    }
}
