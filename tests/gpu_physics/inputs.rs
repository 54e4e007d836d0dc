//! What the solver refuses or leaves out, and the records it writes for the broad and narrow phases.

use crate::harness::{contacts, Harness};
use crate::on_every_backend;
use glam::Vec3;
use gpu_gjk::broad_phase::world_aabbs;
use gpu_gjk::gpu::physics::layout::{GpuPhysicsContact, PHYSICS_CONTACT_TOUCHING};
use gpu_gjk::gpu::physics::GpuSolver;
use gpu_gjk::gpu::GpuError;
use gpu_gjk::physics::scenes::{floor_world, pile, unit_box};
use gpu_gjk::physics::RigidBody;
use gpu_gjk::{Instance, Pose};
use wgpu::BufferUsages as U;

#[test]
fn a_world_the_gpu_cannot_run_is_refused_with_its_reason() {
    on_every_backend(|name, ctx| {
        let base = || {
            let mut world = floor_world(vec![unit_box()]);
            world.add_body(0, Pose::from_position(Vec3::new(0.0, 0.5, 0.0)));
            world
        };
        let mut bad_shape = base();
        bad_shape.bodies[0].shape = 3;
        let mut bad_velocity = base();
        bad_velocity.bodies[0].velocity.x = f32::NAN;
        let mut bad_step = base();
        bad_step.dt = 0.0;
        let mut bad_iterations = base();
        bad_iterations.settings.jacobi_iterations = 0;
        let mut bad_plane = base();
        bad_plane.planes[2].normal = Vec3::new(0.0, 2.0, 0.0);
        for (world, says) in [
            (bad_shape, "body 0 has shape 3"),
            (bad_velocity, "body 0"),
            (bad_step, "time step"),
            (bad_iterations, "0 Jacobi iterations"),
            (bad_plane, "plane 2"),
        ] {
            match GpuSolver::new(&ctx.device, &ctx.queue, &world) {
                Err(GpuError::BadWorld(why)) => assert!(why.contains(says), "{name}: {why}"),
                Err(other) => panic!("{name}: {other}"),
                Ok(_) => panic!("{name}: a world with {says} accepted"),
            }
        }
    });
}

#[test]
fn step_buffers_too_small_or_without_their_usages_are_refused() {
    on_every_backend(|name, ctx| {
        let mut solver = GpuSolver::new(&ctx.device, &ctx.queue, &pile(4, 1)).unwrap();
        let buffer = |size: u64, usage: U| {
            ctx.device.create_buffer(&wgpu::BufferDescriptor {
                label: None,
                size,
                usage,
                mapped_at_creation: false,
            })
        };
        let contacts = buffer(128 * 4, U::STORAGE);
        let count = buffer(16, U::STORAGE | U::INDIRECT);
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        let small = solver.encode_step(&mut encoder, &contacts, &count, 5);
        assert!(
            matches!(small, Err(GpuError::BadIndex(ref why)) if why.contains("contact buffer")),
            "{name}: {small:?}"
        );
        let not_indirect = buffer(16, U::STORAGE);
        let refused = solver.encode_step(&mut encoder, &contacts, &not_indirect, 4);
        assert!(
            matches!(refused, Err(GpuError::BadIndex(ref why)) if why.contains("indirect")),
            "{name}: {refused:?}"
        );
        let boxes = buffer(16, U::STORAGE);
        assert!(solver.encode_boxes(&mut encoder, &boxes).is_err(), "{name}");
        assert!(
            solver.encode_instances(&mut encoder, &boxes).is_err(),
            "{name}"
        );
    });
}

/// Slots that claim a touching contact the solver cannot use (a body out of range, the same body twice, a
/// normal that is not a unit vector, more than four points) are counted and left out; the rest is solved.
#[test]
fn unusable_contacts_are_counted_and_left_out() {
    on_every_backend(|name, ctx| {
        let mut world = floor_world(vec![unit_box()]);
        world.settings.sleep_speed = 0.0;
        world.add_body(0, Pose::from_position(Vec3::new(0.0, 0.5, 0.0)));
        world.add_body(0, Pose::from_position(Vec3::new(3.0, 0.5, 0.0)));
        let touching = |bodies: [u32; 2], normal: [f32; 4], points: u32| {
            let mut c = GpuPhysicsContact {
                bodies: [bodies[0], bodies[1], points, PHYSICS_CONTACT_TOUCHING],
                normal,
                ..Default::default()
            };
            c.points[0] = [0.0, 1.0, 0.0, 0.5];
            c
        };
        let up = [0.0, 1.0, 0.0, 0.5];
        let bad = [
            touching([0, 7], up, 1),
            touching([1, 1], up, 1),
            touching([0, 1], [f32::NAN, 0.0, 0.0, 0.5], 1),
            touching([0, 1], [0.0, 3.0, 0.0, 0.5], 1),
            touching([0, 1], up, 5),
        ];
        let mut h = Harness::new(ctx, world);
        for _ in 0..30 {
            let stats = h.step_with(&bad);
            assert_eq!(stats.rejected, 5, "{name}");
            // Only the two floor contacts.
            assert_eq!((stats.contacts, stats.points), (2, 8), "{name}");
        }
        for body in &h.world.bodies {
            assert!(body.velocity.length() < 1e-3, "{name}: {body:?}");
            assert!(
                (body.pose.position.y - 0.5).abs() < 0.01,
                "{name}: {body:?}"
            );
        }
    });
}

