//! `gpu-gjk demo --frames N --no-window`: the stress test on a machine without a display (a GPU server, a CI
//! runner): the same scene, simulation, GPU narrow phase, CPU check and scene renderer as the window, drawn
//! into the offscreen frame that a window would copy to its surface. No window, no HUD, nothing presented.
//!
//! Each frame waits until the GPU has finished drawing it, so the frame time counts the GPU's work (a window
//! lets the next frame start while the last one is drawn, up to the surface's frame latency).

use super::args::DemoArgs;
use super::assets::AssetSet;
use super::draw_list::{body_instances, state_colour};
use super::render::{
    msaa_samples, read_rgba, save_png, DeviceBodies, FrameTarget, SceneFrame, SceneRenderer,
};
use super::setup::{check_frame_size, demo_simulation, scene_camera, summary_context, FRAMES_DT};
use super::summary::{DemoSummary, FrameLog};
use crate::gpu::{check_backend_env, BackendChoice, GpuContext};
use crate::stress::BodyState;
use anyhow::{anyhow, Context, Result};
use std::time::Instant;

/// Runs `args.frames` frames (clap makes `--no-window` require `--frames`) and returns the summary.
pub fn run_headless(args: &DemoArgs, assets: AssetSet) -> Result<DemoSummary> {
    let frames = args.frames.ok_or_else(|| {
        anyhow!("--no-window needs --frames N: without a window nothing would end the run")
    })?;
    if args.backend == BackendChoice::Auto {
        check_backend_env().map_err(anyhow::Error::msg)?;
    }
    let gpu = GpuContext::new(args.backend)
        .with_context(|| format!("opening a GPU for backend `{}`", args.backend))?;
    check_frame_size(args, &gpu)?;
    let samples = args.msaa.unwrap_or(4).min(msaa_samples(&gpu.adapter));
    let target = FrameTarget::new(&gpu.device, args.width, args.height, samples);
    let mut renderer = SceneRenderer::new(&gpu.device, &assets.meshes, samples);
    let (mut sim, mut debug) = demo_simulation(args, &assets, &gpu, true)?;
    let camera = scene_camera(sim.scene.half_extent);
    let aspect = args.width as f32 / args.height as f32;
    // Per-pair answers come back to the host only when an overlay shows them (as in a window).
    sim.answers_wanted = debug.overlays.any();
    let mut log = FrameLog::default();
    for frame in 1..=frames {
        let frame_start = Instant::now();
        let mut stats = sim.step(FRAMES_DT)?.clone();
        if frame == frames {
            // The last frame also pays for what it leaves outstanding: a check, counts still coming back.
            sim.finish_checks()?;
            stats = sim.last.clone();
        }
        let render_start = Instant::now();
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("demo frame, no window"),
            });
        // The GPU's bodies draw themselves when the frame ran on them; else the CPU scene's go up.
        let free = state_colour(BodyState::Free);
        let on_device = sim.device_body_instances(&mut encoder, free, assets.meshes.len());
        let bodies = match on_device {
            Some(_) => Vec::new(),
            None => body_instances(&sim.scene, &sim.states, assets.meshes.len()),
        };
        let highlights = debug.highlights(&sim, assets.meshes.len());
        let overlays = debug.overlay_batch(&sim);
        renderer.draw(
            &gpu.device,
            &gpu.queue,
            &mut encoder,
            &target,
            &SceneFrame {
                view_proj: camera.view_proj(aspect),
                camera_position: camera.position,
                fov_y: camera.fov_y,
                bodies: &bodies,
                highlights: &highlights,
                wireframe: args.wireframe,
                bounds_half_extent: sim.scene.half_extent,
                overlays: &overlays,
                marks: sim.marks_buffer(),
                device_bodies: on_device
                    .as_ref()
                    .map(|(instances, per_mesh)| DeviceBodies {
                        instances,
                        per_mesh,
                    }),
            },
        );
        let submission = gpu.queue.submit([encoder.finish()]);
        gpu.device
            .poll(wgpu::PollType::Wait {
                submission_index: Some(submission),
                timeout: None,
            })
            .context("waiting for the GPU to draw the frame")?;
        let render_ms = render_start.elapsed().as_secs_f64() * 1e3;
        log.add(&stats, render_ms, frame_start.elapsed().as_secs_f64() * 1e3);
    }
    let screenshot = match &args.screenshot {
        Some(path) => {
            let (width, height, rgba) = read_rgba(&gpu.device, &gpu.queue, &target)?;
            save_png(path, width, height, &rgba)?;
            Some(path.display().to_string())
        }
        None => None,
    };
    let context = summary_context(args, &sim, &gpu, screenshot, false);
    Ok(log.summary(context, &sim.totals))
}
