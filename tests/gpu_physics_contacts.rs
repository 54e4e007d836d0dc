//! The GPU physics' contact pass against hand-computed manifolds and the CPU's, on every backend there is
//! (OpenGL and Vulkan: llvmpipe and lavapipe without a GPU). The host uploads bodies, a pair list and a count
//! buffer as the broad phase leaves them. Without any adapter these tests say they were skipped, except under
//! `CI=true`, where a missing adapter fails the run.

mod common;

use common::gpu::{backend_contexts, exclusive};
use glam::{DVec3, Quat, Vec3};
use gpu_gjk::gpu::physics::contacts::{check_contacts, ContactCheck, GpuContactPass};
use gpu_gjk::gpu::physics::layout::{
    GpuPhysicsBody, GpuPhysicsContact, PHYSICS_CONTACT_NONE, PHYSICS_CONTACT_TOUCHING,
};
use gpu_gjk::gpu::{read_buffer, GpuContext};
use gpu_gjk::physics::RigidBody;
use gpu_gjk::sat::compare::{polyhedral_pairs, polyhedron};
use gpu_gjk::shape::ConvexShape;
use gpu_gjk::Pose;
use wgpu::util::DeviceExt;

/// What a slot holds before the pass: a record no pass writes (status and count out of range).
fn sentinel() -> GpuPhysicsContact {
    GpuPhysicsContact {
        bodies: [u32::MAX; 4],
        normal: [f32::NAN; 4],
        ..GpuPhysicsContact::default()
    }
}

/// A scene for the pass: shapes, bodies, the pair list (its length the buffers' slots), the count word and the
/// capacity the pass is given.
struct Scene {
    shapes: Vec<ConvexShape>,
    bodies: Vec<RigidBody>,
    pairs: Vec<[u32; 2]>,
    count: u32,
    capacity: u32,
    /// Rows of the indirect dispatch (1 as the broad phase writes it; more as a dispatch past the device's
    /// workgroup limit goes).
    rows: u32,
}

impl Scene {
    fn new(shapes: Vec<ConvexShape>) -> Self {
        Self {
            shapes,
            bodies: Vec::new(),
            pairs: Vec::new(),
            count: 0,
            capacity: 0,
            rows: 1,
        }
    }

    /// Adds a moving body of shape `shape` at `pose`; returns its index.
    fn body(&mut self, shape: u32, pose: Pose) -> u32 {
        let body = RigidBody::new(shape, &self.shapes[shape as usize], pose, 1.0);
        self.bodies.push(body);
        self.bodies.len() as u32 - 1
    }

    /// Adds a static body (inverse mass 0).
    fn fixed(&mut self, shape: u32, pose: Pose) -> u32 {
        let index = self.body(shape, pose);
        self.bodies[index as usize].inverse_mass = 0.0;
        index
    }

    /// Adds the pair (i, j) and (j, i) after it, and counts them.
    fn both_orders(&mut self, i: u32, j: u32) {
        self.pairs.extend([[i, j], [j, i]]);
        self.count = self.pairs.len() as u32;
        self.capacity = self.count;
    }

