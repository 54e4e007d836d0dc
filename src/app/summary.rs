//! The JSON summary a `--frames` run prints: frame count, mean milliseconds per phase, pair counts and the
//! CPU check's figures.

use super::hud::speedup;
use super::physics::PhysicsStats;
use super::sim::{CheckTotals, FrameStats, PairsSource};
use serde::Serialize;

/// Running sums of the per-frame figures.
#[derive(Default)]
pub struct FrameLog {
    frames: u64,
    frame_ms: Sum,
    broad_phase_ms: Sum,
    gpu_narrow_ms: Sum,
    gpu_kernel_ms: Sum,
    gpu_motion_ms: Sum,
    gpu_grid_ms: Sum,
    cpu_narrow_ms: Sum,
    render_ms: Sum,
    candidate_pairs: Sum,
    colliding_pairs: Sum,
    last_candidate_pairs: usize,
    last_colliding_pairs: usize,
    /// Colliding pairs in frames 1, 11, 21, ...: with the response on, this falls as the scene settles.
    colliding_series: Vec<usize>,
    response_ms: Sum,
    bus: BusLog,
    /// The first and the latest frame's physics, when physics ran.
    physics_first: Option<PhysicsStats>,
    physics_last: Option<PhysicsStats>,
    /// GPU physics contacts the CPU manifold checked over the run, those it disagreed with, and those the GPU
    /// gave up on.
    physics_checked: usize,
    physics_disputed: usize,
    physics_failed: usize,
}

/// Running sums of what the broad and narrow phases moved across the bus.
#[derive(Default)]
struct BusLog {
    bytes_up: Sum,
    bytes_down: Sum,
    bytes_down_max: u64,
    bytes_up_first: Option<u64>,
    bytes_up_max_after_first: u64,
    submissions: Sum,
    blocking_waits: Sum,
    broad_on_gpu_frames: u64,
    broad_overflows: u64,
}

impl BusLog {
    fn add(&mut self, stats: &FrameStats) {
        self.bytes_up.add(Some(stats.bytes_up as f64));
        self.bytes_down.add(Some(stats.bytes_down as f64));
        self.bytes_down_max = self.bytes_down_max.max(stats.bytes_down);
        if self.bytes_up_first.is_none() {
            self.bytes_up_first = Some(stats.bytes_up);
        } else {
            self.bytes_up_max_after_first = self.bytes_up_max_after_first.max(stats.bytes_up);
        }
        self.submissions.add(Some(f64::from(stats.submissions)));
        self.blocking_waits
            .add(Some(f64::from(stats.gpu_blocking_waits)));
        self.broad_on_gpu_frames += u64::from(stats.broad.on_gpu);
        self.broad_overflows += u64::from(stats.broad.overflows);
    }

    fn summary(&self, frames: u64) -> BusPerFrame {
        BusPerFrame {
            bytes_up_mean: self.bytes_up.mean().unwrap_or(0.0),
            bytes_down_mean: self.bytes_down.mean().unwrap_or(0.0),
            bytes_down_max: self.bytes_down_max,
            bytes_up_first: self.bytes_up_first.unwrap_or(0),
            bytes_up_max_after_first: self.bytes_up_max_after_first,
            submissions_mean: self.submissions.mean().unwrap_or(0.0),
            blocking_waits_mean: self.blocking_waits.mean().unwrap_or(0.0),
            broad_phase_on_gpu_frames: self.broad_on_gpu_frames,
            broad_phase_overflows: self.broad_overflows,
            frames,
        }
    }
}

