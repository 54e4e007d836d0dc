//! The heads-up display: an egui window over the scene with the frame's counts and timings, a rolling
//! chart of GPU and CPU narrow-phase times, and the controls.
//!
//! [`Hud`] ties egui to the winit window (input, cursor, clipboard); the painting itself lives in
//! `painter` and needs no window, so the drawing path is tested headless.

pub(crate) mod layout;
pub(crate) mod painter;
pub mod picked;
#[cfg(test)]
mod tests;

use super::controls::Action;
use super::overlays::OverlayToggles;
pub(crate) use painter::HudPainter;

/// Everything the HUD shows for one frame.
pub struct HudStats<'a> {
    pub bodies: usize,
    pub candidate_pairs: usize,
    pub colliding_pairs: usize,
    pub broad_phase_ms: f64,
    /// `None`: not measured yet, or the GPU is not in use.
    pub gpu_narrow_ms: Option<f64>,
    /// The CPU reference on the same pairs (all threads).
    pub cpu_narrow_ms: Option<f64>,
    /// In the latest checked frame.
    pub disagreements_frame: usize,
    /// Since start.
    pub disagreements_total: u64,
    /// Pairs the GPU answered with a named failure status since start, answered again on the CPU.
    pub gpu_failures_total: u64,
    /// GJK iterations of the CPU check since start (warm-started per pair), and of the GPU on the same pairs
    /// (cold).
    pub gjk_iterations_cpu_warm: u64,
    pub gjk_iterations_gpu_cold: u64,
    pub fps: f64,
    pub frame_ms: f64,
    /// E.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
    pub adapter: &'a str,
    /// E.g. "Gl".
    pub backend: &'a str,
    /// "GPU" or "CPU": which narrow phase colours the bodies.
    pub narrow_phase: &'a str,
    /// E.g. "CPU check: every frame".
    pub check_mode: &'a str,
    pub paused: bool,
    pub wireframe: bool,
    /// "cube" / "sphere" / "cone" / "cylinder".
    pub player_shape: &'a str,
    /// Collision response (R): e.g. "off" or "on, 120 pairs pushed".
    pub response: &'a str,
    /// Rolling (gpu_ms, cpu_ms), oldest first; NaN where not measured.
    pub history: &'a [(f64, f64)],
    /// The narrow phase's query, e.g. "distance".
    pub query_mode: &'a str,
    /// Pairs the latest check disputed (the "next disagreement" button shows when there are some).
    pub disagreement_pairs: usize,
}

/// What the HUD's widgets change: the overlay toggles and the closest-point range directly, everything
/// else as actions the app carries out after the frame (the same actions as the keys).
pub struct HudControls<'a> {
    pub overlays: &'a mut OverlayToggles,
    pub closest_threshold: &'a mut f32,
    /// The slider's upper end.
    pub max_threshold: f32,
    /// The window's height in physical pixels: low windows start with the chart and controls folded.
    pub window_height_px: f32,
    pub actions: &'a mut Vec<Action>,
}

/// The main HUD window, for [`Hud::draw`].
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

/// `n` with a comma every three digits: 12345 -> "12,345".
pub fn format_count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// How many times faster the GPU narrow phase is than the CPU one (cpu / gpu); `None` when either time is
/// missing or not a positive finite number, where a ratio would mean nothing.
pub fn speedup(cpu: Option<f64>, gpu: Option<f64>) -> Option<f64> {
    let usable = |t: f64| t.is_finite() && t > 0.0;
    match (cpu, gpu) {
        (Some(cpu), Some(gpu)) if usable(cpu) && usable(gpu) => Some(cpu / gpu),
        _ => None,
    }
}

#[cfg(test)]
mod format_tests {
    use super::*;

    #[test]
    fn counts_get_thousands_separators() {
        assert_eq!(format_count(0), "0");
        assert_eq!(format_count(999), "999");
        assert_eq!(format_count(1_000), "1,000");
        assert_eq!(format_count(12_345), "12,345");
        assert_eq!(format_count(123_456), "123,456");
        assert_eq!(format_count(1_234_567), "1,234,567");
        assert_eq!(format_count(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn speedup_needs_both_times() {
        assert_eq!(speedup(Some(10.0), Some(2.0)), Some(5.0));
        assert_eq!(speedup(Some(1.0), Some(4.0)), Some(0.25));
        assert_eq!(speedup(None, Some(2.0)), None);
        assert_eq!(speedup(Some(2.0), None), None);
        assert_eq!(speedup(Some(2.0), Some(0.0)), None);
        assert_eq!(speedup(Some(f64::NAN), Some(1.0)), None);
        assert_eq!(speedup(Some(1.0), Some(f64::INFINITY)), None);
    }
}
