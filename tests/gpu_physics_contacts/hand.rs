//! A box resting on a slab against its hand-computed corners, and the hostile pairs against the CPU, each in both
//! orders.

use crate::scene::{points, pose, turned, Scene};
use glam::Vec3;
use gpu_gjk::gpu::physics::layout::PHYSICS_CONTACT_TOUCHING;
use gpu_gjk::sat::compare::polyhedron;
use gpu_gjk::shape::ConvexShape;
use gpu_gjk::Pose;

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