/// Per frame, what the broad and narrow phases (not the renderer) moved across the bus, how often they
/// submitted and how often the host blocked on them.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct BusPerFrame {
    pub bytes_up_mean: f64,
    pub bytes_down_mean: f64,
    /// The most bytes read back in one frame.
    pub bytes_down_max: u64,
    /// Bytes the first frame wrote, which uploads the scene (hulls, and poses or the GPU's bodies).
    pub bytes_up_first: u64,
    /// The most bytes written in one frame after the first: with the scene on the GPU, the same at any body
    /// count.
    pub bytes_up_max_after_first: u64,
    pub submissions_mean: f64,
    pub blocking_waits_mean: f64,
    /// Frames whose candidate pairs the GPU found (`--broad-phase gpu`), of `frames`.
    pub broad_phase_on_gpu_frames: u64,
    /// Frames whose pairs outgrew the GPU's pair buffer (each ran again on the grown buffer: no pair lost).
    pub broad_phase_overflows: u64,
    pub frames: u64,
}

#[derive(Default, Clone, Copy)]
struct Sum {
    total: f64,
    count: u64,
}

impl Sum {
    fn add(&mut self, value: Option<f64>) {
        if let Some(v) = value {
            self.total += v;
            self.count += 1;
        }
    }

    fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.total / self.count as f64)
    }
}

impl FrameLog {
    /// Adds one frame: its collision figures and the time spent rendering it and in the whole frame.
    pub fn add(&mut self, stats: &FrameStats, render_ms: f64, frame_ms: f64) {
        self.frames += 1;
        self.frame_ms.add(Some(frame_ms));
        self.render_ms.add(Some(render_ms));
        self.broad_phase_ms.add(Some(stats.broad_phase_ms));
        self.gpu_narrow_ms.add(stats.gpu_narrow_ms);
        self.gpu_kernel_ms.add(stats.gpu_kernel_ms);
        self.gpu_motion_ms.add(stats.gpu_scene_ms.map(|ms| ms[0]));
        self.gpu_grid_ms.add(stats.gpu_scene_ms.map(|ms| ms[1]));
        self.cpu_narrow_ms.add(stats.cpu_narrow_ms);
        self.candidate_pairs.add(Some(stats.candidate_pairs as f64));
        self.colliding_pairs.add(Some(stats.colliding_pairs as f64));
        self.last_candidate_pairs = stats.candidate_pairs;
        self.last_colliding_pairs = stats.colliding_pairs;
        self.response_ms.add(stats.response_ms);
        self.response_ms.add(stats.physics.map(|p| p.ms));
        if let Some(physics) = stats.physics {
            self.physics_first.get_or_insert(physics);
            self.physics_last = Some(physics);
            self.physics_checked += physics.contacts_checked;
            self.physics_disputed += physics.contacts_disputed;
            self.physics_failed += physics.contacts_failed;
        }
        self.bus.add(stats);
        if (self.frames - 1).is_multiple_of(10) {
            self.colliding_series.push(stats.colliding_pairs);
        }
    }

