//! Hand-computed cases with known answers, including the ones that broke other libraries
//! (see FIELD_NOTES "Cases every GJK must survive").

mod common;

use common::one_pair as query;
use glam::{DQuat, DVec3, Quat, Vec3};
use gpu_gjk::gjk::pair_scale;
use gpu_gjk::scenario::random_rotation;
use gpu_gjk::{ConvexShape, DPose, GjkConfig, GjkResult, GjkStatus, PairInput, Pose, QueryKind};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn cube(half: f32) -> ConvexShape {
    ConvexShape::cuboid(Vec3::splat(half)).unwrap()
}

fn at(x: f32, y: f32, z: f32) -> Pose {
    Pose::from_position(Vec3::new(x, y, z))
}

fn dist(a: &ConvexShape, pa: &Pose, b: &ConvexShape, pb: &Pose) -> GjkResult<f32> {
    query::query(a, pa, b, pb, QueryKind::Distance, &GjkConfig::default())
}

fn hit(a: &ConvexShape, pa: &Pose, b: &ConvexShape, pb: &Pose) -> GjkResult<f32> {
    query::query(a, pa, b, pb, QueryKind::Intersection, &GjkConfig::default())
}

/// Both query kinds must agree on the flag; returns the distance result.
fn both(a: &ConvexShape, pa: &Pose, b: &ConvexShape, pb: &Pose) -> GjkResult<f32> {
    let d = dist(a, pa, b, pb);
    let h = hit(a, pa, b, pb);
    assert_eq!(
        d.intersecting, h.intersecting,
        "distance {d:?} vs intersection {h:?}"
    );
    assert_ne!(d.status, GjkStatus::MaxIterations);
    assert_ne!(h.status, GjkStatus::MaxIterations);
    d
}

fn assert_close(actual: f32, expected: f64, tol: f64, what: &str) {
    assert!(
        (actual as f64 - expected).abs() <= tol,
        "{what}: got {actual}, expected {expected} (tolerance {tol:e})"
    );
}

#[test]
fn cubes_touching_face_edge_and_corner_intersect() {
    let c = cube(1.0);
    for (name, p) in [
        ("face", at(2.0, 0.0, 0.0)),
        ("edge", at(2.0, 2.0, 0.0)),
        ("corner", at(2.0, 2.0, 2.0)),
        ("face -z", at(0.3, -0.7, -2.0)),
    ] {
        let r = both(&c, &Pose::IDENTITY, &c, &p);
        assert!(r.intersecting, "{name}: {r:?}");
        assert_eq!(r.status, GjkStatus::Intersecting);
        assert_eq!(r.distance, 0.0);
    }
}

#[test]
fn cubes_a_thousandth_of_their_size_apart_are_separated() {
    let c = cube(1.0);
    let gap = 2e-3; // 1e-3 of the edge length 2
    for (name, p, expected) in [
        ("face", at(2.0 + gap, 0.0, 0.0), gap as f64),
        (
            "edge",
            at(2.0 + gap, 2.0 + gap, 0.0),
            gap as f64 * 2f64.sqrt(),
        ),
        (
            "corner",
            at(2.0 + gap, 2.0 + gap, 2.0 + gap),
            gap as f64 * 3f64.sqrt(),
        ),
    ] {
        let r = both(&c, &Pose::IDENTITY, &c, &p);
        assert_eq!(r.status, GjkStatus::Separated, "{name}: {r:?}");
        assert_close(r.distance, expected, 1e-6, name);
        assert_close((r.witness_b - r.witness_a).length(), expected, 1e-6, name);
    }
}

#[test]
fn stacked_boxes_with_parallel_faces() {
    let slab = ConvexShape::cuboid(Vec3::new(2.0, 0.25, 2.0)).unwrap();
    for (dy, expected) in [(0.5f32, 0.0f64), (0.5 + 1e-3, 1e-3), (0.75, 0.25)] {
        let r = both(&slab, &Pose::IDENTITY, &slab, &at(0.37, dy, -0.21));
        assert_close(r.distance, expected, 1e-6, "stacked slabs");
        assert_eq!(r.intersecting, expected == 0.0);
        if !r.intersecting {
            // The normal comes from the closest point v, whose float32 rounding (about 1e-7 of the
            // coordinates) is divided by |v|: a 1e-3 gap leaves about 5e-5 of direction error.
            let tol = 1e-7 * 2.0 / expected as f32 * 2.0;
            assert!((r.normal - Vec3::Y).length() < tol, "normal {:?}", r.normal);
        }
    }
}

