//! The separating axis test against GJK and EPA on the same polyhedral pairs, and hand-computed pairs.

use super::compare::{compare, polyhedral_pairs};
use super::*;
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
