//! The GJK/EPA inspector: one pair's Minkowski difference A - B, drawn translucent around the origin, with
//! GJK's simplex, search direction, support point and closest point at each iteration, then EPA's polytope,
//! closest face and support point at each expansion; stepped forward and back or played, with the distance
//! bounds per iteration in a chart and the GPU's answer for the same pair beside the CPU's.
//!
//! The trace comes from the CPU reference's own loop ([`crate::query::trace`]). [`Inspector`] holds the
//! state; [`draw`] turns a step into overlay primitives, [`panel`] lays out the egui window, [`view`]
//! renders the 3D view into a texture for it, [`screenshot`] draws all of it offscreen for
//! `gpu-gjk inspect --screenshot`, and [`window`] opens it in a window for `gpu-gjk inspect --window`.

pub mod draw;
pub mod hull;
pub mod panel;
pub mod screenshot;
pub mod view;
pub mod window;

use super::camera::Camera;
use crate::epa::Penetration;
use crate::gjk::{GjkResult, QueryKind};
use crate::instance::Instance;
use crate::pose::{DPose, Pose, RelativePose};
use crate::query::trace::{EpaIterationTrace, GjkIterationTrace, RunTrace};
use crate::query::PairTrace;
use crate::shape::ConvexShape;
use crate::validate::{compare, compare_penetration};
use glam::{DVec3, Vec3};
use hull::{minkowski_difference, swept, MinkowskiHull};

/// Steps per second while playing.
const PLAY_RATE: f32 = 2.0;

/// What the GPU answered for the inspected pair.
#[derive(Clone, Debug, PartialEq)]
pub enum GpuVerdict {
    Answer {
        result: GjkResult<f32>,
        penetration: Penetration<f32>,
    },
    /// No GPU answer, and why (no adapter, the GPU run failed).
    Unavailable(String),
}

/// A pair to inspect: its shapes with B placed relative to A, the CPU's trace and the GPU's answer.
pub struct InspectedPair {
    /// How the pair is named in the panel ("bodies 12 and 345", "line 3").
    pub label: String,
    pub a: ConvexShape,
    pub b: ConvexShape,
    /// B's local frame in A's local frame.
    pub relative: RelativePose<f32>,
    /// A's local frame in the world (A's pose, about its centre for a `query` line): the trace's points are in
    /// A's local frame, and the inspector shows them in world coordinates, as `inspect --trace` writes them.
    /// A - B in world coordinates is A's local difference turned by A's rotation (the positions cancel).
    pub frame: DPose,
    /// GJK (distance mode) and, on an overlap, EPA: the CPU reference's trace.
    pub trace: PairTrace,
    /// The 2D mode's EPA, run on the polygons extruded far out of their plane (flat shapes touch along the
    /// plane's normal with no depth, so the push-out in the plane needs a thickness); its GJK is not shown.
    pub epa_trace: Option<PairTrace>,
    pub gpu: GpuVerdict,
    /// Flat shapes (the 2D mode): drawn in their plane.
    pub flat: bool,
}

/// One step of the timeline: a GJK iteration or an EPA expansion, by index into the answering run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Gjk(usize),
    Epa(usize),
}

/// The inspector's state.
pub struct Inspector {
    pub pair: InspectedPair,
    /// A - B of the cores, in world coordinates.
    pub hull: MinkowskiHull,
    /// A - B with the radii (the cores' difference swept by a sphere of both radii together), when the pair has
    /// radii: the shape whose distance from the origin GJK answers.
    pub swept: Option<MinkowskiHull>,
    /// The normal of a flat A - B through the origin (two polygons in one plane, no radii): the view looks
    /// along it (the 2D view).
    pub plane_normal: Option<Vec3>,
    steps: Vec<Step>,
    step: usize,
    pub playing: bool,
    clock: f32,
    /// The 3D view's camera, orbiting the middle of the hull and the origin.
    pub camera: Camera,
    pub target: Vec3,
}

impl Inspector {
    /// Opens on the last step: the answer.
    pub fn new(pair: InspectedPair) -> Self {
        let to_world = pair.frame.rotation.as_quat();
        let hull = minkowski_difference(&pair.a, &pair.b, &pair.relative, to_world);
        let margin = pair.a.radius() + pair.b.radius();
        let swept = (margin > 0.0).then(|| swept(&hull, margin));
        // Seen along its normal (the 2D view) only when flat with the origin in its plane: with radii, or
        // with the origin off the plane, the distance runs out of the plane and a side view shows it.
        let plane_normal = hull.plane_normal().filter(|n| {
            let off_plane = hull.vertices[0].dot(*n).abs();
            swept.is_none() && off_plane <= 1e-5 * hull.radius.max(f32::MIN_POSITIVE)
        });
        let gjk = pair.trace.answering_run().gjk.len();
        let epa = epa_run(&pair).map_or(0, |run| run.epa.len());
        let steps: Vec<Step> = (0..gjk)
            .map(Step::Gjk)
            .chain((0..epa).map(Step::Epa))
            .collect();
        let last = steps.len().saturating_sub(1);
        let (camera, target) = home_view(&hull, swept.as_ref(), plane_normal, pair.flat);
        Self {
            pair,
            hull,
            swept,
            plane_normal,
            steps,
            step: last,
            playing: false,
            clock: 0.0,
            camera,
            target,
        }
    }

