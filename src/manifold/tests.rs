//! Hand-computed manifolds, both orders of A and B, feature ids under small motion, and hostile families
//! checked against the library's own distance and EPA answers.

use super::*;
use crate::query::Precision;
use crate::shape::ConvexShape;
use crate::{penetration, DPose, Pose};
use glam::{DQuat, Quat, Vec3};
use proptest::prelude::*;
use std::f32::consts::FRAC_PI_4;

fn boxed(x: f32, y: f32, z: f32) -> ConvexShape {
    ConvexShape::cuboid(Vec3::new(x, y, z)).unwrap()
}

fn at(position: Vec3, rotation: Quat) -> Pose {
    Pose::new(position, rotation)
}

fn contact(
    a: &ConvexShape,
    pose_a: impl Into<DPose>,
    b: &ConvexShape,
    pose_b: impl Into<DPose>,
) -> Manifold {
    manifold(
        &PairInput::new(a, pose_a, b, pose_b),
        QueryOptions::default(),
    )
}

/// Whether `points` holds a point near each of `expected` on B, and nothing else.
fn on_b_are(m: &Manifold, expected: &[DVec3], tolerance: f64) -> bool {
    m.points.len() == expected.len()
        && expected
            .iter()
            .all(|e| m.points.iter().any(|p| p.point_b.distance(*e) < tolerance))
}

#[test]
fn a_box_resting_on_a_face_stands_on_its_four_corners() {
    let slab = boxed(2.0, 0.5, 2.0);
    let cube = boxed(0.5, 0.5, 0.5);
    let m = contact(
        &slab,
        Pose::IDENTITY,
        &cube,
        Pose::from_position(Vec3::new(0.3, 0.99, -0.2)),
    );
    assert_eq!(m.status, PenetrationStatus::Penetrating);
    assert!((m.normal - DVec3::Y).length() < 1e-6, "{:?}", m.normal);
    let corners: Vec<DVec3> = [(-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)]
        .iter()
        .map(|&(x, z)| DVec3::new(0.3 + 0.5 * x, 0.49, -0.2 + 0.5 * z))
        .collect();
    assert!(on_b_are(&m, &corners, 1e-6), "{m:#?}");
    for p in &m.points {
        assert!((p.depth - 0.01).abs() < 1e-6);
        assert!((p.point_a - p.point_b - DVec3::Y * 0.01).length() < 1e-6);
        // The slab's top face against each of the cube's bottom corners.
        assert_eq!(p.id.a >> 30, FeatureKind::Face as u32);
        assert_eq!(p.id.b >> 30, FeatureKind::Vertex as u32);
    }
}

#[test]
fn a_box_turned_about_the_normal_keeps_its_corners_and_the_slab_edge_cuts_them() {
    let slab = boxed(2.0, 0.5, 2.0);
    let cube = boxed(0.5, 0.5, 0.5);
    let turn = Quat::from_rotation_y(0.4);
    let m = contact(
        &slab,
        Pose::IDENTITY,
        &cube,
        at(Vec3::new(0.0, 0.98, 0.0), turn),
    );
    let corners: Vec<DVec3> = [(-0.5, -0.5), (-0.5, 0.5), (0.5, -0.5), (0.5, 0.5)]
        .iter()
        .map(|&(x, z)| (turn * Vec3::new(x, -0.5, z)).as_dvec3() + DVec3::Y * 0.98)
        .collect();
    assert!(on_b_are(&m, &corners, 1e-5), "{m:#?}");
    // Overhanging the slab's edge at x = 2: the cube's face is cut by the slab's side plane, two corners
    // and two crossings remain.
    let m = contact(
        &slab,
        Pose::IDENTITY,
        &cube,
        Pose::from_position(Vec3::new(2.0, 0.99, 0.0)),
    );
    let expected = [
        DVec3::new(1.5, 0.49, -0.5),
        DVec3::new(1.5, 0.49, 0.5),
        DVec3::new(2.0, 0.49, -0.5),
        DVec3::new(2.0, 0.49, 0.5),
    ];
    assert!(on_b_are(&m, &expected, 1e-5), "{m:#?}");
    let crossings = m
        .points
        .iter()
        .filter(|p| p.id.b >> 30 == FeatureKind::Edge as u32);
    assert_eq!(crossings.count(), 2);
}

