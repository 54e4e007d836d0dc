//! The GPU batch narrow phase: a resident scene (hulls uploaded once, instances once and updated in place),
//! batches that send only their pairs, and results handed back as a borrowed slice of packed records. The
//! buffers are [`Scene`]'s; the streaming is the runner's ([`super::runner`]); each query is a job ([`GjkJob`]
//! here, the penetration job in [`super::penetration`]).

use super::binning::WorkBins;
use super::chunks::ChunkLimits;
use super::copy_out::{copy_out, parallel_copy_on};
use super::device_frame::dispatch::ChunkDispatch;
use super::device_frame::{DeviceFrame, DevicePairs, FrameReadback, SampleDraw};
use super::epa_kernel::EpaKernel;
use super::failure_list::{FailureList, DEFAULT_FAILURE_CAPACITY};
use super::layout::GpuResult;
use super::limits::GpuLimits;
use super::marks::BodyMarks;
use super::packed::{PackedDistance, PackedHit, ResultFormat};
use super::penetration::PenetrationJob;
use super::pipeline::{
    bind_group_layout, workgroups, Access, Dispatch, KernelPipelines, SCENE_BINDINGS,
};
use super::ring::Ring;
use super::runner::{
    chunk_capacity, device_chunk_pairs, run_batch, run_batch_deferred, run_batch_from_device,
    settle, BatchSettings, GpuTimings, KernelJob, OutputSpec, Read,
};
use super::scan_kernel::{subgroup_pairs_per_workgroup, ScanKernel};
use super::scene::Scene;
use super::shader::constants::Climbing;
use super::shader::{Kernel, GJK, GJK_COUNTING, GJK_NULL, GJK_SUBGROUP};
use super::work::PairWork;
use super::RawSets;
use super::{GpuError, ShaderChecks};
use crate::gjk::{GjkConfig, GjkResult, QueryKind};
use crate::instance::{Instance, Pair};
use crate::shape::ConvexShape;
use std::time::Instant;

/// Results of one batch as CPU types, in pair order and each pair's local frame ([`NarrowPhase::run`]).
pub struct GpuBatch {
    pub results: Vec<GjkResult<f32>>,
    pub timings: GpuTimings,
    /// Pairs whose GPU answer carried a failure status and were answered again on the CPU by
    /// `GpuBatch::resolve_failures_on_cpu` (in [`crate::resolve`]).
    pub resolved_on_cpu: usize,
}

/// One batch's records, borrowed from the narrow phase until its next batch, in pair order and each pair's
/// local frame; and what the batch cost.
#[derive(Clone, Copy, Debug)]
pub struct Records<'a, T> {
    pub records: &'a [T],
    pub timings: GpuTimings,
}

/// The narrow phase bound to one device. Create it once, upload hulls once, set the instances, then run
/// batches of pairs; update the instances that move.
pub struct NarrowPhase {
    pub(super) scene: Scene,
    gjk: GjkJob,
    gjk_ring: Ring,
    /// The penetration (EPA) job, built by the first penetration batch, and where its EPA pass keeps the
    /// polytope ([`NarrowPhase::set_epa_kernel`]).
    epa: Option<PenetrationJob>,
    epa_kernel: EpaKernel,
    epa_ring: Ring,
    /// Per-body marks written with each marked batch ([`NarrowPhase::set_body_slots`]).
    marks: Option<BodyMarks>,
    /// A batch [`NarrowPhase::submit_marked`] left running: its pair count and whether its records come back.
    deferred: Option<(usize, bool)>,
    /// Whether batches dispatch their pairs binned by work ([`NarrowPhase::set_binning`]), and the bins.
    binning: bool,
    pub(super) bins: WorkBins,
    /// The kernels and readbacks of device-fed batches (built by the first), and the number of such batches.
    device_frame: Option<DeviceFrame>,
    device_batches: u64,
    /// Most workgroups per dimension a device-fed chunk dispatches ([`NarrowPhase::set_max_dispatch_groups`]).
    max_dispatch_groups: u32,
    /// The pairs a device-fed batch answered with a failure status, listed on the device (built by the first
    /// such batch), and the capacity it is built with.
    failures: Option<FailureList>,
    failure_capacity: u32,
}

