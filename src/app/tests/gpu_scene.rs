//! Frames fed on the device with the bodies moved on the GPU: after the frame that uploads them, what a frame
//! sends up does not grow with the body count; the frames find the pairs the CPU scene's frames find; and a
//! frame on the host (every answer wanted) hands the scene back to the CPU, whose bodies go up again when
//! frames return to the device.

use super::{context, exclusive, gpu_broad_simulation};
use crate::app::assets::ASSET_NAMES;
use crate::app::check_sample::CheckPairs;
use crate::app::sim::Simulation;
use crate::gpu::{GpuContext, NarrowPhase};
use std::path::Path;

/// A simulation of the seeded scene with the GPU broad phase and a sampled check: its frames are fed on the
/// device.
fn simulation(ctx: &GpuContext, bodies: usize) -> Simulation {
    let mut sim = gpu_broad_simulation(ctx, 5, bodies, NarrowPhase::new(&ctx.device, &ctx.queue));
    sim.scene.make_player(0);
    sim.check_pairs = CheckPairs::Sample { size: 32, seed: 9 };
    sim.answers_wanted = false;
    sim
}

#[test]
fn after_the_upload_a_frame_sends_up_the_same_bytes_at_any_scene_size() {
    let Some(ctx) = context() else { return };
    let _guard = exclusive();
    let mut steady = Vec::new();
    for bodies in [2_000, 8_000] {
        let mut sim = simulation(ctx, bodies);
        let first = sim.step(1.0 / 60.0).unwrap().clone();
        // The hulls, the bodies (96 bytes each) and their instance records (32 each) go up once.
        assert!(first.bytes_up > 128 * bodies as u64, "{bodies}: {first:?}");
        for _ in 0..4 {
            let stats = sim.step(1.0 / 60.0).unwrap().clone();
            assert!(stats.marked_on_gpu && stats.checked, "{bodies}: {stats:?}");
            steady.push(stats.bytes_up);
        }
        assert_eq!(sim.totals.disagreements, 0, "{:?}", sim.totals);
        assert!(sim.data.boxes.is_empty(), "the boxes stayed on the device");
    }
    assert!(
        steady.iter().all(|&b| b == steady[0] && b < 4096),
        "bytes up per frame after the first: {steady:?}"
    );
}

#[test]
fn bodies_moved_on_the_gpu_give_the_frames_of_the_cpu_scene() {
    let Some(ctx) = context() else { return };
    let _guard = exclusive();
    let mut on_gpu = simulation(ctx, 3_000);
    let mut on_host = simulation(ctx, 3_000);
    on_host.gpu_scene = false;
    for frame in 0..30 {
        let dt = if frame < 20 { 1.0 / 60.0 } else { 0.25 };
        let a = on_gpu.step(dt).unwrap().clone();
        let b = on_host.step(dt).unwrap().clone();
        assert_eq!(
            a.candidate_pairs, b.candidate_pairs,
            "frame {frame}: {a:?} against {b:?}"
        );
        assert!(a.bytes_up < b.bytes_up || frame == 0, "frame {frame}");
    }
    assert_eq!(on_gpu.totals.disagreements, 0, "{:?}", on_gpu.totals);
    assert!(on_gpu.totals.pairs_checked >= 30 * 32);
}

#[test]
fn a_frame_on_the_host_hands_the_scene_back_and_the_next_device_frame_uploads_it_again() {
    let Some(ctx) = context() else { return };
    let _guard = exclusive();
    let bodies = 2_000;
    let mut sim = simulation(ctx, bodies);
    sim.step(1.0 / 60.0).unwrap();
    let steady = sim.step(1.0 / 60.0).unwrap().bytes_up;
    // Every answer wanted (an overlay, the inspector): the frame runs on the host.
    sim.answers_wanted = true;
    let host = sim.step(1.0 / 60.0).unwrap().clone();
    assert!(!sim.data.boxes.is_empty() && !sim.data.answers.is_empty());
    assert!(host.bytes_up > 32 * bodies as u64, "{host:?}");
    // The player moves on the host, and the pairs count where it stands on the GPU too.
    sim.scene.move_player(glam::Vec3::X);
    sim.answers_wanted = false;
    let back = sim.step(0.0).unwrap().clone();
    assert!(back.bytes_up > 96 * bodies as u64, "{back:?}");
    assert!(sim.data.boxes.is_empty());
    let again = sim.step(1.0 / 60.0).unwrap().clone();
    assert_eq!(again.bytes_up, steady, "{again:?}");
    assert_eq!(sim.totals.disagreements, 0, "{:?}", sim.totals);
}

