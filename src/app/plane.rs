//! The 2D mode (`demo --2d`), after the seed demos: flat convex polygons in one plane, dragged with the left
//! mouse button (the wheel turns the one under the cursor), red while they overlap another, with the
//! Minkowski difference of the inspected pair drawn beside them around its own origin, GJK's simplex on it,
//! EPA's push-out vector, and the inspector stepping through both.
//!
//! No second algorithm: the polygons are flat hulls (z = 0) and the queries are the 3D ones, which are exact on
//! them. GJK's simplex then stays in the plane (a point, a segment or a triangle, as in 2D GJK). Penetration
//! is different: flat shapes that overlap in their plane touch along its normal with no depth, which is the
//! right 3D answer but not the 2D push-out. EPA therefore runs on the polygons extruded far out of the plane
//! (prisms 100 times their size deep), whose shallowest way out lies in the plane.

use super::camera::Camera;
use super::controls::Action;
use super::inspector::draw::{step_overlays, Placement};
use super::inspector::panel::{self, Placement as PanelPlacement};
use super::inspector::{GpuVerdict, InspectedPair, Inspector};
use super::overlays::arrow_head;
use super::picking::Ray;
use super::render::overlay::triangle;
use super::render::{OverlayBatch, OverlayPrim};
use crate::epa::PenetrationStatus;
use crate::gjk::{GjkConfig, QueryKind};
use crate::one_pair::{penetration_query, query, trace_penetration, trace_query};
use crate::pose::{Pose, RelativePose};
use crate::shape::ConvexShape;
use glam::{Quat, Vec2, Vec3};

/// Space between the polygons and the Minkowski difference drawn beside them, in plane units.
const GAP: f32 = 1.5;
/// Depth of the prisms EPA runs on, as a multiple of the largest polygon's size.
const EXTRUSION: f32 = 100.0;
/// Radians per wheel step.
const TURN_PER_STEP: f32 = 0.12;

const FREE: [f32; 4] = [0.55, 0.60, 0.68, 0.55];
const COLLIDING: [f32; 4] = [0.90, 0.06, 0.04, 0.6];
const PUSH_OUT: [f32; 4] = [1.0, 0.2, 0.25, 1.0];
const CLOSEST: [f32; 4] = [0.1, 0.9, 1.0, 1.0];
const SELECTED_EDGE: [f32; 4] = [1.0, 1.0, 1.0, 1.0];

/// One polygon: its outline (counter-clockwise, about its centre), the flat hull and the prism made from it,
/// and where it is.
struct Polygon {
    outline: Vec<Vec2>,
    flat: ConvexShape,
    prism: ConvexShape,
    position: Vec2,
    angle: f32,
}

impl Polygon {
    fn new(outline: Vec<Vec2>, position: Vec2, angle: f32, depth: f32) -> Self {
        let flat = ConvexShape::new(outline.iter().map(|p| p.extend(0.0)).collect(), 0.0)
            .expect("a polygon is a valid flat hull");
        let prism = ConvexShape::new(
            outline
                .iter()
                .flat_map(|p| [p.extend(-depth), p.extend(depth)])
                .collect(),
            0.0,
        )
        .expect("a prism is a valid hull");
        Self {
            outline,
            flat,
            prism,
            position,
            angle,
        }
    }

    fn pose(&self) -> Pose {
        Pose::new(self.position.extend(0.0), Quat::from_rotation_z(self.angle))
    }

    fn corners(&self) -> Vec<Vec3> {
        let pose = self.pose();
        self.outline
            .iter()
            .map(|p| pose.transform_point(p.extend(0.0)))
            .collect()
    }
}

fn regular(n: usize, radius: f32, stretch: f32) -> Vec<Vec2> {
    (0..n)
        .map(|k| {
            let a = std::f32::consts::TAU * k as f32 / n as f32;
            Vec2::new(radius * stretch * a.cos(), radius * a.sin())
        })
        .collect()
}