#[test]
fn a_box_on_its_edge_touches_along_two_points() {
    let slab = boxed(2.0, 0.5, 2.0);
    let cube = boxed(0.5, 0.5, 0.5);
    // Turned 45 degrees about z: its lowest edge runs along z at height y - sqrt(2) / 2.
    let height = 0.5 + std::f32::consts::FRAC_1_SQRT_2 - 0.02;
    let m = contact(
        &slab,
        Pose::IDENTITY,
        &cube,
        at(
            Vec3::new(0.0, height, 0.0),
            Quat::from_rotation_z(FRAC_PI_4),
        ),
    );
    let low = height as f64 - std::f64::consts::FRAC_1_SQRT_2;
    let ends = [DVec3::new(0.0, low, -0.5), DVec3::new(0.0, low, 0.5)];
    assert!(on_b_are(&m, &ends, 1e-5), "{m:#?}");
    for p in &m.points {
        assert!((p.depth - 0.02).abs() < 1e-5, "{p:?}");
    }
}

#[test]
fn a_box_on_its_corner_touches_at_one_point() {
    let slab = boxed(2.0, 0.5, 2.0);
    let cube = boxed(0.5, 0.5, 0.5);
    // The corner (-1, -1, -1) / 2 turned to point straight down.
    let down = Quat::from_rotation_arc(Vec3::splat(-1.0).normalize(), -Vec3::Y);
    let reach = 0.5 * 3f32.sqrt();
    let m = contact(
        &slab,
        Pose::IDENTITY,
        &cube,
        at(Vec3::new(0.1, 0.5 + reach - 0.03, 0.0), down),
    );
    assert_eq!(m.points.len(), 1, "{m:#?}");
    let p = m.points[0];
    assert!((p.depth - 0.03).abs() < 1e-5, "{p:?}");
    assert!(
        p.point_b.distance(DVec3::new(0.1, 0.47, 0.0)) < 1e-5,
        "{p:?}"
    );
    assert!(
        p.point_a.distance(DVec3::new(0.1, 0.5, 0.0)) < 1e-5,
        "{p:?}"
    );
}

#[test]
fn rounded_boxes_rest_on_their_rounded_faces() {
    let lower = ConvexShape::rounded_box(Vec3::new(1.0, 0.4, 1.0), 0.1).unwrap();
    let upper = ConvexShape::rounded_box(Vec3::splat(0.4), 0.1).unwrap();
    // Surfaces at y = 0.5 (lower's top) and y = 1.49 - 0.5 = 0.99 - 0.5 ... the upper's bottom at 0.49.
    let m = contact(
        &lower,
        Pose::IDENTITY,
        &upper,
        Pose::from_position(Vec3::new(0.0, 0.99, 0.0)),
    );
    let corners: Vec<DVec3> = [(-0.4, -0.4), (-0.4, 0.4), (0.4, -0.4), (0.4, 0.4)]
        .iter()
        .map(|&(x, z)| DVec3::new(x, 0.49, z))
        .collect();
    assert!(on_b_are(&m, &corners, 1e-5), "{m:#?}");
    for p in &m.points {
        assert!((p.depth - 0.01).abs() < 1e-5);
        assert!((p.point_a.y - 0.5).abs() < 1e-5);
    }
}

