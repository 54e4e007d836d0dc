//! One frame of the stress test without any window: move the bodies, broad phase, narrow phase on the GPU
//! (or the CPU), the CPU check, and per-body collision states. The window and the headless test both drive
//! this, so what the picture shows is what the tests check.

use super::broad::{BroadTraffic, FrameBroadPhase};
use super::check::{answer_on_cpu, total_iterations, CheckJob, CheckPolicy, CpuAnswers, CpuWorker};
use super::check_sample::{restrict, CheckPairs};
use super::draw_list::{draw_slots, mark_of_state};
use super::physics::{PhysicsStats, ResponseMode, StressPhysics};
use crate::batch::WarmCache;
use crate::broad_phase::{world_aabbs, Aabb};
use crate::gjk::{GjkConfig, GjkResult, QueryKind};
use crate::gpu::layout::GpuResult;
use crate::gpu::pass_times::PassTimes;
use crate::gpu::{GpuTimings, NarrowPhase, RawSets};
use crate::instance::Instance;
use crate::shape::ConvexShape;
use crate::stress::{classify_bodies, separate, BodyState, ResponseStats, StressScene};
use crate::validate::compare;
use anyhow::{Context, Result};
use std::sync::Arc;
use std::time::Instant;

mod device_frame;
mod gpu_scene;
mod pair_list;
mod picked_pairs;

pub use pair_list::{PairsSource, PickedPairs};

/// Which narrow phase colours the bodies (G switches).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NarrowMode {
    Gpu,
    Cpu,
}

impl NarrowMode {
    pub fn label(self) -> &'static str {
        match self {
            NarrowMode::Gpu => "GPU",
            NarrowMode::Cpu => "CPU",
        }
    }
}

/// What one frame measured. Times in milliseconds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrameStats {
    pub broad_phase_ms: f64,
    /// Host time of the GPU narrow phase, when the GPU ran this frame: uploading, dispatching, waiting for
    /// and reading back the batch ([`FrameStats::gpu_deferred`] false), or only submitting this frame's batch
    /// and collecting the last one (true). Not GPU time: see [`FrameStats::gpu_kernel_ms`].
    pub gpu_narrow_ms: Option<f64>,
    /// GPU time of the narrow phase's passes finished this frame, from timestamp queries; `None` where the
    /// adapter has none (or the GPU did not run).
    pub gpu_kernel_ms: Option<f64>,
    /// GPU time of the pass that moved the bodies and of the broad phase's grid pass, from timestamp queries,
    /// on a checked frame whose bodies moved on the GPU while its passes are timed
    /// ([`Simulation::time_scene_passes`]); `None` otherwise.
    pub gpu_scene_ms: Option<[f64; 2]>,
    /// The frame left its batch running and did not wait for its answers (see [`FrameStats::gpu_narrow_ms`]).
    pub gpu_deferred: bool,
    /// CPU reference on the same pairs (all threads), when a CPU run finished this frame.
    pub cpu_narrow_ms: Option<f64>,
    pub candidate_pairs: usize,
    pub colliding_pairs: usize,
    /// Whether a CPU check finished this frame (its figures are in `disagreements`).
    pub checked: bool,
    /// Disagreements in the latest finished check.
    pub disagreements: usize,
    /// Pairs the GPU answered with a failure status this frame (answered again on the CPU).
    pub gpu_failures: usize,
    /// Times this frame's host blocked on the GPU's narrow phase (its own batch, and collecting the previous
    /// frame's when that was left running).
    pub gpu_blocking_waits: u32,
    /// Where the bodies' colours (their mark words on the GPU) came from this frame: `true` when the narrow
    /// phase's marking pass wrote them on the GPU, `false` when the host wrote them (CPU mode, a disputed or
    /// failed pair this frame, or a scene too large to stay resident).
    pub marked_on_gpu: bool,
    /// The collision response's pass (R), when it is on: CPU EPA on the colliding pairs, then pushes.
    pub response: Option<ResponseStats>,
    pub response_ms: Option<f64>,
    /// The physics of the frame, when the response is physics (it moved the bodies before the broad phase).
    pub physics: Option<PhysicsStats>,
    /// What the broad phase moved across the bus (nothing on the CPU grid).
    pub broad: BroadTraffic,
    /// Bytes written to the GPU and read back this frame by the broad and narrow phases (not the renderer),
    /// and their queue submissions.
    pub bytes_up: u64,
    pub bytes_down: u64,
    pub submissions: u32,
}

impl FrameStats {
    /// Counts a narrow-phase batch's bus traffic, submissions and waits into the frame's.
    fn add_narrow(&mut self, timings: &GpuTimings) {
        self.gpu_blocking_waits += timings.blocking_waits;
        self.bytes_up += timings.bytes_up;
        self.bytes_down += timings.bytes_down;
        self.submissions += timings.submissions;
    }