#[test]
fn spheres_match_the_analytic_distance() {
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    for _ in 0..2000 {
        let (ra, rb) = (rng.random_range(0.1..3.0f32), rng.random_range(0.1..3.0f32));
        let (a, b) = (
            ConvexShape::sphere(ra).unwrap(),
            ConvexShape::sphere(rb).unwrap(),
        );
        let ca = Vec3::new(
            rng.random_range(-5.0..5.0),
            rng.random_range(-5.0..5.0),
            0.0,
        );
        let cb = ca + gpu_gjk::scenario::random_unit(&mut rng) * rng.random_range(0.0..8.0);
        let expected = (cb - ca).as_dvec3().length() - ra as f64 - rb as f64;
        let r = both(&a, &Pose::from_position(ca), &b, &Pose::from_position(cb));
        let tol = 1e-5 * pair_scale(ra, rb) as f64;
        if expected > tol {
            assert!(!r.intersecting);
            assert_close(r.distance, expected, 1e-5, "sphere distance");
            // In A's frame the sphere's centre is the origin.
            assert!((r.witness_a.length() - ra).abs() <= 1e-5, "{r:?}");
        } else if expected < -tol {
            assert!(r.intersecting, "overlap {expected}: {r:?}");
        }
    }
}

#[test]
fn capsules_match_the_analytic_distance() {
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    for _ in 0..2000 {
        let (ha, ra) = (
            rng.random_range(0.1..2.0f32),
            rng.random_range(0.05..1.0f32),
        );
        let (hb, rb) = (
            rng.random_range(0.1..2.0f32),
            rng.random_range(0.05..1.0f32),
        );
        let a = ConvexShape::capsule(ha, ra).unwrap();
        let b = ConvexShape::capsule(hb, rb).unwrap();
        let pa = Pose::new(Vec3::ZERO, random_rotation(&mut rng));
        let pb = Pose::new(
            gpu_gjk::scenario::random_unit(&mut rng) * rng.random_range(0.0..6.0),
            random_rotation(&mut rng),
        );
        let ends = |h: f32, p: &Pose| {
            (
                p.transform_point(Vec3::new(0.0, -h, 0.0)).as_dvec3(),
                p.transform_point(Vec3::new(0.0, h, 0.0)).as_dvec3(),
            )
        };
        let ((p1, q1), (p2, q2)) = (ends(ha, &pa), ends(hb, &pb));
        let expected =
            common::analytic::segment_segment_distance(p1, q1, p2, q2) - ra as f64 - rb as f64;
        let r = both(&a, &pa, &b, &pb);
        let scale = pair_scale(a.bounding_radius(), b.bounding_radius()) as f64;
        if expected > 1e-4 * scale {
            assert!(!r.intersecting, "expected {expected}: {r:?}");
            assert_close(r.distance, expected, 1e-5 * scale, "capsule distance");
        } else if expected < -1e-4 * scale {
            assert!(r.intersecting, "expected {expected}: {r:?}");
        }
    }
}

#[test]
fn coaxial_cylinders() {
    let cyl = ConvexShape::cylinder(1.0, 1.0, 24).unwrap();
    let spin = |angle: f32| Quat::from_rotation_y(angle);
    for (dy, angle, expected) in [
        (2.5f32, 0.0f32, 0.5f64),
        (2.5, 0.4, 0.5),
        (2.0, 0.1, 0.0),
        (1.0, 0.0, 0.0),
        (0.0, 0.0, 0.0),
        (-3.0, 1.3, 1.0),
    ] {
        let r = both(
            &cyl,
            &Pose::IDENTITY,
            &cyl,
            &Pose::new(Vec3::new(0.0, dy, 0.0), spin(angle)),
        );
        assert_close(r.distance, expected, 1e-6, "coaxial cylinders");
        assert_eq!(r.intersecting, expected == 0.0);
    }
}

fn square_at_z0(half: f32) -> ConvexShape {
    ConvexShape::new(
        vec![
            Vec3::new(-half, -half, 0.0),
            Vec3::new(half, -half, 0.0),
            Vec3::new(half, half, 0.0),
            Vec3::new(-half, half, 0.0),
        ],
        0.0,
    )
    .unwrap()
}