impl NarrowPhase {
    /// Builds the pipeline on a device the caller owns (see [`super::GpuContext`]), with limits from the
    /// device.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        Self::with_gpu_limits(device, queue, GpuLimits::from_device(&device.limits()))
    }

    /// Like [`NarrowPhase::new`] with explicit chunk limits (capped by the device's own).
    pub fn with_limits(device: &wgpu::Device, queue: &wgpu::Queue, limits: ChunkLimits) -> Self {
        let gpu = GpuLimits {
            chunk: limits,
            ..GpuLimits::from_device(&device.limits())
        };
        Self::with_gpu_limits(device, queue, gpu)
    }

    /// Like [`NarrowPhase::new`] with every limit explicit (each capped by the device's own): tests shrink them
    /// to exercise each split on small batches.
    pub fn with_gpu_limits(device: &wgpu::Device, queue: &wgpu::Queue, limits: GpuLimits) -> Self {
        Self::with_shader_checks(device, queue, limits, ShaderChecks::Auto)
    }

    /// Like [`NarrowPhase::with_gpu_limits`], with the kernels built with wgpu's runtime checks or as trusted
    /// modules without them ([`ShaderChecks`]; the other constructors take `Auto`: off on hardware adapters, on
    /// for software ones).
    pub fn with_shader_checks(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        limits: GpuLimits,
        checks: ShaderChecks,
    ) -> Self {
        Self {
            scene: Scene::new(device, queue, limits),
            gjk: GjkJob::new(device, Climbing::Left, checks.enabled_on(device)),
            gjk_ring: Ring::default(),
            epa: None,
            epa_kernel: EpaKernel::for_device(device),
            epa_ring: Ring::default(),
            marks: None,
            deferred: None,
            binning: true,
            bins: WorkBins::default(),
            device_frame: None,
            device_batches: 0,
            max_dispatch_groups: device.limits().max_compute_workgroups_per_dimension,
            failures: None,
            failure_capacity: DEFAULT_FAILURE_CAPACITY,
        }
    }

    /// Entries of the failure list of device-fed batches ([`NarrowPhase::set_failure_capacity`]).
    pub fn failure_capacity(&self) -> u32 {
        self.failure_capacity
    }

    /// Entries of the failure list device-fed batches fill ([`FrameReadback::failures`]): failures beyond
    /// it are counted, not listed. Takes effect from the next such batch.
    pub fn set_failure_capacity(&mut self, entries: u32) {
        self.failure_capacity = entries.max(1);
        if self
            .failures
            .as_ref()
            .is_some_and(|f| f.capacity() != self.failure_capacity)
        {
            self.failures = None;
        }
    }

    /// While `on` (the default), the blocking batches (distance, intersection, full results, penetration, work
    /// counts) dispatch their pairs binned by work, sphere and capsule pairs first, then by the hull sizes of both
    /// shapes, and write each answer back to its pair's index; off, pairs run in the order given. Answers are the
    /// same bits either way, except which pairs a software adapter's shared loop budget cuts (docs/gpu.md).
    /// Marked batches always run in the order given.
    pub fn set_binning(&mut self, on: bool) {
        self.binning = on;
    }

    /// How later [`NarrowPhase::upload_hulls`] pack a raw point set of more than `RAW_HULL_MIN_POINTS` points:
    /// as its hull (the default: the same shape, its support calls reading a hull's vertices, climbed from 256
    /// on, instead of every point; answers agree with the CPU's scan of the raw set within the tolerances, not
    /// bit for bit) or scanned as given (the CPU's bits, every point read by every support call).
    pub fn set_raw_sets(&mut self, raw: RawSets) {
        self.scene.raw_sets = raw;
    }

    /// How big raw point sets are uploaded ([`NarrowPhase::set_raw_sets`]).
    pub fn raw_sets(&self) -> RawSets {
        self.scene.raw_sets
    }

    /// Where the penetration query's EPA pass keeps each pair's polytope: in a global scratch buffer or in private
    /// memory ([`EpaKernel`]; the default is [`EpaKernel::for_device`]). The same answers (docs/gpu.md); `bench
    /// --epa-kernel` compares their speed. Takes effect from the next batch (the first use of a kernel compiles
    /// it).
    pub fn set_epa_kernel(&mut self, kernel: EpaKernel) {
        self.epa_kernel = kernel;
        if let Some(job) = &mut self.epa {
            job.set_epa_kernel(&self.scene.device, kernel);
        }
    }

    /// The EPA kernel in use ([`NarrowPhase::set_epa_kernel`]).
    pub fn epa_kernel(&self) -> EpaKernel {
        self.epa_kernel
    }

    /// How the distance and intersection batches scan the biggest scanned hulls ([`ScanKernel`]; the default is
    /// [`ScanKernel::for_device`]): one invocation per pair, or one subgroup per pair for the pairs with a
    /// scanned hull of [`SUBGROUP_SCAN_MIN_POINTS`](super::SUBGROUP_SCAN_MIN_POINTS) points or more. The same
    /// bits either way. [`ScanKernel::Subgroup`] needs a device with wgpu's `SUBGROUP` feature
    /// ([`ScanKernel::available_on`]): without it this fails, naming the adapter, and the per-thread kernel
    /// stays. Binned batches only: a marked or unbinned batch runs every pair one invocation each. Penetration
    /// batches scan one invocation per pair either way. Takes effect from the next batch.
    pub fn set_scan_kernel(&mut self, kernel: ScanKernel) -> Result<(), GpuError> {
        if kernel == ScanKernel::Subgroup && !ScanKernel::available_on(&self.scene.device) {
            return Err(GpuError::Device {
                adapter: self.scene.device.adapter_info().name,
                reason: "the subgroup scan needs wgpu's SUBGROUP feature, which this device lacks"
                    .into(),
            });
        }
        self.gjk.scan = kernel;
        Ok(())
    }

    /// How many pairs of the last distance or intersection batch the subgroup kernel answered (0 with
    /// [`ScanKernel::PerThread`], or when none has a big scanned hull).
    pub fn subgroup_pairs(&self) -> usize {
        self.gjk.subgroup_pairs
    }

    /// The scan kernel in use ([`NarrowPhase::set_scan_kernel`]).
    pub fn scan_kernel(&self) -> ScanKernel {
        self.gjk.scan
    }

    /// Whether batches are binned by work ([`NarrowPhase::set_binning`]).
    pub fn binning(&self) -> bool {
        self.binning
    }

    /// The order in which a blocking batch of `pairs` on the current instances is dispatched: `order[j]` is the
    /// index of the pair invocation `j` runs (`0..pairs.len()` without binning; with the subgroup scan, its pairs
    /// last). For SIMT measures over the counts of [`NarrowPhase::count_work`], which come back in pair order.
    pub fn dispatch_order(&mut self, pairs: &[Pair]) -> Vec<u32> {
        let subgroup = self.gjk.scan == ScanKernel::Subgroup;
        if self.binning && self.bins.bin(&self.scene, pairs, subgroup) {
            self.bins.order().to_vec()
        } else {
            (0..pairs.len() as u32).collect()
        }
    }

    /// The pairs and work per dispatch in effect.
    pub fn limits(&self) -> ChunkLimits {
        self.scene.limits.chunk
    }

    /// Every limit in effect.
    pub fn gpu_limits(&self) -> GpuLimits {
        self.scene.limits
    }

    /// Whether kernel times come from timestamp queries.
    pub fn has_timestamps(&self) -> bool {
        self.scene
            .device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
    }

    /// Uploads the hulls every later batch refers to (by index), identical shapes once, replacing any earlier
    /// set. Instances refer to shapes by index, so they are set again afterwards. Hulls too many for the device
    /// stay on the host and go up with each batch's groups of pairs. A raw point set of more than
    /// `RAW_HULL_MIN_POINTS` points ([`ConvexShape::is_big_raw_set`]) goes up as its hull, built here once per
    /// distinct shape, unless [`NarrowPhase::set_raw_sets`] says otherwise.
    pub fn upload_hulls(&mut self, shapes: &[ConvexShape]) -> Result<(), GpuError> {
        self.scene.upload_hulls(shapes);
        let (device, climbing) = (&self.scene.device, self.scene.climbing());
        self.gjk.pipeline.select(device, climbing);
        for pipelines in [
            &mut self.gjk.counting,
            &mut self.gjk.null,
            &mut self.gjk.subgroup,
        ]
        .into_iter()
        .flatten()
        {
            pipelines.select(device, climbing);
        }
        if let Some(epa) = &mut self.epa {
            epa.select(device, climbing);
        }
        Ok(())
    }

    /// Whether the kernels carry wgpu's runtime checks ([`NarrowPhase::with_shader_checks`]).
    pub fn shader_checks_on(&self) -> bool {
        self.gjk.checked
    }

    /// Whether the kernels in use carry the hull climb, which they do only while an uploaded hull climbs: `Some`
    /// of the answer when the GJK kernel and the penetration kernels (once built) agree, `None` if they do not
    /// (they never should).
    pub fn kernels_climb(&self) -> Option<bool> {
        let gjk = self.gjk.pipeline.active_climbing();
        let all_agree = self
            .epa
            .as_ref()
            .is_none_or(|epa| epa.climbing() == Some(gjk));
        all_agree.then_some(gjk == Climbing::Compiled)
    }

    /// (shapes given, distinct hulls among them) of the last [`NarrowPhase::upload_hulls`].
    pub fn hull_counts(&self) -> (usize, usize) {
        self.scene.hull_counts()
    }

    /// Sets every instance (checking their shape indices), uploaded once for all later batches.
    pub fn set_instances(&mut self, instances: &[Instance]) -> Result<(), GpuError> {
        self.scene.set_instances(instances)
    }

    /// Overwrites instances `first..first + instances.len()` in place: only they go up.
    pub fn update_instances(
        &mut self,
        first: usize,
        instances: &[Instance],
    ) -> Result<(), GpuError> {
        self.scene.update_instances(first, instances)
    }

    /// Makes room for batches of up to `pairs` pairs (distance, intersection, and penetration too when asked),
    /// so that no later batch allocates a buffer: call it before timing.
    pub fn reserve(&mut self, pairs: usize, penetration: bool) {
        debug_assert!(
            self.deferred.is_none(),
            "collect_marked before reserve: the ring may be remade"
        );
        let device = self.scene.device.clone();
        let (climbing, checked) = (self.scene.climbing(), self.gjk.checked);
        let epa_kernel = self.epa_kernel;
        reserve(&self.scene, &mut self.gjk_ring, &self.gjk, pairs);
        if penetration {
            let job = self
                .epa
                .get_or_insert_with(|| PenetrationJob::new(&device, climbing, epa_kernel, checked));
            reserve(&self.scene, &mut self.epa_ring, job, pairs);
            job.reserve(pairs);
        }
        self.gjk.reserve(pairs);
    }

    fn run_gjk(
        &mut self,
        pairs: &[Pair],
        kind: QueryKind,
        format: ResultFormat,
        config: &GjkConfig,
    ) -> Result<GpuTimings, GpuError> {
        self.collect_marked()?;
        self.gjk.begin(format, pairs.len());
        let binned = self.binning && self.gjk.mark.is_none();
        let start = Instant::now();
        // Counting batches bin as answering ones do, so their counts come in the same dispatch order.
        let subgroup = self.gjk.scan == ScanKernel::Subgroup;
        let staged =
            (binned && self.bins.bin(&self.scene, pairs, subgroup)).then(|| self.bins.binned());
        let answering = self.gjk.mode == GjkMode::Answer;
        if staged.is_some() && answering && self.bins.subgroup_from() < pairs.len() {
            self.gjk.subgroup_from = self.bins.subgroup_from();
            self.gjk.subgroup_pairs = pairs.len() - self.bins.subgroup_from();
            self.gjk.prepare_subgroup(&self.scene);
        }
        let binning_s = start.elapsed().as_secs_f64();
        let mut timings = run_batch(
            &mut self.scene,
            &mut self.gjk_ring,
            &mut self.gjk,
            staged.unwrap_or(pairs),
            BatchSettings { kind, config },
        )?;
        if staged.is_some() {
            let start = Instant::now();
            let stride = (self.gjk.format.stride() / 4) as usize;
            self.bins.restore(&mut self.gjk.words, stride);
            timings.add_binning(binning_s, start.elapsed().as_secs_f64());
        }
        Ok(timings)
    }

    /// Distance queries on `pairs` of the scene's instances, as 32-byte records ([`PackedDistance`]).
    pub fn distances(
        &mut self,
        pairs: &[Pair],
        config: &GjkConfig,
    ) -> Result<Records<'_, PackedDistance>, GpuError> {
        let timings = self.run_gjk(pairs, QueryKind::Distance, ResultFormat::Distance, config)?;
        Ok(Records {
            records: self.gjk.records(pairs.len()),
            timings,
        })
    }

    /// Intersection tests on `pairs`, as 4-byte records ([`PackedHit`]).
    pub fn hits(
        &mut self,
        pairs: &[Pair],
        config: &GjkConfig,
    ) -> Result<Records<'_, PackedHit>, GpuError> {
        let timings = self.run_gjk(pairs, QueryKind::Intersection, ResultFormat::Hit, config)?;
        Ok(Records {
            records: self.gjk.records(pairs.len()),
            timings,
        })
    }

    /// `kind` queries on `pairs`, every field of every answer ([`GpuResult`], 48 bytes each).
    pub fn full_results(
        &mut self,
        pairs: &[Pair],
        kind: QueryKind,
        config: &GjkConfig,
    ) -> Result<Records<'_, GpuResult>, GpuError> {
        let timings = self.run_gjk(pairs, kind, ResultFormat::Full, config)?;
        Ok(Records {
            records: self.gjk.records(pairs.len()),
            timings,
        })
    }

    /// Keeps a mark word per body on the GPU, body `i`'s at `slot_of_body[i]` (a renderer's draw order; each slot
    /// once), written by every [`NarrowPhase::full_results_marked`] batch. Replaces any earlier marks.
    pub fn set_body_slots(&mut self, slot_of_body: &[u32]) -> Result<(), GpuError> {
        let marks = BodyMarks::new(
            &self.scene.device,
            &self.scene.queue,
            &self.gjk.layout,
            slot_of_body,
            self.gjk.checked,
        )?;
        self.marks = Some(marks);
        Ok(())
    }

    /// The per-body marks, once [`NarrowPhase::set_body_slots`] made them.
    pub fn body_marks(&self) -> Option<&BodyMarks> {
        self.marks.as_ref()
    }

    pub fn body_marks_mut(&mut self) -> Option<&mut BodyMarks> {
        self.marks.as_mut()
    }

    /// Like [`NarrowPhase::full_results`], and each chunk's submission also marks the bodies of its pairs in the
    /// [`BodyMarks`] (starting from [`super::MARK_DISPUTED`] on `disputed` bodies), so the marks never cross the
    /// bus. Returns `marked: false` (and leaves the marks as `reset` wrote them) when the scene is not resident
    /// in one binding, where chunks index gathered or rebased instances: the caller marks on the CPU then.
    pub fn full_results_marked(
        &mut self,
        pairs: &[Pair],
        kind: QueryKind,
        config: &GjkConfig,
        disputed: &[u32],
    ) -> Result<(Records<'_, GpuResult>, bool), GpuError> {
        self.collect_marked()?;
        let marked = self.start_marks(disputed)?;
        let timings = self.run_gjk(pairs, kind, ResultFormat::Full, config);
        self.gjk.mark = None;
        let records = Records {
            records: self.gjk.records(pairs.len()),
            timings: timings?,
        };
        Ok((records, marked))
    }

    /// Resets the marks (disputed bodies marked) and arms the marking pass where the GPU can mark; returns
    /// whether it can.
    fn start_marks(&mut self, disputed: &[u32]) -> Result<bool, GpuError> {
        let bodies = self.scene.instance_count();
        let marks = self.marks.as_mut().ok_or_else(|| {
            GpuError::BadIndex("a marked batch needs body slots (set_body_slots)".into())
        })?;
        if marks.bodies() != bodies {
            return Err(GpuError::BadIndex(format!(
                "{} bodies have marks but the scene has {bodies} instances",
                marks.bodies()
            )));
        }
        self.scene.pending.bytes += marks.reset(disputed);
        let marked = self.scene.in_one_window();
        self.gjk.mark = marked.then(|| marks.pass());
        Ok(marked)
    }

    /// Starts a marked batch ([`NarrowPhase::full_results_marked`]) and returns without waiting for its end, so
    /// a frame can render from the marks while the GPU works; the host blocks only if the ring fills. Only a
    /// `read_back` batch copies its records out. [`NarrowPhase::collect_marked`] (or the next batch) finishes it.
    /// When the GPU cannot mark (`false` returned), nothing was started: run a batch that reads back instead.
    pub fn submit_marked(
        &mut self,
        pairs: &[Pair],
        kind: QueryKind,
        config: &GjkConfig,
        disputed: &[u32],
        read_back: bool,
    ) -> Result<(GpuTimings, bool), GpuError> {
        self.collect_marked()?;
        if !self.start_marks(disputed)? {
            self.gjk.mark = None;
            return Ok((GpuTimings::default(), false));
        }
        self.gjk.begin(ResultFormat::Full, pairs.len());
        self.gjk.read_back = read_back;
        let timings = run_batch_deferred(
            &mut self.scene,
            &mut self.gjk_ring,
            &mut self.gjk,
            pairs,
            BatchSettings { kind, config },
        );
        self.gjk.mark = None;
        if timings.is_ok() {
            self.deferred = Some((pairs.len(), read_back));
        } else {
            self.gjk.read_back = true;
        }
        Ok((timings?, true))
    }

    /// The instance records (32 bytes each: position, hull index, rotation) as the batches read them, while
    /// the whole scene is on the GPU: a pass that moves the bodies on the device writes their poses there
    /// after one [`NarrowPhase::set_instances`] has set the hulls.
    pub fn resident_instance_buffer(&self) -> Option<&wgpu::Buffer> {
        self.scene.resident_instances()
    }

    /// Whether a scene of `instances` instances, with the hulls uploaded now, is indexed directly by its batches
    /// (hulls and instances resident, every instance in one binding): what
    /// [`NarrowPhase::submit_marked_from_device`] needs, known before the instances go up.
    pub fn indexes_directly(&self, instances: usize) -> bool {
        let scene = &self.scene;
        scene.hulls_resident()
            && instances as u64 * super::layout::INSTANCE_STRIDE <= scene.limits.buffers.max_buffer
            && instances <= scene.instance_window().0 as usize
    }

    /// Like [`NarrowPhase::submit_marked`] without reading back, over the pairs that already lie on the device in
    /// `pairs` (as the GPU broad phase leaves them, [`super::broad::GpuBroadPhase::buffers`]), as many as the count
    /// there says: the host never reads it first. Each chunk copies its pairs on the device and dispatches its
    /// kernels from the count ([`super::device_frame`]); the marking pass colours the bodies, the failure list
    /// lists the pairs answered with a failure status and counts the colliding ones, and `sample`, when given, is
    /// drawn and gathered on the device. One small readback follows the batch, mapped without waiting:
    /// [`NarrowPhase::collect_device_frames`] picks it up. [`NarrowPhase::collect_marked`] finishes the batch
    /// (with no records). `false` (nothing started) when the GPU cannot mark this scene, which is also when it
    /// cannot index it directly.
    pub fn submit_marked_from_device(
        &mut self,
        pairs: DevicePairs<'_>,
        kind: QueryKind,
        config: &GjkConfig,
        disputed: &[u32],
        sample: Option<SampleDraw>,
    ) -> Result<(GpuTimings, bool), GpuError> {
        self.collect_marked()?;
        if !self.start_marks(disputed)? {
            self.gjk.mark = None;
            return Ok((GpuTimings::default(), false));
        }
        self.gjk.begin(ResultFormat::Full, 0);
        self.gjk.read_back = false;
        let (device, queue, layout) = (&self.scene.device, &self.scene.queue, &self.gjk.layout);
        let capacity = self.failure_capacity;
        let failures = self
            .failures
            .get_or_insert_with(|| FailureList::new(device, queue, layout, capacity));
        failures.reset();
        let frame = self
            .device_frame
            .get_or_insert_with(|| DeviceFrame::new(device, queue, layout));
        frame.max_groups = self.max_dispatch_groups;
        let chunk = device_chunk_pairs(&self.scene, &self.gjk);
        let settings_up = frame.begin(pairs, chunk, sample);
        self.gjk.list_failures = Some(failures.pass());
        let timings = run_batch_from_device(
            &mut self.scene,
            &mut self.gjk_ring,
            &mut self.gjk,
            (pairs.pairs, pairs.capacity, chunk),
            frame,
            BatchSettings { kind, config },
        );
        self.gjk.mark = None;
        self.gjk.list_failures = None;
        let mut timings = match timings {
            Ok(timings) => timings,
            Err(e) => {
                self.gjk.read_back = true;
                return Err(e);
            }
        };
        self.deferred = Some((0, false));
        frame.submit_readback(pairs.count, failures);
        self.device_batches += 1;
        timings.bytes_up += settings_up;
        timings.submissions += 1;
        Ok((timings, true))
    }

    /// The readbacks of device-fed batches that have come back, oldest first: without waiting, or with `wait`
    /// after one blocking wait for every one still in flight. A sampled frame collected before the next
    /// device-fed batch also gets the failure list's entries past those its readback carries (a second read,
    /// only when it listed more); collected later, those are counted but not listed.
    pub fn collect_device_frames(&mut self, wait: bool) -> Result<Vec<FrameReadback>, GpuError> {
        let Some(frame) = self.device_frame.as_mut() else {
            return Ok(Vec::new());
        };
        let latest = self.device_batches;
        let mut frames = frame.collect(wait)?;
        let newest = latest - frame.pending() as u64;
        let count = frames.len() as u64;
        for (k, readback) in frames.iter_mut().enumerate() {
            let batch = newest - count + 1 + k as u64;
            let (Some(list), true) = (self.failures.as_ref(), batch == latest) else {
                continue;
            };
            if readback.sample.is_none() {
                continue;
            }
            let listed = readback.failures.count.min(list.capacity());
            let have = readback.failures.entries.len() as u32;
            if listed > have {
                let rest = list.read_entries(have, listed)?;
                readback.bytes_down += rest.len() as u64 * super::pair_entry::PAIR_ENTRY_BYTES;
                readback.blocking_waits += 1;
                readback.failures.entries.extend(rest);
            }
        }
        Ok(frames)
    }

    /// Most workgroups per dimension a device-fed chunk dispatches before it splits them into rows: the device's
    /// limit unless lowered (tests lower it to see the rows on small batches). Takes effect from the next batch.
    pub fn set_max_dispatch_groups(&mut self, groups: u32) {
        let device = self
            .scene
            .device
            .limits()
            .max_compute_workgroups_per_dimension;
        self.max_dispatch_groups = groups.clamp(1, device);
    }

    /// The pairs per chunk of device-fed batches.
    pub fn device_chunk_pairs(&self) -> u32 {
        device_chunk_pairs(&self.scene, &self.gjk)
    }

    /// The indirect dispatches the latest device-fed batch wrote, one per chunk, waiting for the device: for
    /// tests and tools.
    pub fn read_chunk_dispatches(&self) -> Result<Vec<ChunkDispatch>, GpuError> {
        match &self.device_frame {
            Some(frame) => frame.read_dispatches(),
            None => Ok(Vec::new()),
        }
    }

    /// Finishes the batch [`NarrowPhase::submit_marked`] started, waiting only if a chunk is still running:
    /// what finishing cost, with the batch's records when it was read back (else none). `None` with no batch
    /// outstanding.
    pub fn collect_marked(&mut self) -> Result<Option<Records<'_, GpuResult>>, GpuError> {
        let Some((pairs, read_back)) = self.deferred.take() else {
            return Ok(None);
        };
        let timings = settle(&self.scene, &mut self.gjk_ring, &mut self.gjk);
        self.gjk.read_back = true;
        let timings = timings?;
        let records = if read_back {
            self.gjk.records(pairs)
        } else {
            &[]
        };
        Ok(Some(Records { records, timings }))
    }

    /// While `on`, the GJK batches ([`NarrowPhase::distances`], [`NarrowPhase::hits`], [`NarrowPhase::run`], ...)
    /// run a kernel that writes empty records and does no work (`shaders/gjk_null.wgsl`): what a batch costs
    /// the host, the transfers and a dispatch, the ceiling of any kernel. Answers are meaningless meanwhile.
    pub fn set_null_kernel(&mut self, on: bool) {
        if on {
            self.gjk.prepare(&self.scene, GjkMode::Null);
        }
        self.gjk.mode = if on { GjkMode::Null } else { GjkMode::Answer };
    }

    /// Sets the instances and runs one batch through the counting GJK kernel (`shaders/gjk_counting.wgsl`, built
    /// on first use; the answering kernels count nothing): each pair's work, in pair order, dispatched as the
    /// answering batches are (binned or not). For the SIMT proxies of [`super::WorkSummary`], taken in
    /// [`NarrowPhase::dispatch_order`]; answers come from [`NarrowPhase::run`].
    pub fn count_work(
        &mut self,
        instances: &[Instance],
        pairs: &[Pair],
        kind: QueryKind,
        config: &GjkConfig,
    ) -> Result<Vec<PairWork>, GpuError> {
        self.set_instances(instances)?;
        self.gjk.prepare(&self.scene, GjkMode::Count);
        let before = std::mem::replace(&mut self.gjk.mode, GjkMode::Count);
        let timings = self.run_gjk(pairs, kind, ResultFormat::Full, config);
        self.gjk.mode = before;
        timings?;
        let words = (ResultFormat::Full.stride() / 4) as usize;
        Ok(self.gjk.words[..pairs.len() * words]
            .chunks(words)
            .map(|w| PairWork {
                gjk_steps: w[0],
                support_calls: w[1],
                vertex_reads: w[2],
                status: w[3],
            })
            .collect())
    }

    /// Sets the instances and runs one batch, every answer converted to [`GjkResult`] (bit for bit the kernel's
    /// answer). Batches larger than one chunk are split automatically, and a scene too large for the device
    /// goes up in groups; pair indices are checked first, so a bad batch fails whole with the index named.
    pub fn run(
        &mut self,
        instances: &[Instance],
        pairs: &[Pair],
        kind: QueryKind,
        config: &GjkConfig,
    ) -> Result<GpuBatch, GpuError> {
        self.set_instances(instances)?;
        let batch = self.full_results(pairs, kind, config)?;
        Ok(GpuBatch {
            results: batch.records.iter().map(GpuResult::to_result).collect(),
            timings: batch.timings,
            resolved_on_cpu: 0,
        })
    }

    /// The penetration job, built on first use.
    pub(super) fn penetration_parts(&mut self) -> (&mut Scene, &mut Ring, &mut PenetrationJob) {
        let device = self.scene.device.clone();
        let (climbing, checked) = (self.scene.climbing(), self.gjk.checked);
        let epa_kernel = self.epa_kernel;
        let job = self
            .epa
            .get_or_insert_with(|| PenetrationJob::new(&device, climbing, epa_kernel, checked));
        (&mut self.scene, &mut self.epa_ring, job)
    }
}

