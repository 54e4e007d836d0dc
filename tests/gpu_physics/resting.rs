//! Bodies at rest: one box on the floor, a stack of ten.

use crate::harness::Harness;
use crate::on_every_backend;
use glam::{Quat, Vec3};
use gpu_gjk::physics::scenes::{floor_world, stack, unit_box};
use gpu_gjk::Pose;

#[test]
fn a_box_at_rest_on_the_floor_neither_sinks_nor_jitters() {
    on_every_backend(|name, ctx| {
        let mut world = floor_world(vec![unit_box()]);
        // Awake throughout: the solver itself holds it still.
        world.settings.sleep_speed = 0.0;
        world.add_body(0, Pose::from_position(Vec3::new(0.0, 0.5, 0.0)));
        let slop = world.settings.slop;
        let mut h = Harness::new(ctx, world);
        for step in 0..240 {
            let stats = h.step();
            let body = &h.world.bodies[0];
            let y = body.pose.position.y;
            assert!(
                (0.5 - slop - 1e-3..=0.5 + 1e-4).contains(&y),
                "{name} step {step}: y {y}"
            );
            assert!(body.pose.position.x.abs() < 1e-5 && body.pose.position.z.abs() < 1e-5);
            if step > 30 {
                assert_eq!((stats.contacts, stats.points), (1, 4), "{name} step {step}");
                assert!(
                    body.velocity.length() < 1e-3 && body.angular.length() < 1e-3,
                    "{name} step {step}: {body:?}"
                );
            }
        }
        let turned = h.world.bodies[0]
            .pose
            .rotation
            .angle_between(Quat::IDENTITY);
        assert!(turned < 1e-4, "{name}: turned {turned}");
    });
}

/// How far the top box of a stack of ten moved across (largest) and down (at the end) in `seconds`.
fn stack_drift(ctx: &gpu_gjk::gpu::GpuContext, seconds: f32, sleeping: bool) -> (f32, f32) {
    let mut world = stack(10);
    if !sleeping {
        world.settings.sleep_speed = 0.0;
    }
    let start = world.bodies[9].pose.position;
    let steps = (seconds / world.dt).round() as usize;
    let mut h = Harness::new(ctx, world);
    let mut across = 0f32;
    for _ in 0..steps {
        h.step();
        let moved = h.world.bodies[9].pose.position - start;
        across = across.max(moved.x.hypot(moved.z));
    }
    (across, start.y - h.world.bodies[9].pose.position.y)
}

#[test]
fn a_stack_of_ten_unit_boxes_stands_for_ten_seconds() {
    on_every_backend(|name, ctx| {
        let (across, down) = stack_drift(ctx, 10.0, true);
        eprintln!("{name}: the top box moved {across} across, {down} down");
        assert!(
            across < 0.05 && down < 0.05,
            "{name}: the top box moved {across} across, {down} down"
        );
    });
}
