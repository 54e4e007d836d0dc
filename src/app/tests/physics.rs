//! The stress test's physics response: R's cycle, and the scene's bodies falling onto the floor and settling.

use crate::app::physics::{ResponseMode, StressPhysics};
use crate::shape::ConvexShape;
use crate::stress::{StressScene, StressSpec};
use glam::Vec3;

#[test]
fn r_cycles_off_push_apart_physics() {
    let mut mode = ResponseMode::default();
    let mut seen = Vec::new();
    for _ in 0..4 {
        seen.push(mode.label());
        mode = mode.next();
    }
    assert_eq!(seen, ["off", "push-apart", "physics", "off"]);
}

#[test]
fn the_scene_falls_onto_the_floor_settles_and_stays_inside_the_walls() {
    let templates = vec![
        ConvexShape::cuboid(Vec3::ONE).unwrap(),
        ConvexShape::sphere(1.0).unwrap(),
        ConvexShape::cylinder(1.0, 1.0, 16).unwrap(),
    ];
    let mut scene = StressScene::new(
        templates,
        StressSpec {
            bodies: 150,
            ..StressSpec::default()
        },
    )
    .unwrap();
    scene.make_player(0);
    let player = scene.bodies[0].pose;
    let h = scene.half_extent;
    let mean_height = |s: &StressScene| {
        s.bodies.iter().map(|b| b.pose.position.y).sum::<f32>() / s.bodies.len() as f32
    };
    let before = mean_height(&scene);
    let mut physics = StressPhysics::new(&scene, None);
    let mut energy = Vec::new();
    for _ in 0..600 {
        let stats = physics.step(&mut scene, 1.0 / 60.0).unwrap();
        assert_eq!(stats.steps, 1);
        energy.push(stats.kinetic_energy);
    }
    let peak = energy.iter().copied().fold(0.0, f32::max);
    let last = *energy.last().unwrap();
    assert!(last < 1e-3 * peak, "kinetic energy {last}, peak {peak}");
    assert!(
        mean_height(&scene) < before - 0.3 * h,
        "mean height {} from {before}",
        mean_height(&scene)
    );
    // The player's shape is static: it held its place.
    assert_eq!(scene.bodies[0].pose, player);
    let contacts = &physics.world().contacts;
    assert!(!contacts.is_empty());
    for (k, body) in scene.bodies.iter().enumerate() {
        let p = body.pose.position;
        assert!(
            p.y > -h && p.x.abs() < h && p.z.abs() < h,
            "body {k} at {p}, box half extent {h}"
        );
    }
}

#[test]
fn the_response_row_says_where_physics_ran_and_why_not_on_the_gpu() {
    use crate::app::physics::{describe, PhysicsStats};
    let gpu = PhysicsStats {
        contacts: 12,
        points: 30,
        on_gpu: true,
        contacts_checked: 64,
        contacts_disputed: 1,
        contacts_failed: 2,
        ..PhysicsStats::default()
    };
    let row = describe(ResponseMode::Physics, None, Some(gpu), None);
    assert!(
        row.starts_with("physics on the GPU, 12 contacts, 30 points")
            && row.ends_with("64 contacts checked, 1 disputed, 2 given up"),
        "{row}"
    );
    let cpu = PhysicsStats {
        on_gpu: false,
        ..gpu
    };
    let reason =
        "shape 1 has 504 faces, beyond the 128 the GPU contact pass's separating axis test takes";
    let row = describe(ResponseMode::Physics, None, Some(cpu), Some(reason));
    assert!(
        row.starts_with("physics on the CPU, 12 contacts")
            && !row.contains("checked")
            && row.ends_with(&format!("(not on the GPU: {reason})")),
        "{row}"
    );
    assert_eq!(
        describe(ResponseMode::Off, None, None, Some(reason)),
        "off (R cycles push-apart, physics)"
    );
}