/// The boxes the broad phase reads are the CPU's world boxes of the GPU's poses; the instances take the poses
/// and keep their hull words.
#[test]
fn boxes_and_instances_follow_the_bodies() {
    on_every_backend(|name, ctx| {
        let mut h = Harness::new(ctx, pile(30, 5));
        for _ in 0..20 {
            h.step();
        }
        let count = h.world.bodies.len() as u64;
        let device = &ctx.device;
        let boxes = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: count * 32,
            usage: U::STORAGE | U::COPY_SRC,
            mapped_at_creation: false,
        });
        let instances = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: count * 32,
            usage: U::STORAGE | U::COPY_SRC | U::COPY_DST,
            mapped_at_creation: false,
        });
        let hulls: Vec<[u32; 8]> = (0..count as u32)
            .map(|i| [0, 0, 0, 1000 + i, 0, 0, 0, 0])
            .collect();
        ctx.queue
            .write_buffer(&instances, 0, bytemuck::cast_slice(&hulls));
        let mut encoder = device.create_command_encoder(&Default::default());
        h.solver.encode_boxes(&mut encoder, &boxes).unwrap();
        h.solver.encode_instances(&mut encoder, &instances).unwrap();
        ctx.queue.submit([encoder.finish()]);
        let read = |buffer: &wgpu::Buffer| -> Vec<[f32; 8]> {
            let staging = device.create_buffer(&wgpu::BufferDescriptor {
                label: None,
                size: count * 32,
                usage: U::MAP_READ | U::COPY_DST,
                mapped_at_creation: false,
            });
            let mut encoder = device.create_command_encoder(&Default::default());
            encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, count * 32);
            ctx.queue.submit([encoder.finish()]);
            gpu_gjk::gpu::read_buffer(device, &staging, count * 32, bytemuck::pod_collect_to_vec)
                .unwrap()
        };
        let instances_now: Vec<Instance> = h.world.bodies.iter().map(RigidBody::instance).collect();
        let expected = world_aabbs(&h.world.shapes, &instances_now);
        for (k, (got, want)) in read(&boxes).iter().zip(&expected).enumerate() {
            let lo = Vec3::new(got[0], got[1], got[2]);
            let hi = Vec3::new(got[4], got[5], got[6]);
            assert!(
                (lo - want.min).abs().max_element() < 1e-5
                    && (hi - want.max).abs().max_element() < 1e-5,
                "{name}: box {k}: {lo} {hi}, CPU {want:?}"
            );
        }
        for (k, (got, body)) in read(&instances).iter().zip(&h.world.bodies).enumerate() {
            assert_eq!(
                got[3].to_bits(),
                1000 + k as u32,
                "{name}: instance {k}'s hull word"
            );
            assert_eq!(
                &got[..3],
                &body.pose.position.to_array(),
                "{name}: instance {k}"
            );
            assert_eq!(
                &got[4..],
                &body.pose.rotation.to_array(),
                "{name}: instance {k}"
            );
        }
        assert!(
            !contacts(&h.world, 0).is_empty(),
            "{name}: the pile touches"
        );
    });
}

/// A body written again from the host lands where it was placed (and falls from there); a bad one is refused.
#[test]
fn a_body_written_again_moves_there_and_a_bad_one_is_refused() {
    on_every_backend(|name, ctx| {
        let mut world = floor_world(vec![unit_box()]);
        world.add_body(0, Pose::from_position(Vec3::new(0.0, 0.5, 0.0)));
        world.add_body(0, Pose::from_position(Vec3::new(3.0, 0.5, 0.0)));
        let mut h = Harness::new(ctx, world);
        for _ in 0..10 {
            h.step();
        }
        let mut lifted = h.world.bodies[1];
        lifted.pose.position = Vec3::new(-2.0, 4.0, 1.0);
        lifted.velocity = Vec3::new(1.0, 0.0, 0.0);
        h.solver.write_body(1, &lifted).unwrap();
        h.step();
        let body = &h.world.bodies[1];
        let dt = h.world.dt;
        let expected = Vec3::new(-2.0 + dt, 4.0 - 9.81 * dt * dt, 1.0);
        assert!(
            (body.pose.position - expected).length() < 1e-4,
            "{name}: {} after one step, expected {expected}",
            body.pose.position
        );
        assert!(
            (h.world.bodies[0].pose.position.y - 0.5).abs() < 0.01,
            "{name}"
        );
        let mut bad = lifted;
        bad.shape = 1;
        let refused = h.solver.write_body(1, &bad);
        assert!(
            matches!(refused, Err(GpuError::BadWorld(ref why)) if why.contains("shape 1")),
            "{name}: {refused:?}"
        );
        assert!(
            h.solver.write_body(2, &lifted).is_err(),
            "{name}: body 2 of 2"
        );
    });
}
