//! Inputs that broke well-known collision libraries, each named after the report that found it (sources in
//! shared/FIELD_NOTES.md), with the answer computed by hand.

mod common;

use common::one_pair::{penetration_f64, penetration_query, query};
use common::referee::depth_along;
use glam::{DQuat, DVec3, Vec3};
use gpu_gjk::epa::PenetrationStatus;
use gpu_gjk::{ConvexShape, DPose, GjkConfig, GjkStatus, Pose, QueryKind};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn cube(half: f32) -> ConvexShape {
    ConvexShape::cuboid(Vec3::splat(half)).unwrap()
}

/// mujoco_warp #1526, Genesis #3223: face-to-face boxes at a tiny penetration; the origin lies on a face of
/// GJK's final tetrahedron and the contact used to be dropped. Every depth from 1e-6 to 1e-3 of the size must
/// give a contact along the face normal with that depth.
#[test]
fn face_to_face_boxes_at_tiny_penetrations_report_a_contact() {
    let config = GjkConfig::default();
    for size in [1e-2f32, 1.0, 100.0] {
        let a = cube(size);
        for fraction in [1e-6f32, 1e-5, 1e-4, 1e-3] {
            let overlap = fraction * size;
            let pose_b = Pose::from_position(Vec3::new(0.0, 2.0 * size - overlap, 0.0));
            let (gjk, p) = penetration_query(&a, &Pose::IDENTITY, &a, &pose_b, &config);
            assert!(gjk.intersecting, "size {size}, overlap {overlap}: {gjk:?}");
            assert_eq!(
                p.status,
                PenetrationStatus::Penetrating,
                "size {size}, overlap {overlap}"
            );
            // Float32 places the second box within an ulp of 2 * size, so the depth is good to about that.
            let ulp = 2.0 * size * f32::EPSILON;
            assert!(
                (p.depth - overlap).abs() <= 4.0 * ulp + 2e-6 * size,
                "size {size}: depth {} for overlap {overlap}",
                p.depth
            );
            assert!(p.normal.abs_diff_eq(Vec3::Y, 1e-4), "normal {}", p.normal);
        }
    }
}

/// libccd #25: cubes of side 2 at z = 0 and z = 1.9 gave depth 0 and a NaN direction; the depth is 0.1 along z.
#[test]
fn cubes_of_side_two_at_z_zero_and_one_point_nine_overlap_by_a_tenth() {
    let a = cube(1.0);
    let pose_b = Pose::from_position(Vec3::new(0.0, 0.0, 1.9));
    let (gjk, p) = penetration_query(&a, &Pose::IDENTITY, &a, &pose_b, &GjkConfig::default());
    assert!(gjk.intersecting);
    assert_eq!(p.status, PenetrationStatus::Penetrating);
    assert!((p.depth - 0.1).abs() < 1e-6, "depth {}", p.depth);
    assert!(p.normal.abs_diff_eq(Vec3::Z, 1e-6), "normal {}", p.normal);
    assert!((p.contact_a - p.contact_b - p.normal * p.depth).length() < 1e-6);
}

/// dolfinx #3653: a point against a 7-vertex hull with coordinates around 40 to 50 hit the iteration limit.
/// The hull's vertices are the corners of a skewed box minus one, so its distance to any point is brute
/// forced here from the point's projection on each face and edge.
#[test]
fn a_point_against_a_seven_vertex_hull_around_forty_to_fifty_converges() {
    let mut rng = Pcg64Mcg::seed_from_u64(3653);
    for _ in 0..200 {
        let hull: Vec<Vec3> = (0..7)
            .map(|_| {
                Vec3::new(
                    rng.random_range(40.0..50.0),
                    rng.random_range(40.0..50.0),
                    rng.random_range(40.0..50.0),
                )
            })
            .collect();
        let shape = ConvexShape::hull(&hull, 0.0).unwrap();
        let point = ConvexShape::new(vec![Vec3::ZERO], 0.0).unwrap();
        // A point inside (the mean of the vertices) and one outside.
        let mean = hull.iter().copied().sum::<Vec3>() / 7.0;
        for (target, inside) in [(mean, true), (mean + Vec3::new(8.0, -7.0, 9.0), false)] {
            let place = Pose::from_position(target);
            let r = query(
                &shape,
                &Pose::IDENTITY,
                &point,
                &place,
                QueryKind::Distance,
                &GjkConfig::default(),
            );
            assert!(!r.status.is_failure(), "{r:?}");
            assert!(r.iterations < 20, "{} iterations", r.iterations);
            if inside {
                assert!(r.intersecting, "{r:?}");
            } else {
                // The distance is the largest support gap over directions: check it against brute force.
                let n = r.normal.as_dvec3();
                let lower = -(shape
                    .local_points()
                    .map(|p| (p.as_dvec3() - target.as_dvec3()).dot(n))
                    .fold(f64::MIN, f64::max));
                assert!(
                    (lower - r.distance as f64).abs() < 1e-4 * 50.0,
                    "distance {} vs bound {lower}",
                    r.distance
                );
            }
        }
    }
}