/// The answer for one pair of polygons.
#[derive(Clone, Copy)]
struct PairAnswer {
    pair: (usize, usize),
    intersecting: bool,
    /// Closest points (separated) in the plane.
    witnesses: (Vec3, Vec3),
    /// EPA's push-out of B (overlapping): from B's deepest point along the normal by the depth.
    push_out: Option<(Vec3, Vec3)>,
}

/// The 2D mode's state.
pub struct PlaneMode {
    polygons: Vec<Polygon>,
    answers: Vec<PairAnswer>,
    dragging: Option<(usize, Vec2)>,
    /// The inspected pair: the last polygon moved, and its nearest other polygon.
    selected: (usize, usize),
    inspector: Option<Inspector>,
    /// Where the Minkowski difference's origin is drawn: right of the polygons, its top level with their
    /// middle (the inspector's panel takes the top right); placed again for each inspected pair.
    minkowski_origin: Vec3,
    dirty: bool,
    frames: u64,
}

impl Default for PlaneMode {
    fn default() -> Self {
        Self::new()
    }
}

impl PlaneMode {
    /// Four polygons: two overlapping (EPA's push-out shows), two apart (the closest points show).
    pub fn new() -> Self {
        let depth = EXTRUSION * 1.6;
        let polygons = vec![
            Polygon::new(regular(5, 1.5, 1.0), Vec2::new(-4.6, 0.8), 0.2, depth),
            Polygon::new(regular(4, 1.2, 1.4), Vec2::new(-2.6, 1.6), 0.5, depth),
            Polygon::new(regular(3, 1.4, 1.0), Vec2::new(-5.0, -2.8), -0.3, depth),
            Polygon::new(regular(6, 1.1, 1.0), Vec2::new(-1.4, -2.1), 0.0, depth),
        ];
        let mut mode = Self {
            polygons,
            answers: Vec::new(),
            dragging: None,
            selected: (0, 1),
            inspector: None,
            minkowski_origin: Vec3::ZERO,
            dirty: true,
            frames: 0,
        };
        mode.update();
        mode
    }

    /// A camera looking straight down at the plane, holding the polygons and the whole Minkowski difference
    /// (with its origin) in a view of `aspect` (width over height), with room around them for the panels.
    pub fn camera(&self, aspect: f32) -> Camera {
        let (lo, hi) = self.drawn_bounds();
        let centre = (0.5 * (lo + hi)).extend(0.0);
        let half = 0.5 * (hi - lo) * 1.2;
        // The panels cover the top left and the top right: the view's top fifth is kept for them.
        let half_height = half.y.max(half.x / aspect.max(0.1)) * 1.25;
        let centre = centre + Vec3::new(0.0, 0.2 * half_height, 0.0);
        let distance = half_height.max(1e-3) / 30f32.to_radians().tan();
        let mut camera = Camera::looking_at(centre + Vec3::new(0.0, 0.0, distance), centre);
        camera.fit_clip_planes(distance);
        camera
    }

    /// The box (lower and upper corners in the plane) of the polygons and the Minkowski difference as drawn.
    fn drawn_bounds(&self) -> (Vec2, Vec2) {
        let (mut lo, mut hi) = self.polygon_bounds();
        if let Some(inspector) = &self.inspector {
            let (mlo, mhi) = minkowski_bounds(inspector);
            let offset = self.minkowski_origin.truncate();
            lo = lo.min(mlo + offset);
            hi = hi.max(mhi + offset);
        }
        (lo, hi)
    }

    fn polygon_bounds(&self) -> (Vec2, Vec2) {
        self.polygons
            .iter()
            .flat_map(|p| p.corners())
            .fold((Vec2::MAX, Vec2::MIN), |(lo, hi), c| {
                (lo.min(c.truncate()), hi.max(c.truncate()))
            })
    }

    /// The Minkowski difference's origin: right of the polygons, the top of A - B (or the origin, if higher)
    /// level with the polygons' middle.
    fn place_minkowski(&mut self) {
        let Some(inspector) = &self.inspector else {
            return;
        };
        let (lo, hi) = self.polygon_bounds();
        let (mlo, mhi) = minkowski_bounds(inspector);
        self.minkowski_origin = Vec3::new(hi.x + GAP - mlo.x, 0.5 * (lo.y + hi.y) - mhi.y, 0.0);
    }

