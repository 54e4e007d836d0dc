//! The GJK/EPA inspector: one pair's Minkowski difference A - B, drawn translucent around the origin, with
//! GJK's simplex, search direction, support point and closest point at each iteration, then EPA's polytope,
//! closest face and support point at each expansion; stepped forward and back or played, with the distance
//! bounds per iteration in a chart and the GPU's answer for the same pair beside the CPU's.
//!
//! The trace comes from the CPU reference's own loop ([`crate::query::trace`]). [`Inspector`] holds the
//! state; [`draw`] turns a step into overlay primitives, [`panel`] lays out the egui window, [`view`]
//! renders the 3D view into a texture for it, and [`screenshot`] draws all of it offscreen for
//! `gpu-gjk inspect --screenshot`.

pub mod draw;
pub mod hull;
pub mod panel;
pub mod screenshot;
pub mod view;

use super::camera::Camera;
use crate::epa::Penetration;
use crate::gjk::{GjkResult, QueryKind};
use crate::instance::Instance;
use crate::pose::Pose;
use crate::pose::RelativePose;
use crate::query::trace::{EpaIterationTrace, GjkIterationTrace, RunTrace};
use crate::query::PairTrace;
use crate::shape::ConvexShape;
use crate::validate::{compare, compare_penetration};
use glam::Vec3;
use hull::{minkowski_difference, MinkowskiHull};

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
    pub hull: MinkowskiHull,
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
        let hull = minkowski_difference(&pair.a, &pair.b, &pair.relative);
        let gjk = pair.trace.answering_run().gjk.len();
        let epa = epa_run(&pair).map_or(0, |run| run.epa.len());
        let steps: Vec<Step> = (0..gjk)
            .map(Step::Gjk)
            .chain((0..epa).map(Step::Epa))
            .collect();
        // The view holds the hull and the origin.
        let target = 0.5 * hull.centre;
        let radius = (hull.radius + 0.5 * hull.centre.length()).max(1e-6);
        let direction = if pair.flat {
            Vec3::new(0.0, 0.0, 1.0)
        } else {
            Vec3::new(0.55, 0.45, 0.7).normalize()
        };
        let mut camera = Camera::looking_at(target + direction * radius * 3.0, target);
        camera.position = camera.framing(target, radius * 1.1, 1.3);
        camera.fit_clip_planes(radius * 3.0);
        let last = steps.len().saturating_sub(1);
        Self {
            pair,
            hull,
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
