//! Running the three backends on one seeded scene per size: best of `repeat` timed runs each, then the GPU
//! and the all-threads CPU answers compared pair by pair with the single-thread CPU answers.

use super::record::GpuWork;
use super::warmup::{Settling, GPU_WARMUP_BATCH_PAIRS};
use super::{kind_name, BackendId, BenchKind, BenchSpec, Record};
use crate::batch::{penetration_batch, query_batch, Threads};
use crate::epa::Penetration;
use crate::gjk::{GjkConfig, GjkResult, QueryKind};
use crate::gpu::{
    EpaKernel, GpuContext, GpuLimits, GpuTimings, NarrowPhase, PackedDistance, PackedHit, RawSets,
    ScanKernel, ShaderChecks, WorkSummary,
};
use crate::scenario::{random_scene, Scene};
use crate::shape::ConvexShape;
use crate::text::count_len;
use crate::validate::{compare, compare_penetration, PenetrationReport, ValidationReport};
use anyhow::Context;
use rayon::prelude::*;
use std::time::Instant;

/// Pairs in the first untimed warm-up batch before a scene's GPU runs: enough to compile the pipeline
/// (drivers often compile on first dispatch). The buffers are made at full size before it
/// ([`NarrowPhase::reserve`]), so no timed batch allocates.
pub const GPU_WARMUP_PAIRS: usize = 1024;

/// The GPU side of a benchmark: one narrow phase for the whole run; each scene's hulls and instances are
/// uploaded once, outside the timing, so a timed batch sends only its pairs.
pub struct GpuBench<'a> {
    pub ctx: &'a GpuContext,
    narrow: NarrowPhase,
}

impl<'a> GpuBench<'a> {
    /// A bench whose kernels carry wgpu's runtime checks or not ([`ShaderChecks`]).
    pub fn with_shader_checks(ctx: &'a GpuContext, checks: ShaderChecks) -> Self {
        let limits = GpuLimits::from_device(&ctx.device.limits());
        Self {
            ctx,
            narrow: NarrowPhase::with_shader_checks(&ctx.device, &ctx.queue, limits, checks),
        }
    }

    /// Whether the kernels carry wgpu's runtime checks.
    pub fn shader_checks_on(&self) -> bool {
        self.narrow.shader_checks_on()
    }

    pub fn has_timestamps(&self) -> bool {
        self.narrow.has_timestamps()
    }

    pub fn max_pairs_per_chunk(&self) -> u32 {
        self.narrow.limits().max_pairs_per_chunk
    }

    /// Uploads a scene's hulls and instances and makes every buffer its batches need.
    fn load(&mut self, scene: &Scene, penetration: bool) -> anyhow::Result<()> {
        self.narrow
            .upload_hulls(&scene.shapes)
            .context("uploading the scene's hulls to the GPU")?;
        self.narrow
            .set_instances(&scene.instances)
            .context("uploading the scene's instances to the GPU")?;
        self.narrow.reserve(scene.pairs.len(), penetration);
        Ok(())
    }

    /// The SIMT proxies of the scene's pairs, from an untimed run of the counting GJK kernel, and for GJK
    /// queries the host's ceiling: the best of `repeat` batches through the null kernel.
    fn work(
        &mut self,
        scene: &Scene,
        kind: BenchKind,
        config: &GjkConfig,
        repeat: usize,
    ) -> anyhow::Result<GpuWork> {
        let work = self
            .narrow
            .count_work(&scene.instances, &scene.pairs, kind.query_kind(), config)
            .context("counting the GJK kernel's work on the GPU")?;
        let order = self.narrow.dispatch_order(&scene.pairs);
        let dispatched: Vec<_> = order.iter().map(|&k| work[k as usize]).collect();
        let summary = WorkSummary::of(&dispatched);
        let epa = match kind {
            BenchKind::Penetration => Some(
                self.narrow
                    .count_epa_steps(&scene.instances, &scene.pairs, config)
                    .context("counting the EPA pass's expansions on the GPU")?,
            ),
            BenchKind::Query(_) => None,
        };
        let host_ceiling_pairs_per_s = match kind {
            BenchKind::Query(_) => {
                self.narrow.set_null_kernel(true);
                let mut best = f64::INFINITY;
                let mut failed = None;
                for _ in 0..repeat.max(1) {
                    match gpu_batch(&mut self.narrow, &scene.pairs, kind, config, false) {
                        Ok((_, timings)) => best = best.min(timings.total_s),
                        Err(e) => failed = Some(e),
                    }
                }
                self.narrow.set_null_kernel(false);
                if let Some(e) = failed {
                    return Err(e.context("timing the null kernel on the GPU"));
                }
                (best > 0.0).then(|| scene.pairs.len() as f64 / best)
            }
            BenchKind::Penetration => None,
        };
        Ok(GpuWork {
            simt_gjk_steps: summary.simt_gjk_steps,
            simt_support_reads: summary.simt_support_reads,
            vertex_reads_per_support: summary.vertex_reads_per_support,
            host_ceiling_pairs_per_s,
            simt_epa_steps: epa.as_ref().map(|e| e.simt_efficiency()),
            epa_steps_per_pair: epa.as_ref().map(|e| e.mean()),
        })
    }
}

