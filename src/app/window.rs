//! The window: winit event loop, wgpu surface, and the frame: controls, simulation step, scene and HUD
//! drawn into an offscreen target (so screenshots hold exactly what is shown), then copied to the window.

use super::args::DemoArgs;
use super::assets::{AssetSet, PLAYER_SHAPES};
use super::camera::Camera;
use super::controls::{next_body_count, Action, Controls};
use super::debug_view::DebugView;
use super::draw_list::{body_instances, state_colour};
use super::fps::FpsMeter;
use super::hud::picked::{self, PickedView, Snapshot};
use super::hud::rows::row_texts;
use super::hud::{stats_window, FrameTraffic, Hud, HudControls, HudStats};
use super::inspector::panel::{self as inspector_panel, Placement};
use super::inspector::view::InspectorView;
use super::plane::PlaneMode;
use super::render::{
    msaa_samples, read_rgba, save_png, Blitter, DeviceBodies, FrameTarget, SceneFrame,
    SceneRenderer,
};
use super::selection::state_of_rows;
use super::setup::{check_frame_size, demo_simulation, scene_camera, summary_context, FRAMES_DT};
use super::sim::{frame_step, NarrowMode, PairsSource, Simulation};
use super::summary::{DemoSummary, FrameLog};
use super::surface::{clamp_size, present, WindowSurface};
use crate::gjk::QueryKind;
use crate::gpu::GpuContext;
use crate::stress::BodyState;
use anyhow::{anyhow, Context, Result};
use glam::Vec2;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{
    DeviceEvent, DeviceId, ElementState, MouseButton, MouseScrollDelta, WindowEvent,
};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{Key, PhysicalKey};
use winit::window::{Window, WindowId};

