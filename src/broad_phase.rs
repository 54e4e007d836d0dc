//! CPU broad phase: every pair of bodies whose world AABBs overlap, by a uniform grid ([`grid_pairs`], the
//! demo's) or by sweep and prune along the axis of largest spread. Touching boxes count as overlapping,
//! because touching shapes count as colliding.

mod aabb;
mod grid;
#[cfg(test)]
pub(crate) use grid::tests::{boxed, hostile_boxes, HOSTILE_GRID_CASES};
mod sweep;

pub use aabb::Aabb;
pub use grid::grid_pairs;
pub use sweep::sweep_and_prune;

use crate::instance::Instance;
use crate::shape::ConvexShape;
use glam::Mat3;

/// The world box of a placed shape: its local box rotated, which contains the shape (never misses a pair)
/// and costs nine multiplications instead of a pass over the points.
pub(crate) fn world_aabb(shape: &ConvexShape, instance: &Instance) -> Aabb {
    let (lo, hi) = shape.local_aabb();
    let centre = (lo + hi) * 0.5;
    let half = (hi - lo) * 0.5;
    let rotation = Mat3::from_quat(instance.pose.rotation);
    let abs = Mat3::from_cols(
        rotation.x_axis.abs(),
        rotation.y_axis.abs(),
        rotation.z_axis.abs(),
    );
    let world_centre = rotation * centre + instance.pose.position;
    let world_half = abs * half;
    Aabb {
        min: world_centre - world_half,
        max: world_centre + world_half,
    }
}

/// The world box of every instance (`world_aabb`), each of a shape of `shapes`: what a frame's broad phase
/// sorts. Panics on a shape index out of range (callers check instances first).
pub fn world_aabbs(shapes: &[ConvexShape], instances: &[Instance]) -> Vec<Aabb> {
    instances
        .iter()
        .map(|i| world_aabb(&shapes[i.shape as usize], i))
        .collect()
}

/// The O(n^2) reference the sweep is tested against.
pub fn brute_force(boxes: &[Aabb]) -> Vec<[u32; 2]> {
    let mut pairs = Vec::new();
    for i in 0..boxes.len() {
        for j in i + 1..boxes.len() {
            if boxes[i].overlaps(&boxes[j]) {
                pairs.push([i as u32, j as u32]);
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pose::Pose;
    use crate::scenario::{random_rotation, random_shape, ShapeKind};
    use glam::Vec3;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    #[test]
    fn sweep_and_prune_equals_brute_force_on_random_scenes() {
        for seed in 0..20 {
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let count = rng.random_range(2..600);
            let extent = rng.random_range(5.0..40.0f32);
            let boxes: Vec<Aabb> = (0..count)
                .map(|_| {
                    let kind = ShapeKind::ALL[rng.random_range(0..ShapeKind::ALL.len())];
                    let size = rng.random_range(0.2..2.0);
                    let shape = random_shape(&mut rng, kind, size, (8, 32));
                    let position = Vec3::new(
                        rng.random_range(-extent..extent),
                        rng.random_range(-extent..extent),
                        rng.random_range(-extent..extent) * 0.2,
                    );
                    let instance = Instance {
                        shape: 0,
                        pose: Pose::new(position, random_rotation(&mut rng)),
                    };
                    world_aabb(&shape, &instance)
                })
                .collect();
            let expected = brute_force(&boxes);
            assert_eq!(sweep_and_prune(&boxes), expected, "seed {seed}");
            if seed == 0 {
                assert!(!expected.is_empty());
            }
        }
    }

    #[test]
    fn touching_boxes_overlap_and_world_boxes_contain_the_shape() {
        let a = Aabb {
            min: Vec3::ZERO,
            max: Vec3::ONE,
        };
        let b = Aabb {
            min: Vec3::new(1.0, 1.0, 1.0),
            max: Vec3::splat(2.0),
        };
        assert!(a.overlaps(&b));
        assert_eq!(sweep_and_prune(&[a, b]), vec![[0, 1]]);

        let mut rng = Pcg64Mcg::seed_from_u64(9);
        let shape = random_shape(&mut rng, ShapeKind::Hull, 1.0, (64, 64));
        for _ in 0..100 {
            let instance = Instance {
                shape: 0,
                pose: Pose::new(Vec3::new(3.0, -2.0, 1.0), random_rotation(&mut rng)),
            };
            let bounds = world_aabb(&shape, &instance);
            for p in shape.local_points() {
                let w = instance.pose.transform_point(p);
                assert!(w.cmpge(bounds.min - 1e-5).all() && w.cmple(bounds.max + 1e-5).all());
            }
        }
    }
}