/// Callbacks while the benchmark runs; the command line drives a progress bar and prints each group as
/// soon as it is measured, so long sweeps show results early.
pub trait Progress {
    /// About to do one timed run (or a scene build), described by `what`.
    fn step(&mut self, _what: &str) {}
    /// One (size, kind) group is measured and validated.
    fn group_done(&mut self, _group: &Group) {}
}

impl Progress for () {}

/// How many `step` calls a run makes: per size one scene build, then per kind `repeat` runs per backend.
pub fn step_count(spec: &BenchSpec, gpu: bool) -> u64 {
    let backends = if gpu { 3 } else { 2 };
    (spec.sizes.len() * (1 + spec.kinds.len() * backends * spec.repeat)) as u64
}

/// What a timed run is, for the progress bar: `CPU all threads: penetration, 1000000 pairs, run 2/3`
/// (at most [`MAX_STEP_LABEL`] characters, so a terminal of 80 columns shows it whole).
pub fn step_label(backend: &str, kind: BenchKind, pairs: usize, run: usize, runs: usize) -> String {
    format!(
        "{backend}: {}, {}, run {run}/{runs}",
        kind_name(kind),
        count_len(pairs, "pair")
    )
}

#[cfg(test)]
/// The longest [`step_label`]: [`super::MAX_PAIRS`] pairs and [`super::MAX_REPEAT`] runs.
pub const MAX_STEP_LABEL: usize = 60;

/// One (pair count, query kind): its records in backend order (CPU 1 thread, CPU all threads, GPU) and the
/// agreement reports against CPU 1 thread.
#[derive(Clone, Debug)]
pub struct Group {
    pub pairs: usize,
    pub instances: usize,
    pub kind: BenchKind,
    pub records: Vec<Record>,
    /// GJK answers (for penetration groups, GJK's distance answers).
    pub cpu_all_report: ValidationReport,
    pub gpu_report: Option<ValidationReport>,
    /// Penetration groups: depth, normal and status against CPU 1 thread.
    pub cpu_all_penetration: Option<PenetrationReport>,
    pub gpu_penetration: Option<PenetrationReport>,
}

impl Group {
    /// The GPU agrees with the reference within the band, and the all-threads CPU gives the same flags and
    /// distances as the single thread (it runs the same code, so anything else is a bug).
    pub fn is_clean(&self) -> bool {
        let cpu = &self.cpu_all_report;
        cpu.flag_disagreements == 0
            && cpu.distance_disagreements == 0
            && self
                .gpu_report
                .as_ref()
                .is_none_or(ValidationReport::is_clean)
            && self
                .cpu_all_penetration
                .as_ref()
                .is_none_or(PenetrationReport::is_clean)
            && self
                .gpu_penetration
                .as_ref()
                .is_none_or(PenetrationReport::is_clean)
    }
}

#[derive(Clone, Debug, Default)]
pub struct BenchOutcome {
    pub groups: Vec<Group>,
}

impl BenchOutcome {
    pub fn records(&self) -> impl Iterator<Item = &Record> {
        self.groups.iter().flat_map(|g| g.records.iter())
    }

    pub fn is_clean(&self) -> bool {
        self.groups.iter().all(Group::is_clean)
    }
}

