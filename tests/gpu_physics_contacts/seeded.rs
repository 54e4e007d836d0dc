//! Seeded pairs of boxes and hulls in both orders, and a pile of bodies through the GPU broad phase's own pair and
//! count buffers, against the CPU.

use crate::common::gpu::{backend_contexts, exclusive};
use crate::scene::Scene;
use glam::{DVec3, Quat, Vec3};
use gpu_gjk::gpu::physics::contacts::{check_contacts, GpuContactPass};
use gpu_gjk::gpu::physics::layout::{GpuPhysicsBody, GpuPhysicsContact, PHYSICS_CONTACT_TOUCHING};
use gpu_gjk::gpu::read_buffer;
use gpu_gjk::physics::RigidBody;
use gpu_gjk::sat::compare::{polyhedral_pairs, polyhedron};
use gpu_gjk::shape::ConvexShape;
use gpu_gjk::Pose;
use wgpu::util::DeviceExt;

#[test]
fn seeded_hull_and_box_pairs_agree_with_the_cpu_in_both_orders() {
    let generated = polyhedral_pairs(4_000, &[0, 8, 64], 20261206);
    let mut shapes = Vec::new();
    let mut scene_poses = Vec::new();
    for (k, pair) in generated.iter().enumerate() {
        shapes.push(pair.a.clone());
        shapes.push(pair.b.clone());
        // Physics scenes sit within 1e4 of the origin: keep B's offset from A, move A there.
        let origin = [DVec3::ZERO, DVec3::new(1e4, -3e3, 7e3)][k % 2];
        let offset = pair.pose_b.position - pair.pose_a.position;
        let size = pair.a.bounding_radius().max(pair.b.bounding_radius()) as f64;
        let at = if size > 100.0 { DVec3::ZERO } else { origin };
        scene_poses.push((
            Pose::new(at.as_vec3(), pair.pose_a.rotation.as_quat()),
            Pose::new((at + offset).as_vec3(), pair.pose_b.rotation.as_quat()),
        ));
    }
    let mut scene = Scene::new(shapes);
    for (k, (pose_a, pose_b)) in scene_poses.into_iter().enumerate() {
        let i = scene.body(2 * k as u32, pose_a);
        let j = scene.body(2 * k as u32 + 1, pose_b);
        scene.both_orders(i, j);
    }
    for (name, records, check) in scene.run() {
        let touching = records
            .iter()
            .filter(|c| c.bodies[3] == PHYSICS_CONTACT_TOUCHING)
            .count();
        eprintln!("{name}: {touching} of {} pairs touching", records.len());
        assert!(touching > 2_000, "{name}: {touching}");
        assert_eq!(check.checked, 8_000);
    }
}