    /// Frames drawn so far (a `--frames` run ends on this count).
    pub fn frames(&self) -> u64 {
        self.frames
    }

    pub fn inspector(&self) -> Option<&Inspector> {
        self.inspector.as_ref()
    }

    /// The point of the plane under the cursor.
    fn plane_point(cursor: Vec2, camera: &Camera, size: (u32, u32)) -> Option<Vec2> {
        let Ray { origin, dir } = super::picking::cursor_ray(camera, size, cursor);
        if dir.z.abs() < 1e-6 {
            return None;
        }
        let t = -origin.z / dir.z;
        (t > 0.0).then(|| (origin + dir * t).truncate())
    }

    /// The polygon holding `point`, by our own query (a point against each flat hull).
    fn polygon_at(&self, point: Vec2) -> Option<usize> {
        let dot = ConvexShape::new(vec![Vec3::ZERO], 0.0).expect("a point is a valid shape");
        let at = Pose::from_position(point.extend(0.0));
        self.polygons.iter().rposition(|p| {
            query(
                &dot,
                &at,
                &p.flat,
                &p.pose(),
                QueryKind::Intersection,
                &GjkConfig::default(),
            )
            .intersecting
        })
    }

    /// The left button: a press on a polygon starts dragging it.
    pub fn press(&mut self, pressed: bool, cursor: Vec2, camera: &Camera, size: (u32, u32)) {
        if !pressed {
            self.dragging = None;
            return;
        }
        let Some(point) = Self::plane_point(cursor, camera, size) else {
            return;
        };
        if let Some(k) = self.polygon_at(point) {
            self.dragging = Some((k, self.polygons[k].position - point));
            self.select_around(k);
        }
    }

    pub fn drag_to(&mut self, cursor: Vec2, camera: &Camera, size: (u32, u32)) {
        let Some((k, offset)) = self.dragging else {
            return;
        };
        if let Some(point) = Self::plane_point(cursor, camera, size) {
            self.polygons[k].position = point + offset;
            self.select_around(k);
            self.dirty = true;
        }
    }

    /// The wheel turns the polygon under the cursor.
    pub fn wheel(&mut self, steps: f32, cursor: Vec2, camera: &Camera, size: (u32, u32)) {
        let Some(k) = Self::plane_point(cursor, camera, size).and_then(|p| self.polygon_at(p))
        else {
            return;
        };
        self.polygons[k].angle += steps * TURN_PER_STEP;
        self.select_around(k);
        self.dirty = true;
    }

    /// Inspects `k` with its nearest other polygon.
    fn select_around(&mut self, k: usize) {
        let centre = self.polygons[k].position;
        let nearest = (0..self.polygons.len())
            .filter(|&j| j != k)
            .min_by(|&i, &j| {
                let d = |m: usize| self.polygons[m].position.distance(centre);
                d(i).total_cmp(&d(j))
            });
        if let Some(j) = nearest {
            if self.selected != (k, j) {
                self.selected = (k, j);
                self.dirty = true;
            }
        }
    }

    pub fn act(&mut self, action: Action) {
        let Some(inspector) = &mut self.inspector else {
            return;
        };
        match action {
            Action::InspectorBack => inspector.back(),
            Action::InspectorForward => inspector.forward(),
            Action::InspectorPlay => inspector.toggle_play(),
            Action::InspectorSeek(step) => inspector.seek(step),
            _ => {}
        }
    }

    /// One frame: answers again after a change, and the inspector plays on.
    pub fn advance(&mut self, dt: f32) {
        self.frames += 1;
        if self.dirty {
            self.update();
        }
        if let Some(inspector) = &mut self.inspector {
            inspector.advance(dt);
        }
    }