    /// The pass's records on one context: every slot of the buffers, sentinels where the pass wrote nothing.
    fn run_on(&self, ctx: &GpuContext) -> Vec<GpuPhysicsContact> {
        let (device, queue) = (&ctx.device, &ctx.queue);
        let pass = GpuContactPass::new(device, queue, &self.shapes).unwrap();
        let records: Vec<GpuPhysicsBody> =
            self.bodies.iter().map(GpuPhysicsBody::from_body).collect();
        let storage = |label: &str, contents: &[u8], usage: wgpu::BufferUsages| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage: wgpu::BufferUsages::STORAGE | usage,
            })
        };
        let bodies = storage(
            "bodies",
            bytemuck::cast_slice(&records),
            wgpu::BufferUsages::empty(),
        );
        let slots = self.pairs.len().max(1);
        let mut pair_words = self.pairs.clone();
        pair_words.resize(slots, [0, 0]);
        let pairs = storage(
            "pairs",
            bytemuck::cast_slice(&pair_words),
            wgpu::BufferUsages::empty(),
        );
        // One 64-invocation workgroup per counted pair: `broad_dispatch_args` writes no more (it counts the
        // stored pairs), so the pass must bound the slots itself.
        let groups = self.count.div_ceil(64);
        let count_words = [self.count, groups.div_ceil(self.rows), self.rows, 1];
        let count = storage(
            "count",
            bytemuck::cast_slice(&count_words),
            wgpu::BufferUsages::INDIRECT,
        );
        let contacts = GpuContactPass::contact_buffer(device, slots as u32);
        queue.write_buffer(&contacts, 0, bytemuck::cast_slice(&vec![sentinel(); slots]));
        let size = contacts.size();
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
            &pairs,
            &count,
            self.capacity,
            &contacts,
        );
        encoder.copy_buffer_to_buffer(&contacts, 0, &readback, 0, size);
        queue.submit([encoder.finish()]);
        read_buffer(device, &readback, size, |bytes| {
            bytemuck::cast_slice(bytes).to_vec()
        })
        .unwrap()
    }

    /// The records on every backend, each checked clean against the CPU over the counted slots.
    fn run(&self) -> Vec<(&'static str, Vec<GpuPhysicsContact>, ContactCheck)> {
        let mut out = Vec::new();
        for (name, ctx) in backend_contexts() {
            let _guard = exclusive();
            let records = self.run_on(ctx);
            let written = self.count.min(self.capacity) as usize;
            let check = check_contacts(&self.shapes, &self.bodies, &records[..written]);
            eprintln!("{name}: {}", check.summary());
            assert!(check.is_clean(), "{name}: {}", check.summary());
            out.push((*name, records, check));
        }
        out
    }
}

fn pose(x: f32, y: f32, z: f32) -> Pose {
    Pose::from_position(Vec3::new(x, y, z))
}

fn turned(x: f32, y: f32, z: f32, axis: Vec3, angle: f32) -> Pose {
    Pose::new(
        Vec3::new(x, y, z),
        Quat::from_axis_angle(axis.normalize(), angle),
    )
}

/// The record's points as (midpoint, depth, feature id).
fn points(c: &GpuPhysicsContact) -> Vec<(Vec3, f32, u64)> {
    (0..c.point_count())
        .map(|k| (Vec3::from_slice(&c.points[k][..3]), c.points[k][3], c.id(k)))
        .collect()
}

#[test]
fn a_box_resting_on_a_box_has_its_four_corners_in_both_orders() {
    let mut scene = Scene::new(vec![
        ConvexShape::cuboid(Vec3::new(2.0, 0.5, 2.0)).unwrap(),
        ConvexShape::cuboid(Vec3::splat(0.5)).unwrap(),
    ]);
    let slab = scene.fixed(0, pose(0.0, 0.0, 0.0));
    let cube = scene.body(1, pose(0.0, 0.99, 0.0));
    scene.both_orders(slab, cube);
    for (name, records, _) in scene.run() {
        for (slot, sign) in [(0, 1.0f32), (1, -1.0)] {
            let c = &records[slot];
            assert_eq!(c.bodies[3], PHYSICS_CONTACT_TOUCHING, "{name} slot {slot}");
            assert_eq!(c.bodies[2], 4, "{name} slot {slot}");
            let normal = Vec3::from_slice(&c.normal[..3]);
            assert!(
                normal.distance(Vec3::Y * sign) < 1e-6,
                "{name}: normal {normal}"
            );
            assert!(
                (c.normal[3] - 0.01).abs() < 1e-6,
                "{name}: depth {}",
                c.normal[3]
            );
            // The cube's bottom corners, halfway between its face at 0.49 and the slab's at 0.5.
            let mut corners: Vec<[i32; 2]> = points(c)
                .iter()
                .map(|(p, depth, _)| {
                    assert!((depth - 0.01).abs() < 1e-6, "{name}: depth {depth}");
                    assert!((p.y - 0.495).abs() < 1e-6, "{name}: {p}");
                    assert!(
                        (p.x.abs() - 0.5).abs() < 1e-6 && (p.z.abs() - 0.5).abs() < 1e-6,
                        "{name}: {p}"
                    );
                    [p.x.signum() as i32, p.z.signum() as i32]
                })
                .collect();
            corners.sort();
            assert_eq!(corners, [[-1, -1], [-1, 1], [1, -1], [1, 1]], "{name}");
            let ids: Vec<u64> = points(c).iter().map(|p| p.2).collect();
            assert!(ids.windows(2).all(|w| w[0] < w[1]), "{name}: ids {ids:x?}");
        }
        // The mirror: the same points, each id with its sides swapped.
        let swap = |id: u64| id.rotate_left(32);
        let mut forward: Vec<(u64, Vec3)> = points(&records[0])
            .iter()
            .map(|p| (swap(p.2), p.0))
            .collect();
        let mut mirror: Vec<(u64, Vec3)> = points(&records[1]).iter().map(|p| (p.2, p.0)).collect();
        forward.sort_by_key(|p| p.0);
        mirror.sort_by_key(|p| p.0);
        assert_eq!(forward, mirror, "{name}");
    }
}

