//! The demo's colours come from the GPU: the narrow phase's marking pass writes one word per body in the same
//! submission as each chunk's GJK pass, and the renderer reads those words. Here they are read back and compared
//! with the body states the CPU computes from the same frame's answers, frame after frame of the stress scene,
//! in one chunk and in many (a small streaming chunk), with the check's disputes, and in CPU mode.

use super::{asset_shapes, context, exclusive};
use crate::app::check::{answer_on_cpu, CheckJob, CheckPolicy};
use crate::app::draw_list::state_of_mark;
use crate::app::sim::{NarrowMode, Simulation};
use crate::batch::WarmCache;
use crate::gjk::QueryKind;
use crate::gpu::{GpuContext, GpuLimits, NarrowPhase};
use crate::stress::{classify_bodies, BodyState, StressScene, StressSpec};

fn simulation(ctx: &GpuContext, bodies: usize, kind: QueryKind, stream_chunk: u32) -> Simulation {
    let mut scene = StressScene::new(
        asset_shapes(),
        StressSpec {
            seed: 5,
            bodies,
            ..StressSpec::default()
        },
    )
    .unwrap();
    scene.make_player(0);
    let limits = GpuLimits {
        stream_chunk,
        ..GpuLimits::from_device(&ctx.device.limits())
    };
    let narrow = NarrowPhase::with_gpu_limits(&ctx.device, &ctx.queue, limits);
    Simulation::new(scene, narrow, kind, CheckPolicy::EveryFrame)
}

/// The GPU's marks as body states, read back.
fn gpu_states(sim: &Simulation) -> Vec<BodyState> {
    let marks = sim.read_marks().unwrap().expect("marks after a frame");
    assert_eq!(marks.len(), sim.scene.bodies.len());
    marks.into_iter().map(state_of_mark).collect()
}

/// Steps `frames` frames; after each, the colours on the GPU must be the CPU's states. Returns (frames whose
/// marks the GPU wrote, colliding bodies summed over frames).
fn compare_frames(sim: &mut Simulation, frames: usize) -> (usize, usize) {
    let (mut on_gpu, mut colliding) = (0, 0);
    for frame in 0..frames {
        let stats = sim.step(1.0 / 60.0).unwrap().clone();
        assert!(stats.candidate_pairs > 300, "{stats:?}");
        on_gpu += usize::from(stats.marked_on_gpu);
        let gpu = gpu_states(sim);
        let differing: Vec<usize> = (0..gpu.len())
            .filter(|&i| gpu[i] != sim.states[i])
            .collect();
        assert!(
            differing.is_empty(),
            "frame {frame}: {} bodies coloured differently on the GPU, first {:?} (GPU {:?}, CPU {:?})",
            differing.len(),
            differing.first(),
            differing.first().map(|&i| gpu[i]),
            differing.first().map(|&i| sim.states[i]),
        );
        colliding += sim
            .states
            .iter()
            .filter(|s| **s == BodyState::Colliding)
            .count();
    }
    (on_gpu, colliding)
}

#[test]
fn the_gpu_marks_colour_each_body_as_the_cpu_would_frame_after_frame() {
    let Some(ctx) = context() else { return };
    let _guard = exclusive();
    // One chunk per frame, then chunks of 256 pairs (several per frame, the ring wrapping round).
    for (kind, stream_chunk) in [
        (QueryKind::Distance, 1 << 18),
        (QueryKind::Intersection, 256),
    ] {
        let mut sim = simulation(ctx, 1200, kind, stream_chunk);
        let (on_gpu, colliding) = compare_frames(&mut sim, 8);
        eprintln!("{kind:?}, chunk {stream_chunk}: {on_gpu} of 8 frames marked on the GPU, {colliding} colliding bodies");
        assert_eq!(sim.totals.disagreements, 0, "{:?}", sim.totals);
        // The GPU's own marks stood (no host write) on every frame without a failure status to answer.
        assert!(on_gpu + sim.totals.gpu_failures as usize >= 8, "{on_gpu}");
        assert!(colliding > 8, "the scene should collide: {colliding}");
    }
}