/// Draws the latest frame of `sim` at 320 x 240, from the GPU's bodies or from the CPU scene's, and reads it.
fn picture(ctx: &GpuContext, sim: &Simulation, from_gpu: bool) -> Vec<u8> {
    use crate::app::draw_list::{body_instances, state_colour};
    use crate::app::render::{
        load_render_mesh, msaa_samples, read_rgba, DeviceBodies, FrameTarget, OverlayBatch,
        SceneFrame, SceneRenderer,
    };
    use crate::stress::BodyState;
    let (device, queue) = (&ctx.device, &ctx.queue);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let meshes: Vec<_> = ASSET_NAMES
        .iter()
        .map(|name| load_render_mesh(&dir.join(format!("{name}.obj"))).unwrap())
        .collect();
    let samples = msaa_samples(&ctx.adapter);
    let target = FrameTarget::new(device, 320, 240, samples);
    let mut renderer = SceneRenderer::new(device, &meshes, samples);
    let camera = crate::app::setup::scene_camera(sim.scene.half_extent);
    let mut encoder = device.create_command_encoder(&Default::default());
    let free = state_colour(BodyState::Free);
    let on_device = from_gpu
        .then(|| sim.device_body_instances(&mut encoder, free, meshes.len()))
        .flatten();
    assert_eq!(on_device.is_some(), from_gpu, "the GPU's bodies draw");
    let bodies = match on_device {
        Some(_) => Vec::new(),
        None => body_instances(&sim.scene, &sim.states, meshes.len()),
    };
    renderer.draw(
        device,
        queue,
        &mut encoder,
        &target,
        &SceneFrame {
            view_proj: camera.view_proj(320.0 / 240.0),
            camera_position: camera.position,
            fov_y: camera.fov_y,
            bodies: &bodies,
            highlights: &[],
            wireframe: false,
            bounds_half_extent: sim.scene.half_extent,
            overlays: &OverlayBatch::default(),
            marks: sim.marks_buffer(),
            device_bodies: on_device
                .as_ref()
                .map(|(instances, per_mesh)| DeviceBodies {
                    instances,
                    per_mesh,
                }),
        },
    );
    queue.submit([encoder.finish()]);
    read_rgba(device, queue, &target).unwrap().2
}

#[test]
fn the_scene_drawn_from_the_gpus_bodies_is_the_cpu_scenes_picture() {
    let Some(ctx) = context() else { return };
    let _guard = exclusive();
    let mut sim = simulation(ctx, 3_000);
    for _ in 0..12 {
        sim.step(0.1).unwrap();
    }
    let gpu = picture(ctx, &sim, true);
    let cpu = picture(ctx, &sim, false);
    let pixels = gpu.len() / 4;
    let differing = gpu
        .chunks(4)
        .zip(cpu.chunks(4))
        .filter(|(a, b)| a.iter().zip(*b).any(|(x, y)| x.abs_diff(*y) > 16))
        .count();
    let red = gpu
        .chunks(4)
        .filter(|p| p[0] > 120 && u16::from(p[0]) > 3 * u16::from(p[1].max(p[2])))
        .count();
    eprintln!("{differing} of {pixels} pixels differ; {red} red");
    // The poses agree within float32 rounding: a stray edge pixel at most.
    assert!(
        differing * 1000 <= pixels,
        "{differing} of {pixels} pixels differ"
    );
    assert!(red > 50, "colliding bodies are drawn red: {red} pixels");
    // The bodies cover much of the picture (not an empty frame on both sides).
    let background = gpu.chunks(4).filter(|p| p[..3] == gpu[..3]).count();
    assert!(
        background * 10 < pixels * 9,
        "{background} of {pixels} background"
    );
}

/// The scene's passes timed on the device: each checked frame whose bodies moved on the GPU reads the motion
/// pass's and the grid pass's GPU times back into its figures, for 32 bytes, one more wait and the resolve's
/// submission; untimed, a frame has none of them. (A software adapter's times do not time its work, so only
/// their presence is checked here.)
#[test]
fn timed_scene_passes_come_back_with_a_checked_frame() {
    let Some(ctx) = context() else { return };
    if !ctx
        .device
        .features()
        .contains(wgpu::Features::TIMESTAMP_QUERY)
    {
        eprintln!("SKIPPED: the adapter has no timestamp queries");
        return;
    }
    let _guard = exclusive();
    let mut plain = simulation(ctx, 2_000);
    let mut timed = simulation(ctx, 2_000);
    timed.time_scene_passes(true);
    plain.step(1.0 / 60.0).unwrap();
    timed.step(1.0 / 60.0).unwrap();
    for frame in 0..4 {
        let a = plain.step(1.0 / 60.0).unwrap().clone();
        let b = timed.step(1.0 / 60.0).unwrap().clone();
        assert!(
            a.checked && b.checked && b.marked_on_gpu,
            "frame {frame}: {b:?}"
        );
        assert_eq!(a.gpu_scene_ms, None, "frame {frame}");
        let [motion, grid] = b.gpu_scene_ms.expect("the timed frame's scene passes");
        assert!(
            motion.is_finite() && motion >= 0.0 && grid.is_finite() && grid >= 0.0,
            "frame {frame}: {motion} / {grid} ms"
        );
        assert_eq!(
            b.gpu_blocking_waits,
            a.gpu_blocking_waits + 1,
            "frame {frame}"
        );
        assert_eq!(b.bytes_down, a.bytes_down + 32, "frame {frame}");
        assert_eq!(b.submissions, a.submissions + 1, "frame {frame}");
    }
    assert!(timed.latest_scene_ms.is_some());
    timed.time_scene_passes(false);
    let untimed = timed.step(1.0 / 60.0).unwrap().clone();
    assert_eq!(untimed.gpu_scene_ms, None);
}
