//! The stress scene moved on the GPU (`shaders/stress_motion.wgsl`) follows the CPU scene's motion rule: a seeded
//! scene of 2,000 bodies run for 100 frames on both (60 short frames, then 40 of a quarter second, in which
//! every fast body bounces off the walls) ends with poses that agree within float32 rounding, and the GPU broad
//! phase on the boxes the pass wrote finds the CPU grid's candidate pairs, but for pairs whose boxes touch
//! within that band. On OpenGL and Vulkan (llvmpipe and lavapipe on a machine without a GPU); skipped without
//! an adapter, except under `CI=true`.
//!
//! The band: each frame rounds the position once for `p + v dt` (which a GPU may fuse into one rounding) and
//! once for a bounce, and the rotation in a quaternion product and a normalisation, a few units in the last
//! place each. Neither motion amplifies an earlier difference (a translation, a mirror bounce continuous in the
//! position, a rotation), so the differences add up at most linearly: 8 units in the last place a frame is a
//! bound with room (positions scaled by the box's half extent, quaternions by 1). A box moves with its pose:
//! its corners by the position's difference plus the rotation's times the body's reach.

mod common;

use common::gpu::{backend_contexts, exclusive};
use glam::Vec3;
use gpu_gjk::broad_phase::{grid_pairs, world_aabbs, Aabb};
use gpu_gjk::gpu::broad::GpuBroadPhase;
use gpu_gjk::gpu::read_buffer;
use gpu_gjk::gpu::stress_motion::GpuBodies;
use gpu_gjk::scenario::stress::{asset_shapes, StressScene, StressSpec};
use std::collections::BTreeSet;

const BODIES: usize = 2_000;

/// The frames run: 60 at 60 Hz, then 40 of a quarter second.
fn frame_steps() -> Vec<f32> {
    let mut steps = vec![1.0 / 60.0; 60];
    steps.extend([0.25; 40]);
    steps
}

fn scene() -> StressScene {
    let mut scene = StressScene::new(
        asset_shapes().expect("the shipped assets load"),
        StressSpec {
            seed: 11,
            bodies: BODIES,
            ..StressSpec::default()
        },
    )
    .unwrap();
    scene.make_player(2);
    scene
}

/// How far apart two boxes are: the largest gap along an axis (negative when they overlap).
fn gap(a: &Aabb, b: &Aabb) -> f32 {
    (0..3)
        .map(|k| (a.min[k] - b.max[k]).max(b.min[k] - a.max[k]))
        .fold(f32::NEG_INFINITY, f32::max)
}

