//! The same batch gives the same bytes on the same adapter, run after run: GJK's answers and the GPU's
//! penetration answers (before and after the CPU repeat of named failures) on a batch with deep overlaps and
//! big round hulls, so the EPA queue is long and software adapters cut loops. Without any adapter these tests
//! say they were skipped, except under `CI=true`, where a missing adapter fails the run.

mod common;

use common::gpu::{backend_contexts, exclusive};
use gpu_gjk::epa::{Penetration, PenetrationStatus};
use gpu_gjk::gpu::NarrowPhase;
use gpu_gjk::scenario::{hostile_scene, random_scene, MixSpec, Scene};
use gpu_gjk::GjkConfig;

/// Runs of the batch on each adapter (OpenGL and Vulkan, llvmpipe and lavapipe on a machine without a GPU).
const RUNS: usize = 10;

/// The hostile set (64 ordered pairs of hard shapes, round hulls of hundreds of points among them) and a
/// seeded random mix: about 1,600 pairs, a third of them overlapping.
fn batch() -> Scene {
    let mut scene = hostile_scene(20);
    let mix = random_scene(20261204, 320, &MixSpec::default());
    let offset = scene.shapes.len() as u32;
    let first = scene.instances.len() as u32;
    scene.shapes.extend(mix.shapes);
    scene
        .instances
        .extend(mix.instances.into_iter().map(|mut i| {
            i.shape += offset;
            i
        }));
    scene
        .pairs
        .extend(mix.pairs.iter().map(|&[a, b]| [a + first, b + first]));
    scene
}

fn bits(answers: &[Penetration<f32>]) -> Vec<String> {
    answers
        .iter()
        .map(|p| format!("{:?}", p.to_bits()))
        .collect()
}

/// One run's answers: GJK's (as Debug text, which tells every two f32 values apart but NaN payloads), the
/// GPU's penetration answers, and those after the CPU repeat of named failures.
struct Run {
    gjk: Vec<String>,
    gpu: Vec<String>,
    resolved: Vec<String>,
}

/// Software adapters share one loop budget among a group's invocations, so which pairs come back
/// `gpu_loop_limit` (and are answered again on the CPU) depends on which pairs share a group of the EPA pass;
/// that must follow from the batch alone, not from the adapter's thread schedule (docs/gpu.md, "Determinism").
#[test]
fn penetration_answers_repeat_bit_for_bit() {
    let scene = batch();
    let _guard = exclusive();
    for (backend, ctx) in backend_contexts() {
        let mut narrow = NarrowPhase::new(&ctx.device, &ctx.queue);
        let np = &mut narrow;
        np.upload_hulls(&scene.shapes).unwrap();
        let config = GjkConfig::default();
        let mut runs = Vec::new();
        for _ in 0..RUNS {
            let mut gpu = np
                .run_penetration(&scene.instances, &scene.pairs, &config)
                .unwrap();
            let loop_cut = gpu
                .penetrations
                .iter()
                .filter(|p| p.status == PenetrationStatus::GpuLoopLimit)
                .count();
            let gjk = gpu.results.iter().map(|r| format!("{r:?}")).collect();
            let raw = bits(&gpu.penetrations);
            gpu.resolve_failures_on_cpu(&scene.shapes, &scene.instances, &scene.pairs, &config);
            eprintln!(
                "{backend}: {} pairs, {} through EPA, {loop_cut} loop-cut",
                scene.pairs.len(),
                gpu.epa_pairs
            );
            runs.push(Run {
                gjk,
                gpu: raw,
                resolved: bits(&gpu.penetrations),
            });
        }
        let distinct = |f: fn(&Run) -> &Vec<String>| {
            let mut all: Vec<&Vec<String>> = runs.iter().map(f).collect();
            all.sort();
            all.dedup();
            all.len()
        };
        eprintln!(
            "{backend}: distinct outputs in {RUNS} runs: GJK {}, GPU penetration {}, after the CPU repeat {}",
            distinct(|r| &r.gjk),
            distinct(|r| &r.gpu),
            distinct(|r| &r.resolved)
        );
        let first = &runs[0];
        for (r, run) in runs.iter().enumerate().skip(1) {
            for (name, a, b) in [
                ("GJK", &first.gjk, &run.gjk),
                ("GPU penetration", &first.gpu, &run.gpu),
                ("after the CPU repeat", &first.resolved, &run.resolved),
            ] {
                let differing: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
                assert!(
                    differing.is_empty(),
                    "{backend}: {name} answers of run {r} differ from run 0 on {} pairs, e.g. pair {}: {} then {}",
                    differing.len(),
                    differing[0],
                    a[differing[0]],
                    b[differing[0]]
                );
            }
        }
    }
}
