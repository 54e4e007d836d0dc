//! The keys overlay (F1 or ?): every key and mouse control in one window over the middle of the scene, sized to
//! the window so it always fits (it scrolls in a window too small for it), instead of a list folded into the
//! stats panel.

use egui::{Color32, RichText};

/// The overlay's egui id, for the layout tests.
pub const HELP_WINDOW: &str = "keys overlay";

/// Every control, grouped as the debug renderer's users look for them: (keys, what they do).
pub const KEYS: [(&str, &[(&str, &str)]); 4] = [
    (
        "Camera",
        &[
            ("W A S D", "move the camera"),
            ("right drag", "turn; orbit the picked body"),
            ("mouse wheel", "zoom, towards the picked body"),
            ("F", "frame all"),
        ],
    ),
    (
        "Scene",
        &[
            ("Space", "pause"),
            ("N", "one frame forward (paused)"),
            ("arrows, Q / E", "move the player along X Y, Z"),
            ("1 2 3 4", "player: cube, sphere, cone, cylinder"),
            ("+ / -", "a quarter more / fewer bodies"),
            ("G", "narrow phase on the GPU or the CPU"),
            ("R", "response: off, push-apart, physics"),
            ("V", "hull wireframes"),
        ],
    ),
    (
        "Debug renderer",
        &[
            (
                "5 6 7 8 9",
                "overlays: contacts, closest points, AABBs, pairs, disagreements",
            ),
            ("O", "overlays for the picked body's pairs only"),
            ("left click", "pick a body (its partners outlined)"),
            ("[ / ]", "previous / next pair of the picked body"),
            ("M", "next GPU/CPU disagreement: pick it, fly there"),
            ("I", "GJK/EPA inspector on the selected pair"),
            (", / . / P", "inspector: step back, forward, play"),
            ("C", "copy the selected pair as a query line"),
            ("Backspace", "drop the selection"),
        ],
    ),
    (
        "Window",
        &[
            ("F1 or ?", "this overlay"),
            ("H", "hide the HUD"),
            ("F12", "screenshot"),
            ("Esc", "quit"),
        ],
    ),
];

/// Shows the overlay while `open`; its close button clears `open`.
pub fn show(ctx: &egui::Context, open: &mut bool) {
    if !*open {
        return;
    }
    let screen = ctx.content_rect();
    // The content's size: the frame's margins and the title bar come on top.
    let width = (screen.width() - 64.0).clamp(100.0, 560.0);
    let height = (screen.height() - 110.0).max(60.0);
    let frame = egui::Frame::window(&ctx.global_style())
        .fill(Color32::from_rgba_unmultiplied(12, 14, 20, 245))
        .shadow(egui::Shadow::NONE);
    egui::Window::new("Keys and mouse (F1 or ? closes)")
        .id(egui::Id::unique(HELP_WINDOW))
        .frame(frame)
        .open(open)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .resizable(false)
        .collapsible(false)
        .fade_in(false)
        .min_width(width)
        .max_width(width)
        .max_height(height)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical()
                .max_height(height)
                .show(ui, |ui| {
                    for (group, keys) in KEYS {
                        ui.label(RichText::new(group).strong());
                        egui::Grid::new(("keys", group))
                            .num_columns(2)
                            .spacing([14.0, 2.0])
                            .min_col_width(90.0)
                            .max_col_width((width - 110.0).max(60.0))
                            .show(ui, |ui| {
                                for (key, does) in keys {
                                    ui.label(RichText::new(*key).monospace());
                                    ui.add(egui::Label::new(*does).wrap());
                                    ui.end_row();
                                }
                            });
                        ui.add_space(4.0);
                    }
                });
        });
}