/// Sizes `ring` and the job's chunk buffers for batches of `pairs` pairs.
fn reserve(scene: &Scene, ring: &mut Ring, job: &dyn KernelJob, pairs: usize) {
    let capacity = chunk_capacity(scene, job.outputs());
    let chunks = pairs.div_ceil(capacity as usize).max(1);
    ring.ensure(
        &scene.device,
        job.outputs(),
        capacity.min(pairs.max(1) as u64),
        scene.limits.ring.min(chunks),
    );
}

/// The GJK kernel's job: one pass, one output, records in the batch's format.
struct GjkJob {
    layout: wgpu::BindGroupLayout,
    pipeline: KernelPipelines,
    /// The counting kernel's pipelines, built by the first [`NarrowPhase::count_work`], the null kernel's, built
    /// by the first [`NarrowPhase::set_null_kernel`], and which kernel the batches run.
    counting: Option<KernelPipelines>,
    null: Option<KernelPipelines>,
    mode: GjkMode,
    /// The subgroup kernel's pipelines, built by the first batch that hands it pairs; the scan in use; the first
    /// pair of the batch, in dispatch order, that it answers (`usize::MAX`: none) and how many it answers; the
    /// pairs a workgroup of it answers ([`subgroup_pairs_per_workgroup`]) and the most workgroups one dispatch
    /// may have.
    subgroup: Option<KernelPipelines>,
    scan: ScanKernel,
    subgroup_from: usize,
    subgroup_pairs: usize,
    subgroup_pairs_per_group: u32,
    max_workgroups: u32,
    format: ResultFormat,
    outputs: [OutputSpec; 1],
    /// The batch's records as words, in pair order (kept between batches, so they only grow).
    words: Vec<u32>,
    /// The body-marking pass each chunk runs after GJK in a marked batch: pipeline and its group 1.
    mark: Option<(wgpu::ComputePipeline, wgpu::BindGroup)>,
    /// The failure-listing pass each chunk of a device-fed batch runs last: pipeline and its group 1.
    list_failures: Option<(wgpu::ComputePipeline, wgpu::BindGroup)>,
    /// Whether the batch's records come back (false: a deferred batch whose frame is not checked).
    read_back: bool,
    /// Whether the kernels carry wgpu's runtime checks ([`ShaderChecks`]).
    checked: bool,
    /// Whether records are copied out on every thread ([`parallel_copy_on`]).
    parallel_copy: bool,
}

