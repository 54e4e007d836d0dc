//! The manifold kernel parses and validates with naga, its structs have their Rust twins' sizes, and a packed
//! hull's header points at its parts. Runs on any machine, GPU or not.

use super::manifold_source;
use super::pack::{hull_words, ManifoldPairWords, ManifoldResultWords};
use crate::gpu::shader::naga_checks::{parse_and_validate, struct_size};
use crate::shape::{ConvexShape, HullFaces};
use glam::Vec3;
use std::mem::size_of;

fn module() -> naga::Module {
    parse_and_validate("manifold", &manifold_source()).0
}

#[test]
fn the_kernel_validates_and_its_structs_match_rust() {
    let module = module();
    let entries: Vec<&str> = module
        .entry_points
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(entries, ["manifold_kernel"]);
    assert_eq!(
        struct_size(&module, "ManifoldPair") as usize,
        size_of::<ManifoldPairWords>()
    );
    assert_eq!(
        struct_size(&module, "ManifoldResult") as usize,
        size_of::<ManifoldResultWords>()
    );
    assert_eq!(struct_size(&module, "ManifoldParams"), 16);
}

#[test]
fn a_packed_box_has_its_points_faces_and_loops_where_the_header_says() {
    let cube = ConvexShape::cuboid(Vec3::new(1.0, 2.0, 3.0)).unwrap();
    let HullFaces::Faces(faces) = cube.faces() else {
        panic!("a box has faces")
    };
    let words = hull_words(&cube, faces);
    let [points, face_count, points_at, faces_at, loops_at] =
        [0, 1, 2, 3, 4].map(|i| words[i] as usize);
    assert_eq!((points, face_count), (8, faces.len()));
    assert_eq!(faces_at, points_at + 3 * 8);
    assert_eq!(loops_at, faces_at + 5 * faces.len());
    let loop_words: usize = faces.iter().map(|f| f.vertices.len()).sum();
    assert_eq!(words.len(), loops_at + loop_words);
    for (k, face) in faces.iter().enumerate() {
        let at = faces_at + 5 * k;
        let normal = Vec3::new(
            f32::from_bits(words[at]),
            f32::from_bits(words[at + 1]),
            f32::from_bits(words[at + 2]),
        );
        assert_eq!(normal, face.normal.as_vec3());
        let (start, count) = (words[at + 3] as usize, words[at + 4] as usize);
        assert_eq!(
            &words[loops_at + start..loops_at + start + count],
            &face.vertices[..]
        );
    }
    let first = cube.local_points().next().unwrap();
    let packed = Vec3::new(
        f32::from_bits(words[points_at]),
        f32::from_bits(words[points_at + 1]),
        f32::from_bits(words[points_at + 2]),
    );
    assert_eq!(packed, first);
}
