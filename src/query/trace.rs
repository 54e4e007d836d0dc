//! A pair's GJK iterations and EPA expansions, recorded for the inspector and `gpu-gjk inspect --trace`.
//!
//! The algorithms only call a tracer (see [`crate::gjk::trace`] and [`crate::epa::trace`]); `PairRecorder`
//! is the tracer that writes down what they show, moved from the pair-local frame in normalised units to A's
//! local frame in the user's units (in float64, which holds float32 values exactly), and adds what the loop
//! does not keep: the new support point of each iteration and the distance bounds. Runs the same code as the
//! untraced entry points, so a traced pair gets the very same answer.

#[cfg(test)]
use super::distance::query_relative_traced;
#[cfg(test)]
use super::penetration::penetration_relative_traced;
use crate::epa::{EpaStep, EpaTracer, Penetration};
use crate::gjk::{GjkResult, GjkStatus, GjkStep, GjkTracer};
use crate::real::Real;
#[cfg(test)]
use crate::{gjk::GjkConfig, gjk::QueryKind, pose::RelativePose, shape::ConvexShape};
use glam::{DVec3, Vec3};

/// EPA polytopes are kept whole (for drawing) for this many expansions of a run; later expansions keep
/// their closest face and support point only. A deep overlap of two finely tessellated spheres makes
/// hundreds of expansions with a thousand faces each.
pub(crate) const POLYTOPE_SNAPSHOTS: usize = 200;

/// A point of A - B with the support points of A and B it is the difference of, in A's local frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TracePoint {
    pub a: DVec3,
    pub b: DVec3,
    /// `a - b` (computed in the algorithm's precision, then moved to the user's units).
    pub w: DVec3,
}

/// GJK after one iteration (or after the start, iteration 0).
#[derive(Clone, Debug, PartialEq)]
pub struct GjkIterationTrace {
    pub iteration: u32,
    /// The unit direction searched (towards the origin from the previous closest point); `None` at the start.
    pub direction: Option<DVec3>,
    /// The support point this iteration found (the start's first point for iteration 0).
    pub support: TracePoint,
    /// The simplex after the reduction, with each vertex's barycentric weight of the closest point.
    pub simplex: Vec<(TracePoint, f64)>,
    /// The simplex's point of A - B nearest the origin (`v`).
    pub closest: DVec3,
    /// Bounds on the distance between the surfaces (the core distance minus the radii; negative when the radii
    /// overlap): the best `v.w / |v|` so far, and `|v|`.
    pub lower_bound: f64,
    pub upper_bound: f64,
}

/// One EPA expansion: the polytope's closest face and the support point beyond it.
#[derive(Clone, Debug, PartialEq)]
pub struct EpaIterationTrace {
    /// 0 for the first try (the GPU's bounds), 1 for the retry within grown bounds.
    pub attempt: u32,
    /// Expansions made so far in this try.
    pub iteration: u32,
    /// Live faces of the polytope.
    pub face_count: usize,
    /// The closest face's outward unit normal and the depth it stands for (its distance from the origin plus
    /// the radii).
    pub normal: DVec3,
    pub depth: f64,
    /// The closest face's corners (points of A - B).
    pub face: [DVec3; 3],
    /// The support point along the closest face's normal.
    pub support: TracePoint,
    /// The polytope's vertices (points of A - B) and live faces (indices into `vertices`), for the first
    /// `POLYTOPE_SNAPSHOTS` expansions of a run; empty afterwards.
    pub vertices: Vec<DVec3>,
    pub faces: Vec<[u32; 3]>,
}

/// GJK's answer as a run gave it, in A's local frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkAnswerTrace {
    pub status: GjkStatus,
    pub distance: f64,
    pub iterations: u32,
}

/// One run of the algorithms on the pair, in one precision.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunTrace {
    /// True for the float64 repeat of a pair float32 could not finish.
    pub float64: bool,
    /// The radii together: GJK runs on the cores and subtracts them at the end.
    pub margin: f64,
    /// The power of two the pair was multiplied by (`pair_unit`).
    pub unit: f64,
    /// EPA tries: 0 (no EPA), 1, or 2 when the first try's bounds ran out.
    pub epa_tries: u32,
    pub gjk: Vec<GjkIterationTrace>,
    pub gjk_answer: Option<GjkAnswerTrace>,
    pub epa: Vec<EpaIterationTrace>,
}

/// Everything a traced pair query recorded, and its answer (in A's local frame, as the untraced query
/// returns it).
#[derive(Clone, Debug, PartialEq)]
pub struct PairTrace {
    /// The runs in order: the float32 run, then the float64 repeat when there was one (whose answer counts).
    pub runs: Vec<RunTrace>,
    pub result: GjkResult<f32>,
    /// `None` for a distance or intersection query.
    pub penetration: Option<Penetration<f32>>,
}

