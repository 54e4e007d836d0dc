//! The live CPU check: the CPU reference answers the same pairs as the GPU, either in the frame (every
//! frame, for headless runs whose summary must cover every frame) or on a worker thread that takes a new
//! frame only when it has finished the last one (interactive runs, where the frame rate must not wait for
//! the CPU; the HUD says how many frames were sampled). Each keeps a warm-start cache per candidate pair
//! across the frames it checks ([`WarmCache`]): a pair seen again starts GJK where it ended.

use crate::batch::{query_batch_warm, Threads, WarmCache};
use crate::gjk::{GjkConfig, GjkResult, QueryKind};
use crate::instance::Instance;
use crate::shape::ConvexShape;
use anyhow::{anyhow, Result};
use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

/// When the CPU check runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckPolicy {
    /// In the frame, after the narrow phase: every frame is checked.
    EveryFrame,
    /// On a worker thread, on the newest frame whenever the worker is free.
    WhenIdle,
}

/// One frame's pairs, shared with the worker without copying the shapes.
#[derive(Clone)]
pub struct CheckJob {
    pub frame: u64,
    pub shapes: Arc<Vec<ConvexShape>>,
    pub instances: Arc<Vec<Instance>>,
    pub pairs: Arc<Vec<[u32; 2]>>,
}

/// The CPU reference's answers for a job, and how long they took (all threads).
pub struct CpuAnswers {
    #[cfg_attr(
        not(test),
        expect(dead_code, reason = "the tests match each result to its frame")
    )]
    pub frame: u64,
    pub results: Vec<GjkResult<f32>>,
    pub seconds: f64,
    /// GJK iterations over every pair, warm-started from the cache.
    pub iterations: u64,
}

/// The CPU reference on every pair of a job, on all threads, warm-started from `warm` (which then holds this
/// job's pairs).
pub fn answer_on_cpu(
    job: &CheckJob,
    kind: QueryKind,
    config: &GjkConfig,
    warm: &mut WarmCache,
) -> Result<CpuAnswers> {
    let start = Instant::now();
    let results = query_batch_warm(
        &job.shapes,
        &job.instances,
        &job.pairs,
        kind,
        config,
        Threads::All,
        warm,
    )?;
    Ok(CpuAnswers {
        frame: job.frame,
        iterations: total_iterations(&results),
        results,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// GJK iterations summed over a frame's answers.
pub fn total_iterations(results: &[GjkResult<f32>]) -> u64 {
    results.iter().map(|r| u64::from(r.iterations)).sum()
}

/// A worker thread running [`answer_on_cpu`] on one job at a time.
pub struct CpuWorker {
    jobs: Option<Sender<CheckJob>>,
    answers: Receiver<Result<CpuAnswers>>,
    busy: bool,
    thread: Option<JoinHandle<()>>,
}

impl CpuWorker {
    pub fn new(kind: QueryKind, config: GjkConfig) -> Self {
        let (job_sender, jobs) = channel::<CheckJob>();
        let (answer_sender, answers) = channel();
        let thread = std::thread::Builder::new()
            .name("cpu-check".into())
            .spawn(move || {
                let mut warm = WarmCache::default();
                for job in jobs {
                    if answer_sender
                        .send(answer_on_cpu(&job, kind, &config, &mut warm))
                        .is_err()
                    {
                        break;
                    }
                }
            })
            .expect("spawning the CPU check thread");
        Self {
            jobs: Some(job_sender),
            answers,
            busy: false,
            thread: Some(thread),
        }
    }

    pub fn is_busy(&self) -> bool {
        self.busy
    }

    /// Hands the worker a job unless it is still on the last one; returns whether it took it.
    pub fn offer(&mut self, job: CheckJob) -> Result<bool> {
        if self.busy {
            return Ok(false);
        }
        let jobs = self
            .jobs
            .as_ref()
            .ok_or_else(|| anyhow!("CPU check stopped"))?;
        jobs.send(job)
            .map_err(|_| anyhow!("the CPU check thread has stopped"))?;
        self.busy = true;
        Ok(true)
    }

    /// The answers of the job in progress if it has finished, without waiting.
    pub fn poll(&mut self) -> Result<Option<CpuAnswers>> {
        if !self.busy {
            return Ok(None);
        }
        match self.answers.try_recv() {
            Ok(answers) => {
                self.busy = false;
                answers.map(Some)
            }
            Err(TryRecvError::Empty) => Ok(None),
            Err(TryRecvError::Disconnected) => Err(anyhow!("the CPU check thread has stopped")),
        }
    }

    /// The answers of the job in progress, waiting for them (`None` when idle).
    pub fn wait(&mut self) -> Result<Option<CpuAnswers>> {
        if !self.busy {
            return Ok(None);
        }
        let answers = self
            .answers
            .recv()
            .map_err(|_| anyhow!("the CPU check thread has stopped"))?;
        self.busy = false;
        answers.map(Some)
    }
}

impl Drop for CpuWorker {
    fn drop(&mut self) {
        // Closing the channel ends the worker's loop.
        self.jobs.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{random_scene, MixSpec};

    fn job(frame: u64) -> CheckJob {
        let scene = random_scene(3, 200, &MixSpec::default());
        CheckJob {
            frame,
            shapes: Arc::new(scene.shapes),
            instances: Arc::new(scene.instances),
            pairs: Arc::new(scene.pairs),
        }
    }

    #[test]
    fn the_worker_answers_like_the_direct_call_and_takes_one_job_at_a_time() {
        let kind = QueryKind::Distance;
        let config = GjkConfig::default();
        let direct = answer_on_cpu(&job(7), kind, &config, &mut WarmCache::default()).unwrap();
        let mut worker = CpuWorker::new(kind, config);
        assert!(worker.offer(job(7)).unwrap());
        assert!(!worker.offer(job(8)).unwrap(), "busy workers refuse jobs");
        let answers = worker.wait().unwrap().unwrap();
        assert_eq!(answers.frame, 7);
        assert_eq!(answers.results, direct.results);
        assert!(!worker.is_busy());
        assert!(worker.poll().unwrap().is_none());
        assert!(worker.offer(job(9)).unwrap());
    }
}