#[test]
fn hostile_pairs_agree_with_the_cpu_in_both_orders() {
    let shapes = vec![
        ConvexShape::cuboid(Vec3::splat(0.5)).unwrap(),
        polyhedron(8, 1.0, 7),
        polyhedron(64, 1.0, 9),
        ConvexShape::cuboid(Vec3::splat(1e-3)).unwrap(),
        ConvexShape::cuboid(Vec3::new(1.0, 1e-3, 1.0)).unwrap(),
        ConvexShape::cuboid(Vec3::new(1e-3, 1e-3, 2.0)).unwrap(),
        ConvexShape::cuboid(Vec3::splat(2.0)).unwrap(),
    ];
    let (cube, hull8, hull64, tiny, plate, needle, big) = (0, 1, 2, 3, 4, 5, 6);
    let skew = Vec3::new(1.0, 2.0, 3.0);
    let tilt = Vec3::new(1.0, 0.0, 0.3);
    let mut scene = Scene::new(shapes);
    let add = |scene: &mut Scene, a: u32, pose_a: Pose, b: u32, pose_b: Pose| {
        let i = scene.body(a, pose_a);
        let j = scene.body(b, pose_b);
        scene.both_orders(i, j);
    };
    let origin = pose(0.0, 0.0, 0.0);
    // Rotated boxes: tilted and turned face on face, corner in.
    add(
        &mut scene,
        cube,
        origin,
        cube,
        turned(0.1, 0.97, 0.05, skew, 0.03),
    );
    add(
        &mut scene,
        cube,
        origin,
        cube,
        turned(0.2, 0.98, -0.1, tilt, 0.02),
    );
    add(
        &mut scene,
        cube,
        origin,
        cube,
        turned(0.0, 1.3, 0.0, Vec3::new(1.0, 0.0, 1.0), 0.9553),
    );
    // Edge across edge: two boxes turned 45 degrees about crossing axes.
    add(
        &mut scene,
        cube,
        turned(0.0, 0.0, 0.0, Vec3::X, std::f32::consts::FRAC_PI_4),
        cube,
        turned(0.0, 1.38, 0.0, Vec3::Z, std::f32::consts::FRAC_PI_4),
    );
    // Random hulls of 8 and 64 vertices, against boxes and each other.
    add(
        &mut scene,
        hull8,
        origin,
        cube,
        turned(0.3, 0.9, 0.1, skew, 0.4),
    );
    add(
        &mut scene,
        hull64,
        origin,
        hull8,
        turned(0.5, 1.0, -0.2, tilt, 1.1),
    );
    add(
        &mut scene,
        hull64,
        origin,
        hull64,
        turned(-0.4, 0.8, 0.6, skew, 2.0),
    );
    // Tiny (1e-3) boxes, against each other and resting on a unit box.
    add(
        &mut scene,
        tiny,
        origin,
        tiny,
        turned(1e-3, 1.9e-3, 0.0, skew, 0.2),
    );
    add(&mut scene, cube, origin, tiny, pose(0.1, 0.5 + 0.9e-3, 0.2));
    // Far from the origin (1e4): resting and turned.
    add(
        &mut scene,
        cube,
        pose(1e4, 1e4, -1e4),
        cube,
        pose(1e4, 1e4 + 0.99, -1e4),
    );
    add(
        &mut scene,
        hull64,
        pose(-1e4, 5e3, 1e4),
        cube,
        turned(-1e4 + 0.4, 5e3 + 0.9, 1e4, skew, 0.7),
    );
    // Thin plates: stacked, crossed, and a needle through a plate.
    add(&mut scene, plate, origin, plate, pose(0.3, 1.5e-3, 0.2));
    add(
        &mut scene,
        plate,
        origin,
        plate,
        turned(0.0, 1e-3, 0.0, Vec3::Y, 0.7),
    );
    add(
        &mut scene,
        plate,
        origin,
        needle,
        turned(0.2, 0.0, 0.1, Vec3::X, 1.2),
    );
    // Identical and nested.
    add(&mut scene, cube, origin, cube, origin);
    add(
        &mut scene,
        hull64,
        turned(0.0, 0.0, 0.0, skew, 0.3),
        hull64,
        turned(0.0, 0.0, 0.0, skew, 0.3),
    );
    add(
        &mut scene,
        big,
        origin,
        cube,
        turned(0.1, 0.2, 0.3, skew, 0.5),
    );
    add(&mut scene, big, origin, hull8, pose(0.0, 0.0, 0.0));
    let pairs = scene.pairs.clone();
    for (name, records, check) in scene.run() {
        assert_eq!(check.failures, 0, "{name}: {}", check.summary());
        for (k, c) in records.iter().enumerate() {
            assert_eq!(c.bodies[..2], pairs[k], "{name} slot {k}");
            assert_eq!(
                c.bodies[3], PHYSICS_CONTACT_TOUCHING,
                "{name} slot {k}: {c:?}"
            );
        }
        // Both orders: the normal flips, the deepest depth and the points stay.
        for k in (0..records.len()).step_by(2) {
            let (ab, ba) = (&records[k], &records[k + 1]);
            let (n_ab, n_ba) = (
                Vec3::from_slice(&ab.normal[..3]),
                Vec3::from_slice(&ba.normal[..3]),
            );
            let scale = scene_scale(&scene, k);
            assert!(
                (ab.normal[3] - ba.normal[3]).abs() <= 1e-5 * scale,
                "{name} slot {k}"
            );
            if n_ab.dot(-n_ba) > 1.0 - 1e-5 {
                let mut p_ab: Vec<Vec3> = points(ab).iter().map(|p| p.0).collect();
                let p_ba: Vec<Vec3> = points(ba).iter().map(|p| p.0).collect();
                assert_eq!(p_ab.len(), p_ba.len(), "{name} slot {k}");
                let far = p_ab
                    .iter()
                    .map(|p| p.abs().max_element())
                    .fold(0.0, f32::max);
                let band = 1e-5 * scale + 4.0 * f32::EPSILON * far;
                p_ab.retain(|p| !p_ba.iter().any(|q| p.distance(*q) <= band));
                assert!(
                    p_ab.is_empty(),
                    "{name} slot {k}: points {p_ab:?} not mirrored in {p_ba:?}"
                );
            }
        }
    }
}

/// The larger bounding radius of the bodies of slot `k`.
fn scene_scale(scene: &Scene, k: usize) -> f32 {
    let [i, j] = scene.pairs[k];
    let radius = |b: u32| scene.shapes[scene.bodies[b as usize].shape as usize].bounding_radius();
    radius(i).max(radius(j))
}

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
}

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
    let instances: Vec<Instance> = scene
        .bodies
        .iter()
        .map(|b| Instance {
            shape: b.shape,
            pose: b.pose,
        })
        .collect();
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
