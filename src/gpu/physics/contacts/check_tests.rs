//! `check_contacts` on records made on the CPU: the CPU's own contact agrees, and each kind of wrong record is a
//! described disagreement. Runs on any machine, GPU or not.

use super::{check_contacts, PHYSICS_CONTACT_LOOP_LIMIT};
use crate::gpu::physics::layout::{
    GpuPhysicsContact, PHYSICS_CONTACT_NONE, PHYSICS_CONTACT_TOUCHING,
};
use crate::manifold::manifold;
use crate::physics::RigidBody;
use crate::pose::Pose;
use crate::query::{PairInput, Precision, QueryOptions};
use crate::shape::ConvexShape;
use glam::{Quat, Vec3};

/// A box tilted into a box far from the origin, and the record `physics::collide` would make of its manifold.
fn scene() -> (Vec<ConvexShape>, Vec<RigidBody>, GpuPhysicsContact) {
    let shapes = vec![ConvexShape::cuboid(Vec3::splat(0.5)).unwrap()];
    let at = Vec3::new(1e4, 0.0, -1e4);
    let tilt = Quat::from_axis_angle(Vec3::new(1.0, 0.0, 0.3).normalize(), 0.2);
    let bodies = vec![
        RigidBody::new(0, &shapes[0], Pose::from_position(at), 1.0),
        RigidBody::new(
            0,
            &shapes[0],
            Pose::new(at + Vec3::new(0.1, 0.95, 0.0), tilt),
            1.0,
        ),
    ];
    let input = PairInput::new(&shapes[0], bodies[0].pose, &shapes[0], bodies[1].pose);
    let options = QueryOptions {
        precision: Precision::Float64,
        ..QueryOptions::default()
    };
    let found = manifold(&input, options);
    let mut points: Vec<_> = found.points.clone();
    points.sort_by_key(|p| p.id.packed());
    let mut record = GpuPhysicsContact {
        bodies: [0, 1, points.len() as u32, PHYSICS_CONTACT_TOUCHING],
        ..GpuPhysicsContact::default()
    };
    let deepest = points.iter().map(|p| p.depth).fold(f64::MIN, f64::max);
    record.normal = found.normal.as_vec3().extend(deepest as f32).to_array();
    for (k, p) in points.iter().enumerate() {
        let middle = ((p.point_a + p.point_b) * 0.5).as_vec3();
        record.points[k] = middle.extend(p.depth as f32).to_array();
        record.set_id(k, p.id.packed());
    }
    (shapes, bodies, record)
}

#[test]
fn the_cpus_own_contact_agrees() {
    let (shapes, bodies, record) = scene();
    assert!(record.point_count() >= 2);
    let check = check_contacts(&shapes, &bodies, &[record]);
    assert!(check.is_clean(), "{}", check.summary());
    assert_eq!((check.checked, check.agreed), (1, 1));
}

#[test]
fn wrong_records_are_described_disagreements() {
    let (shapes, bodies, record) = scene();
    // 1e4 from the origin the record's float32 coordinates are good to about 1e-3, which the check allows.
    let mut moved = record;
    moved.points[0][0] += 1e-2;
    let mut shallow = record;
    for k in 0..shallow.point_count() {
        shallow.points[k][3] *= 0.5;
    }
    shallow.normal[3] *= 0.5;
    let mut flipped = record;
    for v in &mut flipped.normal[..3] {
        *v = -*v;
    }
    let mut unordered = record;
    unordered.points.swap(0, 1);
    let (id0, id1) = (record.id(0), record.id(1));
    unordered.set_id(0, id1);
    unordered.set_id(1, id0);
    let mut none = record;
    none.bodies[2] = 0;
    none.bodies[3] = PHYSICS_CONTACT_NONE;
    let mut still = record;
    still.bodies[2] = 0;
    still.bodies[3] = PHYSICS_CONTACT_NONE;
    let mut static_bodies = bodies.clone();
    static_bodies[0].inverse_mass = 0.0;
    static_bodies[1].asleep = true;
    let wrong = [moved, shallow, flipped, unordered, none];
    let check = check_contacts(&shapes, &bodies, &wrong);
    assert_eq!(
        (check.checked, check.disagreements, check.described.len()),
        (5, 5, 5),
        "{}",
        check.summary()
    );
    assert!(
        check.described[0].contains("bodies (0, 1)"),
        "{}",
        check.described[0]
    );
    assert!(
        check.described[3].contains("order"),
        "{}",
        check.described[3]
    );
    assert!(
        check.described[4].contains("CPU penetrating"),
        "{}",
        check.described[4]
    );
    // Neither body moving: only no contact agrees.
    let check = check_contacts(&shapes, &static_bodies, &[record, still]);
    assert_eq!(
        (check.agreed, check.disagreements),
        (1, 1),
        "{}",
        check.summary()
    );
    // A failure code is counted apart, never compared.
    let failed = GpuPhysicsContact {
        bodies: [0, 1, 0, PHYSICS_CONTACT_LOOP_LIMIT],
        ..GpuPhysicsContact::default()
    };
    let check = check_contacts(&shapes, &bodies, &[failed]);
    assert_eq!((check.failures, check.disagreements), (1, 0));
}
