//! `gpu-gjk inspect FILE --line N --window`: the demo's inspector filling a window of its own, on one line of
//! a `query` file. The same panel, view and keys as in the demo (`,` `.` step, `P` plays, `F` shows all of
//! A - B again, `F12` saves a screenshot, `Esc` quits; Home and End jump to the first and the last step);
//! drag the view to orbit, the wheel zooms about the origin and the simplex. A flat pair is seen along its
//! plane's normal (the 2D view). `--frames N` draws N frames, prints a summary and exits, as the demo does.

use super::panel::{self, Placement};
use super::screenshot::line_inspector;
use super::view::InspectorView;
use super::Inspector;
use crate::app::controls::{Action, Controls};
use crate::app::hud::Hud;
use crate::app::render::{msaa_samples, read_rgba, save_png, Blitter, FrameTarget, TARGET_FORMAT};
use crate::app::setup::FRAMES_DT;
use crate::app::surface::{clamp_size, present, WindowSurface};
use crate::cli::Inspected;
use crate::gpu::BackendChoice;
use anyhow::{anyhow, Context, Result};
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::WindowId;

const SIZE: (u32, u32) = (1280, 720);
const BACKGROUND: wgpu::Color = wgpu::Color {
    r: 0.018,
    g: 0.022,
    b: 0.034,
    a: 1.0,
};

/// What the command line asks of the window.
#[derive(Clone, Debug, Default)]
pub struct InspectorWindowOptions {
    /// The step to open on (default: the last, the answer).
    pub step: Option<usize>,
    /// Draw this many frames, then exit with a summary.
    pub frames: Option<u64>,
    /// Where the last frame of a `--frames` run (and F12) is saved.
    pub screenshot: Option<PathBuf>,
}

/// The JSON summary of a `--frames` run.
#[derive(Clone, Debug, Serialize)]
pub struct InspectorSummary {
    pub frames: u64,
    pub line: usize,
    pub steps: usize,
    /// The step shown at the end.
    pub step: usize,
    /// "agrees", "differs" or "unavailable": the GPU's answer against the CPU's.
    pub gpu: &'static str,
    /// The 2D view: A - B is flat and seen along its normal.
    pub flat: bool,
    pub adapter: String,
    pub backend: String,
    pub screenshot: Option<String>,
}

/// The inspector as the window left it, and the summary of a `--frames` run.
pub struct InspectorWindowOutcome {
    pub inspector: Inspector,
    pub summary: Option<InspectorSummary>,
}

/// Opens the window on the inspected line and runs until it closes (or for `--frames` frames).
pub fn run_inspector_window(
    inspected: &Inspected,
    options: &InspectorWindowOptions,
) -> Result<InspectorWindowOutcome> {
    let event_loop = EventLoop::new().map_err(|e| {
        anyhow!(
            "no display: --window needs one (set DISPLAY or WAYLAND_DISPLAY, or run it under `xvfb-run -a`; \
             --screenshot draws without one); winit said: {e}"
        )
    })?;
    event_loop.set_control_flow(ControlFlow::Poll);
    let mut app = InspectorApp {
        inspected,
        options,
        state: None,
        error: None,
        outcome: None,
    };
    event_loop
        .run_app(&mut app)
        .context("the window's event loop failed")?;
    if let Some(error) = app.error {
        return Err(error);
    }
    match (app.outcome, app.state) {
        (Some(outcome), _) => Ok(outcome),
        (None, Some(state)) => Ok(InspectorWindowOutcome {
            inspector: state.inspector,
            summary: None,
        }),
        (None, None) => Err(anyhow!("the window closed before it opened")),
    }
}

struct InspectorApp<'a> {
    inspected: &'a Inspected,
    options: &'a InspectorWindowOptions,
    state: Option<Open>,
    error: Option<anyhow::Error>,
    outcome: Option<InspectorWindowOutcome>,
}

/// The open window and the inspector in it.
struct Open {
    surface: WindowSurface,
    target: FrameTarget,
    blitter: Blitter,
    hud: Hud,
    view: InspectorView,
    view_px: (u32, u32),
    inspector: Inspector,
    controls: Controls,
    frames: u64,
    screenshots: u32,
    last_frame: Instant,
}

impl ApplicationHandler for InspectorApp<'_> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.state.is_some() || self.outcome.is_some() {
            return;
        }
        match Open::new(event_loop, self.inspected, self.options) {
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
        let consumed = state.hud.on_window_event(&state.surface.window, &event);
        let result = match event {
            WindowEvent::CloseRequested => {
                event_loop.exit();
                Ok(())
            }
            WindowEvent::Resized(size) => {
                state.resize(size);
                Ok(())
            }
            WindowEvent::KeyboardInput { event, .. } if !consumed => match event.physical_key {
                PhysicalKey::Code(code) => {
                    let pressed = event.state == ElementState::Pressed;
                    let action = match code {
                        KeyCode::Home if pressed => Some(Action::InspectorSeek(0)),
                        KeyCode::End if pressed => Some(Action::InspectorSeek(usize::MAX)),
                        _ => state.controls.key(code, pressed, event.repeat),
                    };
                    match action {
                        Some(action) => state.act(action, self.options, event_loop),
                        None => Ok(()),
                    }
                }
                _ => Ok(()),
            },
            WindowEvent::RedrawRequested => match state.frame(self.options, event_loop) {
                Ok(Some(mut summary)) => {
                    summary.line = self.inspected.line;
                    let state = self.state.take().expect("the window is open");
                    self.outcome = Some(InspectorWindowOutcome {
                        inspector: state.inspector,
                        summary: Some(summary),
                    });
                    event_loop.exit();
                    Ok(())
                }
                Ok(None) => Ok(()),
                Err(error) => Err(error),
            },
            _ => Ok(()),
        };
        if let Err(error) = result {
            self.error = Some(error);
            event_loop.exit();
        }
    }

    fn about_to_wait(&mut self, _: &ActiveEventLoop) {
        if let Some(state) = &self.state {
            state.surface.window.request_redraw();
        }
    }
}