    /// Takes the frame's broad phase: its time since `start`, and its traffic counted into the frame's.
    fn add_broad(&mut self, traffic: BroadTraffic, start: Instant) {
        self.broad_phase_ms = ms(start);
        self.broad = traffic;
        self.bytes_up += traffic.bytes_up;
        self.bytes_down += traffic.bytes_down;
        self.submissions += traffic.submissions;
        self.gpu_blocking_waits += traffic.blocking_waits;
    }
}

/// Totals since the start, for the HUD and the headless summary.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CheckTotals {
    pub frames: u64,
    pub frames_checked: u64,
    pub pairs_checked: u64,
    /// Pairs whose GPU and CPU answers disagree outside the tolerance band.
    pub disagreements: u64,
    /// Flag differences within the tolerance band (touching to within 1e-4 of the pair's size): allowed.
    pub near_contact_differences: u64,
    /// Largest GPU-vs-CPU distance error, relative to the pair's size.
    pub max_distance_error: f64,
    /// Pairs the GPU answered with a failure status (for instance a loop cut short by a software adapter on
    /// a big hull), answered again on the CPU for the colours.
    pub gpu_failures: u64,
    /// Of those, in frames whose pairs stayed on the device: the pairs the GPU's failure list named, every one
    /// checked on the CPU, and the failures counted beyond the list's capacity (not listed, so not checked).
    pub gpu_failures_listed: u64,
    pub gpu_failure_list_overflow: u64,
    /// GJK iterations of the CPU check over the checked frames, warm-started from the previous checked frame.
    pub cpu_iterations_warm: u64,
    /// GJK iterations of the GPU on the same pairs, which starts every pair cold (the twin of the CPU's GJK).
    pub gpu_iterations_cold: u64,
}

/// What the latest narrow phase saw and answered, kept for the overlays, picking and the pair panel (the
/// narrow phase does not run again while paused, so these stay what the picture shows).
#[derive(Clone, Debug, Default)]
pub struct FrameData {
    /// The frame's number (1 for the first step).
    pub frame: u64,
    pub instances: Arc<Vec<Instance>>,
    /// World AABBs of the bodies, from the broad phase.
    pub boxes: Vec<Aabb>,
    /// Broad-phase candidate pairs (body indices).
    pub pairs: Arc<Vec<[u32; 2]>>,
    /// The answer that coloured each pair (the GPU's, with its named failures answered on the CPU; or the
    /// CPU's in CPU mode).
    pub answers: Vec<GjkResult<f32>>,
    /// The GPU's raw answers, when the GPU ran (before failures were answered on the CPU).
    pub gpu_answers: Option<Vec<GjkResult<f32>>>,
    /// Pairs (body indices) on which the latest check found the GPU and the CPU disagreeing; the check may
    /// belong to an earlier frame.
    pub disputed_pairs: Vec<[u32; 2]>,
    /// On a frame fed on the device, the picked body's pairs as the GPU listed them (`pairs` then holds only the
    /// check's sample); `None` on a frame whose pairs came back whole, or with nothing picked.
    pub picked_pairs: Option<PickedPairs>,
}

/// A frame's GPU answers waiting for their CPU check.
struct Pending {
    job: CheckJob,
    gpu: Vec<GjkResult<f32>>,
}

