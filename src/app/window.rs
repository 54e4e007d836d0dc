//! The window: winit event loop, wgpu surface, and the frame: controls, simulation step, scene and HUD
//! drawn into an offscreen target (so screenshots hold exactly what is shown), then copied to the window.

use super::args::{CheckWhen, DemoArgs, DemoQuery};
use super::assets::{AssetSet, PLAYER_SHAPES};
use super::camera::Camera;
use super::check::CheckPolicy;
use super::controls::{next_body_count, Action, Controls};
use super::draw_list::body_instances;
use super::fps::FpsMeter;
use super::hud::{Hud, HudStats};
use super::render::{read_rgba, save_png, Blitter, FrameTarget, SceneRenderer};
use super::sim::{NarrowMode, Simulation};
use super::summary::{DemoSummary, FrameLog, SummaryContext};
use crate::gjk::QueryKind;
use crate::gpu::{
    check_backend_env, log_instance_creation, BackendChoice, GpuContext, NarrowPhase,
};
use crate::stress::{StressScene, StressSpec};
use anyhow::{anyhow, Context, Result};
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{DeviceEvent, DeviceId, ElementState, MouseButton, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::PhysicalKey;
use winit::window::{Window, WindowId};

/// Frames kept in the HUD's rolling chart.
const HISTORY: usize = 240;
/// Longest simulated step in a window, so a stall (a window drag, a slow frame) does not tunnel bodies.
const MAX_DT: f32 = 1.0 / 20.0;
/// The fixed step of `--frames` runs, so one seed gives one sequence of frames on any machine.
const HEADLESS_DT: f32 = 1.0 / 60.0;

/// Opens the window and runs until it closes, or for `--frames` frames. Returns the summary of a
/// `--frames` run.
pub fn run_window(args: &DemoArgs, assets: AssetSet) -> Result<Option<DemoSummary>> {
    let event_loop = EventLoop::new().map_err(|e| {
        anyhow!(
            "no display: the demo needs a window (set DISPLAY or WAYLAND_DISPLAY, or run it under \
             `xvfb-run -a`); winit said: {e}"
        )
    })?;
    event_loop.set_control_flow(ControlFlow::Poll);
    let mut app = DemoApp {
        args: args.clone(),
        assets: Some(assets),
        state: None,
        error: None,
        summary: None,
    };
    event_loop
        .run_app(&mut app)
        .context("the window's event loop failed")?;
    match app.error {
        Some(error) => Err(error),
        None => Ok(app.summary),
    }
}

struct DemoApp {
    args: DemoArgs,
    assets: Option<AssetSet>,
    state: Option<Running>,
    error: Option<anyhow::Error>,
    summary: Option<DemoSummary>,
}

/// Everything that exists once the window is open.
struct Running {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    surface_config: wgpu::SurfaceConfiguration,
    gpu: GpuContext,
    target: FrameTarget,
    scene_renderer: SceneRenderer,
    blitter: Blitter,
    hud: Hud,
    sim: Simulation,
    camera: Camera,
    controls: Controls,
    mesh_count: usize,
    shape_names: Vec<String>,
    paused: bool,
    wireframe: bool,
    history: VecDeque<(f64, f64)>,
    log: FrameLog,
    started: Instant,
    last_frame: Instant,
    fps: FpsMeter,
    frame_ms: f64,
    screenshots: u32,
}

impl ApplicationHandler for DemoApp {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.state.is_some() {
            return;
        }
        let Some(assets) = self.assets.take() else {
            return;
        };
        match Running::open(event_loop, &self.args, assets) {
            Ok(state) => self.state = Some(state),
            Err(error) => {
                self.error = Some(error);
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(state) = self.state.as_mut() else {
            return;
        };
        let consumed = state.hud.on_window_event(&state.window, &event);
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => state.resize(size),
            WindowEvent::Focused(false) => state.controls.release_all(),
            WindowEvent::KeyboardInput { event, .. } if !consumed => {
                if let PhysicalKey::Code(code) = event.physical_key {
                    let pressed = event.state == ElementState::Pressed;
                    if let Some(action) = state.controls.key(code, pressed, event.repeat) {
                        if let Err(error) = state.act(action, &self.args, event_loop) {
                            self.error = Some(error);
                            event_loop.exit();
                        }
                    }
                }
            }
            WindowEvent::MouseInput {
                button: MouseButton::Right,
                state: button,
                ..
            } => state.controls.looking = button == ElementState::Pressed,
            WindowEvent::RedrawRequested => match state.frame(&self.args) {
                Ok(Some(summary)) => {
                    self.summary = Some(summary);
                    event_loop.exit();
                }
                Ok(None) => {}
                Err(error) => {
                    self.error = Some(error);
                    event_loop.exit();
                }
            },
            _ => {}
        }
    }

    fn device_event(&mut self, _: &ActiveEventLoop, _: DeviceId, event: DeviceEvent) {
        if let (Some(state), DeviceEvent::MouseMotion { delta }) = (self.state.as_mut(), event) {
            if state.controls.looking {
                state.camera.turn(delta.0 as f32, delta.1 as f32);
            }
        }
    }

    fn about_to_wait(&mut self, _: &ActiveEventLoop) {
        if let Some(state) = &self.state {
            state.window.request_redraw();
        }
    }
}

impl Running {
    fn open(event_loop: &ActiveEventLoop, args: &DemoArgs, assets: AssetSet) -> Result<Self> {
        if args.backend == BackendChoice::Auto {
            check_backend_env().map_err(anyhow::Error::msg)?;
        }
        args.backend
            .check_built_in()
            .map_err(|e| anyhow!("--backend {}: {e}", args.backend))?;
        let window = Arc::new(
            event_loop
                .create_window(
                    Window::default_attributes()
                        .with_title("gpu-gjk stress test")
                        .with_inner_size(PhysicalSize::new(args.width, args.height)),
                )
                .context("opening the window")?,
        );
        // The GL backend needs the display connection to create a window surface (EGL on X11/Wayland).
        log_instance_creation(args.backend.backends());
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: args.backend.backends(),
            flags: wgpu::InstanceFlags::default().with_env(),
            ..wgpu::InstanceDescriptor::new_with_display_handle(Box::new(
                event_loop.owned_display_handle(),
            ))
        });
        let surface = instance
            .create_surface(Arc::clone(&window))
            .with_context(|| {
                format!("creating a window surface with backend `{}`", args.backend)
            })?;
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            compatible_surface: Some(&surface),
            ..Default::default()
        }))
        .map_err(|e| {
            anyhow!(
                "no GPU adapter for backend `{}` can draw to this window ({e}); `gpu-gjk adapters` \
                 lists what wgpu finds here",
                args.backend
            )
        })?;
        let gpu = GpuContext::from_adapter(instance, adapter)?;
        let max_side = gpu.device.limits().max_texture_dimension_2d;
        if args.width > max_side || args.height > max_side {
            return Err(anyhow!(
                "--width {} --height {}: the adapter {} draws at most {max_side} x {max_side} pixels",
                args.width,
                args.height,
                gpu.summary
            ));
        }

        // The window system may still hand out a bigger window (a scale factor): draw at most the limit.
        let size = clamp_size(window.inner_size(), max_side);
        let capabilities = surface.get_capabilities(&gpu.adapter);
        let format = capabilities
            .formats
            .iter()
            .copied()
            .find(|f| f.is_srgb())
            .or(capabilities.formats.first().copied())
            .ok_or_else(|| anyhow!("the window surface offers no texture format"))?;
        let headless = args.frames.is_some();
        let surface_config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            width: size.width.max(1),
            height: size.height.max(1),
            // Timed runs must not wait for a display refresh; a window should not burn frames it cannot show.
            present_mode: if headless {
                wgpu::PresentMode::AutoNoVsync
            } else {
                wgpu::PresentMode::AutoVsync
            },
            alpha_mode: capabilities
                .alpha_modes
                .first()
                .copied()
                .unwrap_or(wgpu::CompositeAlphaMode::Auto),
            view_formats: Vec::new(),
            color_space: wgpu::SurfaceColorSpace::Auto,
            desired_maximum_frame_latency: 2,
        };
        surface.configure(&gpu.device, &surface_config);

        let target = FrameTarget::new(&gpu.device, surface_config.width, surface_config.height);
        let scene_renderer = SceneRenderer::new(&gpu.device, &assets.meshes);
        let blitter = Blitter::new(&gpu.device, format);
        let hud = Hud::new(&gpu.device, super::render::TARGET_FORMAT, &window);

        let mut scene = StressScene::new(
            assets.shapes.clone(),
            StressSpec {
                seed: args.seed,
                bodies: args.bodies,
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
        let narrow = NarrowPhase::new(&gpu.device, &gpu.queue);
        let mut sim = Simulation::new(scene, narrow, kind, policy);
        if args.cpu_narrow_phase {
            sim.mode = NarrowMode::Cpu;
        }
        sim.response = args.response;
        let h = sim.scene.half_extent;
        let camera = Camera::looking_at(
            glam::Vec3::new(0.7 * h, 0.8 * h, 2.9 * h),
            glam::Vec3::new(-0.35 * h, 0.0, 0.0),
        );
        Ok(Self {
            window,
            surface,
            surface_config,
            gpu,
            target,
            scene_renderer,
            blitter,
            hud,
            sim,
            camera,
            controls: Controls::default(),
            mesh_count: assets.meshes.len(),
            shape_names: assets.names,
            paused: false,
            wireframe: args.wireframe,
            history: VecDeque::with_capacity(HISTORY),
            log: FrameLog::default(),
            started: Instant::now(),
            last_frame: Instant::now(),
            fps: FpsMeter::default(),
            frame_ms: 0.0,
            screenshots: 0,
        })
    }

    fn resize(&mut self, size: PhysicalSize<u32>) {
        if size.width == 0 || size.height == 0 {
            return;
        }
        let size = clamp_size(size, self.gpu.device.limits().max_texture_dimension_2d);
        self.surface_config.width = size.width;
        self.surface_config.height = size.height;
        self.surface
            .configure(&self.gpu.device, &self.surface_config);
        self.target
            .resize(&self.gpu.device, size.width, size.height);
    }

    fn act(&mut self, action: Action, args: &DemoArgs, event_loop: &ActiveEventLoop) -> Result<()> {
        match action {
            Action::TogglePause => self.paused = !self.paused,
            Action::MoreBodies | Action::FewerBodies => {
                let count =
                    next_body_count(self.sim.scene.bodies.len(), action == Action::MoreBodies);
                self.sim.set_body_count(count);
            }
            Action::ToggleNarrowPhase => {
                self.sim.mode = match self.sim.mode {
                    NarrowMode::Gpu => NarrowMode::Cpu,
                    NarrowMode::Cpu => NarrowMode::Gpu,
                }
            }
            Action::ToggleHud => self.hud.set_visible(!self.hud.visible()),
            Action::ToggleWireframe => self.wireframe = !self.wireframe,
            Action::ToggleResponse => self.sim.response = !self.sim.response,
            Action::Screenshot => {
                self.screenshots += 1;
                let path = args.screenshot.clone().unwrap_or_else(|| {
                    PathBuf::from(format!("gpu-gjk-screenshot-{}.png", self.screenshots))
                });
                self.save_screenshot(&path)?;
                eprintln!("screenshot saved to {}", path.display());
            }
            Action::PlayerShape(template) if template < PLAYER_SHAPES => {
                self.sim.scene.set_player_template(template);
                self.sim.shapes_changed();
            }
            Action::PlayerShape(_) => {}
            Action::Quit => event_loop.exit(),
        }
        Ok(())
    }

    fn save_screenshot(&self, path: &std::path::Path) -> Result<()> {
        let (width, height, rgba) = read_rgba(&self.gpu.device, &self.gpu.queue, &self.target)?;
        save_png(path, width, height, &rgba)
    }

    /// One frame. Returns the summary when a `--frames` run has drawn its last frame.
    fn frame(&mut self, args: &DemoArgs) -> Result<Option<DemoSummary>> {
        let frame_start = Instant::now();
        let elapsed = frame_start.duration_since(self.last_frame).as_secs_f32();
        self.last_frame = frame_start;
        let dt = if args.frames.is_some() {
            HEADLESS_DT
        } else {
            elapsed.min(MAX_DT)
        };
        self.apply_held_controls(dt);
        let stats = self.sim.step(if self.paused { 0.0 } else { dt })?.clone();

        let render_start = Instant::now();
        let last_frame = args.frames.is_some_and(|n| self.sim.totals.frames >= n);
        if last_frame {
            self.sim.finish_checks()?;
        }
        self.history.push_back((
            stats.gpu_narrow_ms.unwrap_or(f64::NAN),
            stats.cpu_narrow_ms.unwrap_or(f64::NAN),
        ));
        while self.history.len() > HISTORY {
            self.history.pop_front();
        }
        self.draw(&stats)?;
        let render_ms = render_start.elapsed().as_secs_f64() * 1e3;

        self.fps
            .frame(frame_start.duration_since(self.started).as_secs_f64());
        self.frame_ms = frame_start.elapsed().as_secs_f64() * 1e3;
        self.log.add(&stats, render_ms, self.frame_ms);

        if !last_frame {
            return Ok(None);
        }
        let screenshot = match &args.screenshot {
            Some(path) => {
                self.save_screenshot(path)?;
                Some(path.display().to_string())
            }
            None => None,
        };
        let context = SummaryContext {
            bodies: self.sim.scene.bodies.len(),
            seed: args.seed,
            query: format!("{:?}", args.query).to_lowercase(),
            narrow_phase: self.sim.mode.label().to_string(),
            backend: format!("{:?}", self.gpu.adapter.get_info().backend),
            adapter: self.gpu.summary.to_string(),
            check: self.sim.check_description(),
            response: self.sim.response,
            screenshot,
        };
        Ok(Some(self.log.summary(context, &self.sim.totals)))
    }

    fn apply_held_controls(&mut self, dt: f32) {
        let h = self.sim.scene.half_extent;
        let (forward, right) = self.controls.camera_motion();
        let camera_speed = 0.8 * h;
        self.camera
            .move_local(forward * camera_speed * dt, right * camera_speed * dt, 0.0);
        let player = self.controls.player_motion();
        if player != glam::Vec3::ZERO {
            self.sim.scene.move_player(player * 0.4 * h * dt);
        }
    }

    fn draw(&mut self, stats: &super::sim::FrameStats) -> Result<()> {
        let device = &self.gpu.device;
        let queue = &self.gpu.queue;
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("demo frame"),
        });
        let (width, height) = self.target.size();
        let aspect = width as f32 / height.max(1) as f32;
        let instances = body_instances(&self.sim.scene, &self.sim.states, self.mesh_count);
        self.scene_renderer.draw(
            device,
            queue,
            &mut encoder,
            &self.target,
            self.camera.view_proj(aspect),
            self.camera.position,
            &instances,
            self.wireframe,
            self.sim.scene.half_extent,
        );
        let history: Vec<(f64, f64)> = self.history.iter().copied().collect();
        let info = self.gpu.adapter.get_info();
        let backend = format!("{:?}", info.backend);
        let check = self.sim.check_description();
        let player = self
            .shape_names
            .get(self.sim.scene.templates.first().copied().unwrap_or(0))
            .cloned()
            .unwrap_or_default();
        let response = match (self.sim.response, stats.response) {
            (false, _) => "off (R)".to_string(),
            (true, Some(r)) => format!("on, {} pairs pushed", r.pushed),
            (true, None) => "on".to_string(),
        };
        let hud_stats = HudStats {
            bodies: self.sim.scene.bodies.len(),
            candidate_pairs: stats.candidate_pairs,
            colliding_pairs: stats.colliding_pairs,
            broad_phase_ms: stats.broad_phase_ms,
            gpu_narrow_ms: stats.gpu_narrow_ms,
            cpu_narrow_ms: stats.cpu_narrow_ms.or(self.last_cpu_ms()),
            disagreements_frame: stats.disagreements,
            disagreements_total: self.sim.totals.disagreements,
            gpu_failures_total: self.sim.totals.gpu_failures,
            fps: self.fps.fps(),
            frame_ms: self.fps.frame_interval_ms(),
            adapter: &info.name,
            backend: &backend,
            narrow_phase: self.sim.mode.label(),
            check_mode: &check,
            paused: self.paused,
            wireframe: self.wireframe,
            player_shape: &player,
            response: &response,
            history: &history,
        };
        self.hud.draw(
            device,
            queue,
            &mut encoder,
            self.target.colour_view(),
            (width, height),
            &self.window,
            &hud_stats,
        );

        let surface_texture = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t)
            | wgpu::CurrentSurfaceTexture::Suboptimal(t) => Some(t),
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                self.surface.configure(device, &self.surface_config);
                None
            }
            // Timeouts and hidden windows skip the copy to the window; the offscreen frame is still drawn.
            _ => None,
        };
        if let Some(surface_texture) = &surface_texture {
            let view = surface_texture
                .texture
                .create_view(&wgpu::TextureViewDescriptor::default());
            self.blitter.blit(device, &mut encoder, &self.target, &view);
        }
        queue.submit([encoder.finish()]);
        if let Some(surface_texture) = surface_texture {
            self.window.pre_present_notify();
            queue.present(surface_texture);
        }
        Ok(())
    }

    /// The most recent CPU time in the history, so the HUD keeps showing it between sampled checks.
    fn last_cpu_ms(&self) -> Option<f64> {
        self.history
            .iter()
            .rev()
            .map(|&(_, cpu)| cpu)
            .find(|cpu| !cpu.is_nan())
    }
}

/// `size` with each side at most `max_side` (the adapter's largest texture).
fn clamp_size(size: PhysicalSize<u32>, max_side: u32) -> PhysicalSize<u32> {
    PhysicalSize::new(size.width.min(max_side), size.height.min(max_side))
}
