//! The family "small shapes far from the origin": boxes and point clouds 1e-6 to 1 across, written about their
//! own origin or offset from it by a few sizes, at positions up to the 1e9 limit, B within a few sizes of A,
//! as `gpu-gjk query` reads them (one JSON line, float64 numbers) and as the front door takes them (`DPose`,
//! float32 and float64). The referee works on the parsed float64 inputs: B's position minus A's as an exact
//! fixed-point sum (`common::exact::exact_offset`), the small rest rotated in float64, then Wolfe's
//! minimum-norm point of the Minkowski difference. A pair far from the origin must keep the precision of the
//! same pair at the origin: distances within [`FAR_DISTANCE`] of the pair scale of the exact one, and the
//! flag right outside that band around the touching tolerance.

use crate::common::exact::{exact_offset, hull_hull};
use crate::runner::fuzz;
use crate::{EPS32, TOUCH};
use glam::{DQuat, DVec3, Vec3};
use gpu_gjk::io::batch::query_pair;
use gpu_gjk::io::jsonl::parse_line;
use gpu_gjk::query::AnswerKind;
use gpu_gjk::{distance, ConvexShape, DPose, PairInput, Precision, QueryOptions};
use proptest::prelude::*;

/// What a pair far from the origin keeps (docs/answers.md, "Precision far from the origin"): its distance
/// within this fraction of the pair scale of the exact distance, as the float32 path does at the origin; for
/// small shapes farther apart than their size, within [`DISTANCE_ULPS`] float32 steps of the distance where that
/// is wider.
pub(crate) const FAR_DISTANCE: f64 = 4e-6;

/// GJK certifies a float32 separation to 32 units of roundoff of the pair's scale plus the distance (the
/// library's `CERTIFICATE_ULPS`): a gap several sizes wide is known to that many steps of the gap, not of the
/// size. A 10-minute run found a front-door answer 12.7 steps of the distance from the exact one (4.1e-6 of a
/// scale 3.6 times smaller than the gap).
const DISTANCE_ULPS: f64 = 32.0;

/// One side of a pair, as written: points, position and a unit quaternion `[x, y, z, w]`.
#[derive(Clone, Debug)]
pub(crate) struct Side {
    points: Vec<DVec3>,
    position: DVec3,
    rotation: [f64; 4],
}

#[derive(Clone, Debug)]
pub(crate) struct SmallFar {
    label: &'static str,
    a: Side,
    b: Side,
}

fn json_side(side: &Side) -> String {
    let points: Vec<String> = side
        .points
        .iter()
        .map(|p| format!("[{:?}, {:?}, {:?}]", p.x, p.y, p.z))
        .collect();
    let (p, q) = (side.position, side.rotation);
    format!(
        "{{\"points\": [{}], \"position\": [{:?}, {:?}, {:?}], \"rotation\": [{:?}, {:?}, {:?}, {:?}]}}",
        points.join(", "),
        p.x,
        p.y,
        p.z,
        q[0],
        q[1],
        q[2],
        q[3]
    )
}

impl SmallFar {
    fn line(&self) -> String {
        format!(
            "{{\"a\": {}, \"b\": {}}}",
            json_side(&self.a),
            json_side(&self.b)
        )
    }
}

fn unit_rotation(q: [f64; 4]) -> DQuat {
    DQuat::from_array(q).normalize()
}

/// The exact distance of the pair as parsed and its pair scale (larger bounding radius about the middle of
/// each shape's bounding box), in A's frame; with `float32_points`, of the pair whose points are rounded to
/// float32 one by one (what the front door is given).
fn exact_answer(case: &SmallFar, float32_points: bool) -> (f64, f64) {
    let round = |points: &[DVec3]| -> Vec<DVec3> {
        points
            .iter()
            .map(|p| {
                if float32_points {
                    p.as_vec3().as_dvec3()
                } else {
                    *p
                }
            })
            .collect()
    };
    let (a_points, b_points) = (round(&case.a.points), round(&case.b.points));
    let (ra, rb) = (
        unit_rotation(case.a.rotation),
        unit_rotation(case.b.rotation),
    );
    let apart = exact_offset(&[case.b.position], &[case.a.position]);
    let inv_a = ra.conjugate();
    let b: Vec<DVec3> = b_points.iter().map(|p| inv_a * (apart + rb * *p)).collect();
    let referee = hull_hull(&a_points, &b);
    let scale = bounding_radius(&a_points).max(bounding_radius(&b_points));
    (referee.upper, scale)
}

fn bounding_radius(points: &[DVec3]) -> f64 {
    let lo = points.iter().fold(DVec3::splat(f64::MAX), |m, p| m.min(*p));
    let hi = points.iter().fold(DVec3::splat(f64::MIN), |m, p| m.max(*p));
    let centre = (lo + hi) * 0.5;
    points
        .iter()
        .map(|p| (*p - centre).length())
        .fold(0.0, f64::max)
}

/// The pair in both orders of A and B.
fn check(case: &SmallFar) -> Result<(), String> {
    check_order(case)?;
    let swapped = SmallFar {
        label: case.label,
        a: case.b.clone(),
        b: case.a.clone(),
    };
    check_order(&swapped)
}