#[test]
fn flat_polygons_at_z0() {
    let sq = square_at_z0(1.0);
    // Side by side in the same plane.
    let r = both(&sq, &Pose::IDENTITY, &sq, &at(2.5, 0.3, 0.0));
    assert_close(r.distance, 0.5, 1e-6, "coplanar squares");
    // Coplanar, sharing an edge exactly.
    assert!(both(&sq, &Pose::IDENTITY, &sq, &at(2.0, 0.0, 0.0)).intersecting);
    // Coplanar, overlapping.
    assert!(both(&sq, &Pose::IDENTITY, &sq, &at(0.5, 0.5, 0.0)).intersecting);
    // Parallel planes.
    let r = both(&sq, &Pose::IDENTITY, &sq, &at(0.2, 0.1, 0.25));
    assert_close(r.distance, 0.25, 1e-6, "parallel squares");
    // Crossing at right angles through each other.
    let standing = Pose::new(
        Vec3::ZERO,
        Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
    );
    assert!(both(&sq, &Pose::IDENTITY, &sq, &standing).intersecting);
    // A triangle against a box face it lies on.
    let tri = ConvexShape::new(
        vec![
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(0.5, 0.0, 0.0),
            Vec3::new(0.0, 0.5, 0.0),
        ],
        0.0,
    )
    .unwrap();
    assert!(both(&tri, &at(0.0, 0.0, 1.0), &cube(1.0), &Pose::IDENTITY).intersecting);
    let r = both(&tri, &at(0.0, 0.0, 1.1), &cube(1.0), &Pose::IDENTITY);
    assert_close(r.distance, 0.1, 1e-6, "triangle above box");
}

#[test]
fn points_and_segments_against_a_box() {
    let c = cube(1.0);
    let point = ConvexShape::new(vec![Vec3::ZERO], 0.0).unwrap();
    let r = both(&point, &at(3.0, 0.0, 0.0), &c, &Pose::IDENTITY);
    assert_close(r.distance, 2.0, 1e-6, "point to face");
    // Witnesses are in A's local frame: the box face at x = 1 is at x = -2 seen from the point.
    assert!(
        (r.witness_b - Vec3::new(-2.0, 0.0, 0.0)).length() < 1e-6,
        "{r:?}"
    );
    let world = gpu_gjk::WorldResult::from_local(&r, &at(3.0, 0.0, 0.0).to_f64());
    assert!((world.witness_b - DVec3::X).length() < 1e-6, "{world:?}");
    let r = both(&point, &at(2.0, 2.0, 2.0), &c, &Pose::IDENTITY);
    assert_close(r.distance, 3f64.sqrt(), 1e-6, "point to corner");
    assert!(both(&point, &at(0.2, -0.3, 0.9), &c, &Pose::IDENTITY).intersecting);
    assert!(both(&point, &at(1.0, 0.5, 0.5), &c, &Pose::IDENTITY).intersecting);

    let segment = ConvexShape::new(
        vec![Vec3::new(0.0, -5.0, 0.0), Vec3::new(0.0, 5.0, 0.0)],
        0.0,
    )
    .unwrap();
    let r = both(&segment, &at(2.0, 0.0, 0.0), &c, &Pose::IDENTITY);
    assert_close(r.distance, 1.0, 1e-6, "segment to face");
    let r = both(&segment, &at(2.0, 0.0, 2.0), &c, &Pose::IDENTITY);
    assert_close(r.distance, 2f64.sqrt(), 1e-6, "segment to edge");
    assert!(both(&segment, &at(0.5, 0.0, 0.5), &c, &Pose::IDENTITY).intersecting);
    // A segment with both ends the same point.
    let degenerate = ConvexShape::new(vec![Vec3::X, Vec3::X], 0.0).unwrap();
    let r = both(&degenerate, &at(2.0, 0.0, 0.0), &c, &Pose::IDENTITY);
    assert_close(r.distance, 2.0, 1e-6, "repeated point");
}