/// Which kernel the GJK job's batches run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GjkMode {
    Answer,
    Count,
    Null,
}

impl GjkJob {
    /// Builds the pipelines of `mode`'s kernel if needed, the variant the scene needs.
    fn prepare(&mut self, scene: &Scene, mode: GjkMode) {
        let (slot, kernel): (&mut Option<KernelPipelines>, &'static Kernel) = match mode {
            GjkMode::Answer => return,
            GjkMode::Count => (&mut self.counting, &GJK_COUNTING),
            GjkMode::Null => (&mut self.null, &GJK_NULL),
        };
        let (device, climbing, checked) = (&scene.device, scene.climbing(), self.checked);
        slot.get_or_insert_with(|| {
            KernelPipelines::new(device, kernel, &self.layout, climbing, checked)
        })
        .select(device, climbing);
    }

    /// Builds the subgroup kernel's pipelines if needed, the variant the scene needs: on the first batch that
    /// hands it pairs (only [`ScanKernel::Subgroup`] does, which the device has subgroups for).
    fn prepare_subgroup(&mut self, scene: &Scene) {
        let (device, climbing, checked) = (&scene.device, scene.climbing(), self.checked);
        self.subgroup
            .get_or_insert_with(|| {
                KernelPipelines::new(device, &GJK_SUBGROUP, &self.layout, climbing, checked)
            })
            .select(device, climbing);
    }