/// Runs every size and kind of `spec` on the CPU (one thread, all threads) and, when given, the GPU.
pub fn run_bench(
    spec: &BenchSpec,
    mut gpu: Option<&mut GpuBench<'_>>,
    progress: &mut dyn Progress,
) -> anyhow::Result<BenchOutcome> {
    let config = GjkConfig::default();
    // Starts rayon's global pool now, so its start-up is not timed in the first all-threads run.
    let threads = rayon::current_num_threads();
    let mix = spec.mix();
    let mut outcome = BenchOutcome::default();
    for &size in &spec.sizes {
        progress.step(&format!("{}: building the scene", count_len(size, "pair")));
        let scene = searched_as_read(random_scene(spec.seed, size, &mix), spec.raw_scan);
        if let Some(gpu) = gpu.as_deref_mut() {
            // The scene stays on the GPU, as an application would keep it: hulls and instances go up once,
            // outside the timing.
            // `--raw-scan` keeps raw clouds scanned on the GPU too.
            gpu.narrow.set_raw_sets(if spec.raw_scan {
                RawSets::Scanned
            } else {
                RawSets::Hulled
            });
            gpu.load(&scene, spec.kinds.contains(&BenchKind::Penetration))?;
            gpu.narrow.set_binning(spec.binning);
        }
        for &kind in &spec.kinds {
            let at = |backend: &str, run: usize| step_label(backend, kind, size, run, spec.repeat);
            let (cpu1, cpu1_s) = time_cpu(
                &scene,
                kind,
                &config,
                Threads::Single,
                spec.repeat,
                &mut |r| progress.step(&at("CPU 1 thread", r)),
            )?;
            let (cpu_all, cpu_all_s) =
                time_cpu(&scene, kind, &config, Threads::All, spec.repeat, &mut |r| {
                    progress.step(&at("CPU all threads", r))
                })?;
            let query = kind.query_kind();
            let cpu_all_report = compare(
                &scene.shapes,
                &scene.instances,
                &scene.pairs,
                &cpu_all.results,
                &cpu1.results,
                query,
            );
            let cpu_all_penetration = penetration_report(&scene, &cpu_all, &cpu1);
            let base = RecordBase {
                pairs: size,
                kind,
                runs: spec.repeat,
                cpu1_s,
            };
            let mut records = vec![
                base.cpu(BackendId::Cpu1, 1, cpu1_s, None, None),
                base.cpu(
                    BackendId::CpuAll,
                    threads,
                    cpu_all_s,
                    Some(&cpu_all_report),
                    cpu_all_penetration.as_ref(),
                ),
            ];
            let mut gpu_report: Option<ValidationReport> = None;
            let mut gpu_penetration: Option<PenetrationReport> = None;
            if let Some(gpu) = gpu.as_deref_mut() {
                // Penetration: one row per EPA kernel; distance and intersection: one per scan kernel asked
                // for; their timed batches alternating.
                let kernels: Vec<KernelChoice> = match kind {
                    BenchKind::Penetration if spec.epa_kernels.is_empty() => {
                        vec![KernelChoice::Epa(gpu.narrow.epa_kernel())]
                    }
                    BenchKind::Penetration => spec
                        .epa_kernels
                        .iter()
                        .copied()
                        .map(KernelChoice::Epa)
                        .collect(),
                    BenchKind::Query(_) => spec
                        .scan_kernels
                        .iter()
                        .copied()
                        .map(KernelChoice::Scan)
                        .collect(),
                };
                let rows = time_gpu(
                    gpu,
                    &scene,
                    kind,
                    &config,
                    spec.repeat,
                    &kernels,
                    &mut |r| progress.step(&at("GPU", r)),
                )?;
                let work = gpu.work(&scene, kind, &config, spec.repeat)?;
                for (k, (answers, timings)) in rows.into_iter().enumerate() {
                    let report = compare(
                        &scene.shapes,
                        &scene.instances,
                        &scene.pairs,
                        &answers.results,
                        &cpu1.results,
                        query,
                    );
                    let penetration = penetration_report(&scene, &answers, &cpu1);
                    let mut record = base.gpu(
                        gpu.ctx,
                        &timings,
                        &report,
                        penetration.as_ref(),
                        answers.epa_pairs,
                    );
                    record.gpu_work = Some(work);
                    match kernels.get(k) {
                        Some(KernelChoice::Epa(kernel)) => {
                            record.epa_kernel = Some(kernel.name());
                            record.epa_private_bytes = Some(kernel.private_bytes_per_invocation());
                        }
                        Some(KernelChoice::Scan(kernel)) => {
                            record.scan_kernel = Some(kernel.name());
                            record.subgroup_pairs = Some(answers.subgroup_pairs);
                        }
                        None => {}
                    }
                    records.push(record);
                    // The group's GPU agreement: the first row that disagrees, else the last row's.
                    if gpu_report.as_ref().is_none_or(ValidationReport::is_clean) {
                        gpu_report = Some(report);
                    }
                    if gpu_penetration
                        .as_ref()
                        .is_none_or(PenetrationReport::is_clean)
                    {
                        gpu_penetration = penetration;
                    }
                }
            }
            let group = Group {
                pairs: size,
                instances: scene.instances.len(),
                kind,
                records,
                cpu_all_report,
                gpu_report,
                cpu_all_penetration,
                gpu_penetration,
            };
            progress.group_done(&group);
            outcome.groups.push(group);
        }
    }
    Ok(outcome)
}

