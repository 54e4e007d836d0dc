//! The frame with its pairs left on the device ([`Simulation::feeds_on_device`]): the broad phase is submitted
//! and its pairs and count stay on the GPU; the narrow phase dispatches each chunk from that count on the device
//! (no count read first), colours the bodies with the marking pass, lists its failures and counts the colliding
//! pairs; a checked frame draws its sample on the device. The host then reads one small buffer: the pair
//! count, the failure list's header and first entries, the colliding pairs and, on a checked frame, the sampled
//! pairs with their records and poses, in one blocking wait (a second only when the GPU listed more failures than
//! that buffer carries). An unchecked frame does not wait: its buffer is mapped in the background and a later
//! frame takes its count, so an overflow of the pair buffer is always counted and the buffer grows. What crosses
//! the bus does not grow with the scene.

#[cfg(debug_assertions)]
use super::flip_answers;
use super::{add_s, CheckPairs, Feed, FrameStats, Simulation};
use crate::app::check::{CheckJob, CheckPolicy};
use crate::app::check_sample::add_listed_failures;
use crate::gjk::GjkResult;
use crate::gpu::layout::GpuResult;
use crate::gpu::{FrameReadback, PairEntry, SampleDraw};
use crate::instance::Instance;
use anyhow::{Context, Result};
use std::sync::Arc;
use std::time::Instant;

impl Simulation {
    /// Runs the frame with its pairs on the device. `false` when the GPU cannot answer it this way (boxes only
    /// the CPU grid holds, or a scene the GPU cannot mark): the frame then runs with its pairs read back.
    pub(super) fn step_on_device(
        &mut self,
        instances: &Arc<Vec<Instance>>,
        feed: &Feed,
        start: Instant,
        stats: &mut FrameStats,
    ) -> Result<bool> {
        let run = match feed {
            Feed::Host(boxes) => self.broad.submit_on_device(boxes)?,
            Feed::GpuBodies { dt } => self.run_broad_on_gpu_bodies(*dt)?,
        };
        let Some(traffic) = run else {
            return Ok(false);
        };
        stats.add_broad(traffic, start);
        self.collect_deferred(stats)?;
        self.poll_check(stats)?;
        let checking = self.policy == CheckPolicy::EveryFrame || !self.worker.is_busy();
        let sample = match self.check_pairs {
            CheckPairs::Sample { size, seed } if checking => Some(SampleDraw {
                size: size.min(u32::MAX as usize) as u32,
                seed,
                frame: self.frame,
            }),
            _ => None,
        };
        if let Feed::Host(_) = feed {
            self.gpu
                .set_instances(instances)
                .context("uploading the bodies' poses to the GPU")?;
        }
        let pairs = self
            .broad
            .device_pairs()
            .context("the GPU broad phase kept no pairs")?;
        let (timings, marked) = self
            .gpu
            .submit_marked_from_device(pairs, self.kind, &self.config, &self.disputed, sample)
            .context("GPU narrow phase on the device's pairs")?;
        if !marked {
            return Ok(false);
        }
        stats.marked_on_gpu = true;
        stats.add_narrow(&timings);
        let mut narrow_s = timings.total_s;
        let mut kernel_s = self.gpu_time(timings.kernel_s);
        // A checked frame waits once, for its readback, which follows the batch: the batch is then done and
        // collecting it waits for nothing. An unchecked frame leaves both running (the next batch collects them).
        let frames = self
            .gpu
            .collect_device_frames(sample.is_some())
            .context("reading the frame's counts and sample back")?;
        if sample.is_some() {
            let trusted = self.gpu_time_trusted;
            if let Some(done) = self
                .gpu
                .collect_marked()
                .context("collecting the GPU narrow phase")?
            {
                stats.add_narrow(&done.timings);
                narrow_s += done.timings.total_s;
                kernel_s = add_s(kernel_s, done.timings.kernel_s.filter(|_| trusted));
            }
        } else {
            stats.gpu_deferred = true;
        }
        stats.gpu_narrow_ms = Some(narrow_s * 1e3);
        stats.gpu_kernel_ms = kernel_s.map(|s| s * 1e3);
        // The scene's passes ran before the batch, which this checked frame has waited for.
        if let Some(timer) = self
            .scene_pass_times
            .as_ref()
            .filter(|_| sample.is_some() && self.scene_passes_timed)
        {
            let ms = timer
                .read()
                .context("reading the scene passes' timestamps back")?;
            stats.gpu_scene_ms = Some([ms[0], ms[1]]);
            self.latest_scene_ms = stats.gpu_scene_ms;
            stats.bytes_down += timer.readback_bytes();
            stats.gpu_blocking_waits += 1;
        }
        for readback in &frames {
            self.take_counts(readback, stats);
        }
        stats.candidate_pairs = self.device_counts.0;
        stats.colliding_pairs = self.device_counts.1;
        self.data.pairs = Arc::new(Vec::new());
        if let Some(frame) = frames.last().filter(|_| sample.is_some()) {
            self.check_device_sample(frame, instances, stats)?;
        }
        stats.disagreements = self.last_disagreements(stats);
        self.data.answers = Vec::new();
        self.data.gpu_answers = None;
        self.data.disputed_pairs = self.disputed_pairs.clone();
        Ok(true)
    }