#[test]
fn the_broad_phases_pairs_give_the_cpu_physics_contacts() {
    use gpu_gjk::broad_phase::world_aabbs;
    use gpu_gjk::gpu::broad::GpuBroadPhase;
    use gpu_gjk::physics::collide::find_contacts;
    use gpu_gjk::physics::contact::Partner;
    use gpu_gjk::Instance;
    use std::collections::BTreeSet;

    // A loose pile: boxes and hulls on a jittered lattice closer than their sizes, some static, some asleep.
    let shapes = vec![
        ConvexShape::cuboid(Vec3::splat(0.5)).unwrap(),
        polyhedron(8, 0.7, 11),
        polyhedron(64, 0.6, 12),
        ConvexShape::cuboid(Vec3::new(0.9, 0.2, 0.4)).unwrap(),
    ];
    let mut scene = Scene::new(shapes);
    let mut jitter = 0x2545_f491_u32;
    let mut next = move || {
        jitter ^= jitter << 13;
        jitter ^= jitter >> 17;
        jitter ^= jitter << 5;
        jitter as f32 / u32::MAX as f32 - 0.5
    };
    for k in 0..512u32 {
        let (x, y, z) = ((k % 8) as f32, (k / 8 % 8) as f32, (k / 64) as f32);
        let at = Vec3::new(x, y, z) * 0.95 + Vec3::new(next(), next(), next()) * 0.3;
        let axis = Vec3::new(next(), next(), next()) + Vec3::splat(0.01);
        let index = scene.body(
            k % 4,
            Pose::new(at, Quat::from_axis_angle(axis.normalize(), next() * 6.0)),
        );
        match k % 7 {
            0 => scene.bodies[index as usize].inverse_mass = 0.0,
            3 => scene.bodies[index as usize].asleep = true,
            _ => {}
        }
    }
    let instances: Vec<Instance> = scene.bodies.iter().map(RigidBody::instance).collect();
    let boxes = world_aabbs(&scene.shapes, &instances);
    let cpu: BTreeSet<[u32; 2]> = find_contacts(&scene.shapes, &scene.bodies, &[], 0.0)
        .contacts
        .iter()
        .map(|c| match c.key.b {
            Partner::Body(j) => [c.key.a.min(j), c.key.a.max(j)],
            Partner::Plane(_) => unreachable!("no planes"),
        })
        .collect();
    let records: Vec<GpuPhysicsBody> = scene.bodies.iter().map(GpuPhysicsBody::from_body).collect();
    for (name, ctx) in backend_contexts() {
        let _guard = exclusive();
        let (device, queue) = (&ctx.device, &ctx.queue);
        let mut broad = GpuBroadPhase::with_capacity(device, queue, 8192);
        let status = broad.run(&boxes).unwrap();
        assert!(!status.overflowed(), "{name}: {status:?}");
        let (pairs, count) = broad.buffers().unwrap();
        let pass = GpuContactPass::new(device, queue, &scene.shapes).unwrap();
        let bodies = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("bodies"),
            contents: bytemuck::cast_slice(&records),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let contacts = GpuContactPass::contact_buffer(device, broad.pair_capacity());
        let size = u64::from(status.stored) * std::mem::size_of::<GpuPhysicsContact>() as u64;
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("contacts readback"),
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        pass.encode(
            &mut encoder,
            &bodies,
            pairs,
            count,
            broad.pair_capacity(),
            &contacts,
        );
        encoder.copy_buffer_to_buffer(&contacts, 0, &readback, 0, size);
        queue.submit([encoder.finish()]);
        let found: Vec<GpuPhysicsContact> = read_buffer(device, &readback, size, |bytes| {
            bytemuck::cast_slice(bytes).to_vec()
        })
        .unwrap();
        let check = check_contacts(&scene.shapes, &scene.bodies, &found);
        eprintln!(
            "{name}: {} broad-phase pairs, {} CPU contacts; {}",
            status.stored,
            cpu.len(),
            check.summary()
        );
        assert!(
            check.is_clean() && check.failures == 0,
            "{name}: {}",
            check.summary()
        );
        let gpu: BTreeSet<[u32; 2]> = found
            .iter()
            .filter(|c| c.bodies[3] == PHYSICS_CONTACT_TOUCHING)
            .map(|c| [c.bodies[0].min(c.bodies[1]), c.bodies[0].max(c.bodies[1])])
            .collect();
        assert!(cpu.len() > 100, "{name}: {} contacts", cpu.len());
        if check.touching_ties == 0 {
            assert_eq!(gpu, cpu, "{name}");
        }
    }
}

/// The contact proxies of the shipped sphere and capsule (`contact_proxy`: hulls of 64 of their points) keep
/// nearly coplanar faces apart (a sliver triangle beside a pentagon, normals 4e-6 apart), which float32 and
/// float64 rank differently: both twins take the tied face of most vertices. A proxy against every shipped mesh,
/// centres 0.3 to 0.9 of their radii's sum apart (deep pairs included), in both orders: every record agrees with
/// the CPU.
#[test]
fn proxy_hulls_with_nearly_coplanar_faces_agree_with_the_cpu() {
    use gpu_gjk::gpu::physics::contact_proxy;
    use gpu_gjk::scenario::stress::asset_shapes;
    let assets = asset_shapes().unwrap();
    let shapes: Vec<ConvexShape> = assets
        .iter()
        .map(|s| contact_proxy(s).expect("every shipped mesh has a proxy"))
        .collect();
    let proxies = [1u32, 4]; // the sphere and the capsule
    let count = shapes.len() as u32;
    let radius: Vec<f32> = shapes.iter().map(|s| s.bounding_radius()).collect();
    let mut scene = Scene::new(shapes);
    let mut state = 12345u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 40) as f32 / (1u64 << 24) as f32
    };
    for k in 0..1000u32 {
        let mut unit = || Vec3::new(next() - 0.5, next() - 0.5, next() - 0.5).normalize();
        let (dir, axis_a, axis_b) = (unit(), unit(), unit());
        let (a, b) = (proxies[(k % 2) as usize], (k / 2) % count);
        let distance = (radius[a as usize] + radius[b as usize]) * (0.3 + 0.6 * next());
        let (turn_a, turn_b) = (next() * 6.0, next() * 6.0);
        let base = Vec3::new(1.7, -3.0, -4.6);
        let i = scene.body(a, Pose::new(base, Quat::from_axis_angle(axis_a, turn_a)));
        let j = scene.body(
            b,
            Pose::new(base + dir * distance, Quat::from_axis_angle(axis_b, turn_b)),
        );
        scene.both_orders(i, j);
    }
    for (name, records, check) in scene.run() {
        let touching = records
            .iter()
            .filter(|c| c.bodies[3] == PHYSICS_CONTACT_TOUCHING)
            .count();
        eprintln!(
            "{name}: {touching} of {} touching; {}",
            records.len(),
            check.summary()
        );
        assert!(touching > 1000, "{name}: {touching}");
    }
}
