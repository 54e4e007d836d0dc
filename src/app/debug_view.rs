//! The debug renderer's state in the stress test: which overlays are on, the picked body and its selected
//! pair, the pair rows and contacts computed for the current frame, the inspector, "copy pair", and camera
//! flights to a body or a disputed pair. The window drives it; everything here works on the simulation's
//! latest frame ([`super::sim::FrameData`]), which does not change while paused.

use super::camera::Camera;
use super::draw_list::{highlight_instances, Outlines};
use super::inspector::{GpuVerdict, InspectedPair, Inspector};
use super::manifold_overlay::manifold_prims;
use super::overlays::{contacts, scene_overlays, Contact, Overlay, OverlayInputs, OverlayToggles};
use super::picking::{clearest_direction, cursor_ray, pick};
use super::render::{BodyInstance, OverlayBatch};
use super::selection::{non_candidate_row, pair_query_line, pair_rows, PairRow};
use super::sim::{FrameData, Simulation};
use super::summary::SelectionSummary;
use crate::one_pair::trace_penetration;
use crate::pose::RelativePose;
use anyhow::{Context, Result};
use glam::{Vec2, Vec3};
use std::io::Write;
use std::path::PathBuf;

/// How the inspector names what it shows: the pair, and once the simulation has moved on, the frame it was
/// traced in, that it is frozen, and whether the pair is still a candidate.
fn inspected_label(inspected: &Inspected, data: &FrameData) -> String {
    let [a, b] = inspected.pair;
    if inspected.frame == data.frame {
        return format!("bodies {a} and {b}");
    }
    let still = if data.is_candidate(inspected.pair) {
        "frozen"
    } else {
        "frozen, no longer a pair"
    };
    format!("bodies {a} and {b} at frame {} ({still})", inspected.frame)
}

/// Seconds a camera flight takes in a window.
const FLIGHT_SECONDS: f32 = 0.6;

/// The camera moving from one view to another.
#[derive(Clone, Copy, Debug)]
struct Flight {
    from: (Vec3, Vec3),
    to: (Vec3, Vec3),
    /// 0 to 1.
    t: f32,
    duration: f32,
}

/// What the open inspector was traced from: the pair, the frame, and the pair as a `query` line on that frame's
/// poses (what "copy pair" writes while the inspector shows a frozen snapshot of it).
#[derive(Clone, Debug, PartialEq)]
pub struct Inspected {
    pub pair: [u32; 2],
    pub frame: u64,
    pub line: Option<String>,
}

/// The debug renderer's state. There is one selected pair, [`DebugView::selected_pair`]: the pair table
/// highlights it, `[` `]` and `M` move it, and the inspector (`I`) and "copy pair" (`C`) act on it. It changes
/// only when the user changes it (or picks another body): a selected pair whose boxes part stays selected,
/// with a row of its own.
pub struct DebugView {
    pub overlays: OverlayToggles,
    /// Overlays only for the picked body's pairs (O), while a body is picked.
    pub picked_only: bool,
    /// Separated pairs closer than this get a closest-point segment.
    pub closest_threshold: f32,
    pub picked: Option<u32>,
    pub selected_pair: Option<[u32; 2]>,
    rows: Vec<PairRow>,
    /// (frame, body, selected pair) the rows were computed for.
    rows_key: Option<(u64, u32, Option<[u32; 2]>)>,
    contacts: Vec<Contact>,
    /// (frame, body) the contacts were computed for (`None` body: every colliding pair).
    contacts_key: Option<(u64, Option<u32>)>,
    pub inspector: Option<Inspector>,
    /// What the inspector shows, while it is open.
    pub inspected: Option<Inspected>,
    /// The pair the last "copy pair" wrote.
    pub copied_pair: Option<[u32; 2]>,
    /// What the last action reported (copy pair, no disagreement to fly to), for the HUD.
    pub note: Option<String>,
    next_disagreement: usize,
    flight: Option<Flight>,
    /// Where "copy pair" appends its `query` lines.
    pub pairs_out: PathBuf,
}

impl DebugView {
    pub fn new(overlays: OverlayToggles, closest_threshold: f32, pairs_out: PathBuf) -> Self {
        Self {
            overlays,
            picked_only: false,
            closest_threshold,
            picked: None,
            selected_pair: None,
            rows: Vec::new(),
            rows_key: None,
            contacts: Vec::new(),
            contacts_key: None,
            inspector: None,
            inspected: None,
            copied_pair: None,
            note: None,
            next_disagreement: 0,
            flight: None,
            pairs_out,
        }
    }