#[test]
fn identical_shapes_at_the_same_pose_intersect() {
    let shapes = [
        cube(1.0),
        ConvexShape::sphere(1.0).unwrap(),
        ConvexShape::cone(1.0, 0.5, 16).unwrap(),
        square_at_z0(1.0),
        ConvexShape::new(vec![Vec3::ZERO, Vec3::X], 0.0).unwrap(),
        ConvexShape::new(vec![Vec3::new(0.3, 0.1, -0.2)], 0.0).unwrap(),
    ];
    let pose = Pose::new(Vec3::new(3.0, -1.0, 2.0), Quat::from_rotation_z(0.7));
    for s in &shapes {
        let r = both(s, &pose, s, &pose);
        assert!(r.intersecting, "{s:?}: {r:?}");
        assert!(r.witness_a.is_finite() && r.normal.is_finite());
    }
}

/// Box and rotated cone at a known configuration, answered at the origin; the same pair far away and
/// scaled must give the same answer in proportion.
#[test]
fn translation_and_scale_do_not_change_answers() {
    let base_rot = DQuat::from_rotation_z(0.3) * DQuat::from_rotation_x(0.2);
    let make = |s: f32| {
        (
            ConvexShape::cuboid(Vec3::new(1.0, 0.5, 0.8) * s).unwrap(),
            ConvexShape::cone(0.7 * s, 0.5 * s, 20).unwrap(),
        )
    };
    let (a1, b1) = make(1.0);
    let pose_b = |s: f64, offset: DVec3, gap: f64| {
        DPose::checked(
            offset + DVec3::new(1.0 + 0.7 + gap, 0.1, 0.05) * s,
            base_rot,
        )
        .unwrap()
    };
    for gap in [0.3, 1e-3, 0.0, -0.2] {
        let reference = gpu_gjk::distance(
            &PairInput::new(&a1, DPose::IDENTITY, &b1, pose_b(1.0, DVec3::ZERO, gap)),
            Default::default(),
        );
        for (s, offset) in [
            (1.0, DVec3::splat(1e4)),
            (1e-2, DVec3::ZERO),
            (1e-2, DVec3::new(1e4, -1e4, 1e4)),
            (1e3, DVec3::ZERO),
            (1e3, DVec3::splat(-1e4)),
        ] {
            let (a, b) = make(s as f32);
            let pa = DPose::checked(offset, DQuat::IDENTITY).unwrap();
            let r = gpu_gjk::distance(
                &PairInput::new(&a, pa, &b, pose_b(s, offset, gap)),
                Default::default(),
            );
            assert_eq!(
                r.intersecting, reference.intersecting,
                "gap {gap} scale {s} offset {offset}"
            );
            assert!(
                (r.distance - reference.distance * s).abs() <= 1e-5 * s,
                "gap {gap} scale {s} offset {offset}: {} vs {}",
                r.distance,
                reference.distance * s
            );
            let moved = (reference.witness_a * s + offset - r.witness_a).length();
            assert!(moved <= 1e-4 * s, "witness moved by {moved}");
        }
        // The float32 pose path at 1e4, where the offset is exactly representable.
        let far = Pose::from_position(Vec3::splat(1e4));
        let pb = pose_b(1.0, DVec3::splat(1e4), gap).to_f32();
        let r = dist(&a1, &far, &b1, &pb);
        assert!(
            (r.distance as f64 - reference.distance).abs() < 1e-3,
            "f32 far: {r:?}"
        );
    }
}

#[test]
fn size_ratio_one_thousand_to_one() {
    let big = cube(1000.0);
    let small = cube(1.0);
    for (x, expected) in [
        (1001.5f32, 0.5f64),
        (1001.0, 0.0),
        (1000.5, 0.0),
        (1003.0, 2.0),
    ] {
        let r = both(&big, &Pose::IDENTITY, &small, &at(x, 20.0, -300.0));
        assert_eq!(r.intersecting, expected == 0.0, "x {x}: {r:?}");
        assert_close(r.distance, expected, 1e-3, "1000:1 boxes");
        // And the other way round.
        let r = both(&small, &at(x, 20.0, -300.0), &big, &Pose::IDENTITY);
        assert_close(r.distance, expected, 1e-3, "1:1000 boxes");
    }
    let pebble = ConvexShape::sphere(0.5).unwrap();
    let r = both(&big, &Pose::IDENTITY, &pebble, &at(0.0, 1000.75, 0.0));
    assert_close(r.distance, 0.25, 1e-3, "pebble above a big box");
}