#[test]
fn bodies_moved_on_the_gpu_follow_the_cpu_scene_and_give_its_pairs() {
    let contexts = backend_contexts();
    let _guard = exclusive();
    for (name, ctx) in contexts {
        let (device, queue) = (&ctx.device, &ctx.queue);
        let mut cpu = scene();
        let slots: Vec<u32> = (0..BODIES as u32).rev().collect();
        let gpu = GpuBodies::new(device, queue, &cpu, &slots).unwrap();
        let mut broad = GpuBroadPhase::new(device, queue);
        // The narrow phase's instance records, with hull words the pass must keep.
        let hulls: Vec<[u32; 8]> = (0..BODIES as u32)
            .map(|i| [0, 0, 0, 1000 + i, 0, 0, 0, 0])
            .collect();
        let instances = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("instances"),
            size: BODIES as u64 * 32,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_DST
                | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        queue.write_buffer(&instances, 0, bytemuck::cast_slice(&hulls));
        let steps = frame_steps();
        let mut status = None;
        for (frame, &dt) in steps.iter().enumerate() {
            cpu.step(dt);
            let mut encoder = device.create_command_encoder(&Default::default());
            let mut up = 0;
            broad
                .encode_device_boxes(&gpu.grid_fit(), BODIES, &mut encoder, |boxes, encoder| {
                    up = gpu.encode(dt, &instances, boxes, encoder);
                })
                .unwrap();
            queue.submit([encoder.finish()]);
            let mut s = broad.finish().unwrap();
            if s.overflowed() {
                // The grown buffer: the same boxes again, not moved.
                let mut encoder = device.create_command_encoder(&Default::default());
                broad
                    .encode_device_boxes(&gpu.grid_fit(), BODIES, &mut encoder, |boxes, e| {
                        gpu.encode(0.0, &instances, boxes, e);
                    })
                    .unwrap();
                queue.submit([encoder.finish()]);
                s = broad.finish().unwrap();
                assert!(!s.overflowed(), "{name}, frame {frame}: {s:?}");
            }
            assert_eq!(up, 16, "a frame sends up only the pass's parameters");
            status = Some(s);
        }
        let frames = steps.len() as f32;
        let position_band = frames * 8.0 * f32::EPSILON * cpu.half_extent;
        let rotation_band = frames * 8.0 * f32::EPSILON;
        let on_gpu = gpu.read_bodies().unwrap();
        let (mut worst_position, mut worst_rotation) = (0f32, 0f32);
        let mut bounced = 0;
        for (c, g) in cpu.bodies.iter().zip(&on_gpu) {
            worst_position =
                worst_position.max((c.pose.position - g.pose.position).abs().max_element());
            worst_rotation = worst_rotation.max(
                (c.pose.rotation.to_array().iter())
                    .zip(g.pose.rotation.to_array())
                    .map(|(a, b)| (a - b).abs())
                    .fold(0.0, f32::max),
            );
            assert_eq!(c.velocity.abs(), g.velocity.abs(), "{name}");
            assert_eq!(c.spin, g.spin, "{name}");
            bounced += usize::from(c.velocity != cpu_start_velocity(c.shape));
        }
        eprintln!(
            "{name}: after {frames} frames, positions within {worst_position:e} (band {position_band:e}), \
             quaternions within {worst_rotation:e} (band {rotation_band:e}); {bounced} bodies bounced"
        );
        assert!(bounced > BODIES / 4, "{name}: {bounced} bodies bounced");
        assert!(
            worst_position <= position_band,
            "{name}: {worst_position:e}"
        );
        assert!(
            worst_rotation <= rotation_band,
            "{name}: {worst_rotation:e}"
        );
        // The player's shape stood still on both.
        assert_eq!(on_gpu[0].pose, cpu.bodies[0].pose, "{name}");

        // The instance records carry the GPU's poses and keep their hull words.
        let records: Vec<[f32; 8]> = read_buffer_via_copy(device, queue, &instances, BODIES);
        for (i, (r, g)) in records.iter().zip(&on_gpu).enumerate() {
            assert_eq!(&r[..3], &g.pose.position.to_array()[..], "{name}: body {i}");
            assert_eq!(
                r[3].to_bits(),
                1000 + i as u32,
                "{name}: body {i}'s hull word"
            );
            assert_eq!(&r[4..], &g.pose.rotation.to_array()[..], "{name}: body {i}");
        }

        // The pairs: the CPU grid's on the CPU scene's boxes, but for boxes touching within the band.
        let status = status.unwrap();
        let mut gpu_pairs = broad.read_pairs(status.stored).unwrap();
        gpu_pairs.sort_unstable();
        let boxes = world_aabbs(&cpu.shapes, &cpu.instances());
        let cpu_pairs = grid_pairs(&boxes);
        let reach = cpu
            .shapes
            .iter()
            .map(|s| {
                let (lo, hi) = s.local_aabb();
                ((lo + hi) * 0.5).length() + ((hi - lo) * 0.5).length()
            })
            .fold(0f32, f32::max);
        let box_band = position_band + 3.0 * rotation_band * reach;
        let a: BTreeSet<[u32; 2]> = gpu_pairs.iter().copied().collect();
        let b: BTreeSet<[u32; 2]> = cpu_pairs.iter().copied().collect();
        let differing: Vec<[u32; 2]> = a.symmetric_difference(&b).copied().collect();
        for &[i, j] in &differing {
            let g = gap(&boxes[i as usize], &boxes[j as usize]);
            assert!(
                g.abs() <= box_band,
                "{name}: pair [{i}, {j}] differs with its boxes {g:e} apart (band {box_band:e})"
            );
        }
        eprintln!(
            "{name}: {} pairs on the GPU, {} on the CPU grid, {} differing (boxes touching within {box_band:e})",
            gpu_pairs.len(),
            cpu_pairs.len(),
            differing.len()
        );
        assert!(cpu_pairs.len() > BODIES / 2, "{name}: {}", cpu_pairs.len());
        // Only pairs at the band's edge may differ: a handful at most.
        assert!(differing.len() <= 2, "{name}: {differing:?}");

        // Poses read back for the check: the bodies asked for, in their order.
        let some = [7u32, 0, 1999, 7];
        let poses = gpu.read_poses(&some).unwrap();
        for (&k, pose) in some.iter().zip(&poses) {
            assert_eq!(*pose, on_gpu[k as usize].pose, "{name}: body {k}");
        }
        let error = gpu.read_poses(&[2000]).unwrap_err().to_string();
        assert!(
            error.contains("body 2000 read back, but the GPU holds 2000 bodies"),
            "{error}"
        );
    }
}

/// Body `i`'s velocity as the seeded scene starts it.
fn cpu_start_velocity(i: u32) -> Vec3 {
    thread_local! {
        static START: Vec<Vec3> = scene().bodies.iter().map(|b| b.velocity).collect();
    }
    START.with(|v| v[i as usize])
}

/// The first `count` 32-byte records of a storage buffer.
fn read_buffer_via_copy(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    buffer: &wgpu::Buffer,
    count: usize,
) -> Vec<[f32; 8]> {
    let bytes = count as u64 * 32;
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("instances readback"),
        size: bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &readback, 0, bytes);
    queue.submit([encoder.finish()]);
    read_buffer(device, &readback, bytes, |b| {
        bytemuck::pod_collect_to_vec(b)
    })
    .unwrap()
}