    /// Every pair answered with our queries, and the inspector rebuilt on the selected pair.
    fn update(&mut self) {
        self.dirty = false;
        let config = GjkConfig::default();
        let n = self.polygons.len();
        self.answers = (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .map(|(i, j)| {
                let (a, b) = (&self.polygons[i], &self.polygons[j]);
                let (pa, pb) = (a.pose(), b.pose());
                let r = query(&a.flat, &pa, &b.flat, &pb, QueryKind::Distance, &config);
                let push_out = r.intersecting.then(|| {
                    let (_, hit) = penetration_query(&a.prism, &pa, &b.prism, &pb, &config);
                    let from = pa.transform_point(hit.contact_b) * Vec3::new(1.0, 1.0, 0.0);
                    // The deepest way out of two prisms lies in the plane; what the normal has along the
                    // prisms' axis is rounding on shapes 100 times deeper than wide (about 1e-4).
                    let normal = (pa.rotation * hit.normal)
                        .truncate()
                        .normalize_or_zero()
                        .extend(0.0);
                    (hit.status == PenetrationStatus::Penetrating)
                        .then_some((from, from + normal * hit.depth))
                });
                PairAnswer {
                    pair: (i, j),
                    intersecting: r.intersecting,
                    witnesses: (
                        pa.transform_point(r.witness_a),
                        pa.transform_point(r.witness_b),
                    ),
                    push_out: push_out.flatten(),
                }
            })
            .collect();
        let (i, j) = self.selected;
        let (a, b) = (&self.polygons[i], &self.polygons[j]);
        let relative = RelativePose::between_f32(&a.pose(), &b.pose());
        let trace = trace_query(&a.flat, &b.flat, &relative, QueryKind::Distance, &config);
        let epa_trace = trace
            .result
            .intersecting
            .then(|| trace_penetration(&a.prism, &b.prism, &relative, &config));
        self.inspector = Some(Inspector::new(InspectedPair {
            label: format!("polygons {} and {}", i + 1, j + 1),
            a: a.flat.clone(),
            b: b.flat.clone(),
            relative,
            frame: a.pose().to_f64(),
            trace,
            epa_trace,
            gpu: GpuVerdict::Unavailable("the 2D mode answers on the CPU only".into()),
            flat: true,
        }));
        self.place_minkowski();
    }

    /// Names the Minkowski difference's origin and its axes where the scene draws them (`camera` is the
    /// scene's).
    fn label_origin(&self, ctx: &egui::Context, camera: &Camera) {
        let Some(inspector) = &self.inspector else {
            return;
        };
        let rect = ctx.content_rect();
        let view_proj = camera.view_proj(rect.width() / rect.height().max(1.0));
        let on_screen = |p: Vec3| {
            let clip = view_proj * p.extend(1.0);
            let ndc = clip.truncate() / clip.w;
            egui::pos2(
                rect.left() + (ndc.x + 1.0) * 0.5 * rect.width(),
                rect.top() + (1.0 - ndc.y) * 0.5 * rect.height(),
            )
        };
        let painter = ctx.layer_painter(egui::LayerId::background());
        let font = egui::FontId::proportional(14.0);
        let o = self.minkowski_origin;
        painter.text(
            on_screen(o) + egui::vec2(-8.0, 8.0),
            egui::Align2::RIGHT_TOP,
            "origin of A − B",
            font.clone(),
            egui::Color32::WHITE,
        );
        for (tip, colour) in super::inspector::draw::drawn_origin_axes(inspector) {
            let name = if tip.x != 0.0 { "x" } else { "y" };
            let colour = crate::app::hud::layout::linear(colour);
            painter.text(
                on_screen(o + tip * 1.3),
                egui::Align2::CENTER_CENTER,
                name,
                font.clone(),
                colour,
            );
        }
    }

    /// Answers again now if a polygon moved (without counting a frame).
    pub fn refresh(&mut self) {
        if self.dirty {
            self.update();
        }
    }

    /// Whether the left button is dragging a polygon.
    pub fn dragging(&self) -> bool {
        self.dragging.is_some()
    }

    fn colliding(&self, k: usize) -> bool {
        self.answers
            .iter()
            .any(|a| a.intersecting && (a.pair.0 == k || a.pair.1 == k))
    }

    /// The polygons, their answers and the inspected pair's Minkowski difference.
    pub fn overlays(&self) -> OverlayBatch {
        let mut batch = OverlayBatch::default();
        for (k, polygon) in self.polygons.iter().enumerate() {
            let corners = polygon.corners();
            let fill = if self.colliding(k) { COLLIDING } else { FREE };
            for i in 1..corners.len() - 1 {
                batch
                    .triangles
                    .extend(triangle([corners[0], corners[i], corners[i + 1]], fill));
            }
            let selected = k == self.selected.0 || k == self.selected.1;
            let edge = if selected {
                SELECTED_EDGE
            } else {
                [fill[0], fill[1], fill[2], 1.0]
            };
            for i in 0..corners.len() {
                let next = corners[(i + 1) % corners.len()];
                batch.prims.push(OverlayPrim::segment(
                    corners[i],
                    next,
                    if selected { 3.0 } else { 2.0 },
                    edge,
                ));
            }
        }
        for answer in &self.answers {
            let selected = answer.pair == self.selected;
            match answer.push_out {
                Some((from, to)) => {
                    batch
                        .prims
                        .push(OverlayPrim::segment(from, to, 3.0, PUSH_OUT));
                    arrow_head(&mut batch, from, to, PUSH_OUT);
                }
                None if selected && !answer.intersecting => {
                    let (a, b) = answer.witnesses;
                    batch.prims.push(OverlayPrim::segment(a, b, 2.5, CLOSEST));
                    batch.prims.push(OverlayPrim::disc(a, 7.0, CLOSEST));
                    batch.prims.push(OverlayPrim::disc(b, 7.0, CLOSEST));
                }
                None => {}
            }
        }
        if let Some(inspector) = &self.inspector {
            let minkowski = step_overlays(
                inspector,
                Placement {
                    offset: self.minkowski_origin,
                    flatten: true,
                },
            );
            batch.prims.extend(minkowski.prims);
            batch.triangles.extend(minkowski.triangles);
        }
        batch
    }

    /// The 2D mode's HUD: what to do, and the inspector's panel (its view is the scene itself).
    pub fn hud(&mut self, ctx: &egui::Context, camera: &Camera, actions: &mut Vec<Action>) {
        self.label_origin(ctx, camera);
        egui::Window::new("gpu-gjk 2D")
            .anchor(egui::Align2::LEFT_TOP, egui::vec2(8.0, 8.0))
            .resizable(false)
            .collapsible(true)
            .fade_in(false)
            .show(ctx, |ui| {
                ui.set_width(280.0);
                ui.label(
                    "Drag a polygon with the left mouse button; the wheel turns the one under the \
                     cursor. Red: it overlaps another. Right: the inspected pair's Minkowski difference \
                     A − B around its origin (white), GJK's simplex (orange), the closest point (cyan) \
                     or EPA's polytope and push-out (red). Keys: , . step, P play.",
                );
            });
        if let Some(inspector) = &mut self.inspector {
            panel::show(ctx, inspector, None, PanelPlacement::DockedTop, actions);
        }
    }
}

/// The box of A - B (with the radii, when drawn) and its origin, in the plane, about that origin.
fn minkowski_bounds(inspector: &Inspector) -> (Vec2, Vec2) {
    let hull = inspector.swept.as_ref().unwrap_or(&inspector.hull);
    hull.vertices
        .iter()
        .map(|v| v.truncate())
        .fold((Vec2::ZERO, Vec2::ZERO), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_has_an_overlapping_pair_with_a_push_out_in_the_plane() {
        let mode = PlaneMode::new();
        let first = mode.answers.iter().find(|a| a.pair == (0, 1)).unwrap();
        assert!(first.intersecting);
        let (from, to) = first.push_out.expect("EPA answered");
        assert!(
            from.z.abs() < 1e-4 && to.z.abs() < 1e-3,
            "{from} {to}: out of the plane"
        );
        assert!(from.distance(to) > 0.1, "a visible push-out");
        // Moving B by a little more than the push-out separates the flat polygons, a little less does not.
        let (a, b) = (&mode.polygons[0], &mode.polygons[1]);
        let moved = |k: f32| {
            let pose = Pose::new(b.position.extend(0.0) + (to - from) * k, b.pose().rotation);
            query(
                &a.flat,
                &a.pose(),
                &b.flat,
                &pose,
                QueryKind::Distance,
                &GjkConfig::default(),
            )
        };
        let depth = from.distance(to);
        let beyond = moved(1.02);
        assert!(
            !beyond.intersecting && beyond.distance < 0.03 * depth,
            "{beyond:?}"
        );
        assert!(moved(0.98).intersecting);
        let inspector = mode.inspector().unwrap();
        assert!(!inspector.epa_iterations().is_empty());
        // GJK on flat hulls keeps its simplex in the plane: at most a triangle.
        assert!(inspector
            .gjk_run()
            .gjk
            .iter()
            .all(|it| it.simplex.len() <= 3));
        assert!(mode.answers.iter().any(|a| !a.intersecting));
    }

    #[test]
    fn a_drag_moves_the_polygon_under_the_cursor_and_selects_it() {
        let mut mode = PlaneMode::new();
        let camera = mode.camera(1280.0 / 720.0);
        let size = (1280, 720);
        // The screen position of polygon 2's centre.
        let centre = mode.polygons[2].position.extend(0.0);
        let clip = camera.view_proj(1280.0 / 720.0) * centre.extend(1.0);
        let ndc = clip.truncate() / clip.w;
        let pixel = Vec2::new((ndc.x + 1.0) * 640.0, (1.0 - ndc.y) * 360.0);
        mode.press(true, pixel, &camera, size);
        mode.drag_to(pixel + Vec2::new(100.0, 0.0), &camera, size);
        mode.press(false, pixel, &camera, size);
        assert!(mode.polygons[2].position.x > centre.x + 0.5);
        assert_eq!(mode.selected.0, 2);
        mode.advance(0.1);
        assert_eq!(
            mode.inspector().unwrap().pair.label.split(' ').nth(1),
            Some("3")
        );
    }

    /// Every point the overlays draw (segment ends, discs, triangle corners), in the plane's world.
    fn drawn_points(mode: &PlaneMode) -> Vec<Vec3> {
        let batch = mode.overlays();
        batch
            .prims
            .iter()
            .flat_map(|p| [Vec3::from_slice(&p.a[..3]), Vec3::from_slice(&p.b[..3])])
            .chain(batch.triangles.iter().map(|v| Vec3::from(v.position)))
            .collect()
    }

    #[test]
    fn the_camera_holds_the_polygons_and_the_whole_minkowski_difference() {
        let mut mode = PlaneMode::new();
        let aspect = 1280.0 / 720.0;
        let check = |mode: &PlaneMode, what: &str| {
            let view_proj = mode.camera(aspect).view_proj(aspect);
            for p in drawn_points(mode) {
                let clip = view_proj * p.extend(1.0);
                let ndc = clip.truncate() / clip.w;
                assert!(
                    ndc.x.abs() <= 0.98 && ndc.y.abs() <= 0.98,
                    "{what}: {p} is drawn at {ndc}, at or past the edge"
                );
            }
        };
        check(&mode, "at the start");
        // A polygon dragged far away and dropped: the Minkowski difference grows; the view takes it in.
        mode.polygons[1].position = Vec2::new(9.0, -7.0);
        mode.select_around(1);
        mode.dirty = true;
        mode.refresh();
        check(&mode, "after a drop far away");
    }

    #[test]
    fn the_inspector_opens_on_the_step_asked_for() {
        let mut mode = PlaneMode::new();
        assert!(mode.inspector().unwrap().step_count() > 3);
        mode.act(Action::InspectorSeek(2));
        mode.advance(1.0 / 60.0);
        assert_eq!(mode.inspector().unwrap().step_index(), 2);
    }
}