#[test]
fn spheres_and_capsules_have_their_closed_forms() {
    let slab = boxed(2.0, 0.5, 2.0);
    let ball = ConvexShape::sphere(0.5).unwrap();
    let m = contact(
        &slab,
        Pose::IDENTITY,
        &ball,
        Pose::from_position(Vec3::new(0.2, 0.98, 0.0)),
    );
    assert_eq!(m.points.len(), 1, "{m:#?}");
    assert!((m.points[0].depth - 0.02).abs() < 1e-5);
    assert!(m.points[0].point_b.distance(DVec3::new(0.2, 0.48, 0.0)) < 1e-5);
    // A capsule lying on the slab: both ends of its segment, radius below them.
    let pill = ConvexShape::capsule(0.6, 0.25).unwrap();
    let lying = at(
        Vec3::new(0.0, 0.74, 0.0),
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
    );
    let m = contact(&slab, Pose::IDENTITY, &pill, lying);
    let ends = [DVec3::new(-0.6, 0.49, 0.0), DVec3::new(0.6, 0.49, 0.0)];
    assert!(on_b_are(&m, &ends, 1e-5), "{m:#?}");
    // Two parallel capsules side by side: two points; crossed: one.
    let beside = at(Vec3::new(0.0, 0.0, 0.49), Quat::IDENTITY);
    let m = contact(&pill, Pose::IDENTITY, &pill, beside);
    let ends = [DVec3::new(0.0, -0.6, 0.24), DVec3::new(0.0, 0.6, 0.24)];
    assert!(on_b_are(&m, &ends, 1e-5), "{m:#?}");
    let crossed = at(Vec3::new(0.0, 0.0, 0.49), Quat::from_rotation_z(1.0));
    let m = contact(&pill, Pose::IDENTITY, &pill, crossed);
    assert_eq!(m.points.len(), 1, "{m:#?}");
    assert!((m.points[0].depth - 0.01).abs() < 1e-5);
}

#[test]
fn apart_shapes_have_no_points() {
    let cube = boxed(0.5, 0.5, 0.5);
    let m = contact(
        &cube,
        Pose::IDENTITY,
        &cube,
        Pose::from_position(Vec3::new(0.0, 1.5, 0.0)),
    );
    assert_eq!(m.status, PenetrationStatus::Separated);
    assert!(m.points.is_empty());
}

/// The manifold of (B, A) is that of (A, B) with the normal turned round and the points' sides swapped.
fn assert_mirrors(a: &ConvexShape, pose_a: Pose, b: &ConvexShape, pose_b: Pose) {
    let forward = contact(a, pose_a, b, pose_b);
    let backward = contact(b, pose_b, a, pose_a);
    assert_eq!(
        forward.points.len(),
        backward.points.len(),
        "{forward:#?}\n{backward:#?}"
    );
    assert!((forward.normal + backward.normal).length() < 1e-5);
    for p in &forward.points {
        assert!(
            backward
                .points
                .iter()
                .any(|q| q.point_a.distance(p.point_b) < 1e-5
                    && q.point_b.distance(p.point_a) < 1e-5
                    && (q.depth - p.depth).abs() < 1e-5),
            "{p:?} not mirrored in {backward:#?}"
        );
    }
}

#[test]
fn both_orders_mirror() {
    let slab = boxed(2.0, 0.5, 2.0);
    let cube = boxed(0.5, 0.5, 0.5);
    let pill = ConvexShape::capsule(0.6, 0.25).unwrap();
    let rounded = ConvexShape::rounded_box(Vec3::splat(0.4), 0.1).unwrap();
    let turned = Quat::from_euler(glam::EulerRot::XYZ, 0.2, 0.7, -0.1);
    assert_mirrors(
        &slab,
        Pose::IDENTITY,
        &cube,
        Pose::from_position(Vec3::new(0.3, 0.99, -0.2)),
    );
    assert_mirrors(
        &slab,
        Pose::IDENTITY,
        &cube,
        Pose::from_position(Vec3::new(2.0, 0.99, 0.0)),
    );
    assert_mirrors(
        &slab,
        at(Vec3::ONE, turned),
        &cube,
        at(Vec3::ONE + turned * Vec3::new(0.0, 0.97, 0.0), turned),
    );
    assert_mirrors(
        &slab,
        Pose::IDENTITY,
        &pill,
        at(
            Vec3::new(0.0, 0.74, 0.0),
            Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
        ),
    );
    assert_mirrors(
        &slab,
        Pose::IDENTITY,
        &rounded,
        Pose::from_position(Vec3::new(0.0, 0.99, 0.0)),
    );
}

