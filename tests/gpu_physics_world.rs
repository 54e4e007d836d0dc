//! The physics world stepped wholly on the GPU (`gpu::physics::GpuWorld`): the bodies' boxes, the GPU grid broad
//! phase, the contact pass (SAT and clipping on the device) and the GPU solver, with nothing computed on the CPU
//! but the check. A stack of ten boxes stands for ten seconds; a pile of boxes and hulls settles inside its
//! walls while the CPU manifold agrees with every sampled contact; a step whose pairs outgrow the pair buffer
//! finds them all; a shape the contact pass cannot take is refused by name. On every backend there is (OpenGL
//! and Vulkan: llvmpipe and lavapipe without a GPU); skipped without an adapter, except under `CI=true`.

mod common;
#[path = "gpu_physics/scenes.rs"]
#[allow(dead_code)]
mod scenes;

use common::gpu::{backend_contexts, exclusive};
use glam::Vec3;
use gpu_gjk::broad_phase::{grid_pairs, world_aabbs};
use gpu_gjk::gpu::physics::GpuWorld;
use gpu_gjk::gpu::GpuContext;
use gpu_gjk::instance::Instance;
use gpu_gjk::physics::World;
use gpu_gjk::{ConvexShape, Pose};
use scenes::{pile, stack};

fn on_every_backend(check: impl Fn(&str, &GpuContext)) {
    let _guard = exclusive();
    for (name, ctx) in backend_contexts() {
        check(name, ctx);
    }
}

#[test]
fn a_stack_of_ten_boxes_stands_for_ten_seconds_on_the_gpu_world() {
    on_every_backend(|name, ctx| {
        let world = stack(10);
        let start = world.bodies[9].pose.position;
        let steps = (10.0 / world.dt).round() as usize;
        let mut gpu = GpuWorld::new(&ctx.device, &ctx.queue, &world).unwrap();
        let mut across = 0f32;
        for step in 0..steps {
            gpu.step().unwrap();
            if step % 30 == 29 || step + 1 == steps {
                let top = gpu.read_bodies().unwrap()[9].pose.position - start;
                across = across.max(top.x.hypot(top.z));
            }
        }
        let bodies = gpu.read_bodies().unwrap();
        let down = start.y - bodies[9].pose.position.y;
        eprintln!("{name}: the top box moved {across} across, {down} down");
        assert!(
            across < 0.05 && down < 0.05,
            "{name}: the top box moved {across} across, {down} down"
        );
    });
}

#[test]
fn a_pile_settles_on_the_gpu_world_and_the_cpu_agrees_with_its_contacts() {
    on_every_backend(|name, ctx| {
        let world = pile(200, 7);
        let half_width = world.planes[1].offset.abs();
        let mut gpu = GpuWorld::new(&ctx.device, &ctx.queue, &world).unwrap();
        let (mut peak, mut last) = (0f32, 0f32);
        let (mut checked, mut touching) = (0, 0);
        for step in 0..600 {
            let checking = step % 20 == 0;
            let before = if checking {
                Some(gpu.read_bodies().unwrap())
            } else {
                None
            };
            gpu.step().unwrap();
            if let Some(before) = before {
                let check = gpu.check_sample(&before, 64, step).unwrap();
                assert_eq!(
                    (check.disagreements, check.failures),
                    (0, 0),
                    "{name} step {step}: {:?}",
                    check.described
                );
                checked += check.checked;
                touching += check.checked - check.touching_ties;
            }
            let stats = gpu.latest_stats().unwrap();
            assert_eq!(stats.rejected, 0, "{name} step {step}");
            peak = peak.max(stats.kinetic_energy);
            last = stats.kinetic_energy;
        }
        eprintln!(
            "{name}: kinetic energy {last} from a peak of {peak}; {checked} contacts checked"
        );
        assert!(checked > 1000 && touching > 0, "{name}: {checked} checked");
        assert!(
            last < 1e-3 * peak,
            "{name}: kinetic energy {last}, peak {peak}"
        );
        for (k, body) in gpu.read_bodies().unwrap().iter().enumerate() {
            let p = body.pose.position;
            assert!(
                p.y > -0.1 && p.x.abs() < half_width && p.z.abs() < half_width,
                "{name}: body {k} escaped to {p}"
            );
        }
    });
}

