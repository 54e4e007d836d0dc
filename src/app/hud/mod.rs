//! The heads-up display: an egui window over the scene with the frame's counts and timings (their text decided
//! in `rows`), a rolling chart of GPU and CPU narrow-phase times, and the keys overlay (F1 or ?).
//!
//! [`Hud`] ties egui to the winit window (input, cursor, clipboard); the painting itself lives in
//! `painter` and needs no window, so the drawing path is tested headless.

pub mod help;
pub(crate) mod layout;
#[cfg(test)]
mod layout_tests;
pub(crate) mod painter;
pub mod picked;
pub mod rows;
mod stats;
#[cfg(test)]
mod tests;

pub(crate) use painter::HudPainter;
pub use stats::{format_bytes, format_count, speedup, FrameTraffic, HudControls, HudStats};

/// The main HUD window (with the paused banner and the keys overlay), for [`Hud::draw`].
pub fn stats_window(ctx: &egui::Context, stats: &HudStats, controls: &mut HudControls) {
    layout::show(ctx, stats, controls);
}

/// The HUD of one window: egui's context and painter, egui-winit's input state, and whether it is shown.
pub struct Hud {
    painter: HudPainter,
    state: egui_winit::State,
    visible: bool,
}

impl Hud {
    /// A visible HUD drawing into textures of `target_format` (no depth, one sample).
    pub fn new(
        device: &wgpu::Device,
        target_format: wgpu::TextureFormat,
        window: &winit::window::Window,
    ) -> Self {
        let painter = HudPainter::new(device, target_format);
        let state = egui_winit::State::new(
            painter.context().clone(),
            egui::ViewportId::ROOT,
            window,
            Some(window.scale_factor() as f32),
            None,
            Some(device.limits().max_texture_dimension_2d as usize),
        );
        Self {
            painter,
            state,
            visible: true,
        }
    }

    /// Feeds a window event to egui; true when egui consumed it (a click on the HUD, for instance), so the
    /// caller should not also act on it. A hidden HUD takes no events: they would only pile up until the
    /// next `draw`.
    pub fn on_window_event(
        &mut self,
        window: &winit::window::Window,
        event: &winit::event::WindowEvent,
    ) -> bool {
        self.visible && self.state.on_window_event(window, event).consumed
    }

    pub fn visible(&self) -> bool {
        self.visible
    }

    pub fn set_visible(&mut self, visible: bool) {
        self.visible = visible;
    }

    /// Draws the HUD laid out by `layout` over what `target` already holds, in its own render pass recorded
    /// into `encoder`. `size_px` is the target's size. Does nothing while hidden.
    #[allow(clippy::too_many_arguments)]
    pub fn draw(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        size_px: (u32, u32),
        window: &winit::window::Window,
        layout: impl FnMut(&egui::Context),
    ) {
        if !self.visible {
            return;
        }
        let input = self.state.take_egui_input(window);
        let frame = painter::Frame {
            target,
            size_px,
            pixels_per_point: window.scale_factor() as f32,
        };
        let output = self
            .painter
            .paint(device, queue, encoder, &frame, input, layout);
        self.state.handle_platform_output(window, output);
    }

    /// The painter, to register textures for egui images.
    pub(crate) fn painter(&mut self) -> &mut HudPainter {
        &mut self.painter
    }
}
