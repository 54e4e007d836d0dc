//! What the window and the windowless run both build from the demo's options: the stress scene with its
//! simulation (narrow phase, query, check policy, response) and the debug view's starting overlays, and the
//! camera that frames the scene.

use super::args::{CheckPairsChoice, CheckWhen, DemoArgs, DemoQuery};
use super::assets::AssetSet;
use super::broad::{BroadPhaseChoice, FrameBroadPhase};
use super::camera::Camera;
use super::check::CheckPolicy;
use super::check_sample::{CheckPairs, CHECK_ALL_UP_TO_BODIES};
use super::debug_view::DebugView;
use super::physics::ResponseMode;
use super::sim::{NarrowMode, Simulation};
use super::summary::SummaryContext;
use crate::gjk::QueryKind;
use crate::gpu::{GpuContext, GpuLimits, NarrowPhase};
use crate::stress::{StressScene, StressSpec};
use anyhow::{anyhow, Context, Result};

/// The fixed step of `--frames` runs, so one seed gives one sequence of frames on any machine.
pub const FRAMES_DT: f32 = 1.0 / 60.0;

/// The simulation of `args`' scene on `gpu`, and the debug view. `headless` (a `--frames` run) checks every
/// frame unless `--check` says otherwise. In the 2D mode the stress scene stays, as one still body.
pub fn demo_simulation(
    args: &DemoArgs,
    assets: &AssetSet,
    gpu: &GpuContext,
    headless: bool,
) -> Result<(Simulation, DebugView)> {
    let bodies = if args.two_d { 1 } else { args.bodies };
    let mut scene = StressScene::new(
        assets.shapes.clone(),
        StressSpec {
            seed: args.seed,
            bodies,
            ..StressSpec::default()
        },
    )
    .context("placing the bodies")?;
    scene.make_player(0);
    let kind = match args.query {
        DemoQuery::Distance => QueryKind::Distance,
        DemoQuery::Intersection => QueryKind::Intersection,
    };
    let policy = match args.check {
        Some(CheckWhen::EveryFrame) => CheckPolicy::EveryFrame,
        Some(CheckWhen::WhenIdle) => CheckPolicy::WhenIdle,
        None if headless => CheckPolicy::EveryFrame,
        None => CheckPolicy::WhenIdle,
    };
    let limits = GpuLimits::from_device(&gpu.device.limits());
    let narrow =
        NarrowPhase::with_shader_checks(&gpu.device, &gpu.queue, limits, args.shader_checks);
    let mut sim = Simulation::new(scene, narrow, kind, policy);
    // A software adapter's timestamps do not time its work (see `Simulation::gpu_time_trusted`).
    sim.gpu_time_trusted = gpu
        .device
        .features()
        .contains(wgpu::Features::TIMESTAMP_QUERY)
        && gpu.adapter.get_info().device_type != wgpu::DeviceType::Cpu;
    if args.cpu_narrow_phase {
        sim.mode = NarrowMode::Cpu;
    }
    sim.response = args.response;
    let broad = BroadPhaseChoice::resolve(args.broad_phase, gpu.summary.is_software());
    sim.broad = FrameBroadPhase::new(broad, &gpu.device, &gpu.queue);
    // The scene's passes are timed where the adapter's timestamps time its work, as the narrow phase's are.
    sim.time_scene_passes(sim.gpu_time_trusted);
    let sample = match args.check_pairs {
        Some(choice) => choice == CheckPairsChoice::Sample,
        None => bodies > CHECK_ALL_UP_TO_BODIES,
    };
    if sample {
        sim.check_pairs = CheckPairs::Sample {
            size: args.check_sample_size,
            seed: args.seed,
        };
    }
    #[cfg(debug_assertions)]
    {
        sim.flip_gpu_answers = args.flip_gpu_answers;
    }
    let largest = sim.scene.spec().size.1;
    let mut debug = DebugView::new(
        args.overlay_toggles(),
        args.closest_range.unwrap_or(0.25 * largest),
        args.pairs_out.clone(),
    );
    debug.picked_only = args.picked_only;
    Ok((sim, debug))
}

/// The 3D view's starting camera: the whole box of half-size `half_extent`, from above and in front.
pub fn scene_camera(half_extent: f32) -> Camera {
    let h = half_extent;
    Camera::looking_at(
        glam::Vec3::new(0.7 * h, 0.8 * h, 2.9 * h),
        glam::Vec3::new(-0.35 * h, 0.0, 0.0),
    )
}

/// `--width` and `--height` within the adapter's largest texture (the frame is drawn into one).
pub fn check_frame_size(args: &DemoArgs, gpu: &GpuContext) -> Result<()> {
    let max_side = gpu.device.limits().max_texture_dimension_2d;
    if args.width > max_side || args.height > max_side {
        return Err(anyhow!(
            "--width {} --height {}: the adapter {} draws at most {max_side} x {max_side} pixels",
            args.width,
            args.height,
            gpu.summary
        ));
    }
    Ok(())
}

/// What the summary of a `--frames` run says besides its per-frame figures; `window`: whether the frames were
/// shown in one.
pub fn summary_context(
    args: &DemoArgs,
    sim: &Simulation,
    gpu: &GpuContext,
    screenshot: Option<String>,
    window: bool,
) -> SummaryContext {
    SummaryContext {
        bodies: sim.scene.bodies.len(),
        seed: args.seed,
        query: format!("{:?}", args.query).to_lowercase(),
        narrow_phase: sim.mode.label().to_string(),
        backend: format!("{:?}", gpu.adapter.get_info().backend),
        adapter: gpu.summary.to_string(),
        check: sim.check_description(),
        response: sim.response != ResponseMode::Off,
        response_mode: sim.response.label().to_string(),
        screenshot,
        window,
    }
}