    /// The run whose answer was returned (float64 when float32 could not finish).
    pub fn gjk_run(&self) -> &RunTrace {
        self.pair.trace.answering_run()
    }

    /// The run whose EPA records the timeline shows.
    pub fn epa_run(&self) -> Option<&RunTrace> {
        epa_run(&self.pair)
    }

    pub fn epa_iterations(&self) -> &[EpaIterationTrace] {
        epa_run(&self.pair).map_or(&[], |run| &run.epa)
    }

    pub fn step_count(&self) -> usize {
        self.steps.len()
    }

    pub fn step_index(&self) -> usize {
        self.step
    }

    pub fn current(&self) -> Option<Step> {
        self.steps.get(self.step).copied()
    }

    /// A vector of A's local frame (a point of A - B, a direction) in world coordinates.
    pub fn world_vector(&self, v: DVec3) -> DVec3 {
        clean(self.pair.frame.rotation * v)
    }

    /// A point of A's local frame in world coordinates.
    pub fn world_point(&self, p: DVec3) -> DVec3 {
        clean(self.pair.frame.transform_point(p))
    }

    /// A point of A - B (or a direction) as the view draws it: in world coordinates, in float32.
    pub fn drawn(&self, v: DVec3) -> Vec3 {
        self.world_vector(v).as_vec3()
    }

    /// Back to the view the inspector opened with: the whole of A - B and the origin.
    pub fn reset_view(&mut self) {
        (self.camera, self.target) = home_view(
            &self.hull,
            self.swept.as_ref(),
            self.plane_normal,
            self.pair.flat,
        );
    }

    /// What the view orbits and zooms towards: the middle of the origin and the current step's closest point
    /// (GJK) or the closest face's point nearest the origin (EPA), so zooming in keeps both in sight.
    pub fn focus(&self) -> Vec3 {
        let near = match self.current() {
            Some(Step::Gjk(k)) => self.gjk_iteration(k).map(|it| it.closest),
            Some(Step::Epa(k)) => self
                .epa_iterations()
                .get(k)
                .map(|it| it.normal * it.face[0].dot(it.normal)),
            None => None,
        };
        near.map_or(self.target, |p| 0.5 * self.drawn(p))
    }

    pub fn gjk_iteration(&self, k: usize) -> Option<&GjkIterationTrace> {
        self.gjk_run().gjk.get(k)
    }

    pub fn seek(&mut self, step: usize) {
        self.step = step.min(self.steps.len().saturating_sub(1));
    }

    pub fn forward(&mut self) {
        self.playing = false;
        self.seek(self.step + 1);
    }

    pub fn back(&mut self) {
        self.playing = false;
        self.seek(self.step.saturating_sub(1));
    }

    /// Play from the start when at the end, else from here; or pause.
    pub fn toggle_play(&mut self) {
        self.playing = !self.playing;
        if self.playing && self.step + 1 >= self.steps.len() {
            self.step = 0;
        }
        self.clock = 0.0;
    }

    /// Advances a playing inspector by `dt` seconds; it stops at the last step.
    pub fn advance(&mut self, dt: f32) {
        if !self.playing {
            return;
        }
        self.clock += dt * PLAY_RATE;
        while self.clock >= 1.0 {
            self.clock -= 1.0;
            if self.step + 1 >= self.steps.len() {
                self.playing = false;
                return;
            }
            self.step += 1;
        }
    }

    /// The CPU's answer: GJK's status, distance and iterations, and EPA's.
    pub fn cpu_answer(&self) -> (GjkResult<f32>, Option<Penetration<f32>>) {
        (self.pair.trace.result, self.pair.trace.penetration)
    }

    /// Whether the GPU's answer agrees with the CPU's by the rules of the live check and `bench`
    /// ([`crate::validate`]): the same flag outside the band of contact, distances and depths within the
    /// agreement band of the pair's size, and no named failure. Iteration counts are not compared: the CPU
    /// answers some pairs in closed form (0 iterations) where the GPU runs GJK. `None` without a GPU answer.
    pub fn gpu_agrees(&self) -> Option<bool> {
        let GpuVerdict::Answer {
            result,
            penetration,
        } = &self.pair.gpu
        else {
            return None;
        };
        let (cpu, cpu_hit) = self.cpu_answer();
        let shapes = [self.pair.a.clone(), self.pair.b.clone()];
        let instances = pair_instances(&self.pair.relative);
        let pairs = [[0, 1]];
        let gjk = compare(
            &shapes,
            &instances,
            &pairs,
            &[*result],
            &[cpu],
            QueryKind::Distance,
        );
        let epa_same = match cpu_hit {
            Some(hit) => {
                compare_penetration(&shapes, &instances, &pairs, &[*penetration], &[hit]).is_clean()
            }
            None => true,
        };
        Some(gjk.is_clean() && gjk.gpu_failures == 0 && epa_same)
    }
}

