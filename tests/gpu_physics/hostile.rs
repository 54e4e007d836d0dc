//! Hostile worlds: both orders of A and B; tiny, huge, flat and far-away bodies at rest.

use crate::harness::Harness;
use crate::on_every_backend;
use glam::{Quat, Vec3};
use gpu_gjk::physics::scenes::{floor_world, unit_box};
use gpu_gjk::physics::World;
use gpu_gjk::{ConvexShape, Pose};

/// A tilted box falls onto a resting box, the bodies listed in the given order (the CPU test's scene); the two
/// poses after each step, resting box first.
fn falling_pair(ctx: &gpu_gjk::gpu::GpuContext, reversed: bool) -> Vec<Pose> {
    let mut world = floor_world(vec![
        unit_box(),
        ConvexShape::cuboid(Vec3::new(0.6, 0.3, 0.4)).unwrap(),
    ]);
    let base = (0, Pose::from_position(Vec3::new(0.0, 0.5, 0.0)));
    let falling = (
        1,
        Pose::new(
            Vec3::new(0.2, 2.0, -0.1),
            Quat::from_rotation_z(0.3) * Quat::from_rotation_x(0.2),
        ),
    );
    let order = if reversed {
        [falling, base]
    } else {
        [base, falling]
    };
    for (shape, pose) in order {
        world.add_body(shape, pose);
    }
    let mut h = Harness::new(ctx, world);
    let mut poses = Vec::new();
    for _ in 0..90 {
        h.step();
        let mut now = [h.world.bodies[0].pose, h.world.bodies[1].pose];
        if reversed {
            now.swap(0, 1);
        }
        poses.extend(now);
    }
    poses
}

/// Not bit for bit: the manifold of (B, A) is formed from the other shape's side; within 3% of the box's size
/// (and radians) after 1.5 s, as on the CPU. A normal pointing the wrong way would differ by metres.
#[test]
fn both_orders_of_a_and_b_give_the_same_motion() {
    on_every_backend(|name, ctx| {
        let forward = falling_pair(ctx, false);
        let backward = falling_pair(ctx, true);
        let worst = forward
            .iter()
            .zip(&backward)
            .map(|(f, b)| {
                (f.position - b.position)
                    .length()
                    .max(f.rotation.angle_between(b.rotation))
            })
            .fold(0f32, f32::max);
        let last = forward[forward.len() - 1].position.y;
        assert!(forward[1].position.y - last > 0.5, "{name}: it fell");
        assert!(
            (last - 1.3).abs() < 0.1,
            "{name}: it rests on the other at {last}"
        );
        assert!(worst < 0.03, "{name}: the orders differ by {worst}");
    });
}

/// Boxes of 2 cm and of 10 m, a 2 cm plate with a unit box on it, and a unit box 3 km from the origin, on one
/// floor, awake for 2 s: each rests where it was put (within twice the slop), still and upright.
#[test]
fn tiny_huge_flat_and_far_bodies_rest() {
    on_every_backend(|name, ctx| {
        let shapes = vec![
            ConvexShape::cuboid(Vec3::splat(0.01)).unwrap(),
            ConvexShape::cuboid(Vec3::splat(5.0)).unwrap(),
            ConvexShape::cuboid(Vec3::new(1.0, 0.01, 1.0)).unwrap(),
            unit_box(),
        ];
        let mut world = World::new(shapes);
        world.enclose(0.0, 4000.0);
        world.settings.sleep_speed = 0.0;
        let rest = [
            (0, Vec3::new(-3.0, 0.01, 0.0)),
            (1, Vec3::new(20.0, 5.0, 0.0)),
            (2, Vec3::new(0.0, 0.01, 0.0)),
            (3, Vec3::new(0.0, 0.52, 0.0)),
            (3, Vec3::new(3000.0, 0.5, -2000.0)),
        ];
        for (shape, at) in rest {
            world.add_body(shape, Pose::from_position(at));
        }
        let slop = world.settings.slop;
        let mut h = Harness::new(ctx, world);
        for _ in 0..120 {
            h.step();
        }
        for (k, ((_, at), body)) in rest.iter().zip(&h.world.bodies).enumerate() {
            let moved = body.pose.position - *at;
            assert!(
                moved.y <= 1e-3 && moved.y > -2.0 * slop - 1e-3,
                "{name}: body {k} moved {moved}"
            );
            assert!(
                moved.x.hypot(moved.z) < 1e-3,
                "{name}: body {k} slid {moved}"
            );
            assert!(
                body.velocity.length() < 1e-2 && body.angular.length() < 1e-2,
                "{name}: body {k}: {body:?}"
            );
            let turned = body.pose.rotation.angle_between(Quat::IDENTITY);
            assert!(turned < 1e-2, "{name}: body {k} turned {turned}");
        }
    });
}
