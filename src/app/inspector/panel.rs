//! The inspector's egui window: the 3D view (drag to orbit, wheel to zoom), the step controls, what the step
//! holds in numbers, the distance bounds per iteration, and the CPU's answer beside the GPU's.

use super::draw;
use super::{GpuVerdict, Inspector, Step};
use crate::app::controls::Action;
use crate::app::hud::layout::{linear, swatch, ALERT_COLOUR};
use crate::cli::inspect_steps::{epa_expansions, expansions_text, FRAME};
use crate::gjk::GjkResult;
use crate::query::trace::TracePoint;
use egui::{Color32, RichText};
use egui_plot::{Legend, Line, Plot, PlotPoints, VLine};
use glam::DVec3;

/// Under the view: the frame it draws in.
const FRAME_CAPTION: &str =
    "World coordinates (as inspect prints them and --trace writes them): A − B is \
     every a − b of a point a of A and b of B where they stand; GJK measures from the origin.";

const AGREE_COLOUR: Color32 = Color32::from_rgb(90, 200, 120);

/// How the window sits: beside the scene (bottom right, sized for the view) or filling the screen (the
/// `inspect --screenshot` picture).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    Docked,
    /// Docked at the top right (the 2D mode, whose Minkowski difference is drawn at the bottom right).
    DockedTop,
    Full,
}

/// What the window reports back: the view's size in physical pixels (the next render's size).
pub struct PanelOutput {
    pub view_px: (u32, u32),
}

fn v3(v: DVec3) -> String {
    format!("({:.4}, {:.4}, {:.4})", v.x, v.y, v.z)
}

/// A support point in world coordinates: a − b = w.
fn point(inspector: &Inspector, p: &TracePoint) -> String {
    format!(
        "{} − {} = {}",
        v3(inspector.world_point(p.a)),
        v3(inspector.world_point(p.b)),
        v3(inspector.world_vector(p.w))
    )
}

fn simplex_name(len: usize) -> &'static str {
    match len {
        1 => "point",
        2 => "segment",
        3 => "triangle",
        _ => "tetrahedron",
    }
}

/// The step in words and numbers, in world coordinates, counted as `inspect` counts in the terminal.
pub fn describe(inspector: &Inspector) -> Vec<String> {
    let mut lines = vec![format!(
        "step {} of 0 to {} ({FRAME})",
        inspector.step_index(),
        inspector.step_count().saturating_sub(1)
    )];
    let w = |v: DVec3| v3(inspector.world_vector(v));
    let run = inspector.gjk_run();
    let precision = if run.float64 { "float64" } else { "float32" };
    match inspector.current() {
        Some(Step::Gjk(k)) => {
            let Some(it) = inspector.gjk_iteration(k) else {
                return lines;
            };
            lines.push(format!(
                "GJK iteration {k} of {} ({precision})",
                run.gjk.len() - 1
            ));
            match it.direction {
                Some(d) => lines.push(format!("search direction {}", w(d))),
                None => lines.push("start: B's support point towards A, A's towards B".into()),
            }
            lines.push(format!(
                "support w = a − b: {}",
                point(inspector, &it.support)
            ));
            let weights: Vec<String> = it.simplex.iter().map(|(_, l)| format!("{l:.3}")).collect();
            lines.push(format!(
                "simplex: {} ({} points), weights {}",
                simplex_name(it.simplex.len()),
                it.simplex.len(),
                weights.join(", ")
            ));
            lines.push(format!(
                "closest point v {}, |v| {:.6}",
                w(it.closest),
                it.closest.length()
            ));
            lines.push(format!(
                "bounds on the distance: {:.6} <= d <= {:.6}",
                it.lower_bound, it.upper_bound
            ));
        }
        Some(Step::Epa(k)) => {
            let iterations = inspector.epa_iterations();
            let Some(it) = iterations.get(k) else {
                return lines;
            };
            let run = inspector.epa_run();
            let tries = run.map_or(1, |run| run.epa_tries);
            let expansions = run.map_or(0, |run| epa_expansions(run, it.attempt));
            let try_text = format!("try {} of {tries}", it.attempt + 1);
            lines.push(if it.iteration == 0 {
                format!(
                    "EPA ({precision}): the starting polytope; {} in all ({try_text})",
                    expansions_text(expansions)
                )
            } else {
                format!(
                    "EPA ({precision}) expansion {} of {expansions} ({try_text})",
                    it.iteration
                )
            });
            lines.push(format!(
                "{} faces; closest face normal {}, depth {:.6}",
                it.face_count,
                w(it.normal),
                it.depth
            ));
            lines.push(format!(
                "support along it: {}",
                point(inspector, &it.support)
            ));
            let beyond = it.support.w.dot(it.normal) - it.face[0].dot(it.normal);
            lines.push(format!(
                "support beyond the face by {beyond:.3e}: {}",
                if k + 1 == iterations.len() {
                    "within the tolerance, the face is on A − B"
                } else {
                    "the polytope grows to it"
                }
            ));
        }
        None => lines.push("no iterations".into()),
    }
    lines
}

