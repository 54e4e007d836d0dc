//! The family "round hulls at one centre": two Fibonacci spheres of 300 to 3,000 points, each turned at
//! random, radii 1e-3 to 1e3 in a ratio of 0.3 to 1 (either one inside), at one centre or up to 1e-3 of the
//! smaller radius apart, anywhere within 1e3 radii of the origin, as hulls or as raw point sets. Their
//! Minkowski difference is round and finely faceted, the case that needs EPA's largest polytopes. Both orders
//! of A and B through the front door in float32 and float64 must answer `penetrating`, with a depth that B
//! needs along the answer's own normal (so at least the exact depth) and no more than the support-function
//! referee's upper bound (`common::round`), both within [`DEPTH`] of the pair scale.

use crate::common::round::{depth_along, depth_upper_bound, sphere_points};
use crate::runner::fuzz;
use crate::DEPTH;
use glam::{DQuat, DVec3, Vec3};
use gpu_gjk::{
    penetration, ConvexShape, DPose, PairInput, PenetrationStatus, Precision, QueryOptions,
};
use proptest::prelude::*;

/// One generated pair, as its parameters (what a failure prints after shrinking).
#[derive(Clone, Debug)]
pub(crate) struct RoundPair {
    points: [usize; 2],
    radii: [f64; 2],
    rotations: [DQuat; 2],
    centre: DVec3,
    offset: DVec3,
    hull: bool,
}

impl RoundPair {
    fn label(&self) -> String {
        let apart = if self.offset == DVec3::ZERO {
            "at one centre"
        } else {
            "nearly at one centre"
        };
        let form = if self.hull { "hulls" } else { "raw points" };
        format!("round hulls {apart}, {form}")
    }
}

fn check(case: &RoundPair) -> Result<(), String> {
    let a = sphere_points(case.points[0], case.radii[0], case.rotations[0]);
    let b = sphere_points(case.points[1], case.radii[1], case.rotations[1]);
    let (pa, pb) = (case.centre, case.centre + case.offset);
    let scale = case.radii[0].max(case.radii[1]);
    let tol = DEPTH * scale;
    let (upper, _) = depth_upper_bound(&a, pa, &b, pb);
    let shape = |points: &[Vec3]| {
        if case.hull {
            ConvexShape::hull(points, 0.0).unwrap()
        } else {
            ConvexShape::new(points.to_vec(), 0.0).unwrap()
        }
    };
    let (shape_a, shape_b) = (shape(&a), shape(&b));
    let pose = |position| DPose {
        position,
        rotation: DQuat::IDENTITY,
    };
    for swap in [false, true] {
        let (sa, ppa, sb, ppb, points_a, points_b) = if swap {
            (&shape_b, pb, &shape_a, pa, &b, &a)
        } else {
            (&shape_a, pa, &shape_b, pb, &a, &b)
        };
        let input = PairInput::new(sa, pose(ppa), sb, pose(ppb));
        for precision in [Precision::Float32, Precision::Float64] {
            let options = QueryOptions {
                precision,
                ..QueryOptions::default()
            };
            let (_, hit) = penetration(&input, options);
            let what = format!(
                "{} ({}, {precision:?})",
                case.label(),
                if swap { "B, A" } else { "A, B" }
            );
            if hit.status != PenetrationStatus::Penetrating {
                return Err(format!("{what}: status {}", hit.status.name()));
            }
            let along = depth_along(points_a, ppa, points_b, ppb, hit.normal);
            // Written so that a depth that is not a number fails.
            let moves_b_out = (along - hit.depth).abs() <= tol;
            let unit = (hit.normal.length() - 1.0).abs() <= 1e-4;
            if !(moves_b_out && unit) {
                return Err(format!(
                    "{what}: depth {:e}, but B must move {along:e} along the normal {} (tolerance {tol:e})",
                    hit.depth, hit.normal
                ));
            }
            let at_most_the_referee = hit.depth <= upper + tol;
            if !at_most_the_referee {
                return Err(format!(
                    "{what}: depth {:e}, but the referee moves B out by {upper:e} (tolerance {tol:e})",
                    hit.depth
                ));
            }
        }
    }
    Ok(())
}

fn log_uniform(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (lo..hi).prop_map(|e| 10f64.powf(e))
}

fn rotation() -> impl Strategy<Value = DQuat> {
    prop_oneof![
        Just(DQuat::IDENTITY),
        (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64)
            .prop_filter("a quaternion of some length", |q| q.0 * q.0
                + q.1 * q.1
                + q.2 * q.2
                + q.3 * q.3
                > 0.01)
            .prop_map(|q| DQuat::from_xyzw(q.0, q.1, q.2, q.3).normalize()),
    ]
}

fn direction() -> impl Strategy<Value = DVec3> {
    (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64)
        .prop_filter("a direction", |d| DVec3::from(*d).length() > 0.1)
        .prop_map(|d| DVec3::from(d).normalize())
}

pub(crate) fn pairs() -> impl Strategy<Value = RoundPair> {
    (
        (300usize..3000, 300usize..3000),
        (log_uniform(-3.0, 3.0), 0.3..1.0f64, any::<bool>()),
        (rotation(), rotation()),
        (direction(), 0.0..1e3f64),
        prop_oneof![Just(0.0), log_uniform(-7.0, -3.0)],
        direction(),
        any::<bool>(),
    )
        .prop_map(
            |(points, (radius, ratio, a_inside), rotations, (at, far), apart, towards, hull)| {
                let radii = if a_inside {
                    [radius * ratio, radius]
                } else {
                    [radius, radius * ratio]
                };
                RoundPair {
                    points: [points.0, points.1],
                    radii,
                    rotations: [rotations.0, rotations.1],
                    centre: at * far * radius,
                    offset: towards * apart * radii[0].min(radii[1]),
                    hull,
                }
            },
        )
}

#[test]
fn round_hulls_at_one_centre_answer_within_the_depth_tolerance() {
    fuzz(
        "round hulls at one centre",
        pairs(),
        6,
        20,
        |c: &RoundPair| vec![c.label()],
        check,
    );
}
