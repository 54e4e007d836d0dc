//! The separating axis test against GJK and EPA on the same seeded polyhedral pairs: what the tests and
//! `gpu-gjk bench --algorithm` count.

use super::separating_axis;
use crate::query::{intersects, penetration, PairInput, QueryOptions};
use crate::shape::ConvexShape;
use crate::{DPose, PenetrationStatus};
use glam::{DQuat, DVec3, Vec3};

/// Two hulls at their poses.
pub struct PolyhedralPair {
    pub a: ConvexShape,
    pub b: ConvexShape,
    pub pose_a: DPose,
    pub pose_b: DPose,
}

impl PolyhedralPair {
    pub fn input(&self) -> PairInput<'_> {
        PairInput::new(&self.a, self.pose_a, &self.b, self.pose_b)
    }
}

/// A xorshift stream of numbers in [-1, 1) from `seed`.
fn stream(seed: u64) -> impl FnMut() -> f64 {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}

/// A box (`vertices == 0`) or the hull of `vertices` random points in a shell of the unit ball, at `size`.
pub fn polyhedron(vertices: usize, size: f32, seed: u64) -> ConvexShape {
    if vertices == 0 {
        return ConvexShape::cuboid(Vec3::new(1.0, 0.3, 0.6) * size).expect("a finite box");
    }
    let mut next = stream(seed);
    let points: Vec<Vec3> = (0..vertices)
        .map(|_| {
            let p = DVec3::new(next(), next(), next()).normalize_or(DVec3::X);
            (p * (0.5 + 0.5 * next().abs())).as_vec3() * size
        })
        .collect();
    ConvexShape::hull(&points, 0.0).expect("finite points")
}

fn rotation(next: &mut impl FnMut() -> f64) -> DQuat {
    DQuat::from_xyzw(next(), next(), next(), next() + 0.01).normalize()
}

/// `count` seeded pairs drawn from `vertex_counts` (0 for a box): sizes 1e-3, 1 and 1e3, B 0.3 to 3 times A,
/// at the origin or 1e6 sizes away, any rotations, from nested to apart by a fifth of their reach.
pub fn polyhedral_pairs(count: usize, vertex_counts: &[usize], seed: u64) -> Vec<PolyhedralPair> {
    let mut next = stream(seed);
    let mut pick = |n: usize| ((next() + 1.0) * 0.5 * n as f64) as usize % n;
    (0..count as u64)
        .map(|k| {
            let s = seed.wrapping_add(k.wrapping_mul(0x2545_f491_4f6c_dd1d));
            let size = [1e-3f32, 1.0, 1e3][pick(3)];
            let a = polyhedron(vertex_counts[pick(vertex_counts.len())], size, s);
            let ratio = [1.0f32, 0.3, 3.0][pick(3)];
            let b = polyhedron(
                vertex_counts[pick(vertex_counts.len())],
                size * ratio,
                s ^ 0xabcdef,
            );
            let far = [0.0, 1e6][pick(2)] * size as f64;
            let mut turn = stream(s ^ 0x1234);
            let pose_a = DPose {
                position: DVec3::splat(far),
                rotation: rotation(&mut turn),
            };
            let direction = rotation(&mut turn) * DVec3::X;
            let reach = 1.2 * (turn() + 1.0) * 0.5;
            let span = (a.bounding_radius() + b.bounding_radius()) as f64;
            let pose_b = DPose {
                position: pose_a.position + direction * span * reach,
                rotation: rotation(&mut turn),
            };
            PolyhedralPair {
                a,
                b,
                pose_a,
                pose_b,
            }
        })
        .collect()
}

/// What comparing the two algorithms on some pairs found.
#[derive(Debug, Default)]
pub struct Agreement {
    /// Pairs compared: those outside the touching band.
    pub compared: usize,
    /// Of those, overlapping.
    pub overlapping: usize,
    /// Pairs whose separation is within 2e-5 of their scale, where either flag is right.
    pub touching_band: usize,
    /// Pairs that are not two solid hulls without radius.
    pub not_polyhedra: usize,
    /// One line per pair whose flags differ.
    pub flag_disagreements: Vec<String>,
    /// One line per overlapping pair whose depth differs by more than 1e-5 of the scale, or whose normals
    /// differ (by more than 1e-3) without being axes of the same least overlap.
    pub depth_disagreements: Vec<String>,
}

impl Agreement {
    pub fn is_clean(&self) -> bool {
        self.flag_disagreements.is_empty() && self.depth_disagreements.is_empty()
    }
}

/// The separating axis test against GJK's flag and EPA's depth and normal (float32, as the front door
/// answers by default) on every pair.
pub fn compare(pairs: &[PolyhedralPair]) -> Agreement {
    let mut found = Agreement::default();
    for (k, pair) in pairs.iter().enumerate() {
        let input = pair.input();
        let Some(sat) = separating_axis(&input) else {
            found.not_polyhedra += 1;
            continue;
        };
        let scale = pair.a.bounding_radius().max(pair.b.bounding_radius()) as f64;
        if sat.separation.abs() <= 2e-5 * scale {
            found.touching_band += 1;
            continue;
        }
        found.compared += 1;
        let flag = intersects(&input, QueryOptions::default());
        if flag.intersecting != sat.intersecting {
            let line = format!("pair {k}: GJK {flag:?}, SAT {sat:?}");
            found.flag_disagreements.push(line);
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
        let normal_agrees = (hit.normal - sat.normal).length() <= 1e-3
            || (overlap_along(pair, sat.normal) - hit.depth).abs() <= 1e-5 * scale;
        if !(depth_agrees && normal_agrees) {
            found.depth_disagreements.push(format!(
                "pair {k} (scale {scale}): EPA depth {} normal {:?}, SAT {sat:?}",
                hit.depth, hit.normal
            ));
        }
    }
    found
}

/// `h_A(n) + h_B(-n)`: how far the pair overlaps along the world direction `n`, by its support functions.
fn overlap_along(pair: &PolyhedralPair, n: DVec3) -> f64 {
    let inverse = pair.pose_a.rotation.inverse();
    let local = inverse * n;
    let high_a = pair
        .a
        .local_points()
        .map(|p| local.dot(p.as_dvec3()))
        .fold(f64::MIN, f64::max);
    let turned = pair.pose_b.rotation.inverse() * n;
    let offset = local.dot(inverse * (pair.pose_b.position - pair.pose_a.position));
    let low_b = pair
        .b
        .local_points()
        .map(|p| turned.dot(p.as_dvec3()))
        .fold(f64::MAX, f64::min);
    high_a - (low_b + offset)
}