/// Separating-axis test for two boxes: exact for oriented boxes, independent of GJK.
fn obb_overlap(ha: DVec3, pa: &DPose, hb: DVec3, pb: &DPose) -> f64 {
    let axes_a = [
        pa.rotation * DVec3::X,
        pa.rotation * DVec3::Y,
        pa.rotation * DVec3::Z,
    ];
    let axes_b = [
        pb.rotation * DVec3::X,
        pb.rotation * DVec3::Y,
        pb.rotation * DVec3::Z,
    ];
    let mut candidates: Vec<DVec3> = axes_a.iter().chain(axes_b.iter()).copied().collect();
    for x in &axes_a {
        for y in &axes_b {
            if let Some(n) = x.cross(*y).try_normalize() {
                candidates.push(n);
            }
        }
    }
    let d = pb.position - pa.position;
    // The largest separation over all axes: positive means separated by at least that much.
    candidates
        .iter()
        .map(|n| {
            let project = |h: DVec3, axes: &[DVec3; 3]| {
                h.x * axes[0].dot(*n).abs()
                    + h.y * axes[1].dot(*n).abs()
                    + h.z * axes[2].dot(*n).abs()
            };
            d.dot(*n).abs() - project(ha, &axes_a) - project(hb, &axes_b)
        })
        .fold(f64::MIN, f64::max)
}

#[test]
fn rotated_cubes_from_many_orientations_agree_with_the_separating_axis_test() {
    let mut rng = Pcg64Mcg::seed_from_u64(99);
    let c = cube(1.0);
    let mut checked = 0;
    for _ in 0..20_000 {
        let pa = Pose::new(Vec3::ZERO, random_rotation(&mut rng));
        let pb = Pose::new(
            gpu_gjk::scenario::random_unit(&mut rng) * rng.random_range(1.5..3.6),
            random_rotation(&mut rng),
        );
        let sat = obb_overlap(DVec3::ONE, &pa.to_f64(), DVec3::ONE, &pb.to_f64());
        let r = both(&c, &pa, &c, &pb);
        // The SAT value is a lower bound on the distance when positive, and the overlap along the best
        // axis when negative; outside the band the flag is certain.
        if sat.abs() > 1e-4 * 3f64.sqrt() {
            checked += 1;
            assert_eq!(r.intersecting, sat < 0.0, "sat {sat}: {r:?}");
            if sat > 0.0 {
                assert!(
                    r.distance as f64 >= sat - 1e-5,
                    "distance {} below SAT bound {sat}",
                    r.distance
                );
            }
        }
    }
    assert!(checked > 19_000);
}

#[test]
fn iteration_bound_is_reported_as_its_own_status() {
    let mut points = Vec::new();
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    for _ in 0..400 {
        points.push(gpu_gjk::scenario::random_unit(&mut rng));
    }
    let ball = ConvexShape::new(points, 0.0).unwrap();
    let config = GjkConfig {
        max_iterations: 1,
        ..GjkConfig::default()
    };
    let r = query::query(
        &ball,
        &Pose::IDENTITY,
        &ball,
        &at(2.3, 0.4, 0.1),
        QueryKind::Distance,
        &config,
    );
    assert_eq!(r.status, GjkStatus::MaxIterations);
    assert!(!r.intersecting);
    assert!(r.distance > 0.0 && r.witness_a.is_finite());
}

#[test]
fn kissing_contact_and_sliver_triangles_produce_no_nan() {
    // Two boxes touching to within 1e-16 of each other, and a sliver triangle with a near-zero normal.
    let c = ConvexShape::cuboid(Vec3::ONE).unwrap();
    let r = both(
        &c,
        &Pose::IDENTITY,
        &c,
        &Pose::from_position(Vec3::new(2.0 + 1e-16, 0.0, 0.0)),
    );
    assert!(r.intersecting);
    let sliver = ConvexShape::new(
        vec![
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(1.0, 1e-7, 0.0),
            Vec3::new(2.0, 2e-7, 1e-12),
        ],
        0.0,
    )
    .unwrap();
    for x in [-0.5f32, 0.0, 0.5, 1.0] {
        let r = both(&sliver, &Pose::IDENTITY, &c, &at(x, 1.5, 0.0));
        assert!(r.witness_a.is_finite() && r.witness_b.is_finite() && r.normal.is_finite());
        assert_close(r.distance, 0.5, 1e-5, "sliver above box");
    }
}