    /// Takes a frame's counts as they come back: the pair buffer's overflow (counted, and the buffer grows; that
    /// frame's narrow phase answered the pairs that fit), the candidate pairs found and the colliding pairs (the
    /// latest frame's stand), and the bytes and waits of its readback.
    pub(super) fn take_counts(&mut self, readback: &FrameReadback, stats: &mut FrameStats) {
        if self.broad.note_found(readback.found, readback.capacity) {
            stats.broad.overflows += 1;
        }
        self.device_counts = (readback.found as usize, readback.colliding as usize);
        stats.bytes_down += readback.bytes_down;
        stats.gpu_blocking_waits += readback.blocking_waits;
    }

    /// Hands a checked frame's sample, and every failure the GPU listed, to the check, on the poses the GPU
    /// answered them on.
    fn check_device_sample(
        &mut self,
        frame: &FrameReadback,
        instances: &Arc<Vec<Instance>>,
        stats: &mut FrameStats,
    ) -> Result<()> {
        let sample = frame.sample.as_deref().unwrap_or_default();
        let mut pairs: Vec<[u32; 2]> = sample.iter().map(|e| e.pair).collect();
        let gpu: Vec<GjkResult<f32>> = sample.iter().map(|e| e.record.to_result()).collect();
        #[cfg(debug_assertions)]
        let gpu = {
            let mut gpu = gpu;
            flip_answers(&mut gpu, self.flip_gpu_answers);
            gpu
        };
        let mut gpu = gpu;
        let failed = &frame.failures;
        let failed_pairs: Vec<[u32; 2]> = failed.entries.iter().map(|e| e.pair).collect();
        let failed_answers: Vec<GjkResult<f32>> = failed
            .entries
            .iter()
            .map(|e| GpuResult::to_result(&e.record))
            .collect();
        add_listed_failures(&mut pairs, &mut gpu, &failed_pairs, &failed_answers);
        stats.gpu_failures = failed.count as usize;
        self.totals.gpu_failures += u64::from(failed.count);
        self.totals.gpu_failures_listed += failed.entries.len() as u64;
        self.totals.gpu_failure_list_overflow += u64::from(failed.overflow());
        let job = CheckJob {
            frame: self.frame,
            shapes: Arc::clone(&self.shapes),
            instances: posed(instances, sample.iter().chain(&failed.entries)),
            pairs: Arc::new(pairs),
        };
        self.check_these(&job, &gpu, stats)?;
        self.data.pairs = job.pairs;
        Ok(())
    }
}

/// The frame's instances with the poses the GPU answered `entries` on: the bodies may move on the GPU, and the
/// check answers the pairs where the GPU saw them.
fn posed<'a>(
    instances: &Arc<Vec<Instance>>,
    entries: impl Iterator<Item = &'a PairEntry>,
) -> Arc<Vec<Instance>> {
    let mut entries = entries.peekable();
    if entries.peek().is_none() {
        return Arc::clone(instances);
    }
    let mut patched = instances.as_ref().clone();
    for entry in entries {
        for (&body, &pose) in entry.pair.iter().zip(&entry.poses) {
            if let Some(instance) = patched.get_mut(body as usize) {
                instance.pose = pose;
            }
        }
    }
    Arc::new(patched)
}
