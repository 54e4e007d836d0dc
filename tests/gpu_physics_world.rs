//! The physics world stepped wholly on the GPU (`gpu::physics::GpuWorld`): the bodies' boxes, the GPU grid broad
//! phase, the contact pass (SAT and clipping on the device) and the GPU solver, with nothing computed on the CPU
//! but the check. A stack of ten boxes stands for ten seconds; piles of 200 and 1,000 boxes and hulls settle
//! inside their walls while the CPU manifold agrees with every sampled contact; a step whose pairs outgrow the pair buffer
//! finds them all; a shape the contact pass cannot take is refused by name. On every backend there is (OpenGL
//! and Vulkan: llvmpipe and lavapipe without a GPU); skipped without an adapter, except under `CI=true`.

mod common;

use common::gpu::{backend_contexts, exclusive};
use glam::Vec3;
use gpu_gjk::broad_phase::{grid_pairs, world_aabbs};
use gpu_gjk::gpu::physics::GpuWorld;
use gpu_gjk::gpu::GpuContext;
use gpu_gjk::instance::Instance;
use gpu_gjk::physics::scenes::{pile, stack};
use gpu_gjk::physics::RigidBody;
use gpu_gjk::physics::World;
use gpu_gjk::{ConvexShape, Pose};

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

/// Steps `pile(count, 7)` for `seconds` on the GPU world: its kinetic energy falls below 1e-3 of its peak, no
/// point of any hull leaves the walls and the floor (by more than twice the slop the solver leaves), and every
/// 20th step the CPU manifold agrees with 64 of its contacts, none a failure code.
fn check_pile_settles(name: &str, ctx: &GpuContext, count: usize, seconds: f32) {
    let world = pile(count, 7);
    let wall = world.planes[1].offset.abs();
    let margin = 2.0 * world.settings.slop;
    let steps = (seconds / world.dt).round() as u64;
    let mut gpu = GpuWorld::new(&ctx.device, &ctx.queue, &world).unwrap();
    let (mut peak, mut last) = (0f32, 0f32);
    let (mut checked, mut touching) = (0, 0);
    for step in 0..steps {
        let before = (step % 20 == 0).then(|| gpu.read_bodies().unwrap());
        gpu.step().unwrap();
        if let Some(before) = before {
            let check = gpu.check_sample(&before, 64, step).unwrap();
            assert_eq!(
                (check.disagreements, check.failures),
                (0, 0),
                "{name}, {count} bodies, step {step}: {:?}",
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
        "{name}, {count} bodies: kinetic energy {last} from a peak of {peak}; {checked} contacts checked"
    );
    assert!(checked > 1000 && touching > 0, "{name}: {checked} checked");
    assert!(
        last < 1e-3 * peak,
        "{name}, {count} bodies: kinetic energy {last}, peak {peak}"
    );
    for (k, body) in gpu.read_bodies().unwrap().iter().enumerate() {
        for q in world.shapes[body.shape as usize].local_points() {
            let p = body.pose.transform_point(q);
            assert!(
                p.y > -margin && p.x.abs() < wall + margin && p.z.abs() < wall + margin,
                "{name}, {count} bodies: body {k} escaped: its point {p}"
            );
        }
    }
}

#[test]
fn a_pile_of_200_settles_on_the_gpu_world_and_the_cpu_agrees_with_its_contacts() {
    on_every_backend(|name, ctx| check_pile_settles(name, ctx, 200, 10.0));
}

/// The CPU test's 1,000 bodies for 8 s, on one backend (Vulkan; OpenGL where it is the only one): the slowest
/// of these on a software adapter.
#[test]
fn a_pile_of_1000_settles_on_the_gpu_world() {
    let _guard = exclusive();
    let contexts = backend_contexts();
    let Some((name, ctx)) = contexts
        .iter()
        .find(|(name, _)| *name == "vulkan")
        .or(contexts.first())
    else {
        return;
    };
    check_pile_settles(name, ctx, 1000, 8.0);
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
        let instances: Vec<Instance> = world.bodies.iter().map(RigidBody::instance).collect();
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
