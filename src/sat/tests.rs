//! The separating axis test against GJK and EPA on the same polyhedral pairs, and hand-computed pairs.

use super::compare::{compare, polyhedral_pairs};
use super::*;
use crate::shape::ConvexShape;
use crate::Pose;
use glam::{Quat, Vec3};

fn boxed(h: Vec3) -> ConvexShape {
    ConvexShape::cuboid(h).unwrap()
}

#[test]
fn boxes_face_to_face_and_edge_across_edge() {
    let cube = boxed(Vec3::splat(0.5));
    let near = Pose::from_position(Vec3::new(0.9, 0.0, 0.0));
    let answer = separating_axis(&PairInput::new(&cube, Pose::IDENTITY, &cube, near)).unwrap();
    assert!(answer.intersecting);
    assert!((answer.separation + 0.1).abs() < 1e-6, "{answer:?}");
    assert!((answer.normal - DVec3::X).length() < 1e-12);
    // Two cubes turned 45 degrees about crossing axes, their edges across each other 0.1 apart.
    let reach = std::f32::consts::SQRT_2 * 0.5;
    let a = Pose::new(
        Vec3::ZERO,
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
    );
    let b = Pose::new(
        Vec3::new(0.0, 2.0 * reach + 0.1, 0.0),
        Quat::from_rotation_x(std::f32::consts::FRAC_PI_4),
    );
    let answer = separating_axis(&PairInput::new(&cube, a, &cube, b)).unwrap();
    assert!(!answer.intersecting);
    assert!((answer.separation - 0.1).abs() < 1e-6, "{answer:?}");
    assert!(matches!(answer.axis, SatAxis::Edges(..)), "{answer:?}");
    assert!((answer.normal - DVec3::Y).length() < 1e-6);
    // Rounded or point shapes are not polyhedra.
    let ball = ConvexShape::sphere(1.0).unwrap();
    assert!(separating_axis(&PairInput::new(&cube, Pose::IDENTITY, &ball, near)).is_none());
}

#[test]
fn sat_agrees_with_gjk_and_epa_on_boxes_and_hulls() {
    let found = compare(&polyhedral_pairs(3000, &[0, 8, 16, 64], 1));
    assert!(
        found.compared > 2500 && found.overlapping > 800,
        "{found:?}"
    );
    assert!(
        found.flag_disagreements.is_empty(),
        "{:#?}",
        found.flag_disagreements
    );
    assert!(
        found.depth_disagreements.is_empty(),
        "{:#?}",
        found.depth_disagreements
    );
}

/// The long campaign: `cargo test --release --lib sat_agrees_on_100000 -- --ignored --nocapture`.
#[test]
#[ignore]
fn sat_agrees_on_100000_pairs_with_hulls_up_to_512_vertices() {
    let found = compare(&polyhedral_pairs(100_000, &[0, 8, 64, 512], 7));
    eprintln!(
        "compared {} (overlapping {}), touching band {}, flag disagreements {}, depth/normal disagreements {}",
        found.compared,
        found.overlapping,
        found.touching_band,
        found.flag_disagreements.len(),
        found.depth_disagreements.len()
    );
    assert!(
        found.flag_disagreements.is_empty(),
        "{:#?}",
        &found.flag_disagreements[..found.flag_disagreements.len().min(5)]
    );
    assert!(
        found.depth_disagreements.is_empty(),
        "{:#?}",
        &found.depth_disagreements[..found.depth_disagreements.len().min(5)]
    );
}

#[test]
fn the_kept_polyhedron_climbs_to_the_lowest_point_as_a_scan_finds_it() {
    use super::compare::polyhedron;
    let mut next = 0.37f64;
    let mut direction = || {
        next = (next * 7919.0 + 0.123).fract();
        let t = next * std::f64::consts::TAU;
        let z = (next * 13.0).fract() * 2.0 - 1.0;
        let r = (1.0 - z * z).sqrt();
        DVec3::new(r * t.cos(), r * t.sin(), z)
    };
    // Hulls that climb, and a raw set with interior points, which are on no face and scanned.
    let inside: Vec<Vec3> = (0..200)
        .map(|k| Vec3::new((k % 7) as f32, (k % 5) as f32, (k % 3) as f32) * 0.1)
        .chain([
            Vec3::splat(-1.0),
            Vec3::splat(2.0),
            Vec3::new(2.0, -1.0, 0.5),
        ])
        .chain([Vec3::new(-1.0, 2.0, 0.3), Vec3::new(0.4, 0.2, 3.0)])
        .collect();
    for shape in [
        polyhedron(64, 1.0, 3),
        polyhedron(512, 1e3, 5),
        ConvexShape::new(inside, 0.0).unwrap(),
    ] {
        let solid = shape.polyhedron().expect("a solid hull");
        let mut start = 0;
        for _ in 0..500 {
            let d = direction();
            let scan = solid
                .points
                .iter()
                .map(|p| d.dot(*p))
                .fold(f64::MAX, f64::min);
            let climbed = solid.lowest(d, &mut start);
            assert!(
                (climbed - scan).abs() <= 1e-12 * shape.bounding_radius() as f64,
                "{climbed} {scan}"
            );
        }
    }
    assert!(ConvexShape::sphere(1.0).unwrap().polyhedron().is_none());
    assert!(ConvexShape::new(vec![Vec3::ZERO, Vec3::X, Vec3::Y], 0.0)
        .unwrap()
        .polyhedron()
        .is_none());
}