    /// The picked body's pair rows for the current frame (computed once per frame, body and selection). With
    /// no pair selected, the first row is selected; a selected pair that is no longer a candidate keeps a row
    /// of its own, first, so the table always shows what is selected.
    pub fn rows(&mut self, sim: &Simulation) -> &[PairRow] {
        let Some(body) = self.picked else {
            return &[];
        };
        if self.selected_pair.is_some_and(|pair| !pair.contains(&body)) {
            self.selected_pair = None;
        }
        let key = (sim.data.frame, body, self.selected_pair);
        if self.rows_key != Some(key) {
            self.rows = pair_rows(&sim.scene, &sim.data, body, sim.kind, &sim.config);
            match self.selected_pair {
                None => self.selected_pair = self.rows.first().map(|r| r.pair),
                Some(pair) if !self.rows.iter().any(|r| r.pair == pair) => {
                    match non_candidate_row(
                        &sim.scene,
                        &sim.data,
                        body,
                        pair,
                        sim.kind,
                        &sim.config,
                    ) {
                        Some(row) => self.rows.insert(0, row),
                        None => self.selected_pair = self.rows.first().map(|r| r.pair),
                    }
                }
                Some(_) => {}
            }
            self.rows_key = Some((sim.data.frame, body, self.selected_pair));
        }
        &self.rows
    }

    /// Keeps the inspector on the selected pair: an open inspector follows a new selection (traced on the
    /// current frame), and its title says when it shows a frozen snapshot (the simulation moved on since it
    /// was traced), and when that pair is no longer a candidate. Call once per frame, after the actions.
    pub fn follow_selection(&mut self, sim: &mut Simulation) {
        if self.inspector.is_none() {
            self.inspected = None;
            return;
        }
        self.rows(sim);
        let inspected = self.inspected.as_ref().map(|i| i.pair);
        if self.selected_pair.is_some() && self.selected_pair != inspected {
            self.open_inspector(sim);
        }
        let (Some(inspector), Some(inspected)) = (&mut self.inspector, &self.inspected) else {
            return;
        };
        inspector.pair.label = inspected_label(inspected, &sim.data);
    }

    /// The selection as the summary of a `--frames` run reports it.
    pub fn selection_summary(&mut self, sim: &Simulation) -> SelectionSummary {
        self.rows(sim);
        let frozen = self
            .inspected
            .as_ref()
            .is_some_and(|i| i.frame != sim.data.frame);
        let listed = self
            .picked
            .and_then(|body| sim.data.picked_pairs.as_ref().filter(|p| p.body == body));
        SelectionSummary {
            picked: self.picked,
            picked_pairs: self
                .picked
                .map(|_| self.rows.iter().filter(|r| r.candidate).count()),
            pairs_source: self.picked.map(|body| sim.data.pairs_source(body)),
            picked_pairs_not_listed: listed.map_or(0, |p| p.not_listed),
            selected_pair: self.selected_pair,
            selected_pair_is_candidate: self
                .selected_pair
                .is_some_and(|pair| sim.data.is_candidate(pair)),
            selected_pair_disputed: self
                .selected_pair
                .is_some_and(|pair| sim.data.disputed_pairs.contains(&pair)),
            inspected_pair: self.inspected.as_ref().map(|i| i.pair),
            inspected_frame: self.inspected.as_ref().map(|i| i.frame),
            inspector_frozen: frozen,
            copied_pair: self.copied_pair,
        }
    }

    /// The body whose pairs the overlays are limited to: the picked body, while "picked only" is on.
    fn overlay_body(&self) -> Option<u32> {
        self.picked.filter(|_| self.picked_only)
    }

    /// The overlays that are on, for the scene pass.
    pub fn overlay_batch(&mut self, sim: &Simulation) -> OverlayBatch {
        let only = self.overlay_body();
        let key = (sim.data.frame, only);
        if self.overlays.is_on(Overlay::Contacts) && self.contacts_key != Some(key) {
            self.contacts = contacts(&sim.scene, &sim.data, &sim.config, only);
            self.contacts_key = Some(key);
        }
        let mut batch = scene_overlays(&OverlayInputs {
            data: &sim.data,
            contacts: &self.contacts,
            toggles: self.overlays,
            closest_threshold: self.closest_threshold,
            only_body: only,
        });
        if let Some(physics) = sim
            .physics()
            .filter(|_| self.overlays.is_on(Overlay::Contacts))
        {
            manifold_prims(physics, &mut batch, only);
        }
        batch
    }

