//! Pairs with no contact, slots the pass must leave alone, bad indices and poses as named failures, and shapes
//! the pass refuses.

use crate::common::gpu::{backend_contexts, exclusive};
use crate::scene::{pose, sentinel, turned, Scene};
use glam::Vec3;
use gpu_gjk::gpu::physics::contacts::{check_contacts, GpuContactPass};
use gpu_gjk::gpu::physics::layout::{
    GpuPhysicsContact, PHYSICS_CONTACT_NONE, PHYSICS_CONTACT_TOUCHING,
};
use gpu_gjk::sat::compare::polyhedron;
use gpu_gjk::shape::ConvexShape;

#[test]
fn apart_static_and_sleeping_pairs_have_no_contact() {
    let mut scene = Scene::new(vec![
        ConvexShape::cuboid(Vec3::splat(0.5)).unwrap(),
        polyhedron(64, 1.0, 3),
    ]);
    // Apart: boxes 1e-3 apart face to face, hulls far apart, a box just off a hull's corner.
    let a = scene.body(0, pose(0.0, 0.0, 0.0));
    let b = scene.body(0, pose(0.0, 1.001, 0.0));
    scene.both_orders(a, b);
    let c = scene.body(1, pose(5.0, 0.0, 0.0));
    let d = scene.body(1, turned(8.0, 0.0, 0.0, Vec3::Y, 0.5));
    scene.both_orders(c, d);
    // Overlapping, but neither body moves: both static, both asleep, one static and one asleep.
    let e = scene.fixed(0, pose(20.0, 0.0, 0.0));
    let f = scene.fixed(0, pose(20.0, 0.5, 0.0));
    scene.both_orders(e, f);
    let g = scene.body(0, pose(20.0, 0.0, 0.3));
    let h = scene.body(0, pose(20.0, 0.5, 0.3));
    scene.bodies[g as usize].asleep = true;
    scene.bodies[h as usize].asleep = true;
    scene.both_orders(g, h);
    scene.both_orders(e, g);
    // A sleeping body under a moving one touches.
    let m = scene.body(0, pose(20.0, -0.9, 0.3));
    scene.both_orders(g, m);
    let pairs = scene.pairs.clone();
    for (name, records, _) in scene.run() {
        for (k, c) in records.iter().enumerate() {
            let expected = if k >= 10 {
                PHYSICS_CONTACT_TOUCHING
            } else {
                PHYSICS_CONTACT_NONE
            };
            assert_eq!(c.bodies[..2], pairs[k], "{name} slot {k}");
            assert_eq!(c.bodies[3], expected, "{name} slot {k}");
            if expected == PHYSICS_CONTACT_NONE {
                assert_eq!(
                    *c,
                    GpuPhysicsContact {
                        bodies: [pairs[k][0], pairs[k][1], 0, 0],
                        ..Default::default()
                    }
                );
            }
        }
    }
}

#[test]
fn slots_past_the_count_and_past_the_capacity_are_left_alone() {
    let mut scene = Scene::new(vec![ConvexShape::cuboid(Vec3::splat(0.5)).unwrap()]);
    let bodies: Vec<u32> = (0..200)
        .map(|k| scene.body(0, pose(k as f32 * 0.9, 0.0, 0.0)))
        .collect();
    for w in bodies.windows(2) {
        scene.pairs.push([w[0], w[1]]);
    }
    let total = scene.pairs.len() as u32;
    // The count below the buffers: 130 of 199 slots written (three workgroups, the last one part full).
    scene.count = 130;
    scene.capacity = total;
    let under = scene.run();
    // The broad phase found more pairs than the capacity: 1,000 counted, a capacity of 150 in buffers of 199
    // slots, dispatched for the whole count.
    scene.count = 1000;
    scene.capacity = 150;
    let over = scene.run();
    // The same count dispatched in rows of two workgroups: the pass numbers its slot as `pair_index` does.
    scene.rows = 8;
    let rows = scene.run();
    for (name, records, check) in under {
        assert_eq!(check.checked, 130);
        assert!(
            records[..130]
                .iter()
                .all(|c| c.bodies[3] == PHYSICS_CONTACT_TOUCHING),
            "{name}"
        );
        assert!(
            records[130..]
                .iter()
                .all(|c| bytemuck::bytes_of(c) == bytemuck::bytes_of(&sentinel())),
            "{name}"
        );
    }
    for (name, records, check) in over.into_iter().chain(rows) {
        assert_eq!(
            (records.len(), check.checked, check.failures),
            (199, 150, 0),
            "{name}"
        );
        assert!(
            records[..150]
                .iter()
                .all(|c| c.bodies[3] == PHYSICS_CONTACT_TOUCHING),
            "{name}"
        );
        assert!(
            records[150..]
                .iter()
                .all(|c| bytemuck::bytes_of(c) == bytemuck::bytes_of(&sentinel())),
            "{name}"
        );
    }
    // A capacity of 0: nothing written, whatever the count and the dispatch.
    scene.rows = 1;
    scene.capacity = 0;
    for (name, records, check) in scene.run() {
        assert_eq!(check.checked, 0, "{name}");
        assert!(
            records
                .iter()
                .all(|c| bytemuck::bytes_of(c) == bytemuck::bytes_of(&sentinel())),
            "{name}"
        );
    }
}