impl PairTrace {
    /// The run whose answer was returned: the last one.
    pub fn answering_run(&self) -> &RunTrace {
        self.runs
            .last()
            .expect("a traced query has at least one run")
    }
}

/// The tracer that records every run. `centre_a` is A's centre ([`ConvexShape::centre`]), which the
/// algorithms subtract from both shapes.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairRecorder {
    centre_a: DVec3,
    pub runs: Vec<RunTrace>,
}

impl PairRecorder {
    pub fn new(centre_a: Vec3) -> Self {
        Self {
            centre_a: centre_a.as_dvec3(),
            runs: Vec::new(),
        }
    }

    /// Moves a support point pair from normalised, centred units into A's local frame.
    fn point<R: Real>(&self, unit: R, a: R::V, b: R::V) -> TracePoint {
        let back = 1.0 / unit.to_f64();
        TracePoint {
            a: R::vec_to_f64(a) * back + self.centre_a,
            b: R::vec_to_f64(b) * back + self.centre_a,
            w: R::vec_to_f64(a - b) * back,
        }
    }

    fn run(&mut self) -> &mut RunTrace {
        self.runs.last_mut().expect("GJK starts every run")
    }
}

impl<R: Real> GjkTracer<R> for PairRecorder {
    fn gjk_step(&mut self, step: &GjkStep<'_, '_, R>) {
        let q = step.query;
        let unit = q.support.unit;
        let back = 1.0 / unit.to_f64();
        let margin = q.margin().to_f64();
        let s = step.simplex;
        let (support, direction) = match step.direction {
            None => (self.point(unit, s.a[0], s.b[0]), None),
            Some(d) => {
                let (a, b) = (q.support.support_a(d), q.support.support_b(-d));
                let d = R::vec_to_f64(d);
                (self.point(unit, a, b), Some(d.normalize_or_zero()))
            }
        };
        let simplex = (0..s.len)
            .map(|i| (self.point(unit, s.a[i], s.b[i]), s.lambda[i].to_f64()))
            .collect();
        let record = GjkIterationTrace {
            iteration: step.iteration,
            direction,
            support,
            simplex,
            closest: R::vec_to_f64(step.closest) * back,
            lower_bound: (step.lower2.sqrt().to_f64() - margin) * back,
            upper_bound: (step.closest2.sqrt().to_f64() - margin) * back,
        };
        if step.iteration == 0 && step.direction.is_none() {
            self.runs.push(RunTrace {
                float64: R::WIDEST,
                margin: margin * back,
                unit: unit.to_f64(),
                ..RunTrace::default()
            });
        }
        self.run().gjk.push(record);
    }

    fn gjk_answer(&mut self, status: GjkStatus, distance: R, iterations: u32) {
        let run = self.run();
        // Divided as `gjk_to_local` divides it (the unit is a power of two, exact in both precisions): the
        // same bits as the answer the query returns.
        let back = R::ONE / R::from_f64(run.unit);
        run.gjk_answer = Some(GjkAnswerTrace {
            status,
            distance: (distance * back).to_f64(),
            iterations,
        });
    }
}

impl<R: Real> EpaTracer<R> for PairRecorder {
    fn epa_step(&mut self, step: &EpaStep<'_, '_, R>) {
        let q = step.query;
        let unit = q.support.unit;
        let back = 1.0 / unit.to_f64();
        let poly = step.polytope;
        let face = step.closest;
        let w = |i: usize| R::vec_to_f64(poly.w[i]) * back;
        let live = poly.faces[..poly.face_slots].iter().filter(|f| f.alive);
        if step.iteration == 0 {
            self.run().epa_tries += 1;
        }
        let attempt = self.run().epa_tries - 1;
        let keep = (step.iteration as usize) < POLYTOPE_SNAPSHOTS;
        let record = EpaIterationTrace {
            attempt,
            iteration: step.iteration,
            face_count: live.clone().count(),
            normal: R::vec_to_f64(face.normal),
            depth: (face.dist.to_f64() + q.margin().to_f64()) * back,
            face: face.v.map(|i| w(i as usize)),
            support: self.point(unit, step.support_a, step.support_b),
            vertices: if keep {
                (0..poly.vertices).map(w).collect()
            } else {
                Vec::new()
            },
            faces: if keep {
                live.map(|f| f.v).collect()
            } else {
                Vec::new()
            },
        };
        self.run().epa.push(record);
    }
}

/// [`super::penetration_relative`] with every run recorded: GJK (distance mode), then EPA on an overlap, then
/// the float64 repeat when float32 cannot finish. `relative` places B's local frame in A's local frame.
#[cfg(test)]
pub(crate) fn trace_penetration(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
    config: &GjkConfig,
) -> PairTrace {
    let mut recorder = PairRecorder::new(a.centre());
    let (result, hit) = penetration_relative_traced(a, b, relative, config, &mut recorder);
    PairTrace {
        runs: recorder.runs,
        result,
        penetration: Some(hit),
    }
}