pub struct Simulation {
    pub scene: StressScene,
    pub mode: NarrowMode,
    pub kind: QueryKind,
    pub config: GjkConfig,
    pub policy: CheckPolicy,
    /// What happens to overlapping bodies (R in the demo): nothing, pushed apart after each frame's narrow
    /// phase, or physics moving the bodies in place of their constant velocities.
    pub response: ResponseMode,
    /// The physics world while the response is physics.
    physics: Option<StressPhysics>,
    /// Where the candidate pairs are found (`--broad-phase`; the CPU grid unless set).
    pub broad: FrameBroadPhase,
    /// Which pairs of a checked frame the CPU check answers (`--check-pairs`; all unless set).
    pub check_pairs: CheckPairs,
    pub states: Vec<BodyState>,
    pub totals: CheckTotals,
    pub last: FrameStats,
    pub(super) gpu: NarrowPhase,
    /// The scene's shapes as last uploaded to the GPU and shared with the CPU check.
    shapes: Arc<Vec<ConvexShape>>,
    shapes_dirty: bool,
    worker: CpuWorker,
    /// Warm starts of the checks run in the frame (every-frame checks, the CPU narrow phase); the worker
    /// keeps its own.
    warm: WarmCache,
    pending: Option<Pending>,
    /// Bodies of the pairs the latest check disputed, and the pairs.
    disputed: Vec<u32>,
    disputed_pairs: Vec<[u32; 2]>,
    frame: u64,
    /// The latest frame's pairs and answers.
    pub data: FrameData,
    /// A self-test of the disagreement display (`--flip-gpu-answers`): the intersecting flag of this many
    /// pairs per frame is flipped in the GPU's answers before the check, which must then report them. Debug
    /// builds only.
    #[cfg(debug_assertions)]
    pub flip_gpu_answers: usize,
    /// Whether anything shown needs each frame's per-pair answers on the host (overlays, a paused frame); the
    /// window sets it. Without it, with the check sampled and the response off, a frame's results stay on the
    /// GPU (the marks colour the bodies) and only the frames the check takes come back, collected at the start
    /// of the next frame: no frame waits for the GPU. A picked body ([`Simulation::picked`]) does not need them
    /// on a frame fed on the device, which lists its pairs on the GPU; any other frame then comes back whole.
    pub answers_wanted: bool,
    /// Whether the adapter's timestamp queries time the narrow phase's work (false without them, and on a
    /// software adapter: lavapipe's read 0.07 ms for passes whose round trip took 31.8 ms, written before the
    /// work ran). Without it a frame reports no GPU time.
    pub gpu_time_trusted: bool,
    /// The frame whose batch is still in flight with its records coming back for the check.
    deferred_check: Option<CheckJob>,
    /// Colliding pairs of the latest frame whose answers came back to the host.
    colliding_pairs_read_back: usize,
    /// Candidate and colliding pairs of the latest frame fed on the device whose counts came back.
    device_counts: (usize, usize),
    /// Whether frames fed on the device move the bodies on the GPU ([`gpu_scene`]); on unless a test turns it
    /// off to compare.
    pub gpu_scene: bool,
    /// The bodies on the GPU while frames are fed on the device.
    gpu_bodies: Option<crate::gpu::stress_motion::GpuBodies>,
    /// The picked body, whose pairs a frame fed on the device lists on the GPU ([`FrameData::picked_pairs`]);
    /// a frame on the host answers every pair, so it needs no list.
    pub picked: Option<u32>,
    /// The scan that lists them, made on the first frame that does.
    body_pairs: Option<crate::gpu::body_pairs::BodyPairs>,
    /// [`FrameStats::gpu_scene_ms`] of the latest checked frame that timed the scene's passes.
    pub latest_scene_ms: Option<[f64; 2]>,
    /// The timestamp queries of the motion pass (0) and the broad phase's grid pass (1), while timed.
    scene_pass_times: Option<PassTimes>,
    /// Whether the latest frame resolved [`Simulation::scene_pass_times`] (its bodies moved on the GPU).
    scene_passes_timed: bool,
    /// Whether the latest frame was fed on the device (its pairs are still in the broad phase's buffer).
    pub(super) pairs_on_device: bool,
}

impl Simulation {
    pub fn new(scene: StressScene, gpu: NarrowPhase, kind: QueryKind, policy: CheckPolicy) -> Self {
        let config = GjkConfig::default();
        Self {
            states: vec![BodyState::Free; scene.bodies.len()],
            scene,
            mode: NarrowMode::Gpu,
            kind,
            config,
            policy,
            response: ResponseMode::Off,
            physics: None,
            broad: FrameBroadPhase::cpu(),
            check_pairs: CheckPairs::All,
            totals: CheckTotals::default(),
            last: FrameStats::default(),
            gpu,
            shapes: Arc::new(Vec::new()),
            shapes_dirty: true,
            worker: CpuWorker::new(kind, config),
            warm: WarmCache::default(),
            pending: None,
            disputed: Vec::new(),
            disputed_pairs: Vec::new(),
            frame: 0,
            data: FrameData::default(),
            #[cfg(debug_assertions)]
            flip_gpu_answers: 0,
            answers_wanted: true,
            gpu_time_trusted: false,
            deferred_check: None,
            colliding_pairs_read_back: 0,
            device_counts: (0, 0),
            gpu_scene: true,
            gpu_bodies: None,
            picked: None,
            body_pairs: None,
            latest_scene_ms: None,
            scene_pass_times: None,
            scene_passes_timed: false,
            pairs_on_device: false,
        }
    }

    /// Call after changing the scene's shapes (body count, player shape): they are uploaded again.
    pub fn shapes_changed(&mut self) {
        self.shapes_dirty = true;
    }

    pub fn set_body_count(&mut self, count: usize) {
        self.scene.set_body_count(count.max(1));
        self.shapes_dirty = true;
    }