/// One backend's answers: GJK's, and for penetration groups the penetrations too.
#[derive(Default)]
struct Answers {
    results: Vec<GjkResult<f32>>,
    penetrations: Option<Vec<Penetration<f32>>>,
    /// Pairs that went through the GPU's EPA pass.
    epa_pairs: Option<usize>,
    /// Pairs the subgroup kernel answered (`NarrowPhase::subgroup_pairs`).
    subgroup_pairs: usize,
}

/// Depth, normal and status of `answers` against `reference`, for penetration groups.
fn penetration_report(
    scene: &Scene,
    answers: &Answers,
    reference: &Answers,
) -> Option<PenetrationReport> {
    match (&answers.penetrations, &reference.penetrations) {
        (Some(mine), Some(theirs)) => Some(compare_penetration(
            &scene.shapes,
            &scene.instances,
            &scene.pairs,
            mine,
            theirs,
        )),
        _ => None,
    }
}

/// Best (shortest) of `repeat` CPU runs; the answers of the last run.
fn time_cpu(
    scene: &Scene,
    kind: BenchKind,
    config: &GjkConfig,
    threads: Threads,
    repeat: usize,
    step: &mut dyn FnMut(usize),
) -> anyhow::Result<(Answers, f64)> {
    let mut best = f64::INFINITY;
    let mut answers = Answers::default();
    for r in 1..=repeat.max(1) {
        step(r);
        drop(std::mem::take(&mut answers));
        let start = Instant::now();
        answers = match kind {
            BenchKind::Query(query) => Answers {
                results: query_batch(
                    &scene.shapes,
                    &scene.instances,
                    &scene.pairs,
                    query,
                    config,
                    threads,
                )?,
                ..Answers::default()
            },
            BenchKind::Penetration => {
                let (results, penetrations) = penetration_batch(
                    &scene.shapes,
                    &scene.instances,
                    &scene.pairs,
                    config,
                    threads,
                )?;
                Answers {
                    results,
                    penetrations: Some(penetrations),
                    ..Answers::default()
                }
            }
        };
        best = best.min(start.elapsed().as_secs_f64());
    }
    Ok((answers, best))
}

/// One GPU batch of `pairs` in the compact format of `kind`; the answers as CPU types when `convert` (after the
/// timing, which ends when the records are in the narrow phase's buffer).
fn gpu_batch(
    narrow: &mut NarrowPhase,
    pairs: &[[u32; 2]],
    kind: BenchKind,
    config: &GjkConfig,
    convert: bool,
) -> anyhow::Result<(Option<Answers>, GpuTimings)> {
    let (mut answers, timings) = match kind {
        BenchKind::Query(QueryKind::Distance) => {
            let batch = narrow.distances(pairs, config)?;
            let answers = convert.then(|| Answers {
                results: batch
                    .records
                    .iter()
                    .map(PackedDistance::to_result)
                    .collect(),
                ..Answers::default()
            });
            (answers, batch.timings)
        }
        BenchKind::Query(QueryKind::Intersection) => {
            let batch = narrow.hits(pairs, config)?;
            let answers = convert.then(|| Answers {
                results: batch.records.iter().map(PackedHit::to_result).collect(),
                ..Answers::default()
            });
            (answers, batch.timings)
        }
        BenchKind::Penetration => {
            let batch = narrow.contacts(pairs, config)?;
            let answers = convert.then(|| Answers {
                results: batch.records.iter().map(|c| c.gjk_result()).collect(),
                penetrations: Some(batch.records.iter().map(|c| c.penetration()).collect()),
                epa_pairs: Some(batch.epa_pairs),
                ..Answers::default()
            });
            (answers, batch.timings)
        }
    };
    if let Some(answers) = &mut answers {
        answers.subgroup_pairs = narrow.subgroup_pairs();
    }
    Ok((answers, timings))
}