#[test]
fn feature_ids_hold_under_small_motion() {
    let slab = boxed(2.0, 0.5, 2.0);
    let cube = boxed(0.5, 0.5, 0.5);
    let ids = |position: Vec3, rotation: Quat| {
        let mut ids: Vec<FeatureId> = contact(&slab, Pose::IDENTITY, &cube, at(position, rotation))
            .points
            .iter()
            .map(|p| p.id)
            .collect();
        ids.sort_by_key(|id| id.packed());
        ids
    };
    let cases = [
        (Vec3::new(0.0, 0.99, 0.0), Quat::IDENTITY),
        // Overhanging an edge: corners and crossings.
        (Vec3::new(2.0, 0.99, 0.3), Quat::from_rotation_y(0.2)),
    ];
    for (position, rotation) in cases {
        let before = ids(position, rotation);
        assert_eq!(before.len(), 4);
        for step in 1..=10 {
            let t = step as f32 * 1e-3;
            let moved = ids(
                position + Vec3::new(t, -t, 0.5 * t),
                rotation * Quat::from_rotation_y(t),
            );
            assert_eq!(moved, before, "after step {step}");
        }
    }
}

/// The signed distance from `point` (world) to the surface of `shape` at `pose`: the gap outside, minus the
/// depth inside, by the library's float64 queries.
fn signed_distance(shape: &ConvexShape, pose: DPose, point: DVec3) -> f64 {
    let dot = ConvexShape::sphere(0.0).unwrap();
    let input = PairInput::new(
        shape,
        pose,
        &dot,
        DPose {
            position: point,
            rotation: DQuat::IDENTITY,
        },
    );
    let options = QueryOptions {
        precision: Precision::Float64,
        ..QueryOptions::default()
    };
    let (result, hit) = penetration(&input, options);
    if hit.status == PenetrationStatus::Penetrating {
        -hit.depth
    } else {
        result.distance
    }
}

/// A hostile shape family member, at size `size`.
fn family(kind: usize, size: f32, seed: u64) -> ConvexShape {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0
    };
    let s = size;
    match kind {
        0 => boxed(s, 0.6 * s, 0.8 * s),
        1 => ConvexShape::rounded_box(Vec3::new(s, 0.5 * s, 0.7 * s), 0.2 * s).unwrap(),
        // Thin: a slab a thousandth as thick as it is wide.
        2 => boxed(s, 1e-3 * s, s),
        3 => ConvexShape::capsule(s, 0.3 * s).unwrap(),
        4 => ConvexShape::sphere(s).unwrap(),
        // Flat: a random polygon.
        5 => {
            let points: Vec<Vec3> = (0..12)
                .map(|_| Vec3::new(next(), 0.0, next()) * s)
                .collect();
            ConvexShape::hull(&points, 0.0).unwrap()
        }
        // A random hull of 8 to 64 points, sometimes rounded.
        _ => {
            let n = 8 + (seed % 57) as usize;
            let points: Vec<Vec3> = (0..n)
                .map(|_| Vec3::new(next(), next(), next()) * s)
                .collect();
            let radius = if seed.is_multiple_of(3) { 0.1 * s } else { 0.0 };
            ConvexShape::hull(&points, radius).unwrap()
        }
    }
}

fn rotation() -> impl Strategy<Value = DQuat> {
    (-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0).prop_filter_map(
        "a unit quaternion",
        |(x, y, z, w)| {
            let q = DQuat::from_xyzw(x, y, z, w);
            (q.length() > 0.1).then(|| q.normalize())
        },
    )
}

/// One hostile pair of the families below.
#[derive(Clone, Debug)]
struct HostilePair {
    kinds: (usize, usize),
    seeds: (u64, u64),
    size: f32,
    ratio: f32,
    far: f64,
    turns: (DQuat, DQuat),
    offset: (f64, f64, f64),
    reach: f64,
}

fn hostile_pair() -> impl Strategy<Value = HostilePair> {
    (
        (0usize..7, 0usize..7),
        (any::<u64>(), any::<u64>()),
        prop::sample::select(vec![1e-3f32, 1.0, 1e4]),
        prop::sample::select(vec![1.0f32, 0.1, 10.0]),
        prop::sample::select(vec![0.0f64, 1e5, 1e8]),
        (rotation(), rotation()),
        (-1.0f64..1.0, -1.0f64..1.0, -1.0f64..1.0),
        0.0f64..1.2,
    )
        .prop_map(
            |(kinds, seeds, size, ratio, far, turns, offset, reach)| HostilePair {
                kinds,
                seeds,
                size,
                ratio,
                far,
                turns,
                offset,
                reach,
            },
        )
}