#[test]
#[cfg(debug_assertions)]
fn disputed_bodies_and_the_cpu_mode_reach_the_same_marks() {
    let Some(ctx) = context() else { return };
    let _guard = exclusive();
    let mut sim = simulation(ctx, 800, QueryKind::Intersection, 1 << 18);
    // A self-test flips answers, so the check disputes pairs; their bodies turn magenta on the GPU too.
    sim.flip_gpu_answers = 3;
    compare_frames(&mut sim, 3);
    assert!(sim.totals.disagreements > 0, "{:?}", sim.totals);
    let disputed = gpu_states(&sim)
        .iter()
        .filter(|s| **s == BodyState::Disagreement)
        .count();
    assert!(disputed >= 2, "{disputed} disputed bodies on the GPU");

    let mut sim = simulation(ctx, 800, QueryKind::Distance, 1 << 18);
    sim.mode = NarrowMode::Cpu;
    let (on_gpu, colliding) = compare_frames(&mut sim, 3);
    assert_eq!(on_gpu, 0, "the CPU narrow phase writes the marks itself");
    assert!(colliding > 0);
}

#[test]
fn with_the_check_sampled_frames_keep_their_results_on_the_gpu_and_colour_from_the_marks() {
    let Some(ctx) = context() else { return };
    let _guard = exclusive();
    let mut scene = StressScene::new(
        asset_shapes(),
        StressSpec {
            seed: 5,
            bodies: 1200,
            ..StressSpec::default()
        },
    )
    .unwrap();
    scene.make_player(0);
    let narrow = NarrowPhase::new(&ctx.device, &ctx.queue);
    let mut sim = Simulation::new(
        scene,
        narrow,
        QueryKind::Intersection,
        CheckPolicy::WhenIdle,
    );
    sim.answers_wanted = false;
    let (frames, mut kept_on_gpu, mut waits) = (12, 0, 0);
    for frame in 0..frames {
        let stats = sim.step(1.0 / 60.0).unwrap().clone();
        assert!(stats.marked_on_gpu, "frame {frame}: {stats:?}");
        waits += stats.gpu_blocking_waits;
        // No answers on the host: the colours must be the CPU reference's, computed here from scratch.
        assert!(sim.data.answers.is_empty(), "frame {frame}");
        kept_on_gpu += 1;
        let job = CheckJob {
            frame: sim.data.frame,
            shapes: std::sync::Arc::new(sim.scene.shapes.clone()),
            instances: std::sync::Arc::clone(&sim.data.instances),
            pairs: std::sync::Arc::clone(&sim.data.pairs),
        };
        let cold = &mut WarmCache::default();
        let cpu = answer_on_cpu(&job, sim.kind, &sim.config, cold).unwrap();
        let expected = classify_bodies(sim.scene.bodies.len(), &job.pairs, &cpu.results, &[], 0);
        assert!(expected.colliding_pairs > 0);
        // The HUD's count is the latest frame read back, collected a frame later: none yet in the first.
        assert_eq!(
            stats.colliding_pairs > 0,
            frame > 0,
            "frame {frame}: {stats:?}"
        );
        assert_eq!(gpu_states(&sim), expected.states, "frame {frame}");
    }
    // Reading the marks above drained the device before each frame; these frames leave it running, back to
    // back, then with 40 ms between them (a frame's rendering and presentation). Timing-dependent, so printed,
    // not asserted: the host waits only for work the device has not finished.
    let (mut back_to_back, mut paced) = (0, 0);
    for _ in 0..frames {
        back_to_back += sim.step(1.0 / 60.0).unwrap().gpu_blocking_waits;
    }
    for _ in 0..frames {
        std::thread::sleep(std::time::Duration::from_millis(40));
        paced += sim.step(1.0 / 60.0).unwrap().gpu_blocking_waits;
    }
    sim.finish_checks().unwrap();
    let totals = &sim.totals;
    eprintln!(
        "{kept_on_gpu} of {frames} frames without answers on the host, {} of {} frames checked, blocking waits \
         in the frames: {waits} (device drained between frames), {back_to_back} (back to back), {paced} (40 ms \
         apart)",
        totals.frames_checked, totals.frames
    );
    assert!(totals.frames_checked >= 1, "{totals:?}");
    assert_eq!(totals.disagreements, 0, "{totals:?}");
}