/// A kernel a GPU row runs with, where `bench` compares two: where EPA keeps its polytope (penetration), or
/// how GJK scans the biggest scanned hulls (distance and intersection).
#[derive(Clone, Copy, Debug)]
enum KernelChoice {
    Epa(EpaKernel),
    Scan(ScanKernel),
}

impl KernelChoice {
    fn apply(self, narrow: &mut NarrowPhase) -> anyhow::Result<()> {
        match self {
            KernelChoice::Epa(kernel) => narrow.set_epa_kernel(kernel),
            KernelChoice::Scan(kernel) => narrow
                .set_scan_kernel(kernel)
                .with_context(|| format!("--scan {}", kernel.name()))?,
        }
        Ok(())
    }
}

/// Best of `repeat` GPU batches by end-to-end time, with that batch's split; after the untimed warm-up
/// (a small batch, then batches until the GPU's speed settles, [`GPU_WARMUP_BATCH_PAIRS`]). With `kernels`
/// (EPA kernels for penetration, scan kernels for the others), one result per kernel: each warmed up, then run
/// `r` of every kernel before run `r + 1` of any, so a machine whose speed drifts favours none. Without, one
/// result with the kernels set.
fn time_gpu(
    gpu: &mut GpuBench<'_>,
    scene: &Scene,
    kind: BenchKind,
    config: &GjkConfig,
    repeat: usize,
    kernels: &[KernelChoice],
    step: &mut dyn FnMut(usize),
) -> anyhow::Result<Vec<(Answers, GpuTimings)>> {
    let chosen: Vec<Option<KernelChoice>> = if kernels.is_empty() {
        vec![None]
    } else {
        kernels.iter().copied().map(Some).collect()
    };
    let warmup = &scene.pairs[..scene.pairs.len().min(GPU_WARMUP_PAIRS)];
    let clocks_up = &scene.pairs[..scene.pairs.len().min(GPU_WARMUP_BATCH_PAIRS)];
    for kernel in chosen.iter().flatten() {
        kernel.apply(&mut gpu.narrow)?;
        gpu_batch(&mut gpu.narrow, warmup, kind, config, false)?;
    }
    for kernel in &chosen {
        if let Some(kernel) = kernel {
            kernel.apply(&mut gpu.narrow)?;
        }
        let started = Instant::now();
        let mut settling = Settling::default();
        loop {
            let batch_started = Instant::now();
            gpu_batch(&mut gpu.narrow, clocks_up, kind, config, false)?;
            let batch_s = batch_started.elapsed().as_secs_f64();
            if settling.after_batch(started.elapsed().as_secs_f64(), batch_s) {
                break;
            }
        }
    }
    let mut best: Vec<Option<GpuTimings>> = vec![None; chosen.len()];
    let mut answers: Vec<Answers> = chosen.iter().map(|_| Answers::default()).collect();
    let repeat = repeat.max(1);
    for r in 1..=repeat {
        step(r);
        for (k, kernel) in chosen.iter().enumerate() {
            if let Some(kernel) = kernel {
                kernel.apply(&mut gpu.narrow)?;
            }
            let (latest, timings) =
                gpu_batch(&mut gpu.narrow, &scene.pairs, kind, config, r == repeat)?;
            if best[k].is_none_or(|b| timings.total_s < b.total_s) {
                best[k] = Some(timings);
            }
            if let Some(latest) = latest {
                answers[k] = latest;
            }
        }
    }
    if let Some(Some(first)) = chosen.first() {
        first.apply(&mut gpu.narrow)?;
    }
    Ok(answers
        .into_iter()
        .zip(best)
        .map(|(a, b)| (a, b.unwrap_or_default()))
        .collect())
}

/// What every record of one group shares.
struct RecordBase {
    pairs: usize,
    kind: BenchKind,
    runs: usize,
    cpu1_s: f64,
}

