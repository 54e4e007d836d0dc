//! What the HUD window holds: the stats grid, the timing chart and the controls.

use super::{format_count, speedup, HudStats};
use egui::{Color32, RichText};
use egui_plot::{Legend, Line, Plot, PlotPoints};

const GPU_COLOUR: Color32 = Color32::from_rgb(90, 200, 120);
const CPU_COLOUR: Color32 = Color32::from_rgb(240, 160, 60);
/// Disagreements between the GPU and CPU narrow phases are bugs, so they are hard to miss.
const ALERT_COLOUR: Color32 = Color32::from_rgb(255, 60, 255);
const PAUSED_COLOUR: Color32 = Color32::from_rgb(255, 220, 80);
/// The narrowest the window gets; long adapter names widen it.
const CONTENT_WIDTH: f32 = 300.0;
const CHART_HEIGHT: f32 = 110.0;

const CONTROLS: &str = "WASD move, right mouse drag look\n\
                        Arrows X/Y, Q/E Z: move the player\n\
                        1-4 player shape, V wireframe, R response\n\
                        Space pause, +/- bodies, G GPU/CPU\n\
                        H hide HUD, F12 screenshot";

/// Lays out the HUD window for one frame.
pub(super) fn show(ctx: &egui::Context, stats: &HudStats) {
    // Nearly opaque: the text must stay readable over bright red bodies, while a hint of what is behind
    // still shows. No drop shadow, which would darken the panel again from underneath.
    let frame = egui::Frame::window(&ctx.global_style())
        .fill(Color32::from_rgba_unmultiplied(12, 14, 20, 235))
        .shadow(egui::Shadow::NONE);
    egui::Window::new("gpu-gjk stress test")
        .frame(frame)
        .anchor(egui::Align2::LEFT_TOP, egui::vec2(8.0, 8.0))
        .resizable(false)
        .collapsible(true)
        // Shown at once, including after being hidden with H: the HUD is a readout, not a dialog.
        .fade_in(false)
        .show(ctx, |ui| {
            ui.set_width(CONTENT_WIDTH);
            if stats.paused {
                ui.label(
                    RichText::new("PAUSED")
                        .strong()
                        .size(18.0)
                        .color(PAUSED_COLOUR),
                );
            }
            stats_grid(ui, stats);
            ui.label(RichText::new(stats.check_mode).weak());
            ui.separator();
            // As wide as the grid, which may have grown past CONTENT_WIDTH for a long adapter name.
            timing_chart(ui, stats.history, ui.min_rect().width());
            egui::CollapsingHeader::new("Controls")
                .default_open(true)
                .show(ui, |ui| ui.label(RichText::new(CONTROLS).small_raised()));
        });
}

fn stats_grid(ui: &mut egui::Ui, stats: &HudStats) {
    let ms = |t: Option<f64>| t.map_or_else(|| "—".to_owned(), |t| format!("{t:.2}"));
    let disagreements = format!(
        "{} / {}",
        format_count(stats.disagreements_frame as u64),
        format_count(stats.disagreements_total)
    );
    let disagreement_colour = if stats.disagreements_frame > 0 || stats.disagreements_total > 0 {
        ALERT_COLOUR
    } else {
        ui.visuals().text_color()
    };
    let view = format!(
        "{}, {}",
        stats.player_shape,
        if stats.wireframe {
            "wireframe"
        } else {
            "solid"
        }
    );
    let rows: [(&str, RichText); 15] = [
        ("Bodies", count(stats.bodies)),
        ("Candidate pairs", count(stats.candidate_pairs)),
        ("Colliding pairs", count(stats.colliding_pairs)),
        (
            "Broad phase ms",
            format!("{:.2}", stats.broad_phase_ms).into(),
        ),
        (
            "GPU narrow ms",
            RichText::new(ms(stats.gpu_narrow_ms)).color(GPU_COLOUR),
        ),
        (
            "CPU narrow ms",
            RichText::new(ms(stats.cpu_narrow_ms)).color(CPU_COLOUR),
        ),
        (
            "GPU speedup vs CPU",
            speedup(stats.cpu_narrow_ms, stats.gpu_narrow_ms)
                .map_or_else(
                    || "—".to_owned(),
                    |s| format!("{:.*}x", if s < 10.0 { 2 } else { 1 }, s),
                )
                .into(),
        ),
        (
            "Disagreements",
            RichText::new(disagreements).color(disagreement_colour),
        ),
        (
            "GPU failures → CPU",
            count(stats.gpu_failures_total as usize),
        ),
        (
            "FPS",
            format!("{:.1} ({:.2} ms)", stats.fps, stats.frame_ms).into(),
        ),
        ("Adapter", stats.adapter.into()),
        ("Backend", stats.backend.into()),
        ("Narrow phase", stats.narrow_phase.into()),
        ("Player, view", view.into()),
        ("Response", stats.response.into()),
    ];
    egui::Grid::new("hud_stats")
        .num_columns(2)
        .spacing([12.0, 2.0])
        .striped(true)
        .show(ui, |ui| {
            for (name, value) in rows {
                ui.label(RichText::new(name).weak());
                ui.label(value);
                ui.end_row();
            }
        });
}

fn count(n: usize) -> RichText {
    format_count(n as u64).into()
}

/// GPU and CPU narrow-phase ms over the history, newest at x = 0. Unmeasured (NaN) samples are left out,
/// so a line bridges the gap. The chart ignores the pointer: dragging over the HUD must not pan it.
fn timing_chart(ui: &mut egui::Ui, history: &[(f64, f64)], width: f32) {
    let newest = history.len() as f64 - 1.0;
    let series = |pick: fn(&(f64, f64)) -> f64| -> PlotPoints<'static> {
        history
            .iter()
            .enumerate()
            .filter(|(_, sample)| pick(sample).is_finite())
            .map(|(i, sample)| [i as f64 - newest, pick(sample)])
            .collect()
    };
    Plot::new("hud_timings")
        .width(width)
        .height(CHART_HEIGHT)
        .legend(Legend::default().position(egui_plot::Corner::LeftTop))
        .include_y(0.0)
        .show_axes([false, true])
        .show_x(false)
        .show_y(false)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .show(ui, |plot| {
            plot.line(Line::new("GPU ms", series(|s| s.0)).color(GPU_COLOUR));
            plot.line(Line::new("CPU ms", series(|s| s.1)).color(CPU_COLOUR));
        });
}