fn answer_text(result: &GjkResult<f32>, depth: Option<f32>) -> String {
    let depth = depth.map_or(String::new(), |d| format!(", depth {d:.5}"));
    format!(
        "{}, distance {:.6}{depth}, {}",
        result.status.name(),
        result.distance,
        crate::text::count(result.iterations, "iteration")
    )
}

/// The answers, CPU and GPU, and whether they agree.
fn verdict(ui: &mut egui::Ui, inspector: &Inspector) {
    let (cpu, cpu_hit) = inspector.cpu_answer();
    let depth = cpu_hit.filter(|_| cpu.intersecting).map(|h| h.depth);
    ui.label(format!("CPU: {}", answer_text(&cpu, depth)));
    match &inspector.pair.gpu {
        GpuVerdict::Answer {
            result,
            penetration,
        } => {
            let depth = result.intersecting.then_some(penetration.depth);
            let agrees = inspector.gpu_agrees() == Some(true);
            let colour = if agrees { AGREE_COLOUR } else { ALERT_COLOUR };
            ui.label(RichText::new(format!("GPU: {}", answer_text(result, depth))).color(colour));
            if !agrees {
                ui.label(
                    RichText::new(
                        "The GPU's answer differs from the CPU's (or is a named failure).",
                    )
                    .color(ALERT_COLOUR),
                );
            }
        }
        GpuVerdict::Unavailable(why) => {
            ui.label(RichText::new(format!("GPU: {why}")).weak());
        }
    }
}

/// Lower and upper bounds per GJK iteration, then EPA's closest-face depth per expansion, against the step.
fn bounds_chart(ui: &mut egui::Ui, inspector: &Inspector, width: f32, height: f32) {
    let run = inspector.gjk_run();
    let gjk = run.gjk.len();
    let series = |f: fn(&crate::query::trace::GjkIterationTrace) -> f64| -> PlotPoints<'static> {
        run.gjk
            .iter()
            .enumerate()
            .map(|(i, it)| [i as f64, f(it)])
            .filter(|p| p[1].is_finite())
            .collect()
    };
    let epa: PlotPoints = inspector
        .epa_iterations()
        .iter()
        .enumerate()
        .map(|(i, it)| [(gjk + i) as f64, -it.depth])
        .collect();
    Plot::new("inspector bounds")
        .width(width)
        .height(height)
        .legend(Legend::default().position(egui_plot::Corner::RightTop))
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .show(ui, |plot| {
            plot.line(
                Line::new("upper bound", series(|it| it.upper_bound)).color(linear(draw::CLOSEST)),
            );
            plot.line(
                Line::new("lower bound", series(|it| it.lower_bound)).color(linear(draw::SIMPLEX)),
            );
            plot.line(Line::new("−EPA depth", epa).color(linear(draw::DEPTH)));
            plot.vline(VLine::new("step", inspector.step_index() as f64).color(Color32::WHITE));
        });
}