#[test]
fn draw_slots_that_do_not_fit_the_bodies_are_refused_naming_them() {
    let contexts = backend_contexts();
    let _guard = exclusive();
    let Some((_, ctx)) = contexts.first() else {
        return;
    };
    let scene = scene();
    let short: Vec<u32> = (0..10).collect();
    let error = GpuBodies::new(&ctx.device, &ctx.queue, &scene, &short)
        .err()
        .expect("10 slots for 2,000 bodies")
        .to_string();
    assert!(error.contains("10 draw slots for 2000 bodies"), "{error}");
    let mut beyond: Vec<u32> = (0..BODIES as u32).collect();
    beyond[5] = 2000;
    let error = GpuBodies::new(&ctx.device, &ctx.queue, &scene, &beyond)
        .err()
        .expect("a slot beyond the bodies")
        .to_string();
    assert!(
        error.contains("body 5 is drawn at slot 2000, beyond the 2000 bodies"),
        "{error}"
    );
    let mut twice: Vec<u32> = (0..BODIES as u32).collect();
    twice[7] = 3;
    let error = GpuBodies::new(&ctx.device, &ctx.queue, &scene, &twice)
        .err()
        .expect("two bodies at one slot")
        .to_string();
    assert!(
        error.contains("body 7 is drawn at slot 3, which another body takes"),
        "{error}"
    );
    let bodies = GpuBodies::new(
        &ctx.device,
        &ctx.queue,
        &scene,
        &(0..BODIES as u32).collect::<Vec<_>>(),
    )
    .unwrap();
    let error = bodies.write_body(&scene, 2000).unwrap_err().to_string();
    assert!(
        error.contains("body 2000 written, but the GPU holds 2000 bodies"),
        "{error}"
    );
}

/// The bodies take the GPU physics' poses and velocities (`take_physics`), keep their scale, draw slot and local
/// box, and the motion pass at dt = 0 then writes exactly those poses and their boxes.
#[test]
fn bodies_take_the_poses_physics_found() {
    use glam::Quat;
    use gpu_gjk::gpu::physics::layout::GpuPhysicsBody;
    use gpu_gjk::instance::Instance;
    use gpu_gjk::physics::RigidBody;
    use gpu_gjk::Pose;
    let contexts = backend_contexts();
    let _guard = exclusive();
    for (name, ctx) in contexts {
        let scene = scene();
        let slots: Vec<u32> = (0..BODIES as u32).rev().collect();
        let bodies = GpuBodies::new(&ctx.device, &ctx.queue, &scene, &slots).unwrap();
        let moved: Vec<RigidBody> = scene
            .bodies
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let turn = Quat::from_axis_angle(Vec3::new(1.0, 2.0, 3.0).normalize(), i as f32);
                let pose = Pose::new(b.pose.position + Vec3::new(0.5, -1.0, 0.25), turn);
                let mut rigid = RigidBody::new(b.shape, &scene.shapes[b.shape as usize], pose, 1.0);
                rigid.velocity = Vec3::new(i as f32, 1.0, -2.0);
                rigid.angular = Vec3::new(0.0, 3.0, i as f32 * 0.01);
                rigid
            })
            .collect();
        let records: Vec<GpuPhysicsBody> = moved.iter().map(GpuPhysicsBody::from_body).collect();
        use wgpu::util::DeviceExt;
        let physics = ctx
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("physics bodies"),
                contents: bytemuck::cast_slice(&records),
                usage: wgpu::BufferUsages::STORAGE,
            });
        let usage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
        let instances = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("instances"),
            size: BODIES as u64 * 32,
            usage,
            mapped_at_creation: false,
        });
        let boxes = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("boxes"),
            size: BODIES as u64 * 32,
            usage,
            mapped_at_creation: false,
        });
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        bodies.encode_take_physics(&physics, &mut encoder);
        bodies.encode(0.0, &instances, &boxes, &mut encoder);
        ctx.queue.submit([encoder.finish()]);
        let taken = bodies.read_bodies().unwrap();
        let written = read_buffer_via_copy(&ctx.device, &ctx.queue, &boxes, BODIES);
        for (i, (body, rigid)) in taken.iter().zip(&moved).enumerate() {
            assert_eq!(body.pose, rigid.pose, "{name}: body {i}'s pose");
            assert_eq!(body.velocity, rigid.velocity, "{name}: body {i}'s velocity");
            assert_eq!(body.spin, rigid.angular, "{name}: body {i}'s spin");
            let instance = Instance {
                shape: body.shape,
                pose: rigid.pose,
            };
            let expected = world_aabbs(&scene.shapes, &[instance])[0];
            let got = &written[i];
            for k in 0..3 {
                let tolerance = 1e-4 * (1.0 + expected.max[k].abs());
                assert!(
                    (got[k] - expected.min[k]).abs() <= tolerance
                        && (got[4 + k] - expected.max[k]).abs() <= tolerance,
                    "{name}: body {i}'s box {got:?}, expected {expected:?}"
                );
            }
        }
    }
}