/// Every point lies on both surfaces within the touching tolerance, its depth is what its points say, the
/// first is the deepest with EPA's depth, and the mirror pair agrees. The number of points when the pair
/// overlaps.
fn check_hostile(pair: &HostilePair) -> Result<Option<usize>, TestCaseError> {
    let HostilePair {
        kinds,
        seeds,
        size,
        ratio,
        far,
        turns,
        offset,
        reach,
    } = pair.clone();
    let a = family(kinds.0, size, seeds.0);
    let b = family(kinds.1, size * ratio, seeds.1);
    let origin = DVec3::new(far, -0.5 * far, 0.25 * far);
    let pose_a = DPose {
        position: origin,
        rotation: turns.0,
    };
    let direction = DVec3::new(offset.0, offset.1, offset.2).normalize_or(DVec3::X);
    let span = (a.bounding_radius() + b.bounding_radius()) as f64;
    let pose_b = DPose {
        position: origin + direction * span * reach,
        rotation: turns.1,
    };
    let input = PairInput::new(&a, pose_a, &b, pose_b);
    // Checked in A's frame, where a 1e-3 shape at 1e8 keeps its digits (world coordinates there are
    // rounded to 1.5e-8).
    let m = manifold_in_a(&input, QueryOptions::default());
    let inverse = pose_a.rotation.inverse();
    let (pose_a, pose_b) = (
        DPose::IDENTITY,
        DPose {
            position: inverse * (pose_b.position - pose_a.position),
            rotation: inverse * pose_b.rotation,
        },
    );
    let (_, hit) = penetration(
        &PairInput::new(&a, pose_a, &b, pose_b),
        QueryOptions::default(),
    );
    if m.status != PenetrationStatus::Penetrating {
        prop_assert!(m.points.is_empty());
        return Ok(None);
    }
    let scale = a.bounding_radius().max(b.bounding_radius()) as f64;
    let tolerance = 1e-5 * scale;
    prop_assert!((1..=MAX_POINTS).contains(&m.points.len()));
    if hit.status == PenetrationStatus::Penetrating {
        prop_assert!(
            (m.points[0].depth - hit.depth).abs() <= tolerance,
            "{:?} vs {}",
            m.points[0],
            hit.depth
        );
    }
    for p in &m.points {
        prop_assert!(p.depth <= m.points[0].depth + tolerance);
        prop_assert!(p.depth >= -tolerance);
        prop_assert!(((p.point_a - p.point_b).dot(m.normal) - p.depth).abs() <= tolerance);
        let on_a = signed_distance(&a, pose_a, p.point_a);
        let on_b = signed_distance(&b, pose_b, p.point_b);
        prop_assert!(
            on_a.abs() <= 2.0 * tolerance,
            "A's point off by {} ({:?})",
            on_a / scale,
            p
        );
        prop_assert!(
            on_b.abs() <= 2.0 * tolerance,
            "B's point off by {} ({:?})",
            on_b / scale,
            p
        );
    }
    let mirror = manifold(
        &PairInput::new(&b, pose_b, &a, pose_a),
        QueryOptions::default(),
    );
    if mirror.status == PenetrationStatus::Penetrating {
        prop_assert!((mirror.points[0].depth - m.points[0].depth).abs() <= 2.0 * tolerance);
        prop_assert!(
            (mirror.normal + m.normal).length() <= 1e-3,
            "{:?} {:?}",
            mirror.normal,
            m.normal
        );
    }
    Ok(Some(m.points.len()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn points_lie_on_both_surfaces_with_epa_depth(pair in hostile_pair()) {
        check_hostile(&pair)?;
    }
}

/// The families reach overlapping pairs of every manifold size.
#[test]
fn the_hostile_families_reach_every_manifold_size() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut sizes = [0usize; MAX_POINTS + 1];
    for _ in 0..2000 {
        let pair = hostile_pair().new_tree(&mut runner).unwrap().current();
        if let Some(n) = check_hostile(&pair).unwrap() {
            sizes[n] += 1;
        }
    }
    assert!(sizes[1..].iter().all(|&n| n >= 20), "{sizes:?}");
}