/// [`super::query_relative`] with every run recorded.
#[cfg(test)]
pub(crate) fn trace_query(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: &RelativePose<f32>,
    kind: QueryKind,
    config: &GjkConfig,
) -> PairTrace {
    let mut recorder = PairRecorder::new(a.centre());
    let result = query_relative_traced(a, b, relative, kind, config, &mut recorder);
    PairTrace {
        runs: recorder.runs,
        result,
        penetration: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::epa::PenetrationStatus;
    use crate::query::{penetration_relative, query_relative};
    use glam::Quat;

    fn relative(x: f32, angle: f32) -> RelativePose<f32> {
        RelativePose {
            rotation: Quat::from_rotation_z(angle) * Quat::from_rotation_x(0.3),
            position: Vec3::new(x, 0.2, -0.1),
        }
    }

    #[test]
    fn a_traced_query_answers_like_the_untraced_one_and_ends_on_its_answer() {
        let cube = ConvexShape::cuboid(Vec3::ONE).unwrap();
        let cone = ConvexShape::cone(1.0, 0.8, 24).unwrap();
        let config = GjkConfig::default();
        for x in [3.5, 2.2, 1.0, 0.0] {
            let rel = relative(x, 0.7);
            let trace = trace_penetration(&cube, &cone, &rel, &config);
            let (result, hit) = penetration_relative(&cube, &cone, &rel, &config);
            assert_eq!(trace.result, result);
            assert_eq!(trace.penetration, Some(hit));
            let run = trace.answering_run();
            let answer = run.gjk_answer.unwrap();
            assert_eq!(answer.status, result.status);
            assert_eq!(answer.iterations, result.iterations);
            assert_eq!(answer.distance, f64::from(result.distance));
            assert_eq!(run.gjk.last().unwrap().iteration, result.iterations);
            assert_eq!(run.gjk.len() as u32, result.iterations + 1);
            let deep = hit.status == PenetrationStatus::Penetrating && x < 2.0;
            assert_eq!(!run.epa.is_empty(), deep, "x = {x}: {hit:?}");
            if let Some(last) = run.epa.last() {
                assert!(
                    (last.depth - f64::from(hit.depth)).abs() < 1e-5,
                    "{last:?} {hit:?}"
                );
                assert!(last.face_count >= 4 && !last.faces.is_empty());
            }
        }
        let rel = relative(4.0, 0.1);
        let kind = QueryKind::Intersection;
        let trace = trace_query(&cube, &cone, &rel, kind, &config);
        assert_eq!(
            trace.result,
            query_relative(&cube, &cone, &rel, kind, &config)
        );
        assert!(trace.penetration.is_none());
    }

    #[test]
    fn simplex_points_are_vertices_of_a_minus_vertices_of_b_and_the_bounds_close_in() {
        // B's vertices in A's frame are B's points moved by the relative pose.
        let a = ConvexShape::new(
            vec![
                Vec3::new(10.0, 10.0, 10.0),
                Vec3::new(12.0, 10.0, 10.0),
                Vec3::new(10.0, 13.0, 10.0),
                Vec3::new(10.0, 10.0, 11.0),
            ],
            0.0,
        )
        .unwrap();
        let b = ConvexShape::cuboid(Vec3::new(0.5, 1.0, 0.25)).unwrap();
        let rel = RelativePose {
            rotation: Quat::from_rotation_y(0.4),
            position: Vec3::new(16.0, 11.0, 10.5),
        };
        let trace = trace_penetration(&a, &b, &rel, &GjkConfig::default());
        let run = trace.answering_run();
        let near = |p: DVec3, set: &[DVec3]| set.iter().any(|v| (*v - p).length() < 1e-5);
        let a_points: Vec<DVec3> = a.local_points().map(|p| p.as_dvec3()).collect();
        let b_points: Vec<DVec3> = b
            .local_points()
            .map(|p| (rel.rotation * p + rel.position).as_dvec3())
            .collect();
        for it in &run.gjk {
            for (p, _) in it.simplex.iter().chain([(it.support, 1.0)].iter()) {
                assert!(near(p.a, &a_points), "{p:?}");
                assert!(near(p.b, &b_points), "{p:?}");
                assert!((p.a - p.b - p.w).length() < 1e-5, "{p:?}");
            }
            assert!(it.lower_bound <= it.upper_bound + 1e-6, "{it:?}");
        }
        let last = run.gjk.last().unwrap();
        assert_eq!(trace.result.status, GjkStatus::Separated);
        assert!((last.upper_bound - last.lower_bound).abs() < 1e-4);
        assert!((last.upper_bound - f64::from(trace.result.distance)).abs() < 1e-5);
    }
}