/// The step buttons and slider.
fn step_controls(ui: &mut egui::Ui, inspector: &Inspector, actions: &mut Vec<Action>) {
    ui.horizontal(|ui| {
        if ui.button("|<").on_hover_text("first step").clicked() {
            actions.push(Action::InspectorSeek(0));
        }
        if ui.button("<").on_hover_text("back (,)").clicked() {
            actions.push(Action::InspectorBack);
        }
        let play = if inspector.playing { "Pause" } else { "Play" };
        if ui.button(play).on_hover_text("play (P)").clicked() {
            actions.push(Action::InspectorPlay);
        }
        if ui.button(">").on_hover_text("forward (.)").clicked() {
            actions.push(Action::InspectorForward);
        }
        if ui.button(">|").on_hover_text("last step").clicked() {
            actions.push(Action::InspectorSeek(usize::MAX));
        }
        let mut step = inspector.step_index();
        let last = inspector.step_count().saturating_sub(1);
        if ui
            .add(egui::Slider::new(&mut step, 0..=last).text("step"))
            .changed()
        {
            actions.push(Action::InspectorSeek(step));
        }
    });
}

fn legend(ui: &mut egui::Ui, radii: bool) {
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        let with_radii = radii.then_some((draw::SWEPT_EDGE, "with the radii"));
        for (colour, name) in [
            Some((draw::HULL_EDGE, "A − B")),
            with_radii,
            Some((draw::ORIGIN, "origin")),
            Some((draw::SIMPLEX, "simplex")),
            Some((draw::SUPPORT, "direction, support")),
            Some((draw::CLOSEST, "closest point")),
            Some((draw::POLYTOPE_EDGE, "EPA polytope")),
            Some((draw::CLOSEST_FACE, "closest face")),
            Some((draw::DEPTH, "depth")),
        ]
        .into_iter()
        .flatten()
        {
            swatch(ui, linear(colour));
            ui.label(RichText::new(name).small());
        }
    });
}

/// Zooms the view by `steps` wheel steps towards the origin and the current step's simplex
/// ([`Inspector::focus`], the middle of the origin and the closest point), turned to look at it, never so close
/// that the two leave the view.
pub fn zoom_view(inspector: &mut Inspector, steps: f32) {
    let focus = inspector.focus();
    let near = (2.2 * focus.length()).max(1e-3 * inspector.hull.radius.max(1e-6));
    let mut camera = inspector.camera;
    camera.zoom(steps, Some(focus), near, near);
    let fov = camera.fov_y;
    camera = crate::app::camera::Camera::looking_at(camera.position, focus);
    camera.fov_y = fov;
    camera.fit_clip_planes(camera.position.distance(focus));
    inspector.camera = camera;
}

/// Names what the view shows at its place in the picture: the origin, and the axes' tips x, y, z (world
/// coordinates).
fn label_view(ui: &egui::Ui, inspector: &Inspector, rect: egui::Rect) {
    let aspect = rect.width() / rect.height().max(1.0);
    let view_proj = inspector.camera.view_proj(aspect);
    let on_screen = |p: glam::Vec3| {
        let clip = view_proj * p.extend(1.0);
        (clip.w > 0.0).then(|| {
            let ndc = clip.truncate() / clip.w;
            egui::pos2(
                rect.left() + (ndc.x + 1.0) * 0.5 * rect.width(),
                rect.top() + (1.0 - ndc.y) * 0.5 * rect.height(),
            )
        })
    };
    let painter = ui.painter_at(rect);
    let font = egui::FontId::proportional(13.0);
    if let Some(at) = on_screen(glam::Vec3::ZERO) {
        painter.text(
            at + egui::vec2(8.0, 8.0),
            egui::Align2::LEFT_TOP,
            "origin",
            font.clone(),
            Color32::WHITE,
        );
    }
    for (tip, colour) in draw::drawn_origin_axes(inspector) {
        let name = if tip.x != 0.0 {
            "x"
        } else if tip.y != 0.0 {
            "y"
        } else {
            "z"
        };
        if let Some(at) = on_screen(tip * 1.25) {
            painter.text(
                at,
                egui::Align2::CENTER_CENTER,
                name,
                font.clone(),
                linear(colour),
            );
        }
    }
}

