//! The separating axis test against GJK and EPA on the same polyhedral pairs, and hand-computed pairs.

use super::*;
use crate::{intersects, penetration, DPose, PenetrationStatus, Pose, QueryOptions};
use glam::{DQuat, Quat, Vec3};

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

/// A random hull of `n` points in a unit ball (or a box for `n == 0`), at `size`.
fn hull(n: usize, size: f32, seed: u64) -> ConvexShape {
    if n == 0 {
        return boxed(Vec3::new(1.0, 0.3, 0.6) * size);
    }
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0
    };
    let points: Vec<Vec3> = (0..n)
        .map(|_| {
            Vec3::new(next(), next(), next()).normalize_or(Vec3::X)
                * size
                * (0.5 + 0.5 * next().abs())
        })
        .collect();
    ConvexShape::hull(&points, 0.0).unwrap()
}

fn rotation(seed: u64) -> DQuat {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    DQuat::from_xyzw(next(), next(), next(), next() + 0.01).normalize()
}

/// What one pair's comparison found.
#[derive(Debug, Default)]
struct Agreement {
    compared: usize,
    overlapping: usize,
    touching_band: usize,
    flag_disagreements: Vec<String>,
    depth_disagreements: Vec<String>,
}

/// SAT against GJK's flag and EPA's depth and normal over `pairs` pairs of the hulls with `sizes` vertices.
fn agreement(pairs: usize, vertex_counts: &[usize], seed: u64) -> Agreement {
    let mut found = Agreement::default();
    for k in 0..pairs as u64 {
        let s = seed.wrapping_add(k.wrapping_mul(0x2545_f491_4f6c_dd1d));
        let n = |i: u64| vertex_counts[((s >> (8 * i)) % vertex_counts.len() as u64) as usize];
        let size = [1e-3f32, 1.0, 1e3][(s % 3) as usize];
        let a = hull(n(1), size, s);
        let b = hull(
            n(2),
            size * [1.0f32, 0.3, 3.0][((s >> 24) % 3) as usize],
            s ^ 0xabcdef,
        );
        let far = [0.0, 1e6][((s >> 32) % 2) as usize] * size as f64;
        let pose_a = DPose {
            position: DVec3::splat(far),
            rotation: rotation(s),
        };
        let direction = rotation(s ^ 0x1234).mul_vec3(DVec3::X);
        let reach = ((s >> 40) % 1000) as f64 / 800.0;
        let span = (a.bounding_radius() + b.bounding_radius()) as f64;
        let pose_b = DPose {
            position: pose_a.position + direction * span * reach,
            rotation: rotation(s ^ 0x5678),
        };
        let input = PairInput::new(&a, pose_a, &b, pose_b);
        let sat = separating_axis(&input).expect("solid hulls are polyhedra");
        let scale = a.bounding_radius().max(b.bounding_radius()) as f64;
        // Within the touching tolerance either answer is right.
        if sat.separation.abs() <= 2e-5 * scale {
            found.touching_band += 1;
            continue;
        }
        found.compared += 1;
        let flag = intersects(&input, QueryOptions::default());
        if flag.intersecting != sat.intersecting {
            found
                .flag_disagreements
                .push(format!("pair {k}: GJK {flag:?}, SAT {sat:?}"));
            continue;
        }
        if !sat.intersecting {
            continue;
        }
        found.overlapping += 1;
        let (_, hit) = penetration(&input, QueryOptions::default());
        if hit.status != PenetrationStatus::Penetrating {
            continue;
        }
        let depth_agrees = (hit.depth + sat.separation).abs() <= 1e-5 * scale;
        // The normals agree, or both are axes of the least overlap (a tie, as between a box's faces).
        let overlap_along = |n: DVec3| {
            let local = pose_a.rotation.inverse() * n;
            let h_a = a
                .local_points()
                .map(|p| local.dot(p.as_dvec3()))
                .fold(f64::MIN, f64::max);
            let turned = pose_b.rotation.inverse() * n;
            let offset = local.dot(pose_a.rotation.inverse() * (pose_b.position - pose_a.position));
            let low_b = b
                .local_points()
                .map(|p| turned.dot(p.as_dvec3()))
                .fold(f64::MAX, f64::min)
                + offset;
            h_a - low_b
        };
        let normal_agrees = (hit.normal - sat.normal).length() <= 1e-3
            || (overlap_along(sat.normal) - hit.depth).abs() <= 1e-5 * scale;
        if !(depth_agrees && normal_agrees) {
            found.depth_disagreements.push(format!(
                "pair {k} (scale {scale}): EPA depth {} normal {:?}, SAT {sat:?}",
                hit.depth, hit.normal
            ));
        }
    }
    found
}

#[test]
fn sat_agrees_with_gjk_and_epa_on_boxes_and_hulls() {
    let found = agreement(3000, &[0, 8, 16, 64], 1);
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
    let found = agreement(100_000, &[0, 8, 64, 512], 7);
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