    pub fn summary(&self, context: SummaryContext, totals: &CheckTotals) -> DemoSummary {
        // Without a checked frame there is no count of disagreements to report, not a count of 0.
        let checked = totals.frames_checked > 0;
        DemoSummary {
            frames: self.frames,
            bodies: context.bodies,
            seed: context.seed,
            query: context.query,
            narrow_phase: context.narrow_phase,
            backend: context.backend,
            adapter: context.adapter,
            mean_ms: PhaseMillis {
                frame: self.frame_ms.mean().unwrap_or(0.0),
                broad_phase: self.broad_phase_ms.mean().unwrap_or(0.0),
                gpu_narrow_phase: self.gpu_narrow_ms.mean(),
                gpu_kernel: self.gpu_kernel_ms.mean(),
                gpu_motion: self.gpu_motion_ms.mean(),
                gpu_broad_phase: self.gpu_grid_ms.mean(),
                cpu_narrow_phase: self.cpu_narrow_ms.mean(),
                render: self.render_ms.mean().unwrap_or(0.0),
                response: self.response_ms.mean(),
            },
            gpu_speedup_vs_cpu: speedup(self.cpu_narrow_ms.mean(), self.gpu_narrow_ms.mean()),
            gpu_kernel_speedup_vs_cpu: speedup(
                self.cpu_narrow_ms.mean(),
                self.gpu_kernel_ms.mean(),
            ),
            candidate_pairs_mean: self.candidate_pairs.mean().unwrap_or(0.0),
            candidate_pairs_last: self.last_candidate_pairs,
            colliding_pairs_mean: self.colliding_pairs.mean().unwrap_or(0.0),
            colliding_pairs_last: self.last_colliding_pairs,
            colliding_pairs_every_10_frames: self.colliding_series.clone(),
            per_frame: self.bus.summary(self.frames),
            response: context.response,
            response_mode: context.response_mode,
            physics: self.physics_last.map(|last| PhysicsSummary {
                first_kinetic_energy: self.physics_first.map_or(0.0, |f| f.kinetic_energy),
                last,
                contacts_checked: self.physics_checked,
                contacts_disputed: self.physics_disputed,
                contacts_failed: self.physics_failed,
            }),
            check: context.check,
            frames_checked: totals.frames_checked,
            pairs_checked: totals.pairs_checked,
            disagreements: checked.then_some(totals.disagreements),
            near_contact_differences: checked.then_some(totals.near_contact_differences),
            max_distance_error: checked.then_some(totals.max_distance_error),
            gpu_failures_answered_on_cpu: totals.gpu_failures,
            gpu_failures_listed: totals.gpu_failures_listed,
            gpu_failure_list_overflow: totals.gpu_failure_list_overflow,
            gjk_iterations_cpu_warm: checked.then_some(totals.cpu_iterations_warm),
            gjk_iterations_gpu_cold: checked.then_some(totals.gpu_iterations_cold),
            warm_start_iterations_saved: (checked && totals.gpu_iterations_cold > 0).then(|| {
                1.0 - totals.cpu_iterations_warm as f64 / totals.gpu_iterations_cold as f64
            }),
            screenshot: context.screenshot,
            window: context.window,
            hud: None,
            selection: None,
        }
    }
}

/// The physics part of the summary.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct PhysicsSummary {
    pub first_kinetic_energy: f32,
    pub last: PhysicsStats,
    /// GPU physics contacts the CPU manifold checked over the run, those it disagreed with, and those the GPU
    /// gave up on (all 0 when physics ran on the CPU).
    pub contacts_checked: usize,
    pub contacts_disputed: usize,
    pub contacts_failed: usize,
}

/// What the summary says about the run besides the per-frame figures.
pub struct SummaryContext {
    pub bodies: usize,
    pub seed: u64,
    pub query: String,
    pub narrow_phase: String,
    pub backend: String,
    pub adapter: String,
    pub check: String,
    pub response: bool,
    /// `off`, `push-apart` or `physics`.
    pub response_mode: String,
    pub screenshot: Option<String>,
    /// Whether the frames were shown in a window (`false`: `--no-window`, drawn offscreen only).
    pub window: bool,
}

/// Mean milliseconds per frame phase; narrow phases are `null` when they never ran.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct PhaseMillis {
    pub frame: f64,
    pub broad_phase: f64,
    /// GPU narrow phase in host time: upload, dispatch and readback (submitting and collecting, where frames
    /// did not wait for their answers).
    pub gpu_narrow_phase: Option<f64>,
    /// GPU time of the narrow phase's passes, from timestamp queries; `null` where the adapter has none.
    pub gpu_kernel: Option<f64>,
    /// GPU time of the pass that moves the bodies on the GPU, from timestamp queries, over the checked frames
    /// that timed it; `null` where none did.
    pub gpu_motion: Option<f64>,
    /// GPU time of the GPU broad phase's grid pass, likewise.
    pub gpu_broad_phase: Option<f64>,
    /// CPU reference on the same pairs, all threads (the live check, or the narrow phase in CPU mode).
    pub cpu_narrow_phase: Option<f64>,
    /// Drawing the scene and the HUD, and presenting (in a window); drawing the scene and waiting for the GPU
    /// to finish it (`--no-window`).
    pub render: f64,
    /// The collision response (CPU EPA on colliding pairs and pushes), when on.
    pub response: Option<f64>,
}