/// Lays out the window. `texture` is the 3D view's image (`None` while it has none, for instance in the 2D
/// mode, whose scene is the view).
pub fn show(
    ctx: &egui::Context,
    inspector: &mut Inspector,
    texture: Option<egui::TextureId>,
    placement: Placement,
    actions: &mut Vec<Action>,
) -> PanelOutput {
    let screen = ctx.content_rect();
    let ppp = ctx.pixels_per_point();
    let (view_size, side_width) = match placement {
        Placement::Docked | Placement::DockedTop => (egui::vec2(300.0, 225.0), 300.0),
        Placement::Full => {
            let w = (screen.width() - 40.0) * 0.58;
            (
                egui::vec2(w, screen.height() - 92.0),
                (screen.width() - 40.0) * 0.4,
            )
        }
    };
    let mut output = PanelOutput {
        view_px: ((view_size.x * ppp) as u32, (view_size.y * ppp) as u32),
    };
    let mut window = egui::Window::new(format!("GJK/EPA inspector: {}", inspector.pair.label))
        .id(egui::Id::unique("inspector"))
        .frame(
            egui::Frame::window(&ctx.global_style())
                .fill(Color32::from_rgba_unmultiplied(12, 14, 20, 240))
                .shadow(egui::Shadow::NONE),
        )
        .resizable(false)
        .collapsible(true)
        .fade_in(false);
    window = match placement {
        Placement::Docked => window.anchor(egui::Align2::RIGHT_BOTTOM, egui::vec2(-8.0, -8.0)),
        Placement::DockedTop => window.anchor(egui::Align2::RIGHT_TOP, egui::vec2(-8.0, 8.0)),
        Placement::Full => window.anchor(egui::Align2::LEFT_TOP, egui::vec2(8.0, 8.0)),
    };
    window.show(ctx, |ui| {
        ui.horizontal_top(|ui| {
            if let Some(texture) = texture {
                ui.vertical(|ui| {
                    ui.set_max_width(view_size.x);
                    let response = ui.add(
                        egui::Image::new((texture, view_size)).sense(egui::Sense::click_and_drag()),
                    );
                    label_view(ui, inspector, response.rect);
                    let drag = response.drag_delta();
                    if drag != egui::Vec2::ZERO {
                        let focus = inspector.focus();
                        inspector.camera.orbit(focus, drag.x * 2.0, drag.y * 2.0);
                    }
                    if response.hovered() {
                        let scroll = ui.input(|i| i.smooth_scroll_delta.y);
                        if scroll != 0.0 {
                            zoom_view(inspector, scroll / 50.0);
                        }
                    }
                    ui.add(egui::Label::new(RichText::new(FRAME_CAPTION).small().weak()).wrap());
                });
                output.view_px = ((view_size.x * ppp) as u32, (view_size.y * ppp) as u32);
            }
            ui.vertical(|ui| {
                ui.set_width(side_width);
                // The GPU's answer against the CPU's first: what the inspector is opened to check.
                verdict(ui, inspector);
                step_controls(ui, inspector, actions);
                for line in describe(inspector) {
                    ui.label(RichText::new(line).monospace().small());
                }
                let radii = inspector.gjk_run().margin;
                let mut notes = String::from("A − B of the cores");
                if radii > 0.0 {
                    notes += &format!("; the outline around it adds the radii, {radii:.4}");
                }
                if inspector.hull.thinned {
                    notes += "; hull drawn from a sample of the differences";
                }
                ui.label(RichText::new(notes).small().weak());
                let chart_height = if placement == Placement::Full {
                    220.0
                } else {
                    110.0
                };
                bounds_chart(ui, inspector, side_width, chart_height);
                legend(ui, inspector.swept.is_some());
                if placement == Placement::Docked && ui.button("Close").clicked() {
                    actions.push(Action::CloseInspector);
                }
            });
        });
    });
    output
}