    /// Highlight instances: the player's body, the picked body, its partners and the selected pair's partner.
    pub fn highlights(&mut self, sim: &Simulation, mesh_count: usize) -> Vec<Vec<BodyInstance>> {
        let picked = self.picked;
        let partners: Vec<u32> = self
            .rows(sim)
            .iter()
            .filter(|r| r.candidate)
            .map(|r| r.other)
            .collect();
        let selected_partner =
            self.selected_pair
                .zip(picked)
                .map(|(pair, body)| if pair[0] == body { pair[1] } else { pair[0] });
        highlight_instances(
            &sim.scene,
            Outlines {
                picked,
                partners: &partners,
                selected_partner,
            },
            mesh_count,
        )
    }

    /// Picks the body under `cursor` (pixels from the top-left of a view `size` large); a click on nothing
    /// drops the selection.
    pub fn pick_at(&mut self, sim: &Simulation, camera: &Camera, size: (u32, u32), cursor: Vec2) {
        let ray = cursor_ray(camera, size, cursor);
        self.set_picked(pick(&sim.scene.shapes, &sim.data, &ray).map(|(body, _)| body));
    }

    pub fn set_picked(&mut self, body: Option<u32>) {
        if body != self.picked {
            self.picked = body;
            self.selected_pair = None;
            self.rows_key = None;
        }
    }

    pub fn clear(&mut self) {
        self.set_picked(None);
        self.inspector = None;
        self.inspected = None;
    }

    /// Selects the picked body's previous (`-1`) or next (`1`) pair.
    pub fn cycle_pair(&mut self, sim: &Simulation, delta: isize) {
        let selected = self.selected_pair;
        let rows = self.rows(sim);
        if rows.is_empty() {
            return;
        }
        let at = rows
            .iter()
            .position(|r| Some(r.pair) == selected)
            .unwrap_or(0) as isize;
        let next = (at + delta).rem_euclid(rows.len() as isize) as usize;
        self.selected_pair = Some(rows[next].pair);
    }