/// Jolt #2103: a capsule resting on a cylinder reported 7.25 m of penetration (a rejected support point left
/// in the simplex). Touching, the depth is about 0; slightly sunk in, it is how far.
#[test]
fn a_capsule_resting_on_a_cylinder_has_about_zero_depth() {
    let cylinder = ConvexShape::cylinder(0.5, 1.0, 32).unwrap();
    let capsule = ConvexShape::capsule(1.0, 0.25).unwrap();
    // The capsule lies on its side (its axis along x) on top of the cylinder.
    let lying = DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2);
    for sink in [0.0, 1e-4, 1e-2] {
        let pose_b = DPose {
            position: DVec3::new(0.0, 0.5 + 0.25 - sink, 0.0),
            rotation: lying,
        };
        let (gjk, p) = penetration_query(
            &cylinder,
            &Pose::IDENTITY,
            &capsule,
            &pose_b.to_f32(),
            &GjkConfig::default(),
        );
        assert!(gjk.intersecting, "sink {sink}: {gjk:?}");
        assert_eq!(p.status, PenetrationStatus::Penetrating);
        assert!(
            (p.depth as f64 - sink).abs() < 1e-5,
            "sink {sink}: depth {}",
            p.depth
        );
        assert!(p.normal.abs_diff_eq(Vec3::Y, 1e-3), "normal {}", p.normal);
        let needed = depth_along(
            &cylinder,
            &DPose::IDENTITY,
            &capsule,
            &pose_b,
            p.normal.as_dvec3(),
        );
        assert!((needed - p.depth as f64).abs() < 1e-5);
    }
}

/// OpenRAL #215: GJK ending on a 2-point simplex (the origin exactly on a segment of A - B) meant an EPA that
/// only starts from a tetrahedron never ran. Here A - B is a segment through the origin, or a single point at
/// it, and the depth comes from the radii.
#[test]
fn epa_starts_from_a_one_or_two_point_simplex() {
    let config = GjkConfig::default();
    // A segment of radius 0.5 (a capsule) and a sphere of radius 0.25 centred on the segment: the depth is the
    // sum of the radii, along some perpendicular of the segment.
    let capsule = ConvexShape::capsule(1.0, 0.5).unwrap();
    let sphere = ConvexShape::sphere(0.25).unwrap();
    for y in [-1.0f32, -0.3, 0.0, 0.7, 1.0] {
        let (gjk, p) = penetration_query(
            &capsule,
            &Pose::IDENTITY,
            &sphere,
            &Pose::from_position(Vec3::new(0.0, y, 0.0)),
            &config,
        );
        assert!(gjk.intersecting);
        assert_eq!(p.status, PenetrationStatus::Penetrating, "y {y}");
        assert!((p.depth - 0.75).abs() < 1e-6, "y {y}: depth {}", p.depth);
        assert!(
            p.normal.y.abs() < 1e-6 || y.abs() == 1.0,
            "normal {}",
            p.normal
        );
    }
    // A point exactly on a box's vertex, edge and face: touching, depth 0.
    let point = ConvexShape::new(vec![Vec3::ZERO], 0.0).unwrap();
    for at in [
        Vec3::ONE,
        Vec3::new(1.0, 1.0, 0.2),
        Vec3::new(1.0, 0.3, -0.4),
    ] {
        let (gjk, p) = penetration_query(
            &cube(1.0),
            &Pose::IDENTITY,
            &point,
            &Pose::from_position(at),
            &config,
        );
        assert_eq!(gjk.status, GjkStatus::Intersecting, "{at}");
        assert_eq!(p.status, PenetrationStatus::Penetrating, "{at}");
        assert!(p.depth.abs() < 1e-6, "{at}: depth {}", p.depth);
        let (_, wide) = penetration_f64(
            &cube(1.0),
            &DPose::IDENTITY,
            &point,
            &Pose::from_position(at).to_f64(),
            &config,
        );
        assert!(wide.depth.abs() < 1e-12);
    }
}