/// A camera holding A - B (with its radii) and the origin, and the point it looks at. A flat A - B is seen
/// along its normal.
fn home_view(
    hull: &MinkowskiHull,
    swept: Option<&MinkowskiHull>,
    plane_normal: Option<Vec3>,
    two_d: bool,
) -> (Camera, Vec3) {
    let outer = swept.unwrap_or(hull);
    let target = 0.5 * outer.centre;
    let radius = (outer.radius + 0.5 * outer.centre.length()).max(1e-6);
    let direction = match (two_d, plane_normal) {
        (true, _) => Vec3::Z,
        (false, Some(normal)) => {
            // Looking from the side the default view looks from, so a plane's two faces look alike.
            let normal = normal.try_normalize().unwrap_or(Vec3::Z);
            if normal.dot(Vec3::new(0.55, 0.45, 0.7)) < 0.0 {
                -normal
            } else {
                normal
            }
        }
        (false, None) => Vec3::new(0.55, 0.45, 0.7).normalize(),
    };
    let mut camera = Camera::looking_at(target + direction * radius * 3.0, target);
    camera.position = camera.framing(target, radius * 1.1, 1.3);
    camera.fit_clip_planes(radius * 3.0);
    (camera, target)
}

/// No negative zeros in what is printed.
fn clean(v: DVec3) -> DVec3 {
    v + DVec3::ZERO
}

/// The pair as a batch of two instances: A at the origin, B at `relative` (how the GPU is given it).
pub fn pair_instances(relative: &RelativePose<f32>) -> [Instance; 2] {
    [
        Instance {
            shape: 0,
            pose: Pose::IDENTITY,
        },
        Instance {
            shape: 1,
            pose: Pose::new(relative.position, relative.rotation),
        },
    ]
}

/// The run holding the EPA expansions shown: the 2D mode's extruded run, else the answering run.
fn epa_run(pair: &InspectedPair) -> Option<&RunTrace> {
    match &pair.epa_trace {
        Some(trace) => trace.runs.last(),
        None => pair.trace.runs.last(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gjk::GjkConfig;
    use crate::one_pair::trace_penetration;
    use glam::Quat;

    fn inspector(x: f32) -> Inspector {
        let a = ConvexShape::cuboid(Vec3::ONE).unwrap();
        let b = ConvexShape::cone(1.0, 0.7, 16).unwrap();
        let relative = RelativePose {
            rotation: Quat::from_rotation_z(0.4),
            position: Vec3::new(x, 0.3, 0.1),
        };
        let trace = trace_penetration(&a, &b, &relative, &GjkConfig::default());
        Inspector::new(InspectedPair {
            label: "test".into(),
            a,
            b,
            relative,
            frame: DPose::IDENTITY,
            gpu: GpuVerdict::Unavailable("not asked".into()),
            trace,
            epa_trace: None,
            flat: false,
        })
    }

    #[test]
    fn the_timeline_holds_every_gjk_iteration_then_every_expansion_and_plays_to_the_end() {
        let mut separated = inspector(4.0);
        let iterations = separated.pair.trace.result.iterations as usize;
        assert_eq!(separated.step_count(), iterations + 1);
        assert_eq!(
            separated.current(),
            Some(Step::Gjk(iterations)),
            "opens on the answer"
        );
        separated.back();
        assert_eq!(separated.current(), Some(Step::Gjk(iterations - 1)));
        separated.toggle_play();
        assert_eq!(
            separated.step_index(),
            iterations - 1,
            "plays from where it is"
        );
        separated.advance(10.0);
        assert!(!separated.playing && separated.step_index() == iterations);
        separated.toggle_play();
        assert_eq!(separated.step_index(), 0, "at the end, play starts again");

        let deep = inspector(0.8);
        let expansions = deep.epa_iterations().len();
        assert!(expansions > 0);
        let gjk = deep.gjk_run().gjk.len();
        assert_eq!(deep.step_count(), gjk + expansions);
        assert_eq!(deep.current(), Some(Step::Epa(expansions - 1)));
        assert_eq!(deep.gpu_agrees(), None);
        // The origin is inside the difference of overlapping shapes: within its bounding sphere.
        assert!(deep.hull.centre.length() < deep.hull.radius);
    }
}