    fn new(device: &wgpu::Device, climbing: Climbing, checked: bool) -> Self {
        let mut bindings = SCENE_BINDINGS.to_vec();
        bindings.push(Access::ReadWrite);
        let layout = bind_group_layout(device, "gjk bindings", &bindings);
        let max_stride = ResultFormat::ALL
            .iter()
            .map(|f| f.stride())
            .max()
            .unwrap_or(0);
        Self {
            pipeline: KernelPipelines::new(device, &GJK, &layout, climbing, checked),
            counting: None,
            null: None,
            mode: GjkMode::Answer,
            subgroup: None,
            scan: ScanKernel::for_device(device),
            subgroup_from: usize::MAX,
            subgroup_pairs: 0,
            subgroup_pairs_per_group: subgroup_pairs_per_workgroup(device),
            max_workgroups: device.limits().max_compute_workgroups_per_dimension.max(1),
            layout,
            format: ResultFormat::Full,
            outputs: [OutputSpec {
                label: "results",
                stride: ResultFormat::Full.stride(),
                max_stride,
                header: 0,
                init: &[],
                read: Read::PerPair,
                shared: false,
            }],
            words: Vec::new(),
            mark: None,
            list_failures: None,
            read_back: true,
            checked,
            parallel_copy: parallel_copy_on(device),
        }
    }