/// Two hundred unit boxes heaped in one place overlap each other: 19,900 pairs, beyond the broad phase's
/// starting buffer (16,384 pairs, more than eight a body). The step finds them all, in a grown buffer, and
/// every one's contact agrees with the CPU.
#[test]
fn a_step_whose_pairs_outgrow_the_buffer_finds_them_all() {
    on_every_backend(|name, ctx| {
        let mut world = World::new(vec![ConvexShape::cuboid(Vec3::splat(0.5)).unwrap()]);
        world.enclose(0.0, 10.0);
        for k in 0..200 {
            let offset = Vec3::new(
                (k % 6) as f32 * 0.05,
                2.0 + (k / 36) as f32 * 0.05,
                ((k / 6) % 6) as f32 * 0.05,
            );
            world.add_body(0, Pose::from_position(offset));
        }
        let instances: Vec<Instance> = world
            .bodies
            .iter()
            .map(|b| Instance {
                shape: b.shape,
                pose: b.pose,
            })
            .collect();
        let expected = grid_pairs(&world_aabbs(&world.shapes, &instances)).len();
        assert_eq!(expected, 200 * 199 / 2);
        let mut gpu = GpuWorld::new(&ctx.device, &ctx.queue, &world).unwrap();
        let before = gpu.read_bodies().unwrap();
        assert_eq!(gpu.take_traffic().bytes_down, 200 * 112, "{name}");
        let step = gpu.step().unwrap();
        assert!(step.regrown >= 1, "{name}: {step:?}");
        // The pair count, 16 bytes, read once per broad phase run: the first, then one per regrowth.
        let runs = step.regrown + 1;
        let traffic = gpu.take_traffic();
        assert_eq!(
            (
                traffic.bytes_down,
                traffic.submissions,
                traffic.blocking_waits
            ),
            (16 * u64::from(runs), runs + 1, runs),
            "{name}"
        );
        assert_eq!(step.candidate_pairs as usize, expected, "{name}");
        assert_eq!(gpu.stored_pairs() as usize, expected, "{name}");
        let check = gpu.check_sample(&before, expected, 1).unwrap();
        assert_eq!(check.checked, expected, "{name}");
        assert_eq!(
            (check.disagreements, check.failures),
            (0, 0),
            "{name}: {:?}",
            check.described
        );
        // The next step starts in the grown buffer: one read of the count, two submissions.
        gpu.take_traffic();
        assert_eq!(gpu.step().unwrap().regrown, 0, "{name}");
        let traffic = gpu.take_traffic();
        assert_eq!(
            (
                traffic.bytes_down,
                traffic.submissions,
                traffic.blocking_waits
            ),
            (16, 2, 1),
            "{name}"
        );
    });
}

#[test]
fn a_world_with_a_shape_the_contact_pass_cannot_take_is_refused_by_name() {
    on_every_backend(|name, ctx| {
        let mut world = World::new(vec![
            ConvexShape::cuboid(Vec3::splat(0.5)).unwrap(),
            ConvexShape::sphere(0.5).unwrap(),
        ]);
        world.add_body(0, Pose::from_position(Vec3::Y));
        world.add_body(1, Pose::from_position(Vec3::new(0.0, 2.0, 0.0)));
        let error = GpuWorld::new(&ctx.device, &ctx.queue, &world)
            .err()
            .expect("a sphere has a radius")
            .to_string();
        assert!(error.contains("shape 1"), "{name}: {error}");
    });
}