fn check_order(case: &SmallFar) -> Result<(), String> {
    let line = case.line();
    let judge = |path: &str, intersecting: bool, answered: f64| -> Result<(), String> {
        let (exact, scale) = exact_answer(case, path != "query");
        // Float32 steps of the distance where that is wider (two points: a pair scale of 0).
        let band = (FAR_DISTANCE * scale).max(DISTANCE_ULPS * EPS32 * exact);
        let touch = TOUCH * scale;
        if exact > touch + band && intersecting {
            return Err(format!(
                "  {path}: intersecting, exact distance {exact:e} (tolerance {touch:e}, scale {scale:e})\n  {line}"
            ));
        }
        if exact < touch - band && !intersecting {
            return Err(format!(
                "  {path}: separated at {answered:e}, exact distance {exact:e} (tolerance {touch:e})\n  {line}"
            ));
        }
        if !intersecting && (answered - exact).abs() > band {
            return Err(format!(
                "  {path}: distance {answered:e}, exact {exact:e}: {:e} of the scale {scale:e}\n  {line}",
                (answered - exact).abs() / scale
            ));
        }
        Ok(())
    };
    // `gpu-gjk query`'s CPU path: the line parsed (centres kept apart from the float64 poses).
    let pair = parse_line(line.as_bytes()).map_err(|e| format!("  {e}\n  {line}"))?;
    let (answer, _) = query_pair(&pair, AnswerKind::Distance);
    judge("query", answer.intersecting, answer.distance)?;
    // The front door, on the points rounded to float32 one by one, judged against the pair of those points
    // (a point written a few sizes off its origin rounds by a few 1e-8 of that offset).
    let shape = |side: &Side| {
        let points: Vec<Vec3> = side.points.iter().map(|p| p.as_vec3()).collect();
        ConvexShape::new(points, 0.0).unwrap()
    };
    let (a, b) = (shape(&case.a), shape(&case.b));
    let pose =
        |side: &Side| DPose::checked(side.position, DQuat::from_array(side.rotation)).unwrap();
    let input = PairInput::new(&a, pose(&case.a), &b, pose(&case.b));
    for precision in [Precision::Float32, Precision::Float64] {
        let options = QueryOptions {
            precision,
            ..QueryOptions::default()
        };
        let answer = distance(&input, options);
        judge(
            &format!("front door {precision:?}"),
            answer.intersecting,
            answer.distance,
        )?;
    }
    Ok(())
}

/// 10^u for u uniform in `[lo, hi)`.
fn log_uniform(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (lo..hi).prop_map(|e| 10f64.powf(e))
}

fn rotation() -> impl Strategy<Value = [f64; 4]> {
    prop_oneof![
        Just([0.0, 0.0, 0.0, 1.0]),
        (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64)
            .prop_filter("a quaternion of some length", |q| q.0 * q.0
                + q.1 * q.1
                + q.2 * q.2
                + q.3 * q.3
                > 0.01)
            .prop_map(|q| {
                let q = DQuat::from_xyzw(q.0, q.1, q.2, q.3).normalize();
                q.to_array()
            }),
    ]
}

/// A shape of size `size` written about its origin, or offset from it by up to two sizes: a box, a point
/// cloud, or a point.
fn shape(size: f64) -> impl Strategy<Value = Vec<DVec3>> {
    let offset = prop_oneof![
        Just(DVec3::ZERO),
        (-2.0..2.0f64, -2.0..2.0f64, -2.0..2.0f64).prop_map(move |o| DVec3::from(o) * size),
    ];
    let body = prop_oneof![
        (0.1..1.0f64, 0.1..1.0f64, 0.1..1.0f64).prop_map(move |e| {
            let e = DVec3::from(e) * size;
            (0..8)
                .map(|k| {
                    DVec3::new(
                        if k & 1 == 0 { 0.0 } else { e.x },
                        if k & 2 == 0 { 0.0 } else { e.y },
                        if k & 4 == 0 { 0.0 } else { e.z },
                    )
                })
                .collect::<Vec<_>>()
        }),
        prop::collection::vec((0.0..1.0f64, 0.0..1.0f64, 0.0..1.0f64), 4..12)
            .prop_map(move |ps| ps.into_iter().map(|p| DVec3::from(p) * size).collect()),
        Just(vec![DVec3::ZERO]),
    ];
    (body, offset).prop_map(|(points, offset)| points.into_iter().map(|p| p + offset).collect())
}

/// A coordinate up to the 1e9 limit: magnitudes 1e3 to 9e8, either sign.
fn far_coordinate() -> impl Strategy<Value = f64> {
    (log_uniform(3.0, 8.954), any::<bool>()).prop_map(|(x, negative)| if negative { -x } else { x })
}

pub(crate) fn pairs() -> impl Strategy<Value = SmallFar> {
    (log_uniform(-6.0, 0.0), 0.3..3.0f64).prop_flat_map(|(size, ratio)| {
        (
            shape(size),
            shape(size * ratio),
            (far_coordinate(), far_coordinate(), far_coordinate()),
            (-3.0..3.0f64, -3.0..3.0f64, -3.0..3.0f64),
            rotation(),
            rotation(),
        )
            .prop_map(move |(a, b, p, offset, ra, rb)| {
                let position = DVec3::from(p);
                let label = match (a.len(), b.len()) {
                    (1, _) | (_, 1) => "small and far: a point",
                    (8, 8) => "small and far: two boxes",
                    _ => "small and far: hulls",
                };
                SmallFar {
                    label,
                    a: Side {
                        points: a,
                        position,
                        rotation: ra,
                    },
                    b: Side {
                        points: b,
                        // Rounded to float64 at the far position: the referee takes the parsed numbers.
                        position: position + DVec3::from(offset) * size,
                        rotation: rb,
                    },
                }
            })
    })
}

#[test]
fn small_shapes_far_from_the_origin_answer_as_at_the_origin() {
    fuzz(
        "small shapes far from the origin",
        pairs(),
        300,
        2000,
        |c: &SmallFar| vec![c.label.to_string()],
        check,
    );
}