    /// Appends the selected pair as a `query` line to [`DebugView::pairs_out`].
    pub fn copy_pair(&mut self, sim: &Simulation) -> Result<()> {
        let Some(pair) = self.selected_pair else {
            self.note = Some("no pair selected: pick a body first".into());
            return Ok(());
        };
        // While the inspector shows a frozen snapshot of the selected pair, what it shows is copied, so the
        // line reproduces the inspector (`gpu-gjk inspect FILE --line N`).
        let snapshot = self
            .inspected
            .as_ref()
            .filter(|i| i.pair == pair && i.frame != sim.data.frame && self.inspector.is_some());
        let (line, frame) = match snapshot.and_then(|i| i.line.clone().map(|l| (l, i.frame))) {
            Some((line, frame)) => (line, frame),
            None => (
                pair_query_line(&sim.scene, &sim.data, pair).context("the pair left the scene")?,
                sim.data.frame,
            ),
        };
        let path = &self.pairs_out;
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("opening {} for the copied pair", path.display()))?;
        writeln!(file, "{line}").with_context(|| format!("writing to {}", path.display()))?;
        let lines = std::fs::read_to_string(path).map_or(0, |t| t.lines().count());
        self.copied_pair = Some(pair);
        self.note = Some(format!(
            "pair {}-{} (frame {frame}) appended to {} (line {lines}): gpu-gjk inspect {} --line {lines}",
            pair[0],
            pair[1],
            path.display(),
            path.display()
        ));
        Ok(())
    }

    /// Opens the inspector on the selected pair: the CPU's trace, and the GPU's answer for it.
    pub fn open_inspector(&mut self, sim: &mut Simulation) {
        let Some(pair) = self.selected_pair else {
            self.note = Some("no pair selected: pick a body first".into());
            return;
        };
        let [i, j] = pair.map(|k| k as usize);
        let (Some(a), Some(b)) = (sim.data.instances.get(i), sim.data.instances.get(j)) else {
            return;
        };
        let (shape_a, shape_b) = (
            sim.scene.shapes[a.shape as usize].clone(),
            sim.scene.shapes[b.shape as usize].clone(),
        );
        // The pair-local frame formed as the narrow phase forms it.
        let relative = RelativePose::between_f32(&a.pose, &b.pose);
        let frame = a.pose.to_f64();
        let trace = trace_penetration(&shape_a, &shape_b, &relative, &sim.config);
        let gpu = match sim.gpu_penetration(pair) {
            Ok((result, penetration)) => GpuVerdict::Answer {
                result,
                penetration,
            },
            Err(e) => GpuVerdict::Unavailable(format!("{e:#}")),
        };
        let inspected = Inspected {
            pair,
            frame: sim.data.frame,
            line: pair_query_line(&sim.scene, &sim.data, pair),
        };
        let label = inspected_label(&inspected, &sim.data);
        self.inspected = Some(inspected);
        self.inspector = Some(Inspector::new(InspectedPair {
            label,
            a: shape_a,
            b: shape_b,
            relative,
            frame,
            trace,
            epa_trace: None,
            gpu,
            flat: false,
        }));
    }

    /// Flies to the next disputed pair, picks its first body and selects the pair.
    pub fn next_disagreement(
        &mut self,
        sim: &Simulation,
        camera: &Camera,
        aspect: f32,
        instant: bool,
    ) {
        let disputed = &sim.data.disputed_pairs;
        if disputed.is_empty() {
            self.note = Some("no disagreement in the latest check".into());
            return;
        }
        let k = self.next_disagreement % disputed.len();
        let pair = disputed[k];
        self.next_disagreement += 1;
        self.set_picked(Some(pair[0]));
        self.selected_pair = Some(pair);
        let centres = pair.map(|b| sim.data.instances[b as usize].pose.position);
        let sizes = pair.map(|b| sim.scene.shapes[b as usize].bounding_radius());
        let centre = 0.5 * (centres[0] + centres[1]);
        let radius = 0.5 * centres[0].distance(centres[1]) + sizes[0].max(sizes[1]);
        self.fly_to(sim, camera, (centre, 1.5 * radius), aspect, instant, &pair);
        self.note = Some(format!("disagreement {} of {}", k + 1, disputed.len()));
    }

    /// Flies to see the picked body and its neighbours.
    pub fn focus_picked(&mut self, sim: &Simulation, camera: &Camera, aspect: f32, instant: bool) {
        if let Some(body) = self.picked {
            let centre = sim.data.instances[body as usize].pose.position;
            let radius = 3.0 * sim.scene.shapes[body as usize].bounding_radius();
            self.fly_to(sim, camera, (centre, radius), aspect, instant, &[body]);
        }
    }

    /// Flies to see the whole box.
    pub fn frame_all(&mut self, sim: &Simulation, camera: &Camera, aspect: f32, instant: bool) {
        let radius = sim.scene.half_extent * 3f32.sqrt();
        let to = (camera.framing(Vec3::ZERO, radius, aspect), Vec3::ZERO);
        self.start_flight(camera, to, radius, instant);
    }

    /// Flies to see the sphere `(centre, radius)` from the side where the fewest other bodies stand in the
    /// way (`bodies` are the ones looked at).
    fn fly_to(
        &mut self,
        sim: &Simulation,
        camera: &Camera,
        (centre, radius): (Vec3, f32),
        aspect: f32,
        instant: bool,
        bodies: &[u32],
    ) {
        let distance = camera.framing(centre, radius, aspect).distance(centre);
        let current = camera.position - centre;
        let dir = clearest_direction(&sim.data, centre, distance, current, bodies);
        self.start_flight(camera, (centre + dir * distance, centre), radius, instant);
    }

    fn start_flight(&mut self, camera: &Camera, to: (Vec3, Vec3), radius: f32, instant: bool) {
        let from = (camera.position, camera.position + camera.forward() * radius);
        self.flight = Some(Flight {
            from,
            to,
            t: 0.0,
            duration: if instant { 0.0 } else { FLIGHT_SECONDS },
        });
    }

    /// Moves the camera along a flight in progress.
    pub fn update_flight(&mut self, camera: &mut Camera, dt: f32) {
        let Some(flight) = &mut self.flight else {
            return;
        };
        flight.t = if flight.duration > 0.0 {
            (flight.t + dt / flight.duration).min(1.0)
        } else {
            1.0
        };
        let s = flight.t * flight.t * (3.0 - 2.0 * flight.t);
        let position = flight.from.0.lerp(flight.to.0, s);
        let target = flight.from.1.lerp(flight.to.1, s);
        let fov = camera.fov_y;
        *camera = Camera::looking_at(position, target);
        camera.fov_y = fov;
        if flight.t >= 1.0 {
            self.flight = None;
        }
    }

    /// What the camera orbits and zooms towards: the picked body.
    pub fn orbit_target(&self, sim: &Simulation) -> Option<Vec3> {
        self.picked
            .and_then(|b| sim.scene.bodies.get(b as usize))
            .map(|b| b.pose.position)
    }
}