/// Frames kept in the HUD's rolling chart.
const HISTORY: usize = 240;
/// Longest simulated step in a window, so a stall (a window drag, a slow frame) does not tunnel bodies.
const MAX_DT: f32 = 1.0 / 20.0;

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
    last_frame: Instant,
    /// When the window opened: the FPS meter's clock.
    opened: Instant,
    fps: FpsMeter,
    frame_ms: f64,
    screenshots: u32,
    /// Overlays, picking, the pair panel, the inspector.
    debug: DebugView,
    inspector_view: Option<InspectorView>,
    /// The inspector's 3D view size the HUD asked for in the last frame.
    inspector_px: (u32, u32),
    samples: u32,
    /// Cursor position in physical pixels, and where the left button went down.
    cursor: Vec2,
    left_down: Option<Vec2>,
    /// A single step (N) waits for the next frame; the player moved while paused.
    step_requested: bool,
    scene_edited: bool,
    /// The start options (`--pick`, `--inspect`) wait for the first frame's answers.
    started: bool,
    /// Actions from the HUD's buttons, carried out after the frame.
    hud_actions: Vec<Action>,
    /// The 2D mode (`--2d`), which replaces the stress scene.
    plane: Option<PlaneMode>,
    /// The keys overlay (F1 or ?) is open.
    help_open: bool,
    /// The HUD's rows as last drawn, for the summary of a `--frames` run.
    hud_rows: Vec<[String; 2]>,
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
            WindowEvent::CursorMoved { position, .. } => {
                state.cursor = Vec2::new(position.x as f32, position.y as f32);
                if let Some(plane) = &mut state.plane {
                    plane.drag_to(state.cursor, &state.camera, state.target.size());
                }
            }
            WindowEvent::MouseInput {
                button: MouseButton::Left,
                state: button,
                ..
            } if !consumed || button == ElementState::Released => {
                state.left_button(button == ElementState::Pressed);
            }
            WindowEvent::MouseWheel { delta, .. } if !consumed => {
                let steps = match delta {
                    MouseScrollDelta::LineDelta(_, y) => y,
                    MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
                };
                state.wheel(steps);
            }
            WindowEvent::KeyboardInput { event, .. } if !consumed => {
                if let PhysicalKey::Code(code) = event.physical_key {
                    let pressed = event.state == ElementState::Pressed;
                    // "?" is read from the typed character: its key differs between keyboard layouts.
                    let question =
                        pressed && !event.repeat && event.logical_key == Key::Character("?".into());
                    let action = state.controls.key(code, pressed, event.repeat);
                    if let Some(action) = action.or(question.then_some(Action::ToggleHelp)) {
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
            WindowEvent::RedrawRequested => {
                let outcome = state.frame(&self.args).and_then(|summary| {
                    for action in std::mem::take(&mut state.hud_actions) {
                        state.act(action, &self.args, event_loop)?;
                    }
                    Ok(summary)
                });
                match outcome {
                    Ok(Some(summary)) => {
                        self.summary = Some(summary);
                        event_loop.exit();
                    }
                    Ok(None) => {}
                    Err(error) => {
                        self.error = Some(error);
                        event_loop.exit();
                    }
                }
            }
            _ => {}
        }
    }

    fn device_event(&mut self, _: &ActiveEventLoop, _: DeviceId, event: DeviceEvent) {
        if let (Some(state), DeviceEvent::MouseMotion { delta }) = (self.state.as_mut(), event) {
            if state.controls.looking && state.plane.is_none() {
                let (dx, dy) = (delta.0 as f32, delta.1 as f32);
                match state.debug.orbit_target(&state.sim) {
                    Some(target) => state.camera.orbit(target, dx, dy),
                    None => state.camera.turn(dx, dy),
                }
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
        let headless = args.frames.is_some();
        let WindowSurface {
            window,
            surface,
            config: surface_config,
            gpu,
        } = WindowSurface::open(
            event_loop,
            args.backend,
            "gpu-gjk stress test",
            (args.width, args.height),
            headless,
        )?;
        check_frame_size(args, &gpu)?;

        let samples = args.msaa.unwrap_or(4).min(msaa_samples(&gpu.adapter));
        let target = FrameTarget::new(
            &gpu.device,
            surface_config.width,
            surface_config.height,
            samples,
        );
        let scene_renderer = SceneRenderer::new(&gpu.device, &assets.meshes, samples);
        let blitter = Blitter::new(&gpu.device, surface_config.format);
        let hud = Hud::new(&gpu.device, super::render::TARGET_FORMAT, &window);

        let (sim, debug) = demo_simulation(args, &assets, &gpu, headless)?;
        let mut plane = args.two_d.then(PlaneMode::new);
        if let (Some(plane), Some(step)) = (&mut plane, args.inspect_step) {
            plane.act(Action::InspectorSeek(step));
        }
        let aspect = surface_config.width as f32 / surface_config.height.max(1) as f32;
        let camera = match &plane {
            Some(plane) => plane.camera(aspect),
            None => scene_camera(sim.scene.half_extent),
        };
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
            last_frame: Instant::now(),
            opened: Instant::now(),
            fps: FpsMeter::default(),
            frame_ms: 0.0,
            screenshots: 0,
            debug,
            inspector_view: None,
            inspector_px: (480, 360),
            samples,
            cursor: Vec2::ZERO,
            left_down: None,
            step_requested: false,
            scene_edited: false,
            started: false,
            hud_actions: Vec::new(),
            plane,
            help_open: args.show_keys,
            hud_rows: Vec::new(),
        })
    }

    /// A left click (press and release within a few pixels) picks the body under the cursor; in the 2D mode
    /// the button drags polygons.
    fn left_button(&mut self, pressed: bool) {
        let size = self.target.size();
        if let Some(plane) = &mut self.plane {
            let was_dragging = plane.dragging();
            plane.press(pressed, self.cursor, &self.camera, size);
            if was_dragging && !plane.dragging() {
                // A drop: the view takes in the polygons and A - B where they are now.
                plane.refresh();
                self.camera = plane.camera(size.0 as f32 / size.1.max(1) as f32);
            }
            return;
        }
        if pressed {
            self.left_down = Some(self.cursor);
        } else if let Some(down) = self.left_down.take() {
            if down.distance(self.cursor) <= 4.0 {
                self.debug
                    .pick_at(&self.sim, &self.camera, size, self.cursor);
            }
        }
    }

    /// Mouse wheel: zoom, towards the picked body when there is one.
    fn wheel(&mut self, steps: f32) {
        if let Some(plane) = &mut self.plane {
            plane.wheel(steps, self.cursor, &self.camera, self.target.size());
            return;
        }
        let target = self.debug.orbit_target(&self.sim);
        let near = 0.05 * self.sim.scene.spec().size.1;
        let step = 0.1 * self.sim.scene.half_extent;
        self.camera.zoom(steps, target, near, step);
    }

    fn aspect(&self) -> f32 {
        let (w, h) = self.target.size();
        w as f32 / h.max(1) as f32
    }

    /// `--pick`, `--inspect` and `--inspect-step`, once the first frame has answers.
    fn apply_start_options(&mut self, args: &DemoArgs) -> Result<()> {
        self.started = true;
        if self.plane.is_some() {
            // The 2D mode has no bodies to pick; its inspector took `--inspect-step` when it opened.
            return Ok(());
        }
        let headless = args.frames.is_some();
        if let Some(body) = args
            .pick
            .filter(|&b| (b as usize) < self.sim.scene.bodies.len())
        {
            self.debug.set_picked(Some(body));
            self.sim.set_picked(Some(body))?;
            let aspect = self.aspect();
            self.debug
                .focus_picked(&self.sim, &self.camera, aspect, headless);
            self.debug.rows(&self.sim);
            if args.inspect {
                self.debug.open_inspector(&mut self.sim);
                if let (Some(step), Some(inspector)) =
                    (args.inspect_step, &mut self.debug.inspector)
                {
                    inspector.seek(step);
                }
            }
        }
        Ok(())
    }

    /// `--next-disagreement` and `--copy-pair`, at the last frame of a `--frames` run.
    fn apply_end_options(&mut self, args: &DemoArgs) -> Result<()> {
        if args.next_disagreement {
            let aspect = self.aspect();
            self.debug
                .next_disagreement(&self.sim, &self.camera, aspect, true);
            self.sim.set_picked(self.debug.picked)?;
            self.debug.update_flight(&mut self.camera, 0.0);
        }
        if args.copy_pair {
            self.debug.rows(&self.sim);
            self.debug.copy_pair(&self.sim)?;
        }
        Ok(())
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

    /// The debug renderer's actions (keys and HUD buttons).
    fn act_debug(&mut self, action: Action) -> Result<()> {
        let aspect = self.aspect();
        if let Some(plane) = &mut self.plane {
            plane.act(action);
            return Ok(());
        }
        match action {
            Action::ToggleOverlay(overlay) => self.debug.overlays.toggle(overlay),
            Action::TogglePickedOnly => self.debug.picked_only = !self.debug.picked_only,
            Action::Step => self.step_requested = true,
            Action::NextDisagreement => {
                self.debug
                    .next_disagreement(&self.sim, &self.camera, aspect, false)
            }
            Action::PreviousPair => self.debug.cycle_pair(&self.sim, -1),
            Action::NextPair => self.debug.cycle_pair(&self.sim, 1),
            Action::SelectPair(pair) => self.debug.selected_pair = Some(pair),
            Action::CopyPair => self.debug.copy_pair(&self.sim)?,
            Action::Inspect => self.debug.open_inspector(&mut self.sim),
            Action::CloseInspector => self.debug.inspector = None,
            Action::InspectorBack
            | Action::InspectorForward
            | Action::InspectorPlay
            | Action::InspectorSeek(_) => {
                if let Some(inspector) = &mut self.debug.inspector {
                    match action {
                        Action::InspectorBack => inspector.back(),
                        Action::InspectorForward => inspector.forward(),
                        Action::InspectorPlay => inspector.toggle_play(),
                        Action::InspectorSeek(step) => inspector.seek(step),
                        _ => {}
                    }
                }
            }
            Action::FrameAll => self.debug.frame_all(&self.sim, &self.camera, aspect, false),
            Action::ClearSelection => self.debug.clear(),
            _ => {}
        }
        Ok(())
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
                };
                // The chart's lines mean other things in the other mode (the CPU's: check or narrow phase).
                self.history.clear();
            }
            Action::ToggleHud => self.hud.set_visible(!self.hud.visible()),
            Action::ToggleWireframe => self.wireframe = !self.wireframe,
            Action::ToggleResponse => self.sim.response = self.sim.response.next(),
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
                self.scene_edited = true;
            }
            Action::PlayerShape(_) => {}
            Action::Quit => event_loop.exit(),
            Action::ToggleHelp => self.help_open = !self.help_open,
            debug => self.act_debug(debug)?,
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
            FRAMES_DT
        } else {
            elapsed.min(MAX_DT)
        };
        self.apply_held_controls(dt);
        self.debug.update_flight(&mut self.camera, dt);
        if let Some(plane) = &mut self.plane {
            plane.advance(dt);
        }
        let step = frame_step(
            self.paused || self.plane.is_some(),
            std::mem::take(&mut self.step_requested),
            std::mem::take(&mut self.scene_edited),
            dt,
            FRAMES_DT,
        );
        // Per-pair answers come back to the host only for what shows them; else only the marks (on the GPU)
        // colour the bodies and the check reads back the frames it takes. A picked body's pairs (the panel, the
        // selected pair, the inspector) are listed on the GPU when the frame's pairs stay there.
        self.sim.answers_wanted = self.paused || self.debug.overlays.any();
        self.sim.picked = self.debug.picked;
        let answered = self.sim.data.answers.len() == self.sim.data.pairs.len();
        let stats = match step {
            Some(dt) => self.sim.step(dt)?.clone(),
            // Paused: the narrow phase keeps the answers the picture shows (answered again, without moving,
            // if the last frame kept them on the GPU).
            None if self.sim.totals.frames > 0 && answered => self.sim.last.clone(),
            None => self.sim.step(0.0)?.clone(),
        };
        // The start options may list the picked body's pairs on the GPU: their bus figures join the frame's.
        let stats = if self.started {
            stats
        } else {
            self.apply_start_options(args)?;
            self.sim.last.clone()
        };
        if self.plane.is_none() {
            self.debug.follow_selection(&mut self.sim);
        }
        if let Some(inspector) = &mut self.debug.inspector {
            inspector.advance(dt);
        }

        let render_start = Instant::now();
        let frames_done = match &self.plane {
            Some(plane) => plane.frames(),
            None => self.sim.totals.frames,
        };
        let last_frame = args.frames.is_some_and(|n| frames_done >= n);
        if last_frame {
            self.sim.finish_checks()?;
            self.apply_end_options(args)?;
        }
        // The chart's GPU line is the GPU's time where timestamp queries give it, else the host's round trip
        // (frames that did not wait for the GPU have no GPU figure to plot).
        let gpu_ms = if self.timestamps() {
            stats.gpu_kernel_ms
        } else {
            stats.gpu_narrow_ms.filter(|_| !stats.gpu_deferred)
        };
        self.history.push_back((
            gpu_ms.unwrap_or(f64::NAN),
            stats.cpu_narrow_ms.unwrap_or(f64::NAN),
        ));
        while self.history.len() > HISTORY {
            self.history.pop_front();
        }
        self.draw(&stats)?;
        let render_ms = render_start.elapsed().as_secs_f64() * 1e3;

        self.fps
            .frame(frame_start.duration_since(self.opened).as_secs_f64());
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
        let context = summary_context(args, &self.sim, &self.gpu, screenshot, true);
        let mut summary = self.log.summary(context, &self.sim.totals);
        summary.hud = Some(self.hud_rows.clone());
        if self.plane.is_none() {
            summary.selection = Some(self.debug.selection_summary(&self.sim));
        }
        Ok(Some(summary))
    }

    fn apply_held_controls(&mut self, dt: f32) {
        let h = self.sim.scene.half_extent;
        let (forward, right) = self.controls.camera_motion();
        let camera_speed = 0.8 * h;
        self.camera
            .move_local(forward * camera_speed * dt, right * camera_speed * dt, 0.0);
        let player = self.controls.player_motion();
        if player != glam::Vec3::ZERO && self.plane.is_none() {
            self.sim.scene.move_player(player * 0.4 * h * dt);
            self.scene_edited = true;
        }
    }

    fn draw(&mut self, stats: &super::sim::FrameStats) -> Result<()> {
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("demo frame"),
            });
        self.draw_scene(&mut encoder);
        self.draw_hud(&mut encoder, stats);

        present(
            &self.surface,
            &self.surface_config,
            &self.window,
            &self.gpu,
            encoder,
            &self.blitter,
            &self.target,
        );
        Ok(())
    }

    /// The bodies (or the 2D mode's polygons) and the overlays, and the inspector's view when it is open.
    fn draw_scene(&mut self, encoder: &mut wgpu::CommandEncoder) {
        let device = &self.gpu.device;
        let queue = &self.gpu.queue;
        let aspect = self.aspect();
        // The GPU's bodies draw themselves when the frame ran on them; else the CPU scene's go up.
        let free = state_colour(BodyState::Free);
        let on_device = match &self.plane {
            Some(_) => None,
            None => self
                .sim
                .device_body_instances(encoder, free, self.mesh_count),
        };
        let (instances, highlights, overlays, bounds) = match &self.plane {
            Some(plane) => (Vec::new(), Vec::new(), plane.overlays(), 0.0),
            None => (
                match on_device {
                    Some(_) => Vec::new(),
                    None => body_instances(&self.sim.scene, &self.sim.states, self.mesh_count),
                },
                self.debug.highlights(&self.sim, self.mesh_count),
                self.debug.overlay_batch(&self.sim),
                self.sim.scene.half_extent,
            ),
        };
        self.scene_renderer.draw(
            device,
            queue,
            encoder,
            &self.target,
            &SceneFrame {
                view_proj: self.camera.view_proj(aspect),
                camera_position: self.camera.position,
                fov_y: self.camera.fov_y,
                bodies: &instances,
                highlights: &highlights,
                wireframe: self.wireframe,
                bounds_half_extent: bounds,
                overlays: &overlays,
                marks: self.sim.marks_buffer().filter(|_| self.plane.is_none()),
                device_bodies: on_device
                    .as_ref()
                    .map(|(instances, per_mesh)| DeviceBodies {
                        instances,
                        per_mesh,
                    }),
            },
        );
        let inspector = match &self.plane {
            Some(plane) => plane.inspector(),
            None => self.debug.inspector.as_ref(),
        };
        match inspector {
            Some(inspector) if self.plane.is_none() => {
                let samples = self.samples;
                let view = self
                    .inspector_view
                    .get_or_insert_with(|| InspectorView::new(device, self.inspector_px, samples));
                view.render(device, queue, encoder, inspector, self.inspector_px);
            }
            _ => {}
        }
    }

    /// The HUD: the stats window, the picked body's pairs, the inspector; their buttons' actions are kept
    /// for after the frame.
    fn draw_hud(&mut self, encoder: &mut wgpu::CommandEncoder, stats: &super::sim::FrameStats) {
        let history: Vec<(f64, f64)> = self.history.iter().copied().collect();
        let info = self.gpu.adapter.get_info();
        let backend = format!("{:?}", info.backend);
        let check = self.sim.check_description();
        let player = self
            .shape_names
            .get(self.sim.scene.templates.first().copied().unwrap_or(0))
            .cloned()
            .unwrap_or_default();
        let refused = self.sim.physics().and_then(|p| p.gpu_refused.as_deref());
        let response =
            super::physics::describe(self.sim.response, stats.response, stats.physics, refused);
        let query_mode = match self.sim.kind {
            QueryKind::Distance => "distance (GJK)",
            QueryKind::Intersection => "intersection (GJK, early exit)",
        };
        let gpu_narrow_phase = self.sim.mode == NarrowMode::Gpu;
        let hud_stats = HudStats {
            bodies: self.sim.scene.bodies.len(),
            candidate_pairs: stats.candidate_pairs,
            colliding_pairs: stats.colliding_pairs,
            broad_phase_ms: stats.broad_phase_ms,
            traffic: FrameTraffic {
                bytes_up: stats.bytes_up,
                bytes_down: stats.bytes_down,
                submissions: stats.submissions,
                blocking_waits: stats.gpu_blocking_waits,
                broad_on_gpu: stats.broad.on_gpu,
                broad_overflows: stats.broad.overflows,
            },
            gpu_narrow_phase,
            gpu_narrow_ms: stats.gpu_narrow_ms,
            gpu_kernel_ms: stats.gpu_kernel_ms,
            gpu_timestamps: self.timestamps(),
            gpu_scene_ms: self.sim.latest_scene_ms,
            gpu_deferred: stats.gpu_deferred,
            cpu_narrow_ms: stats.cpu_narrow_ms.or(self.last_cpu_ms()),
            disagreements_frame: stats.disagreements,
            disagreements_total: self.sim.totals.disagreements,
            gpu_failures_total: self.sim.totals.gpu_failures,
            gjk_iterations_cpu_warm: self.sim.totals.cpu_iterations_warm,
            gjk_iterations_gpu_cold: self.sim.totals.gpu_iterations_cold,
            fps: self.fps.fps(),
            adapter: &info.name,
            backend: &backend,
            narrow_phase: self.sim.mode.label(),
            check_mode: &check,
            paused: self.paused,
            wireframe: self.wireframe,
            player_shape: &player,
            response: &response,
            history: &history,
            query_mode,
            disagreement_pairs: self.sim.data.disputed_pairs.len(),
        };
        if self.plane.is_none() {
            self.hud_rows = row_texts(&hud_stats);
        }
        let device = &self.gpu.device;
        let texture = match (&mut self.inspector_view, &self.debug.inspector) {
            (Some(view), Some(_)) => Some(view.texture_id(device, self.hud.painter())),
            _ => None,
        };
        let picked = self.debug.picked;
        let rows = self.debug.rows(&self.sim).to_vec();
        let note = self.debug.note.clone();
        let picked_view = picked.map(|body| {
            let i = body as usize;
            PickedView {
                body,
                shape: self
                    .shape_names
                    .get(self.sim.scene.templates[i])
                    .map_or("", String::as_str),
                size: self.sim.scene.shapes[i].bounding_radius(),
                // A frame fed on the device leaves the host's states as they were: the rows say.
                state: match self.sim.data.pairs_source(body) {
                    PairsSource::Gpu => state_of_rows(&rows),
                    PairsSource::Host => self.sim.states.get(i).copied().unwrap_or(BodyState::Free),
                },
                player: i == 0 && self.sim.scene.has_player(),
                rows: &rows,
                listed_on_gpu: self
                    .sim
                    .data
                    .picked_pairs
                    .as_ref()
                    .filter(|p| p.body == body)
                    .map(|p| p.not_listed),
                selected: self.debug.selected_pair,
                inspected: self.debug.inspected.as_ref().map(|i| Snapshot {
                    pair: i.pair,
                    frame: i.frame,
                    frozen: i.frame != self.sim.data.frame,
                }),
                note: note.as_deref(),
            }
        });
        let max_threshold = 2.0 * self.sim.scene.spec().size.1;
        let mut actions = Vec::new();
        let mut inspector_px = self.inspector_px;
        let debug = &mut self.debug;
        let plane = &mut self.plane;
        let camera = self.camera;
        let help_open = &mut self.help_open;
        let (width, height) = self.target.size();
        self.hud.draw(
            device,
            &self.gpu.queue,
            encoder,
            self.target.colour_view(),
            (width, height),
            &self.window,
            |ctx| {
                if let Some(plane) = plane.as_mut() {
                    plane.hud(ctx, &camera, &mut actions);
                    return;
                }
                let mut controls = HudControls {
                    overlays: &mut debug.overlays,
                    closest_threshold: &mut debug.closest_threshold,
                    max_threshold,
                    window_px: (width as f32, height as f32),
                    help_open,
                    picked_only: &mut debug.picked_only,
                    actions: &mut actions,
                };
                stats_window(ctx, &hud_stats, &mut controls);
                if let Some(view) = &picked_view {
                    picked::show(ctx, view, &mut actions);
                }
                if let Some(inspector) = &mut debug.inspector {
                    inspector_px = inspector_panel::show(
                        ctx,
                        inspector,
                        texture,
                        Placement::Docked,
                        &mut actions,
                    )
                    .view_px;
                }
            },
        );
        self.inspector_px = inspector_px;
        self.hud_actions.extend(actions);
    }

    /// Whether the frames report GPU time from timestamp queries (a hardware adapter that has them).
    fn timestamps(&self) -> bool {
        self.sim.gpu_time_trusted
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