impl Open {
    fn new(
        event_loop: &ActiveEventLoop,
        inspected: &Inspected,
        options: &InspectorWindowOptions,
    ) -> Result<Self> {
        let title = format!("gpu-gjk inspect: line {}", inspected.line);
        let surface = WindowSurface::open(
            event_loop,
            BackendChoice::Auto,
            &title,
            SIZE,
            options.frames.is_some(),
        )?;
        let gpu = &surface.gpu;
        let device = &gpu.device;
        let samples = msaa_samples(&gpu.adapter);
        let target = FrameTarget::new(device, surface.config.width, surface.config.height, samples);
        let blitter = Blitter::new(device, surface.config.format);
        let hud = Hud::new(device, TARGET_FORMAT, &surface.window);
        let view_px = (640, 480);
        let view = InspectorView::new(device, view_px, samples);
        // The GPU's answer comes from the adapter that draws the window.
        let inspector = line_inspector(gpu, inspected, options.step);
        Ok(Self {
            surface,
            target,
            blitter,
            hud,
            view,
            view_px,
            inspector,
            controls: Controls::default(),
            frames: 0,
            screenshots: 0,
            last_frame: Instant::now(),
        })
    }

    fn resize(&mut self, size: PhysicalSize<u32>) {
        if size.width == 0 || size.height == 0 {
            return;
        }
        let device = &self.surface.gpu.device;
        let size = clamp_size(size, device.limits().max_texture_dimension_2d);
        self.surface.config.width = size.width;
        self.surface.config.height = size.height;
        self.surface.surface.configure(device, &self.surface.config);
        self.target.resize(device, size.width, size.height);
    }

    /// The inspector's keys (those of the demo's inspector) and its buttons.
    fn act(
        &mut self,
        action: Action,
        options: &InspectorWindowOptions,
        event_loop: &ActiveEventLoop,
    ) -> Result<()> {
        let inspector = &mut self.inspector;
        match action {
            Action::InspectorBack => inspector.back(),
            Action::InspectorForward => inspector.forward(),
            Action::InspectorPlay => inspector.toggle_play(),
            Action::InspectorSeek(step) => inspector.seek(step),
            Action::FrameAll => inspector.reset_view(),
            Action::Quit | Action::CloseInspector => event_loop.exit(),
            Action::Screenshot => {
                self.screenshots += 1;
                let path = options.screenshot.clone().unwrap_or_else(|| {
                    PathBuf::from(format!("gpu-gjk-inspect-{}.png", self.screenshots))
                });
                self.save_screenshot(&path)?;
                eprintln!("screenshot saved to {}", path.display());
            }
            _ => {}
        }
        Ok(())
    }

    fn save_screenshot(&self, path: &std::path::Path) -> Result<()> {
        let gpu = &self.surface.gpu;
        let (width, height, rgba) = read_rgba(&gpu.device, &gpu.queue, &self.target)?;
        save_png(path, width, height, &rgba)
    }

    /// One frame. Returns the summary when a `--frames` run has drawn its last frame.
    fn frame(
        &mut self,
        options: &InspectorWindowOptions,
        event_loop: &ActiveEventLoop,
    ) -> Result<Option<InspectorSummary>> {
        let now = Instant::now();
        let dt = match options.frames {
            Some(_) => FRAMES_DT,
            None => now.duration_since(self.last_frame).as_secs_f32().min(0.1),
        };
        self.last_frame = now;
        self.inspector.advance(dt);
        let gpu = &self.surface.gpu;
        let (device, queue) = (&gpu.device, &gpu.queue);
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("inspector frame"),
        });
        self.view
            .render(device, queue, &mut encoder, &self.inspector, self.view_px);
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("inspector window background"),
            color_attachments: &[Some(self.target.scene_attachment(BACKGROUND))],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        let texture = self.view.texture_id(device, self.hud.painter());
        let mut actions = Vec::new();
        let mut view_px = self.view_px;
        let inspector = &mut self.inspector;
        self.hud.draw(
            device,
            queue,
            &mut encoder,
            self.target.colour_view(),
            self.target.size(),
            &self.surface.window,
            |ctx| {
                view_px = panel::show(ctx, inspector, Some(texture), Placement::Full, &mut actions)
                    .view_px;
            },
        );
        self.view_px = view_px;
        present(
            &self.surface.surface,
            &self.surface.config,
            &self.surface.window,
            gpu,
            encoder,
            &self.blitter,
            &self.target,
        );
        for action in actions {
            self.act(action, options, event_loop)?;
        }
        self.frames += 1;
        if options.frames.is_none_or(|n| self.frames < n) {
            return Ok(None);
        }
        let screenshot = match &options.screenshot {
            Some(path) => {
                self.save_screenshot(path)?;
                Some(path.display().to_string())
            }
            None => None,
        };
        let info = self.surface.gpu.adapter.get_info();
        Ok(Some(InspectorSummary {
            frames: self.frames,
            line: 0,
            steps: self.inspector.step_count(),
            step: self.inspector.step_index(),
            gpu: match self.inspector.gpu_agrees() {
                Some(true) => "agrees",
                Some(false) => "differs",
                None => "unavailable",
            },
            flat: self.inspector.plane_normal.is_some(),
            adapter: info.name,
            backend: format!("{:?}", info.backend),
            screenshot,
        }))
    }
}