    /// Advances the scene by `dt` seconds (0 when paused) and answers every candidate pair.
    pub fn step(&mut self, dt: f32) -> Result<&FrameStats> {
        let physics = self.move_bodies(dt)?;
        if self.shapes_dirty {
            self.shapes = Arc::new(self.scene.shapes.clone());
            // Each body owns a scaled copy of its template, a raw set to the upload: hulling the round ones
            // again would take 40 s for 100,000 bodies (docs/gpu.md, "Raw point sets at upload").
            self.gpu.set_raw_sets(RawSets::Scanned);
            self.gpu
                .upload_hulls(&self.shapes)
                .context("uploading the bodies' hulls to the GPU")?;
            self.gpu
                .set_body_slots(&draw_slots(&self.scene.templates))
                .context("making the bodies' marks on the GPU")?;
            self.shapes_dirty = false;
            self.gpu_bodies = None;
        }
        self.frame += 1;
        let mut stats = FrameStats {
            physics,
            ..FrameStats::default()
        };

        let start = Instant::now();
        let instances = Arc::new(self.scene.instances());
        self.pairs_on_device = false;
        self.scene_passes_timed = false;
        if self.feeds_on_device() {
            // The boxes stay on the device when the bodies do (picking computes them from the instances).
            let feed = match self.ensure_gpu_bodies(&instances, dt, &mut stats)? {
                Some(dt) => Feed::GpuBodies { dt },
                None => Feed::Host(world_aabbs(&self.shapes, &instances)),
            };
            if self.step_on_device(&instances, &feed, start, &mut stats)? {
                self.totals.frames += 1;
                self.data.frame = self.frame;
                self.data.instances = instances;
                self.data.boxes = match feed {
                    Feed::Host(boxes) => boxes,
                    Feed::GpuBodies { .. } => Vec::new(),
                };
                self.pairs_on_device = true;
                self.list_picked_pairs(&mut stats)?;
                self.last = stats;
                return Ok(&self.last);
            }
        }
        // The CPU scene answers this frame: the GPU's bodies are stale from now on.
        self.gpu_bodies = None;
        let boxes = world_aabbs(&self.shapes, &instances);
        let (pairs, traffic) = self.broad.pairs(&boxes)?;
        let pairs = Arc::new(pairs);
        stats.add_broad(traffic, start);
        stats.candidate_pairs = pairs.len();

        let job = CheckJob {
            frame: self.frame,
            shapes: Arc::clone(&self.shapes),
            instances,
            pairs,
        };
        self.collect_deferred(&mut stats)?;
        if self.defers() && self.step_deferred(&job, &mut stats)? {
            self.totals.frames += 1;
            self.last = stats;
            self.data = FrameData {
                frame: self.frame,
                instances: job.instances,
                boxes,
                pairs: job.pairs,
                answers: Vec::new(),
                gpu_answers: None,
                disputed_pairs: self.disputed_pairs.clone(),
                picked_pairs: None,
            };
            return Ok(&self.last);
        }
        let answers = match self.mode {
            NarrowMode::Gpu => {
                let mut batch = self.run_marked(&job, &mut stats)?;
                stats.gpu_narrow_ms = Some(batch.timings.total_s * 1e3);
                stats.add_narrow(&batch.timings);
                stats.gpu_kernel_ms =
                    add_ms(stats.gpu_kernel_ms, self.gpu_time(batch.timings.kernel_s));
                #[cfg(debug_assertions)]
                flip_answers(&mut batch.results, self.flip_gpu_answers);
                let raw = batch.results.clone();
                // The check compares what the GPU answered; the colours need an answer for every pair, so
                // the pairs the GPU could not answer (named failure statuses) are answered on the CPU.
                self.check(&job, &batch.results, &mut stats)?;
                stats.gpu_failures = batch.resolve_failures_on_cpu(
                    &job.shapes,
                    &job.instances,
                    &job.pairs,
                    self.kind,
                    &self.config,
                );
                self.totals.gpu_failures += stats.gpu_failures as u64;
                (batch.results, Some(raw))
            }
            NarrowMode::Cpu => {
                // The CPU is the narrow phase now, so there is nothing to check it against.
                let cpu = answer_on_cpu(&job, self.kind, &self.config, &mut self.warm)?;
                stats.cpu_narrow_ms = Some(cpu.seconds * 1e3);
                (cpu.results, None)
            }
        };
        let (answers, gpu_answers) = answers;
        let frame = classify_bodies(
            self.scene.bodies.len(),
            &job.pairs,
            &answers,
            &self.disputed,
            stats.disagreements,
        );
        stats.colliding_pairs = frame.colliding_pairs;
        self.colliding_pairs_read_back = frame.colliding_pairs;
        stats.disagreements = self.last_disagreements(&stats);
        self.states = frame.states;
        // The GPU's marks stand unless something only the host knows changes a colour: a pair the GPU could not
        // answer, a dispute of the check, or marks the GPU could not make (CPU mode included).
        if !stats.marked_on_gpu || stats.gpu_failures > 0 || !self.disputed.is_empty() {
            stats.marked_on_gpu = false;
            let marks: Vec<u32> = self.states.iter().map(|&s| mark_of_state(s)).collect();
            if let Some(buffer) = self.gpu.body_marks_mut() {
                buffer.write(&marks);
            }
        }
        if self.response == ResponseMode::PushApart {
            // The push happens after the colours, so the picture shows what the narrow phase answered.
            let start = Instant::now();
            let colliding: Vec<bool> = answers.iter().map(|r| r.intersecting).collect();
            let pushed = separate(&mut self.scene, &job.pairs, &colliding, &self.config);
            stats.response = Some(pushed);
            stats.response_ms = Some(ms(start));
        }
        self.totals.frames += 1;
        self.last = stats;
        self.data = FrameData {
            frame: self.frame,
            instances: job.instances,
            boxes,
            pairs: job.pairs,
            answers,
            gpu_answers,
            disputed_pairs: self.disputed_pairs.clone(),
            picked_pairs: None,
        };
        Ok(&self.last)
    }

