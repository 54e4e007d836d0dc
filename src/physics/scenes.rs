//! The scenes the physics checks and `benches/physics.rs` run, on the CPU world and on the GPU's alike: a unit
//! box, a floor with far walls, a stack of unit boxes, and a seeded pile of boxes and hulls thrown into a walled
//! square. Seeded by a small generator of their own (xorshift64*), so they need no optional dependency and give
//! the same bodies everywhere.

use super::World;
use crate::pose::Pose;
use crate::shape::ConvexShape;
use glam::{Quat, Vec3};

/// xorshift64*, floats in [0, 1) from its top 24 bits.
struct Seeded(u64);

impl Seeded {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let bits = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40;
        bits as f32 / (1u64 << 24) as f32
    }

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }

    /// A unit vector, uniform over directions (rejection from the cube).
    fn unit(&mut self) -> Vec3 {
        loop {
            let v = Vec3::new(
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
                self.range(-1.0, 1.0),
            );
            if v.length_squared() > 0.01 && v.length_squared() <= 1.0 {
                return v.normalize();
            }
        }
    }
}

/// A cube of edge 1.
pub fn unit_box() -> ConvexShape {
    ConvexShape::cuboid(Vec3::splat(0.5)).expect("a unit cube is a valid shape")
}

/// A world of `shapes` with a floor at y = 0 and walls 50 away.
pub fn floor_world(shapes: Vec<ConvexShape>) -> World {
    let mut world = World::new(shapes);
    world.enclose(0.0, 50.0);
    world
}

/// `boxes` unit boxes stacked on the floor, touching, at rest.
pub fn stack(boxes: usize) -> World {
    let mut world = floor_world(vec![unit_box()]);
    for level in 0..boxes {
        world.add_body(
            0,
            Pose::from_position(Vec3::new(0.0, 0.5 + level as f32, 0.0)),
        );
    }
    world
}

/// `count` bodies, boxes and 12-point hulls alternating (each of its own shape, 0.25 to 0.45 in size), on a
/// grid of unit spacing from 1 above the floor, turned, with velocities up to 2 and spins up to 3, in a walled
/// square just wider than the grid: the same bodies for the same `count` and `seed`.
pub fn pile(count: usize, seed: u64) -> World {
    let mut rng = Seeded(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut shapes = Vec::new();
    for k in 0..count {
        let size = rng.range(0.25, 0.45);
        let shape = if k % 2 == 0 {
            ConvexShape::cuboid(Vec3::new(
                size,
                size * rng.range(0.6, 1.0),
                size * rng.range(0.6, 1.0),
            ))
        } else {
            let points: Vec<Vec3> = (0..12).map(|_| rng.unit() * size).collect();
            ConvexShape::hull(&points, 0.0)
        };
        shapes.push(shape.expect("boxes and hulls of spread points are valid shapes"));
    }
    let side = (count as f32).cbrt().ceil() as usize;
    let half_width = 0.5 * side as f32 + 0.5;
    let mut world = World::new(shapes);
    world.enclose(0.0, half_width);
    for k in 0..count {
        let (x, y, z) = (k % side, k / (side * side), (k / side) % side);
        let position = Vec3::new(
            x as f32 + 0.5 - 0.5 * side as f32,
            1.0 + y as f32,
            z as f32 + 0.5 - 0.5 * side as f32,
        );
        let rotation = Quat::from_axis_angle(rng.unit(), rng.range(0.0, 3.0));
        let body = world.add_body(k, Pose::new(position, rotation));
        world.bodies[body].velocity = rng.unit() * rng.range(0.0, 2.0);
        world.bodies[body].angular = rng.unit() * rng.range(0.0, 3.0);
    }
    world
}