#[test]
fn new_refuses_shapes_the_kernel_cannot_take() {
    use gpu_gjk::gpu::GpuError;
    let Some((_, ctx)) = backend_contexts().first() else {
        return;
    };
    let _guard = exclusive();
    let cube = ConvexShape::cuboid(Vec3::splat(0.5)).unwrap();
    let capsule = ConvexShape::capsule(1.0, 0.25).unwrap();
    match GpuContactPass::new(&ctx.device, &ctx.queue, &[cube.clone(), cube, capsule]) {
        Err(GpuError::UnsupportedShape { shape: 2, reason }) => {
            assert!(reason.contains("radius"), "{reason}")
        }
        Err(other) => panic!("refused otherwise: {other}"),
        Ok(_) => panic!("a capsule was taken"),
    }
    // A hull of 130 faces: a prism over a 128-gon.
    let ring: Vec<Vec3> = (0..128)
        .flat_map(|k| {
            let angle = k as f32 * std::f32::consts::TAU / 128.0;
            let (s, c) = angle.sin_cos();
            [Vec3::new(c, -0.5, s), Vec3::new(c, 0.5, s)]
        })
        .collect();
    let many = ConvexShape::hull(&ring, 0.0).unwrap();
    match GpuContactPass::new(&ctx.device, &ctx.queue, &[many]) {
        Err(GpuError::UnsupportedShape { shape: 0, reason }) => {
            assert!(reason.contains("130 faces, beyond the 128"), "{reason}")
        }
        Err(other) => panic!("refused otherwise: {other}"),
        Ok(_) => panic!("a hull of 130 faces was taken"),
    }
}

#[test]
fn bad_indices_and_poses_are_named_failures() {
    use gpu_gjk::gpu::physics::contacts::PHYSICS_CONTACT_INVALID;
    let mut scene = Scene::new(vec![ConvexShape::cuboid(Vec3::splat(0.5)).unwrap()]);
    let a = scene.body(0, pose(0.0, 0.0, 0.0));
    let b = scene.body(0, pose(0.0, 0.9, 0.0));
    let c = scene.body(0, pose(0.0, -0.9, 0.0));
    let d = scene.body(0, pose(0.9, 0.0, 0.0));
    // A shape index beyond the pass's shapes, a position that is not finite, a body beyond the buffer.
    scene.bodies[b as usize].shape = 7;
    scene.bodies[c as usize].pose.position.y = f32::NAN;
    scene.bodies[d as usize].pose.rotation.w = f32::INFINITY;
    scene.both_orders(a, b);
    scene.both_orders(a, c);
    scene.both_orders(a, d);
    scene.both_orders(a, 99);
    let pairs = scene.pairs.clone();
    for (name, ctx) in backend_contexts() {
        let _guard = exclusive();
        let records = scene.run_on(ctx);
        for (k, record) in records.iter().enumerate() {
            assert_eq!(
                *record,
                GpuPhysicsContact {
                    bodies: [pairs[k][0], pairs[k][1], 0, PHYSICS_CONTACT_INVALID],
                    ..Default::default()
                },
                "{name} slot {k}"
            );
        }
        let check = check_contacts(&scene.shapes, &scene.bodies, &records);
        assert_eq!(
            (check.failures, check.disagreements),
            (8, 0),
            "{name}: {}",
            check.summary()
        );
    }
}