    /// Moves the bodies by `dt` seconds: by physics when that is the response (its world built from the scene
    /// when the response switched to it, the bodies or shapes changed, or the GPU became able to take it), else
    /// by their constant velocities. Physics runs on the GPU where frames can keep the bodies there.
    fn move_bodies(&mut self, dt: f32) -> Result<Option<PhysicsStats>> {
        if self.response != ResponseMode::Physics {
            self.physics = None;
            if dt > 0.0 {
                self.scene.step(dt);
            }
            return Ok(None);
        }
        let on_gpu = self.gpu_scene && self.device_frame_possible();
        let rebuild = match &self.physics {
            None => true,
            Some(p) => {
                self.shapes_dirty
                    || !p.matches(&self.scene)
                    || (p.gpu_bodies().is_some() != on_gpu && p.gpu_refused.is_none())
            }
        };
        if rebuild {
            let device = self.broad.device_queue().filter(|_| on_gpu);
            let physics = StressPhysics::new(&self.scene, device);
            if let Some(reason) = &physics.gpu_refused {
                eprintln!("physics runs on the CPU: the GPU world refused the scene: {reason}");
            }
            self.physics = Some(physics);
        }
        let Some(physics) = self.physics.as_mut() else {
            return Ok(None);
        };
        physics
            .step(&mut self.scene, dt)
            .map(Some)
            .context("stepping the physics world")
    }

    /// The physics world, while the response is physics (the contact overlay draws its contacts).
    pub fn physics(&self) -> Option<&StressPhysics> {
        self.physics.as_ref()
    }

    /// The GPU time timestamp queries measured, where they are trusted.
    fn gpu_time(&self, kernel_s: Option<f64>) -> Option<f64> {
        kernel_s.filter(|_| self.gpu_time_trusted)
    }

    /// Whether this frame's results may stay on the GPU (see [`Simulation::answers_wanted`]); a picked body's
    /// rows read the answers of a frame on the host.
    fn defers(&self) -> bool {
        self.mode == NarrowMode::Gpu
            && self.policy == CheckPolicy::WhenIdle
            && self.response == ResponseMode::Off
            && !self.answers_wanted
            && self.picked.is_none()
    }

    /// Whether the narrow phase reads this frame's pairs on the device: the GPU broad phase, the GPU narrow
    /// phase, a sampled check, nothing shown that needs every answer, a scene the GPU indexes directly (all its
    /// hulls and instances resident in one binding each; see [`Simulation::step_on_device`]), and no response or
    /// physics on the GPU.
    fn feeds_on_device(&self) -> bool {
        let response_allows = match self.response {
            ResponseMode::Off => true,
            ResponseMode::PushApart => false,
            ResponseMode::Physics => self
                .physics
                .as_ref()
                .is_some_and(|p| p.gpu_bodies().is_some()),
        };
        response_allows && self.device_frame_possible()
    }

    /// [`Simulation::feeds_on_device`] but for the response: what physics on the GPU needs too.
    fn device_frame_possible(&self) -> bool {
        matches!(self.check_pairs, CheckPairs::Sample { .. })
            && self.mode == NarrowMode::Gpu
            && !self.answers_wanted
            && self.broad.on_gpu()
            && self.gpu.indexes_directly(self.scene.bodies.len())
    }

    /// Submits the frame's narrow phase with the marking pass and returns without waiting: the records come
    /// back only when the check's worker is free to take this frame. `false` when the GPU cannot mark this
    /// scene (nothing submitted; the frame runs with its answers read back).
    fn step_deferred(&mut self, job: &CheckJob, stats: &mut FrameStats) -> Result<bool> {
        self.poll_check(stats)?;
        let read_back = !self.worker.is_busy();
        self.gpu
            .set_instances(&job.instances)
            .context("uploading the bodies' poses to the GPU")?;
        let (timings, marked) = self
            .gpu
            .submit_marked(
                &job.pairs,
                self.kind,
                &self.config,
                &self.disputed,
                read_back,
            )
            .context("GPU narrow phase")?;
        if !marked {
            return Ok(false);
        }
        if read_back {
            self.deferred_check = Some(job.clone());
        }
        stats.marked_on_gpu = true;
        stats.add_narrow(&timings);
        stats.gpu_deferred = true;
        stats.gpu_narrow_ms = Some(timings.total_s * 1e3 + stats.gpu_narrow_ms.unwrap_or(0.0));
        stats.gpu_kernel_ms = add_ms(stats.gpu_kernel_ms, self.gpu_time(timings.kernel_s));
        // Known only for frames read back: the latest such frame's count stands.
        stats.colliding_pairs = self.colliding_pairs_read_back;
        stats.disagreements = self.last_disagreements(stats);
        Ok(true)
    }

