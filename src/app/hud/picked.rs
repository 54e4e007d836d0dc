//! The picked body's window: its pairs with the GPU's and the CPU's answers side by side (status, distance or
//! EPA depth, iterations), disputed pairs first in magenta; a click selects a pair for "inspect" and "copy". The
//! selected pair is always a row (one that is no longer a candidate is marked), and a frozen inspector is named.

use super::layout::ALERT_COLOUR;
use crate::app::controls::Action;
use crate::app::selection::PairRow;
use crate::gjk::GjkResult;
use crate::stress::BodyState;
use egui::{Color32, RichText};

/// What the window shows.
pub struct PickedView<'a> {
    pub body: u32,
    pub shape: &'a str,
    /// Bounding radius.
    pub size: f32,
    pub state: BodyState,
    pub player: bool,
    pub rows: &'a [PairRow],
    /// When the frame's pairs stayed on the GPU, which listed the body's: how many it had no room for.
    pub listed_on_gpu: Option<u32>,
    pub selected: Option<[u32; 2]>,
    /// What the inspector shows, when it is open.
    pub inspected: Option<Snapshot>,
    /// What the last "copy pair" did.
    pub note: Option<&'a str>,
}

/// The inspector's pair and the frame it was traced in; `frozen` once the simulation has moved on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub pair: [u32; 2],
    pub frame: u64,
    pub frozen: bool,
}

const ROWS_HEIGHT: f32 = 230.0;

/// "sep 0.123", "hit", or the failure's name.
fn answer_text(answer: &GjkResult<f32>) -> String {
    if answer.status.is_failure() {
        answer.status.name().to_owned()
    } else if answer.intersecting {
        "hit".to_owned()
    } else {
        format!("{:.4}", answer.distance)
    }
}

pub fn show(ctx: &egui::Context, view: &PickedView, actions: &mut Vec<Action>) {
    let frame = egui::Frame::window(&ctx.global_style())
        .fill(Color32::from_rgba_unmultiplied(12, 14, 20, 235))
        .shadow(egui::Shadow::NONE);
    egui::Window::new(format!("Body {}", view.body))
        .id(egui::Id::unique("picked body"))
        .frame(frame)
        .anchor(egui::Align2::RIGHT_TOP, egui::vec2(-8.0, 8.0))
        .resizable(false)
        .collapsible(true)
        .fade_in(false)
        .show(ctx, |ui| {
            ui.set_width(330.0);
            let state = match view.state {
                BodyState::Free => "free",
                BodyState::Colliding => "colliding",
                BodyState::Disagreement => "GPU and CPU disagree",
            };
            ui.label(format!(
                "{}{}, size {:.3}, {state}, {}",
                view.shape,
                if view.player { " (player)" } else { "" },
                view.size,
                crate::text::count_len(view.rows.len(), "pair")
            ));
            if let Some(not_listed) = view.listed_on_gpu {
                let more = match not_listed {
                    0 => String::new(),
                    n => format!("; {} more not listed", crate::text::count_len(n as usize, "pair")),
                };
                ui.label(RichText::new(format!("pairs and poses listed on the GPU{more}")).small())
                    .on_hover_text(
                        "the frame's pairs stayed on the GPU, which listed this body's with the poses it \
                         answered; the GPU answers the listed pairs again on those poses, and the CPU beside it",
                    );
            }
            pair_table(ui, view, actions);
            ui.horizontal_wrapped(|ui| {
                let selected = view.selected.is_some();
                if ui
                    .add_enabled(selected, egui::Button::new("Inspect (I)"))
                    .clicked()
                {
                    actions.push(Action::Inspect);
                }
                if ui
                    .add_enabled(selected, egui::Button::new("Copy pair (C)"))
                    .clicked()
                {
                    actions.push(Action::CopyPair);
                }
                if ui.button("Frame all (F)").clicked() {
                    actions.push(Action::FrameAll);
                }
                if ui.button("Unpick").clicked() {
                    actions.push(Action::ClearSelection);
                }
            });
            if let Some(snapshot) = view.inspected.filter(|s| s.frozen) {
                ui.label(
                    RichText::new(format!(
                        "Inspector: pair {}-{} frozen at frame {} (I traces it again now)",
                        snapshot.pair[0], snapshot.pair[1], snapshot.frame
                    ))
                    .small(),
                );
            }
            if let Some(note) = view.note {
                ui.label(RichText::new(note).small());
            }
        });
}

fn pair_table(ui: &mut egui::Ui, view: &PickedView, actions: &mut Vec<Action>) {
    egui::ScrollArea::vertical()
        .max_height(ROWS_HEIGHT)
        .show(ui, |ui| {
            egui::Grid::new("picked pairs")
                .num_columns(5)
                .spacing([10.0, 2.0])
                .striped(true)
                .show(ui, |ui| {
                    for heading in ["with", "GPU", "CPU", "depth", "iter G/C"] {
                        ui.label(RichText::new(heading).weak());
                    }
                    ui.end_row();
                    for row in view.rows {
                        let colour = if row.disputed {
                            ALERT_COLOUR
                        } else {
                            ui.visuals().text_color()
                        };
                        let selected = view.selected == Some(row.pair);
                        // A selected pair whose boxes parted keeps its row, marked, until another is chosen.
                        let name = if row.candidate {
                            format!("#{}", row.other)
                        } else {
                            format!("#{} (parted)", row.other)
                        };
                        let label = ui.selectable_label(selected, RichText::new(name).color(colour));
                        let label = if row.candidate {
                            label
                        } else {
                            label.on_hover_text(
                                "no longer a candidate pair (the boxes parted): the CPU's answer on this \
                                 frame's poses; it stays selected until you choose another",
                            )
                        };
                        if label.clicked() {
                            actions.push(Action::SelectPair(row.pair));
                        }
                        let gpu = row.gpu.as_ref().map_or("—".to_owned(), answer_text);
                        ui.label(RichText::new(gpu).color(colour));
                        ui.label(RichText::new(answer_text(&row.cpu)).color(colour));
                        let depth = row
                            .contact
                            .map_or("—".to_owned(), |c| format!("{:.4}", c.depth));
                        ui.label(depth);
                        let gpu_iterations =
                            row.gpu.map_or("—".to_owned(), |g| g.iterations.to_string());
                        ui.label(format!("{gpu_iterations}/{}", row.cpu.iterations));
                        ui.end_row();
                    }
                });
        });
}
