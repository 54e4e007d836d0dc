//! The contact kernel parses, validates and translates with naga, its structs have their Rust twins' sizes, and
//! the shapes it cannot take are refused by name. Runs on any machine, GPU or not; the GPU runs are
//! `tests/gpu_physics_contacts/`.

use super::shapes::pack_shapes;
use super::{contacts_source, ContactParams};
use crate::gpu::physics::layout::{GpuPhysicsBody, GpuPhysicsContact};
use crate::gpu::shader::naga_checks::{
    parse_and_validate, struct_size, translate_to_spirv_and_glsl,
};
use crate::gpu::GpuError;
use crate::shape::ConvexShape;
use glam::Vec3;
use std::mem::size_of;

#[test]
fn the_kernel_validates_translates_and_its_structs_match_rust() {
    let source = contacts_source();
    let (module, info) = parse_and_validate("physics_contacts", &source);
    let entries: Vec<&str> = module
        .entry_points
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(entries, ["physics_contacts"]);
    assert_eq!(
        struct_size(&module, "PhysicsBody") as usize,
        size_of::<GpuPhysicsBody>()
    );
    assert_eq!(
        struct_size(&module, "PhysicsContact") as usize,
        size_of::<GpuPhysicsContact>()
    );
    assert_eq!(
        struct_size(&module, "ContactParams") as usize,
        size_of::<ContactParams>()
    );
    translate_to_spirv_and_glsl(&module, &info, "physics_contacts");
}

/// The shape index and the reason of a refusal.
fn refusal(shapes: &[ConvexShape]) -> (usize, String) {
    match pack_shapes(shapes) {
        Err(GpuError::UnsupportedShape { shape, reason }) => (shape, reason),
        Err(other) => panic!("refused otherwise: {other}"),
        Ok(_) => panic!("not refused"),
    }
}

#[test]
fn shapes_the_kernel_cannot_take_are_refused_by_index_and_reason() {
    let cube = ConvexShape::cuboid(Vec3::splat(0.5)).unwrap();
    let sphere = ConvexShape::sphere(0.5).unwrap();
    let rounded = ConvexShape::new(cube.local_points().collect(), 0.1).unwrap();
    let square = ConvexShape::new(
        vec![
            Vec3::new(-1.0, 0.0, -1.0),
            Vec3::new(1.0, 0.0, -1.0),
            Vec3::new(1.0, 0.0, 1.0),
            Vec3::new(-1.0, 0.0, 1.0),
        ],
        0.0,
    )
    .unwrap();
    // A prism over a 40-gon: its two caps have 40 vertices each, beyond the clipped polygon's 32.
    let ring: Vec<Vec3> = (0..40)
        .flat_map(|k| {
            let angle = k as f32 * std::f32::consts::TAU / 40.0;
            let (s, c) = angle.sin_cos();
            [Vec3::new(c, -0.5, s), Vec3::new(c, 0.5, s)]
        })
        .collect();
    let prism = ConvexShape::hull(&ring, 0.0).unwrap();

    let (shape, reason) = refusal(&[cube.clone(), sphere]);
    assert_eq!(shape, 1);
    assert!(reason.contains("radius"), "{reason}");
    let (shape, reason) = refusal(&[cube.clone(), cube.clone(), rounded]);
    assert_eq!(shape, 2);
    assert!(reason.contains("radius"), "{reason}");
    let (shape, reason) = refusal(&[square, cube.clone()]);
    assert_eq!(shape, 0);
    assert!(reason.contains("without faces"), "{reason}");
    let (shape, reason) = refusal(&[cube.clone(), prism]);
    assert_eq!(shape, 1);
    assert!(reason.contains("40 vertices"), "{reason}");
    assert!(matches!(pack_shapes(&[]), Err(GpuError::BadIndex(_))));

    let packed = pack_shapes(&[cube.clone(), cube]).unwrap();
    assert_eq!(packed.table.len(), 2);
    assert_eq!(packed.table[0][..2], [0, 0]);
    assert_eq!(packed.table[1][0] as usize, packed.poly.len() / 2);
    assert_eq!(packed.table[1][1] as usize, packed.faces.len() / 2);
}