    /// Finishes the previous frame's batch if it is still outstanding (on a GPU that kept up, nothing to wait
    /// for) and hands its answers, when they came back, to the check.
    fn collect_deferred(&mut self, stats: &mut FrameStats) -> Result<()> {
        let job = self.deferred_check.take();
        let trusted = self.gpu_time_trusted;
        let Some(records) = self
            .gpu
            .collect_marked()
            .context("collecting the GPU narrow phase")?
        else {
            return Ok(());
        };
        stats.gpu_narrow_ms = Some(records.timings.total_s * 1e3);
        stats.add_narrow(&records.timings);
        stats.gpu_kernel_ms = add_ms(
            stats.gpu_kernel_ms,
            records.timings.kernel_s.filter(|_| trusted),
        );
        let Some(job) = job else { return Ok(()) };
        let gpu: Vec<GjkResult<f32>> = records.records.iter().map(GpuResult::to_result).collect();
        self.colliding_pairs_read_back = gpu.iter().filter(|r| r.intersecting).count();
        #[cfg(debug_assertions)]
        let gpu = {
            let mut gpu = gpu;
            flip_answers(&mut gpu, self.flip_gpu_answers);
            gpu
        };
        self.totals.gpu_failures += gpu.iter().filter(|r| r.status.is_failure()).count() as u64;
        self.check(&job, &gpu, stats)
    }

    /// Sets the frame's instances and runs the GPU narrow phase with the marking pass, every answer converted.
    fn run_marked(
        &mut self,
        job: &CheckJob,
        stats: &mut FrameStats,
    ) -> Result<crate::gpu::GpuBatch> {
        self.gpu
            .set_instances(&job.instances)
            .context("uploading the bodies' poses to the GPU")?;
        let (records, marked) = self
            .gpu
            .full_results_marked(&job.pairs, self.kind, &self.config, &self.disputed)
            .context("GPU narrow phase")?;
        stats.marked_on_gpu = marked;
        Ok(crate::gpu::GpuBatch {
            results: records.records.iter().map(GpuResult::to_result).collect(),
            timings: records.timings,
            resolved_on_cpu: 0,
        })
    }

    /// The bodies' mark words on the GPU, in draw order, which colour them ([`crate::gpu::BodyMarks`]); `None`
    /// until the first frame, or while they belong to another body count.
    pub fn marks_buffer(&self) -> Option<&wgpu::Buffer> {
        self.gpu
            .body_marks()
            .filter(|m| m.bodies() == self.scene.bodies.len())
            .map(|m| m.buffer())
    }

    #[cfg(test)]
    /// The narrow phase, for tests that change its settings.
    pub fn gpu_mut(&mut self) -> &mut NarrowPhase {
        &mut self.gpu
    }

    #[cfg(test)]
    /// The bodies' mark words read back from the GPU in body order (waits for the device: tests only).
    pub fn read_marks(&self) -> Result<Option<Vec<u32>>> {
        self.gpu
            .body_marks()
            .map(|m| m.read())
            .transpose()
            .context("reading the bodies' marks back")
    }

    /// Times, or stops timing, the passes of frames whose bodies move on the GPU: the motion pass and the broad
    /// phase's grid pass write timestamps, and each checked frame reads them back (32 bytes, one more wait) into
    /// [`FrameStats::gpu_scene_ms`]. Nothing is timed without the GPU broad phase or timestamp queries. The demo
    /// times them where the adapter's timestamps time its work ([`Simulation::gpu_time_trusted`]).
    pub fn time_scene_passes(&mut self, on: bool) {
        self.scene_pass_times = self
            .broad
            .device_queue()
            .filter(|_| on)
            .and_then(|(device, queue)| PassTimes::new(device, queue, 2));
        let grid = self.scene_pass_times.as_ref().map(|t| t.timed_pass(1));
        self.broad.time_pass(grid);
    }

    /// The GPU's answer for one pair of the latest frame, with EPA (for the inspector beside the CPU's trace). A
    /// frame fed on the device left its poses there, so the pair is answered on them and only the pair goes up;
    /// otherwise the frame's instances go up first.
    pub fn gpu_penetration(
        &mut self,
        pair: [u32; 2],
    ) -> Result<(GjkResult<f32>, crate::epa::Penetration<f32>)> {
        let batch = if self.pairs_on_device {
            self.gpu.penetration_on_resident(&[pair], &self.config)
        } else {
            self.gpu
                .run_penetration(&self.data.instances, &[pair], &self.config)
        }
        .context("GPU penetration query for the inspected pair")?;
        let answer = batch
            .results
            .first()
            .copied()
            .zip(batch.penetrations.first().copied())
            .context("the GPU answered no pair")?;
        Ok(answer)
    }

