//! The contact manifold on every generator family, in both orders of A and B: a penetrating pair has one to
//! four points, each on both surfaces within twice the touching tolerance by the exact referees
//! ([`crate::model::Solid::signed_distance_to`]; EPA's own contact pair, when the manifold includes it, is
//! EPA's answer and judged by the other tests), each depth what its points say, the first depth the pair's EPA depth
//! within 1e-5 of the scale, and the two orders' deepest depths the same within EPA's 1e-3; any other status
//! has no points. The CI budget is a few thousand cases a family; `FUZZ_SECONDS` loops each as the other tests do.

use crate::generators::{far_from_origin, near_limit, needles, slabs, special};
use crate::model::{Case, Solid};
use crate::runner::fuzz;
use crate::{DEPTH, EPS64, TOUCH};
use gpu_gjk::{
    manifold, penetration, DPose, FeatureId, Manifold, PairInput, PenetrationStatus, QueryOptions,
};

/// Cases per seed when looping for `FUZZ_SECONDS`.
const ROUND_CASES: u32 = 1000;

/// The manifold of one order, with its problems.
fn check_order(
    a: &Solid,
    pose_a: &DPose,
    b: &Solid,
    pose_b: &DPose,
    problems: &mut Vec<String>,
) -> Manifold {
    let input = PairInput::new(&a.shape, *pose_a, &b.shape, *pose_b);
    let m = manifold(&input, QueryOptions::default());
    let (_, hit) = penetration(&input, QueryOptions::default());
    if m.status != hit.status {
        problems.push(format!(
            "status {:?}, the penetration query's {:?}",
            m.status, hit.status
        ));
    }
    if m.status != PenetrationStatus::Penetrating {
        if !m.points.is_empty() {
            problems.push(format!(
                "{} points with status {:?}",
                m.points.len(),
                m.status
            ));
        }
        return m;
    }
    let scale = a.bound().max(b.bound());
    // World coordinates far from the origin (poses, or points written far from their local origin) are
    // rounded to their own precision.
    let far = pose_a.position.length()
        + pose_b.position.length()
        + a.centre().length()
        + b.centre().length();
    let rounding = 8.0 * EPS64 * (far + scale);
    let tolerance = TOUCH * scale + rounding;
    if !(1..=4).contains(&m.points.len()) {
        problems.push(format!("{} points", m.points.len()));
        return m;
    }
    // Below EPA's depth only by the touching tolerance; above it by at most EPA's own error (its depth is a
    // lower bound, and a clipped point's depth is the support functions' along EPA's normal: on needles and
    // near the coordinate limit float32 EPA stops up to about 1e-4 of the scale short).
    let excess = m.points[0].depth - hit.depth;
    if excess < -tolerance || excess > DEPTH * scale + rounding {
        problems.push(format!(
            "deepest depth {} vs EPA's {} (scale {scale:e})",
            m.points[0].depth, hit.depth
        ));
    }
    for p in &m.points {
        // EPA's own contact pair (added where clipping found no point as deep) is EPA's answer, which the other
        // fuzz tests judge; its points can be off the surfaces by more than the touching tolerance (5e-3 of
        // the scale seen on two overlapping rounded triangles), so only the clipped points are held to it.
        if p.id == FeatureId::DEEPEST {
            continue;
        }
        let local = |pose: &DPose, q| pose.rotation.inverse() * (q - pose.position);
        let on_a = a.signed_distance_to(local(pose_a, p.point_a));
        let on_b = b.signed_distance_to(local(pose_b, p.point_b));
        if on_a.abs() > 2.0 * tolerance || on_b.abs() > 2.0 * tolerance {
            problems.push(format!(
                "point off the surfaces by {:e} (A) and {:e} (B) of the scale: {p:?}",
                on_a / scale,
                on_b / scale
            ));
        }
        if ((p.point_a - p.point_b).dot(m.normal) - p.depth).abs() > tolerance
            || p.depth > m.points[0].depth + tolerance
        {
            problems.push(format!(
                "depth {} not what its points say, or deeper than the first: {p:?}",
                p.depth
            ));
        }
    }
    m
}

/// The property of the manifold fuzz tests.
fn check_manifold(case: &Case) -> Result<(), String> {
    let mut problems = Vec::new();
    let mut ab = Vec::new();
    let forward = check_order(&case.a, &case.pose_a, &case.b, &case.pose_b, &mut ab);
    problems.extend(ab.into_iter().map(|p| format!("(A,B) {p}")));
    let mut ba = Vec::new();
    let backward = check_order(&case.b, &case.pose_b, &case.a, &case.pose_a, &mut ba);
    problems.extend(ba.into_iter().map(|p| format!("(B,A) {p}")));
    if let (Some(f), Some(b)) = (forward.points.first(), backward.points.first()) {
        let scale = case.a.bound().max(case.b.bound());
        // Each is EPA's depth in its order, which agree within EPA's tolerance.
        if (f.depth - b.depth).abs() > DEPTH * scale {
            problems.push(format!(
                "deepest depths {} and {} in the two orders",
                f.depth, b.depth
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}: manifold\n  {}",
            case.label,
            problems.join("\n  ")
        ))
    }
}

fn fuzz_manifolds<S: proptest::strategy::Strategy<Value = Case>>(name: &str, strategy: S) {
    fuzz(
        name,
        strategy,
        3000,
        ROUND_CASES,
        |c: &Case| vec![c.label.clone()],
        check_manifold,
    );
}

#[test]
fn manifolds_of_thin_slabs_lie_on_both_surfaces() {
    fuzz_manifolds("manifolds: thin slabs", slabs::pairs());
}

#[test]
fn manifolds_of_needles_lie_on_both_surfaces() {
    fuzz_manifolds("manifolds: needles", needles::pairs());
}

#[test]
fn manifolds_of_shapes_far_from_their_origin_lie_on_both_surfaces() {
    fuzz_manifolds(
        "manifolds: far from the local origin",
        far_from_origin::pairs(),
    );
}

#[test]
fn manifolds_near_the_coordinate_limit_lie_on_both_surfaces() {
    fuzz_manifolds("manifolds: near the coordinate limit", near_limit::pairs());
}

#[test]
fn manifolds_of_identical_nested_tiny_and_huge_shapes_lie_on_both_surfaces() {
    fuzz_manifolds(
        "manifolds: identical, nested, tiny and huge",
        special::pairs(),
    );
}