#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct DemoSummary {
    pub frames: u64,
    pub bodies: usize,
    pub seed: u64,
    pub query: String,
    pub narrow_phase: String,
    pub backend: String,
    pub adapter: String,
    pub mean_ms: PhaseMillis,
    /// How many times faster the GPU narrow phase ran than the CPU reference on all threads (mean CPU
    /// milliseconds over mean GPU milliseconds); `null` unless both ran.
    pub gpu_speedup_vs_cpu: Option<f64>,
    /// Mean CPU milliseconds over mean GPU time from timestamp queries (`mean_ms.gpu_kernel`): the compute
    /// alone on both sides; `null` without timestamp queries or without both.
    pub gpu_kernel_speedup_vs_cpu: Option<f64>,
    pub candidate_pairs_mean: f64,
    pub candidate_pairs_last: usize,
    pub colliding_pairs_mean: f64,
    pub colliding_pairs_last: usize,
    /// Colliding pairs in frames 1, 11, 21, ... (falls over time with the response on).
    pub colliding_pairs_every_10_frames: Vec<usize>,
    /// Bus traffic, submissions, waits and the GPU broad phase's frames and overflows.
    pub per_frame: BusPerFrame,
    /// Whether the collision response was on at the end.
    pub response: bool,
    /// Which response it was at the end: `off`, `push-apart` or `physics`.
    pub response_mode: String,
    /// The physics figures, when physics ran: the kinetic energy after the first frame and the last frame's
    /// steps, contacts, points, sleeping bodies, kinetic energy and milliseconds.
    pub physics: Option<PhysicsSummary>,
    pub check: String,
    pub frames_checked: u64,
    pub pairs_checked: u64,
    /// GPU-vs-CPU disagreements outside the tolerance band, over every checked frame; `null` when no frame
    /// was checked (the CPU narrow phase, which has nothing to be checked against).
    pub disagreements: Option<u64>,
    /// Flag differences on pairs touching within the tolerance band (allowed, counted for the record);
    /// `null` when no frame was checked.
    pub near_contact_differences: Option<u64>,
    /// Largest GPU-vs-CPU distance error relative to the pair's size (distance queries); `null` when no
    /// frame was checked.
    pub max_distance_error: Option<f64>,
    /// Pairs the GPU answered with a named failure status, answered again on the CPU.
    pub gpu_failures_answered_on_cpu: u64,
    /// Of those, in frames whose pairs stayed on the device: the pairs the GPU's failure list named (each checked
    /// on the CPU), and the failures counted beyond the list's capacity, which were not listed or checked.
    pub gpu_failures_listed: u64,
    pub gpu_failure_list_overflow: u64,
    /// GJK iterations of the CPU check over the checked frames, each pair warm-started from the previous
    /// checked frame; `null` when no frame was checked.
    pub gjk_iterations_cpu_warm: Option<u64>,
    /// GJK iterations of the GPU on the same pairs, every pair started cold (the same GJK, in WGSL).
    pub gjk_iterations_gpu_cold: Option<u64>,
    /// The fraction of iterations the warm start saved: `1 - cpu_warm / gpu_cold`.
    pub warm_start_iterations_saved: Option<f64>,
    pub screenshot: Option<String>,
    /// Whether the frames were shown in a window; `false` for `--no-window` runs, whose render time is the
    /// scene drawn offscreen and waited for (no HUD, nothing presented).
    pub window: bool,
    /// The HUD's rows as the last frame showed them, label and value (window runs only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hud: Option<Vec<[String; 2]>>,
    /// The picked body, the selected pair and what the inspector and "copy pair" named (window runs only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selection: Option<SelectionSummary>,
}