    fn last_disagreements(&self, stats: &FrameStats) -> usize {
        if stats.checked {
            stats.disagreements
        } else {
            self.last.disagreements
        }
    }

    /// Runs or schedules the CPU check of this frame's GPU answers and folds in any check that finished.
    fn check(
        &mut self,
        job: &CheckJob,
        gpu: &[GjkResult<f32>],
        stats: &mut FrameStats,
    ) -> Result<()> {
        let sampled = self
            .check_pairs
            .pick(job.frame, gpu)
            .map(|picked| restrict(job, gpu, &picked));
        let (job, gpu) = match &sampled {
            Some((job, gpu)) => (job, gpu.as_slice()),
            None => (job, gpu),
        };
        self.check_these(job, gpu, stats)
    }

    /// Runs or schedules the CPU check of exactly these pairs' GPU answers and folds in any check that finished.
    fn check_these(
        &mut self,
        job: &CheckJob,
        gpu: &[GjkResult<f32>],
        stats: &mut FrameStats,
    ) -> Result<()> {
        match self.policy {
            CheckPolicy::EveryFrame => {
                let cpu = answer_on_cpu(job, self.kind, &self.config, &mut self.warm)?;
                self.fold_check(job, gpu, cpu, stats);
            }
            CheckPolicy::WhenIdle => {
                self.poll_check(stats)?;
                if self.worker.offer(job.clone())? {
                    self.pending = Some(Pending {
                        job: job.clone(),
                        gpu: gpu.to_vec(),
                    });
                }
            }
        }
        Ok(())
    }

    /// Folds in the worker's check if it has finished, without waiting.
    fn poll_check(&mut self, stats: &mut FrameStats) -> Result<()> {
        if let Some(cpu) = self.worker.poll()? {
            if let Some(pending) = self.pending.take() {
                self.fold_check(&pending.job, &pending.gpu, cpu, stats);
            }
        }
        Ok(())
    }

    fn fold_check(
        &mut self,
        job: &CheckJob,
        gpu: &[GjkResult<f32>],
        cpu: CpuAnswers,
        stats: &mut FrameStats,
    ) {
        let report = compare(
            &job.shapes,
            &job.instances,
            &job.pairs,
            gpu,
            &cpu.results,
            self.kind,
        );
        self.disputed_pairs = report
            .disagreeing_pairs
            .iter()
            .map(|&i| job.pairs[i])
            .collect();
        self.disputed = self.disputed_pairs.iter().flatten().copied().collect();
        let disagreements = report.disagreeing_pairs.len();
        self.totals.frames_checked += 1;
        self.totals.pairs_checked += report.pairs as u64;
        self.totals.disagreements += disagreements as u64;
        self.totals.near_contact_differences += report.near_contact_flag_differences as u64;
        self.totals.cpu_iterations_warm += cpu.iterations;
        self.totals.gpu_iterations_cold += total_iterations(gpu);
        self.totals.max_distance_error = self
            .totals
            .max_distance_error
            .max(report.max_distance_error);
        stats.checked = true;
        stats.disagreements = disagreements;
        stats.cpu_narrow_ms = Some(cpu.seconds * 1e3);
    }

    /// Waits for a check still running on the worker and counts it (the end of a headless run).
    pub fn finish_checks(&mut self) -> Result<()> {
        let mut stats = self.last.clone();
        self.collect_deferred(&mut stats)?;
        // The counts of frames fed on the device still coming back: their overflows are counted too.
        let frames = self
            .gpu
            .collect_device_frames(true)
            .context("reading the last frames' counts back")?;
        for readback in &frames {
            self.take_counts(readback, &mut stats);
        }
        self.last = stats;
        if let Some(cpu) = self.worker.wait()? {
            if let Some(pending) = self.pending.take() {
                let mut stats = self.last.clone();
                self.fold_check(&pending.job, &pending.gpu, cpu, &mut stats);
                self.last = stats;
            }
        }
        Ok(())
    }

    /// How the HUD describes the CPU check.
    pub fn check_description(&self) -> String {
        let when = self.check_when();
        match (self.mode, self.check_pairs) {
            (NarrowMode::Gpu, CheckPairs::Sample { size, seed }) if self.feeds_on_device() => {
                format!(
                    "{when}; a sample of {size} slots of the GPU's pair buffer per checked frame, drawn on the GPU \
                     (one slot from each of {size} equal strata, hashed from seed {seed} and the frame number); \
                     the pairs stay on the GPU, and every pair the GPU answered with a named failure is listed \
                     there and checked (up to {} a frame; failures beyond that are counted)",
                    self.gpu.failure_capacity()
                )
            }
            (NarrowMode::Gpu, CheckPairs::Sample { .. }) => {
                format!("{when}; {}", self.check_pairs.describe())
            }
            _ => when,
        }
    }

