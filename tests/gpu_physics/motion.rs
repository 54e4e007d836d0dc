//! Bodies in motion: a bounce, a slide stopped by friction, a pile that settles.

use crate::harness::Harness;
use crate::on_every_backend;
use glam::{Quat, Vec3};
use gpu_gjk::physics::scenes::{floor_world, pile, unit_box};
use gpu_gjk::{ConvexShape, Pose};

#[test]
fn a_sphere_bounces_to_restitution_squared_of_its_drop() {
    on_every_backend(|name, ctx| {
        for restitution in [0.5f32, 0.8] {
            let mut world = floor_world(vec![ConvexShape::sphere(0.5).unwrap()]);
            world.settings.restitution = restitution;
            world.settings.restitution_threshold = 0.5;
            let drop = 2.0;
            world.add_body(0, Pose::from_position(Vec3::new(0.0, 0.5 + drop, 0.0)));
            let mut h = Harness::new(ctx, world);
            let mut bounced = false;
            let mut peak = 0f32;
            for _ in 0..240 {
                h.step();
                let body = &h.world.bodies[0];
                if body.velocity.y > 0.0 {
                    bounced = true;
                }
                if bounced {
                    peak = peak.max(body.pose.position.y - 0.5);
                    if body.velocity.y < 0.0 {
                        break;
                    }
                }
            }
            let expected = restitution * restitution * drop;
            assert!(
                (peak - expected).abs() < 0.1 * expected,
                "{name}, e = {restitution}: bounced to {peak}, expected {expected}"
            );
        }
    });
}

#[test]
fn friction_stops_a_sliding_box_where_mu_g_says() {
    on_every_backend(|name, ctx| {
        let (speed, mu) = (3.0f32, 0.5f32);
        let mut world = floor_world(vec![unit_box()]);
        world.settings.friction = mu;
        world.settings.sleep_speed = 0.0;
        // Launched resting on the floor: the first step finds the contact and its normal impulse.
        let body = world.add_body(0, Pose::from_position(Vec3::new(0.0, 0.5, 0.0)));
        world.bodies[body].velocity = Vec3::new(speed, 0.0, 0.0);
        let start = world.bodies[body].pose.position;
        let mut h = Harness::new(ctx, world);
        for _ in 0..180 {
            h.step();
        }
        let body = &h.world.bodies[body];
        assert!(body.velocity.length() < 1e-3, "{name}: {body:?}");
        let slid = body.pose.position - start;
        let expected = speed * speed / (2.0 * mu * 9.81);
        assert!(
            (slid.x - expected).abs() < 0.03 * expected && slid.z.abs() < 1e-3,
            "{name}: slid {slid}, expected {expected} along x"
        );
        let turned = body.pose.rotation.angle_between(Quat::IDENTITY);
        assert!(turned < 1e-3, "{name}: turned {turned}");
    });
}

#[test]
fn a_pile_of_200_bodies_settles() {
    on_every_backend(|name, ctx| {
        let world = pile(200, 7);
        let mut h = Harness::new(ctx, world.clone());
        let mut energy = vec![world.kinetic_energy()];
        energy.extend(h.run(360));
        let peak = energy.iter().copied().fold(0.0, f32::max);
        let last = *energy.last().unwrap();
        eprintln!("{name}: kinetic energy {last} at the end, peak {peak}");
        assert!(energy[0] > 0.0 && peak >= energy[0]);
        assert!(
            last < 1e-3 * peak,
            "{name}: kinetic energy {last} at the end, peak {peak}"
        );
        // Every hull point inside the walled square above the floor, within twice the slop.
        let wall = world.planes[1].offset.abs();
        let margin = 2.0 * world.settings.slop;
        for (k, body) in h.world.bodies.iter().enumerate() {
            for q in world.shapes[body.shape as usize].local_points() {
                let p = body.pose.transform_point(q);
                assert!(
                    p.y > -margin && p.x.abs() < wall + margin && p.z.abs() < wall + margin,
                    "{name}: body {k} escaped: its point {p}"
                );
            }
        }
    });
}
