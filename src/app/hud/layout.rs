//! The main HUD window: the stats grid, the overlay checkboxes with their colour legend, the body colours and the
//! timing chart, at a fixed width; the paused banner apart from it; the keys overlay.

use super::help;
use super::painter::ui_scale;
use super::rows::{rows, traffic_rows, HudRow, Tone};
use super::{HudControls, HudStats};
use crate::app::controls::Action;
use crate::app::draw_list::{
    state_colour, PARTNER_EDGES, PICKED_EDGES, PLAYER_EDGES, SELECTED_PARTNER_EDGES,
};
use crate::app::overlays::Overlay;
use crate::stress::BodyState;
use egui::{Color32, RichText};
use egui_plot::{Line, Plot, PlotPoints};

const GPU_COLOUR: Color32 = Color32::from_rgb(90, 200, 120);
const CPU_COLOUR: Color32 = Color32::from_rgb(240, 160, 60);
/// Disagreements between the GPU and CPU narrow phases are bugs, so they are hard to miss.
pub(crate) const ALERT_COLOUR: Color32 = Color32::from_rgb(255, 60, 255);
const PAUSED_COLOUR: Color32 = Color32::from_rgb(255, 220, 80);
/// The panel's fixed width (points): its label and value columns, with what does not fit cut short and shown
/// whole on hover, so no value (a long adapter name, a warm-start figure) makes the panel jump.
pub const CONTENT_WIDTH: f32 = 320.0;
const LABEL_WIDTH: f32 = 150.0;
const VALUE_WIDTH: f32 = CONTENT_WIDTH - LABEL_WIDTH - 12.0;
const CHART_HEIGHT: f32 = 90.0;
/// Windows lower than this (physical pixels) start with the chart folded, so the panel fits without scrolling
/// (at the default 1280x720 it does, with every section but the chart open).
const CHART_OPEN_HEIGHT: f32 = 900.0;
const CHART_OPEN_POINTS: f32 = 880.0;
/// The egui ids of the stats panel and the paused banner, for the layout tests.
pub const STATS_WINDOW: &str = "stats panel";
pub const PAUSED_BANNER: &str = "paused banner";

/// A colour of the renderer (linear RGB) as egui paints it.
pub(crate) fn linear(colour: [f32; 4]) -> Color32 {
    egui::Rgba::from_rgba_unmultiplied(colour[0], colour[1], colour[2], 1.0).into()
}

/// A small filled square in `colour`, for legends.
pub(crate) fn swatch(ui: &mut egui::Ui, colour: Color32) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
    ui.painter().rect_filled(rect, 2.0, colour);
}

/// Lays out the HUD window for one frame, the paused banner and the keys overlay.
pub(crate) fn show(ctx: &egui::Context, stats: &HudStats, controls: &mut HudControls) {
    // Nearly opaque: the text must stay readable over bright red bodies, while a hint of what is behind
    // still shows. No drop shadow, which would darken the panel again from underneath.
    let frame = egui::Frame::window(&ctx.global_style())
        .fill(Color32::from_rgba_unmultiplied(12, 14, 20, 235))
        .shadow(egui::Shadow::NONE);
    // The chart opens where the panel has room for it: in a window high enough in pixels (so the HUD leaves
    // the scene visible) and in points (so the panel fits whatever the HUD's scale).
    let (width_px, height_px) = controls.window_px;
    let points = height_px / ui_scale((width_px as u32, height_px as u32), 1.0);
    let chart_open = height_px >= CHART_OPEN_HEIGHT && points >= CHART_OPEN_POINTS;
    egui::Window::new("gpu-gjk stress test")
        .id(egui::Id::unique(STATS_WINDOW))
        .frame(frame)
        .anchor(egui::Align2::LEFT_TOP, egui::vec2(8.0, 8.0))
        .resizable(false)
        .collapsible(true)
        // Shown at once, including after being hidden with H: the HUD is a readout, not a dialog.
        .fade_in(false)
        .show(ctx, |ui| {
            ui.set_width(CONTENT_WIDTH);
            stats_grid(ui, stats);
            ui.add(egui::Label::new(RichText::new(stats.check_mode).weak()).truncate())
                .on_hover_text(stats.check_mode);
            overlay_section(ui, stats, controls);
            // Folded with the chart where the panel has no room for it.
            egui::CollapsingHeader::new("Bus, this frame")
                .default_open(chart_open)
                .show(ui, |ui| rows_grid(ui, "hud_traffic", &traffic_rows(stats)));
            egui::CollapsingHeader::new("Timings")
                .default_open(chart_open)
                .show(ui, |ui| timing_chart(ui, stats, CONTENT_WIDTH));
            if ui.button("Keys and mouse (F1 or ?)").clicked() {
                *controls.help_open = !*controls.help_open;
            }
        });
    if stats.paused {
        paused_banner(ctx, controls);
    }
    help::show(ctx, controls.help_open);
}