    fn check_when(&self) -> String {
        match (self.mode, self.policy) {
            (NarrowMode::Cpu, _) => "CPU check: off (the CPU is the narrow phase)".to_string(),
            (NarrowMode::Gpu, CheckPolicy::EveryFrame) => "CPU check: every frame".to_string(),
            (NarrowMode::Gpu, CheckPolicy::WhenIdle) => {
                if self.totals.frames_checked >= self.totals.frames.saturating_sub(1) {
                    "CPU check: every frame (worker thread)".to_string()
                } else {
                    format!(
                        "CPU check: sampled, {} of {} frames (worker busy)",
                        self.totals.frames_checked, self.totals.frames
                    )
                }
            }
        }
    }
}

/// Where a frame fed on the device takes its boxes and poses from.
enum Feed {
    /// The host's, sent up this frame.
    Host(Vec<Aabb>),
    /// The GPU's bodies, moved there by `dt` seconds ([`gpu_scene`]).
    GpuBodies { dt: f32 },
}

/// How far one frame advances the scene: `Some(dt)` runs the broad and narrow phases (`Some(0.0)` when the
/// scene was only edited while paused, for instance the player moved), `None` keeps the last frame's answers:
/// while paused the narrow phase does not run again, except for a single step (N), which advances by
/// `step_dt`.
pub fn frame_step(
    paused: bool,
    step_requested: bool,
    scene_edited: bool,
    dt: f32,
    step_dt: f32,
) -> Option<f32> {
    match (paused, step_requested, scene_edited) {
        (false, _, _) => Some(dt),
        (true, true, _) => Some(step_dt),
        (true, false, true) => Some(0.0),
        (true, false, false) => None,
    }
}

/// Flips the intersecting flag (and the status with it) of `count` pairs spread over the batch.
#[cfg(debug_assertions)]
fn flip_answers(answers: &mut [GjkResult<f32>], count: usize) {
    if count == 0 || answers.is_empty() {
        return;
    }
    let stride = (answers.len() / count.min(answers.len())).max(1);
    for answer in answers.iter_mut().step_by(stride).take(count) {
        answer.intersecting = !answer.intersecting;
        answer.status = if answer.intersecting {
            crate::gjk::GjkStatus::Intersecting
        } else {
            crate::gjk::GjkStatus::Separated
        };
        answer.distance = if answer.intersecting { 0.0 } else { 1.0 };
    }
}

/// `sum` plus `seconds`; `None` while both are.
fn add_s(sum: Option<f64>, seconds: Option<f64>) -> Option<f64> {
    match (sum, seconds) {
        (None, None) => None,
        (sum, seconds) => Some(sum.unwrap_or(0.0) + seconds.unwrap_or(0.0)),
    }
}

/// `sum` plus `seconds` in milliseconds; `None` while both are (timestamp queries missing or not trusted).
fn add_ms(sum: Option<f64>, seconds: Option<f64>) -> Option<f64> {
    match (sum, seconds) {
        (None, None) => None,
        (sum, seconds) => Some(sum.unwrap_or(0.0) + seconds.map_or(0.0, |s| s * 1e3)),
    }
}

fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gjk::GjkStatus;

    #[test]
    fn paused_frames_do_not_run_the_narrow_phase_unless_stepped_or_edited() {
        let dt = 0.02;
        assert_eq!(frame_step(false, false, false, dt, 0.5), Some(dt));
        assert_eq!(frame_step(true, false, false, dt, 0.5), None);
        assert_eq!(frame_step(true, true, false, dt, 0.5), Some(0.5));
        assert_eq!(frame_step(true, false, true, dt, 0.5), Some(0.0));
    }

    #[test]
    #[cfg(debug_assertions)]
    fn flipped_answers_change_their_flags_and_statuses() {
        let answer = GjkResult {
            status: GjkStatus::Separated,
            intersecting: false,
            distance: 0.5,
            witness_a: glam::Vec3::ZERO,
            witness_b: glam::Vec3::X,
            normal: glam::Vec3::X,
            iterations: 2,
        };
        let mut answers = vec![answer; 10];
        flip_answers(&mut answers, 3);
        let flipped: Vec<usize> = (0..10).filter(|&i| answers[i].intersecting).collect();
        assert_eq!(flipped, vec![0, 3, 6]);
        assert!(flipped
            .iter()
            .all(|&i| answers[i].status == GjkStatus::Intersecting));
        flip_answers(&mut answers, 0);
        assert_eq!(answers.iter().filter(|a| a.intersecting).count(), 3);
    }
}