    /// Readies the job for a batch of `pairs` in `format`, every pair one invocation each until the binning
    /// says otherwise.
    fn begin(&mut self, format: ResultFormat, pairs: usize) {
        self.subgroup_from = usize::MAX;
        self.subgroup_pairs = 0;
        self.format = format;
        self.outputs[0].stride = format.stride();
        let words = pairs * (format.stride() / 4) as usize;
        if self.words.len() < words {
            self.words.resize(words, 0);
        }
    }

    fn reserve(&mut self, pairs: usize) {
        let words = pairs * (self.outputs[0].max_stride / 4) as usize;
        if self.words.len() < words {
            self.words.resize(words, 0);
        }
    }

    fn records<T: bytemuck::Pod>(&self, pairs: usize) -> &[T] {
        let words = pairs * (self.format.stride() / 4) as usize;
        bytemuck::cast_slice(&self.words[..words])
    }
}

impl KernelJob for GjkJob {
    fn layout(&self) -> &wgpu::BindGroupLayout {
        &self.layout
    }

    fn outputs(&self) -> &[OutputSpec] {
        &self.outputs
    }

    fn format(&self) -> u32 {
        self.format as u32
    }

    fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        bind_group: &wgpu::BindGroup,
        first: usize,
        dispatch: Dispatch<'_>,
        timestamps: Option<&wgpu::QuerySet>,
        _outputs: &[wgpu::Buffer],
    ) {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("gjk"),
            timestamp_writes: timestamps.map(|query_set| wgpu::ComputePassTimestampWrites {
                query_set,
                beginning_of_pass_write_index: Some(0),
                end_of_pass_write_index: (self.mark.is_none() && self.list_failures.is_none())
                    .then_some(1),
            }),
        });
        let pipeline = match (self.mode, &self.counting, &self.null) {
            (GjkMode::Count, Some(counting), _) => counting.active(),
            (GjkMode::Null, _, Some(null)) => null.active(),
            _ => self.pipeline.active(),
        };
        pass.set_bind_group(0, bind_group, &[]);
        match dispatch {
            Dispatch::Pairs(count) => {
                let split = self.subgroup_from(first, count);
                if split > 0 {
                    pass.set_pipeline(pipeline);
                    pass.dispatch_workgroups(workgroups(split), 1, 1);
                }
                if let (true, Some(subgroup)) = (split < count, &self.subgroup) {
                    // The pairs from `split` on: fewer workgroups than pairs, as each holds several subgroups.
                    let groups = (count - split).div_ceil(self.subgroup_pairs_per_group);
                    pass.set_pipeline(subgroup.active());
                    pass.dispatch_workgroups(groups.min(self.max_workgroups), 1, 1);
                }
            }
            // Pairs fed on the device are never binned, so the per-thread kernel answers them all.
            Dispatch::Indirect { .. } => {
                pass.set_pipeline(pipeline);
                dispatch.record(&mut pass);
            }
        }
        drop(pass);
        if let Some((pipeline, marks)) = &self.mark {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("mark bodies"),
                // The last pass writes the end timestamp (a pass may not name neither index).
                timestamp_writes: timestamps.filter(|_| self.list_failures.is_none()).map(
                    |query_set| wgpu::ComputePassTimestampWrites {
                        query_set,
                        beginning_of_pass_write_index: None,
                        end_of_pass_write_index: Some(1),
                    },
                ),
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, bind_group, &[]);
            pass.set_bind_group(1, marks, &[]);
            dispatch.record(&mut pass);
        }
        if let Some((pipeline, list)) = &self.list_failures {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("list failures"),
                timestamp_writes: timestamps.map(|query_set| wgpu::ComputePassTimestampWrites {
                    query_set,
                    beginning_of_pass_write_index: None,
                    end_of_pass_write_index: Some(1),
                }),
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, bind_group, &[]);
            pass.set_bind_group(1, list, &[]);
            dispatch.record(&mut pass);
        }
    }

    fn reads_back(&self) -> bool {
        self.read_back
    }

    fn subgroup_from(&self, first: usize, count: u32) -> u32 {
        self.subgroup_from.saturating_sub(first).min(count as usize) as u32
    }

    fn collect(&mut self, first: usize, outputs: &[&[u8]]) {
        if !self.read_back {
            return;
        }
        let stride = (self.format.stride() / 4) as usize;
        let bytes = outputs[0];
        let at = first * stride;
        copy_out(
            bytemuck::cast_slice_mut::<u32, u8>(&mut self.words[at..at + bytes.len() / 4]),
            bytes,
            self.parallel_copy,
        );
    }
}