/// The selection at the end of a window run: one selected pair, which the inspector and "copy pair" follow.
#[derive(Serialize, Debug, Clone, PartialEq, Default)]
pub struct SelectionSummary {
    pub picked: Option<u32>,
    /// The picked body's candidate pairs in the last frame, and where they came from: listed on the GPU (a
    /// frame fed on the device) or the frame's pairs read back whole.
    pub picked_pairs: Option<usize>,
    pub pairs_source: Option<PairsSource>,
    /// The picked body's pairs the GPU's list had no room for (counted, not listed).
    pub picked_pairs_not_listed: u32,
    pub selected_pair: Option<[u32; 2]>,
    /// Whether the selected pair is among the last frame's candidate pairs.
    pub selected_pair_is_candidate: bool,
    /// Whether the latest check disputed the selected pair (magenta in the pair table).
    pub selected_pair_disputed: bool,
    /// The pair the inspector shows, the frame it was traced in, and whether that is a frozen snapshot (the
    /// simulation moved on since).
    pub inspected_pair: Option<[u32; 2]>,
    pub inspected_frame: Option<u64>,
    pub inspector_frozen: bool,
    /// The pair the last "copy pair" wrote.
    pub copied_pair: Option<[u32; 2]>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn means_skip_frames_where_a_phase_did_not_run() {
        let mut log = FrameLog::default();
        let mut stats = FrameStats {
            broad_phase_ms: 1.0,
            gpu_narrow_ms: Some(4.0),
            cpu_narrow_ms: Some(8.0),
            candidate_pairs: 10,
            colliding_pairs: 4,
            ..FrameStats::default()
        };
        log.add(&stats, 2.0, 10.0);
        stats.cpu_narrow_ms = None;
        stats.gpu_narrow_ms = Some(2.0);
        stats.colliding_pairs = 2;
        log.add(&stats, 4.0, 20.0);
        let context = SummaryContext {
            bodies: 5,
            seed: 1,
            query: "distance".into(),
            narrow_phase: "GPU".into(),
            backend: "Gl".into(),
            adapter: "test".into(),
            check: "every frame".into(),
            response: false,
            response_mode: "off".to_string(),
            screenshot: None,
            window: true,
        };
        let s = log.summary(context, &CheckTotals::default());
        assert_eq!(s.frames, 2);
        assert_eq!(s.mean_ms.frame, 15.0);
        assert_eq!(s.mean_ms.render, 3.0);
        assert_eq!(s.mean_ms.gpu_narrow_phase, Some(3.0));
        assert_eq!(s.mean_ms.cpu_narrow_phase, Some(8.0));
        assert_eq!(s.gpu_speedup_vs_cpu, Some(8.0 / 3.0));
        assert_eq!((s.colliding_pairs_mean, s.colliding_pairs_last), (3.0, 2));
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["mean_ms"]["broad_phase"], 1.0);
        assert_eq!(json["gpu_speedup_vs_cpu"], 8.0 / 3.0);
        assert!(json.get("speedup_cpu_over_gpu").is_none());
    }

    #[test]
    fn disagreements_are_null_without_a_checked_frame_and_counted_with_one() {
        let mut log = FrameLog::default();
        log.add(&FrameStats::default(), 1.0, 2.0);
        let context = || SummaryContext {
            bodies: 1,
            seed: 1,
            query: "distance".into(),
            narrow_phase: "CPU".into(),
            backend: "Gl".into(),
            adapter: "test".into(),
            check: "off".into(),
            response: false,
            response_mode: "off".to_string(),
            screenshot: None,
            window: true,
        };
        let unchecked =
            serde_json::to_value(log.summary(context(), &CheckTotals::default())).unwrap();
        for field in [
            "disagreements",
            "near_contact_differences",
            "max_distance_error",
        ] {
            assert!(unchecked[field].is_null(), "{field}: {unchecked}");
        }
        let totals = CheckTotals {
            frames_checked: 1,
            ..CheckTotals::default()
        };
        let checked = serde_json::to_value(log.summary(context(), &totals)).unwrap();
        assert_eq!(checked["disagreements"], 0);
        assert_eq!(checked["max_distance_error"], 0.0);
    }
}