impl RecordBase {
    fn record(&self, backend: BackendId, total_s: f64) -> Record {
        let rate = |s: f64| if s > 0.0 { self.pairs as f64 / s } else { 0.0 };
        Record {
            pairs: self.pairs,
            kind: kind_name(self.kind),
            backend: backend.id(),
            adapter: "cpu".into(),
            software_adapter: false,
            threads: None,
            runs: self.runs,
            pairs_per_s: rate(total_s),
            total_s,
            speedup_vs_cpu1: if total_s > 0.0 {
                self.cpu1_s / total_s
            } else {
                0.0
            },
            upload_s: None,
            compute_s: None,
            kernel_s: None,
            readback_s: None,
            readback_gb_s: None,
            chunks: None,
            host_ns_per_pair: None,
            bytes_up_per_pair: None,
            bytes_down_per_pair: None,
            submissions: None,
            blocking_waits: None,
            chunks_in_flight: None,
            scene_groups: None,
            flag_disagreements: None,
            distance_disagreements: None,
            max_distance_error: None,
            epa_pairs: None,
            max_depth_error: None,
            max_normal_angle: None,
            penetration_failures: None,
            gpu_failures: None,
            clean: None,
            gpu_work: None,
            epa_kernel: None,
            epa_private_bytes: None,
            scan_kernel: None,
            subgroup_pairs: None,
        }
    }

    fn agreement(
        &self,
        record: &mut Record,
        report: &ValidationReport,
        penetration: Option<&PenetrationReport>,
        clean: bool,
    ) {
        record.flag_disagreements = Some(report.flag_disagreements);
        record.gpu_failures = Some(report.gpu_failures);
        record.distance_disagreements = Some(report.distance_disagreements);
        record.max_distance_error =
            (self.kind.query_kind() == QueryKind::Distance).then_some(report.max_distance_error);
        if let Some(p) = penetration {
            record.max_depth_error = Some(p.max_depth_error);
            record.max_normal_angle = Some(p.max_normal_angle);
            record.penetration_failures = Some(p.gpu_failures());
        }
        record.clean = Some(clean && penetration.is_none_or(PenetrationReport::is_clean));
    }

    fn cpu(
        &self,
        backend: BackendId,
        threads: usize,
        total_s: f64,
        report: Option<&ValidationReport>,
        penetration: Option<&PenetrationReport>,
    ) -> Record {
        let mut record = self.record(backend, total_s);
        record.threads = Some(threads);
        if let Some(report) = report {
            let clean = report.flag_disagreements == 0 && report.distance_disagreements == 0;
            self.agreement(&mut record, report, penetration, clean);
        }
        record
    }

    fn gpu(
        &self,
        ctx: &GpuContext,
        timings: &GpuTimings,
        report: &ValidationReport,
        penetration: Option<&PenetrationReport>,
        epa_pairs: Option<usize>,
    ) -> Record {
        let mut record = self.record(BackendId::Gpu, timings.total_s);
        record.adapter = ctx.summary.to_string();
        record.software_adapter = ctx.summary.is_software();
        record.upload_s = Some(timings.upload_s);
        record.compute_s = Some(timings.compute_s);
        record.kernel_s = timings.kernel_s;
        record.readback_s = Some(timings.readback_s);
        record.readback_gb_s = timings.readback_gb_s();
        record.chunks = Some(timings.chunks);
        let per_pair = |bytes: u64| bytes as f64 / self.pairs.max(1) as f64;
        record.host_ns_per_pair = timings.host_ns_per_pair(self.pairs);
        record.bytes_up_per_pair = Some(per_pair(timings.bytes_up));
        record.bytes_down_per_pair = Some(per_pair(timings.bytes_down));
        record.submissions = Some(timings.submissions);
        record.blocking_waits = Some(timings.blocking_waits);
        record.chunks_in_flight = Some(timings.max_in_flight);
        record.scene_groups = Some(timings.groups);
        record.epa_pairs = epa_pairs;
        self.agreement(&mut record, report, penetration, report.is_clean());
        record
    }
}

/// The scene's shapes as a batch reader builds them: raw hull clouds of more than
/// [`crate::shape::RAW_HULL_MIN_POINTS`] points searched as their hulls, unless `raw_scan` keeps them scanned.
fn searched_as_read(mut scene: Scene, raw_scan: bool) -> Scene {
    if !raw_scan {
        scene.shapes = std::mem::take(&mut scene.shapes)
            .into_par_iter()
            .map(ConvexShape::searched_as_hull)
            .collect();
    }
    scene
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{MAX_PAIRS, MAX_REPEAT};

    #[test]
    fn step_labels_fit_their_bound() {
        let longest = step_label(
            "CPU all threads",
            BenchKind::Penetration,
            MAX_PAIRS,
            MAX_REPEAT,
            MAX_REPEAT,
        );
        assert_eq!(
            longest,
            "CPU all threads: penetration, 100000000 pairs, run 1000/1000"
        );
        assert!(longest.chars().count() <= MAX_STEP_LABEL);
    }
}
