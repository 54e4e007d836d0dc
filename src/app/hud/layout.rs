//! The main HUD window: the stats grid, the overlay checkboxes with their colour legend, the body colours, the
//! timing chart and the controls.

use super::{format_count, speedup, HudControls, HudStats};
use crate::app::controls::Action;
use crate::app::draw_list::{state_colour, PICKED_EDGES, PLAYER_EDGES};
use crate::app::overlays::Overlay;
use crate::stress::BodyState;
use egui::{Color32, RichText};
use egui_plot::{Legend, Line, Plot, PlotPoints};

const GPU_COLOUR: Color32 = Color32::from_rgb(90, 200, 120);
const CPU_COLOUR: Color32 = Color32::from_rgb(240, 160, 60);
/// Disagreements between the GPU and CPU narrow phases are bugs, so they are hard to miss.
pub(crate) const ALERT_COLOUR: Color32 = Color32::from_rgb(255, 60, 255);
const PAUSED_COLOUR: Color32 = Color32::from_rgb(255, 220, 80);
/// The narrowest the window gets; long adapter names widen it.
const CONTENT_WIDTH: f32 = 320.0;
const CHART_HEIGHT: f32 = 90.0;
/// Windows lower than these (physical pixels) start with the chart, and the controls, folded, so the HUD
/// leaves the scene visible.
const CHART_OPEN_HEIGHT: f32 = 700.0;
const CONTROLS_OPEN_HEIGHT: f32 = 940.0;

const CONTROLS: &str = "WASD move, right drag look (orbit when picked)\n\
                        wheel zoom, left click pick, F frame all\n\
                        Arrows X/Y, Q/E Z: move the player\n\
                        1-4 player shape, V wireframe, R response\n\
                        5-9 overlays, Space pause, N step\n\
                        [ ] pair, I inspect, C copy pair\n\
                        M next disagreement, Backspace unpick\n\
                        , . P inspector step/play\n\
                        +/- bodies, G GPU/CPU, H HUD, F12 shot";

/// A colour of the renderer (linear RGB) as egui paints it.
pub(crate) fn linear(colour: [f32; 4]) -> Color32 {
    egui::Rgba::from_rgba_unmultiplied(colour[0], colour[1], colour[2], 1.0).into()
}

/// A small filled square in `colour`, for legends.
pub(crate) fn swatch(ui: &mut egui::Ui, colour: Color32) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
    ui.painter().rect_filled(rect, 2.0, colour);
}

/// Lays out the HUD window for one frame.
pub(crate) fn show(ctx: &egui::Context, stats: &HudStats, controls: &mut HudControls) {
    // Nearly opaque: the text must stay readable over bright red bodies, while a hint of what is behind
    // still shows. No drop shadow, which would darken the panel again from underneath.
    let frame = egui::Frame::window(&ctx.global_style())
        .fill(Color32::from_rgba_unmultiplied(12, 14, 20, 235))
        .shadow(egui::Shadow::NONE);
    let height_px = controls.window_height_px;
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
                ui.horizontal(|ui| {
                    ui.label(
                        RichText::new("PAUSED")
                            .strong()
                            .size(18.0)
                            .color(PAUSED_COLOUR),
                    );
                    if ui.button("Step (N)").clicked() {
                        controls.actions.push(Action::Step);
                    }
                });
            }
            stats_grid(ui, stats);
            ui.label(RichText::new(stats.check_mode).weak());
            overlay_section(ui, stats, controls);
            egui::CollapsingHeader::new("Timings")
                .default_open(height_px >= CHART_OPEN_HEIGHT)
                .show(ui, |ui| timing_chart(ui, stats.history, CONTENT_WIDTH));
            egui::CollapsingHeader::new("Controls")
                .default_open(height_px >= CONTROLS_OPEN_HEIGHT)
                .show(ui, |ui| ui.label(RichText::new(CONTROLS).small_raised()));
        });
}

/// Each overlay's checkbox (its key and colour beside it), the closest-point threshold, and the legend of the
/// body colours.
fn overlay_section(ui: &mut egui::Ui, stats: &HudStats, controls: &mut HudControls) {
    egui::CollapsingHeader::new("Overlays and legend")
        .default_open(true)
        .show(ui, |ui| {
            egui::Grid::new("hud_overlays")
                .num_columns(2)
                .spacing([6.0, 2.0])
                .show(ui, |ui| {
                    for overlay in Overlay::ALL {
                        swatch(ui, linear(overlay.colour()));
                        ui.checkbox(
                            controls.overlays.flag(overlay),
                            format!("{} {}", overlay.key(), overlay.label()),
                        )
                        .on_hover_text(overlay.legend());
                        ui.end_row();
                    }
                });
            if controls.overlays.is_on(Overlay::Closest) {
                let max = controls.max_threshold;
                ui.add(
                    egui::Slider::new(controls.closest_threshold, 0.0..=max)
                        .text("closest-point range"),
                );
            }
            ui.horizontal_wrapped(|ui| {
                ui.spacing_mut().item_spacing.x = 4.0;
                for (colour, name) in [
                    (state_colour(BodyState::Free), "free"),
                    (state_colour(BodyState::Colliding), "colliding"),
                    (state_colour(BodyState::Disagreement), "GPU≠CPU"),
                    (PICKED_EDGES, "picked"),
                    (PLAYER_EDGES, "player"),
                ] {
                    swatch(ui, linear(colour));
                    ui.label(RichText::new(name).small());
                }
            });
            if stats.disagreement_pairs > 0 && ui.button("Next disagreement (M)").clicked() {
                controls.actions.push(Action::NextDisagreement);
            }
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
    let rows: [(&str, RichText); 17] = [
        ("Bodies", count(stats.bodies)),
        ("Candidate pairs", count(stats.candidate_pairs)),
        ("Colliding pairs", count(stats.colliding_pairs)),
        ("Query", stats.query_mode.into()),
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
            "GPU failures, CPU redo",
            count(stats.gpu_failures_total as usize),
        ),
        (
            "CPU warm start",
            warm_start(stats.gjk_iterations_cpu_warm, stats.gjk_iterations_gpu_cold).into(),
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
        .spacing([12.0, 1.0])
        .striped(true)
        .show(ui, |ui| {
            for (name, value) in rows {
                ui.label(RichText::new(name).weak());
                ui.label(value);
                ui.end_row();
            }
        });
}

/// The CPU check's GJK iterations (warm-started per pair) against the GPU's on the same pairs (cold):
/// "-8.1%, 91,234 it." or a dash before the first check.
fn warm_start(cpu_warm: u64, gpu_cold: u64) -> String {
    if gpu_cold == 0 {
        return "—".to_owned();
    }
    let change = 100.0 * (cpu_warm as f64 / gpu_cold as f64 - 1.0);
    format!(
        "{change:+.1}% iterations ({} vs {} cold)",
        format_count(cpu_warm),
        format_count(gpu_cold)
    )
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
