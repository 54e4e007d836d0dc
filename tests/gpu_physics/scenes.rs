//! The worlds the checks run: the CPU tests' scenes (src/physics/tests.rs), built the same way.

use glam::{Quat, Vec3};
use gpu_gjk::physics::World;
use gpu_gjk::{ConvexShape, Pose};

/// A small seeded generator (xorshift64*), the CPU tests' own.
pub struct Seeded(pub u64);

impl Seeded {
    pub fn next(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let bits = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40;
        bits as f32 / (1u64 << 24) as f32
    }

    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }

    pub fn unit(&mut self) -> Vec3 {
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

pub fn unit_box() -> ConvexShape {
    ConvexShape::cuboid(Vec3::splat(0.5)).unwrap()
}

/// A floor at y = 0 and walls 50 away.
pub fn floor_world(shapes: Vec<ConvexShape>) -> World {
    let mut world = World::new(shapes);
    world.enclose(0.0, 50.0);
    world
}

/// Ten unit boxes stacked on the floor.
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

/// `count` bodies (boxes and random hulls, mixed) in a walled square with random velocities and spins, as the
/// CPU's `pile`.
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
        shapes.push(shape.unwrap());
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