/// "PAUSED" at the top of the scene, with a step button: apart from the panel, so pausing moves nothing.
fn paused_banner(ctx: &egui::Context, controls: &mut HudControls) {
    egui::Area::new(egui::Id::unique(PAUSED_BANNER))
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 8.0))
        .show(ctx, |ui| {
            egui::Frame::window(ui.style())
                .fill(Color32::from_rgba_unmultiplied(12, 14, 20, 235))
                .shadow(egui::Shadow::NONE)
                .show(ui, |ui| {
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
                        ui.label(RichText::new("Space resumes").weak());
                    });
                });
        });
}

/// Each overlay's checkbox (its key and colour beside it), the closest-point threshold, and the legend of the
/// body colours.
fn overlay_section(ui: &mut egui::Ui, stats: &HudStats, controls: &mut HudControls) {
    egui::CollapsingHeader::new("Overlays and legend")
        .default_open(true)
        .show(ui, |ui| {
            // Two overlays a row, each with its colour: the section stays short.
            egui::Grid::new("hud_overlays")
                .num_columns(4)
                .spacing([6.0, 2.0])
                .show(ui, |ui| {
                    for (k, overlay) in Overlay::ALL.into_iter().enumerate() {
                        swatch(ui, linear(overlay.colour()));
                        ui.checkbox(
                            controls.overlays.flag(overlay),
                            format!("{} {}", overlay.key(), overlay.short_label()),
                        )
                        .on_hover_text(format!("{}: {}", overlay.label(), overlay.legend()));
                        if k % 2 == 1 {
                            ui.end_row();
                        }
                    }
                });
            ui.checkbox(controls.picked_only, "O only the picked body's pairs")
                .on_hover_text(
                    "overlays drawn for the picked body's pairs only (all pairs while nothing is picked)",
                );
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
                    (PARTNER_EDGES, "its pairs"),
                    (SELECTED_PARTNER_EDGES, "selected"),
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
    rows_grid(ui, "hud_stats", &rows(stats));
}

/// Rows as a grid of labels and values, the label's hover explaining the row.
fn rows_grid(ui: &mut egui::Ui, id: &str, rows: &[HudRow]) {
    let text = ui.visuals().text_color();
    egui::Grid::new(id)
        .num_columns(2)
        .spacing([12.0, 1.0])
        .min_col_width(LABEL_WIDTH)
        .striped(true)
        .show(ui, |ui| {
            for row in rows {
                let label = ui
                    .allocate_ui_with_layout(
                        egui::vec2(LABEL_WIDTH, 16.0),
                        egui::Layout::left_to_right(egui::Align::Center),
                        |ui| {
                            ui.set_width(LABEL_WIDTH);
                            ui.add(egui::Label::new(RichText::new(row.label).weak()).truncate())
                        },
                    )
                    .inner;
                if !row.hover.is_empty() {
                    label.on_hover_text(&row.hover);
                }
                let colour = match row.tone {
                    Tone::Plain => text,
                    Tone::Gpu => GPU_COLOUR,
                    Tone::Cpu => CPU_COLOUR,
                    Tone::Alert => ALERT_COLOUR,
                };
                ui.allocate_ui_with_layout(
                    egui::vec2(VALUE_WIDTH, 16.0),
                    egui::Layout::left_to_right(egui::Align::Center),
                    |ui| {
                        ui.set_width(VALUE_WIDTH);
                        ui.add(
                            egui::Label::new(RichText::new(&row.value).color(colour)).truncate(),
                        )
                        .on_hover_text(&row.value);
                    },
                );
                ui.end_row();
            }
        });
}

/// GPU and CPU narrow-phase ms over the history, newest at x = 0, with the legend on a line of its own above
/// the chart so it hides no part of it. Unmeasured (NaN) samples are left out, so a line bridges the gap. In
/// the CPU mode only the CPU's line is drawn. The chart ignores the pointer: dragging over the HUD must not pan
/// it.
fn timing_chart(ui: &mut egui::Ui, stats: &HudStats, width: f32) {
    let history = stats.history;
    let gpu_name = if stats.gpu_timestamps {
        "GPU time ms"
    } else {
        "GPU round trip ms (host)"
    };
    let cpu_name = if stats.gpu_narrow_phase {
        "CPU check ms"
    } else {
        "CPU narrow ms"
    };
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        if stats.gpu_narrow_phase {
            swatch(ui, GPU_COLOUR);
            ui.label(RichText::new(gpu_name).small());
            ui.add_space(8.0);
        }
        swatch(ui, CPU_COLOUR);
        ui.label(RichText::new(cpu_name).small());
    });
    let newest = history.len() as f64 - 1.0;
    let series = |pick: fn(&(f64, f64)) -> f64| -> PlotPoints<'static> {
        history
            .iter()
            .enumerate()
            .filter(|(_, sample)| pick(sample).is_finite())
            .map(|(i, sample)| [i as f64 - newest, pick(sample)])
            .collect()
    };
    let gpu_line = stats.gpu_narrow_phase;
    Plot::new("hud_timings")
        .width(width)
        .height(CHART_HEIGHT)
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
            if gpu_line {
                plot.line(Line::new(gpu_name, series(|s| s.0)).color(GPU_COLOUR));
            }
            plot.line(Line::new(cpu_name, series(|s| s.1)).color(CPU_COLOUR));
        });
}
