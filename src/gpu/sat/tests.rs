//! The separating axis kernel parses and validates with naga, its structs have their Rust twins' sizes, and a
//! packed hull's header points at its parts. Runs on any machine, GPU or not.

use super::pack::{hull_words, SatPairWords, SatResultWords, HULL_HEADER_WORDS};
use super::sat_source;
use crate::gpu::shader::naga_checks::{parse_and_validate, struct_size};
use crate::shape::ConvexShape;
use glam::Vec3;
use std::mem::size_of;

fn module() -> naga::Module {
    parse_and_validate("sat", &sat_source()).0
}

#[test]
fn the_kernel_validates_with_one_entry_point_and_its_structs_match_rust() {
    let module = module();
    let entries: Vec<&str> = module
        .entry_points
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(entries, ["sat_kernel"]);
    assert_eq!(
        struct_size(&module, "SatPair") as usize,
        size_of::<SatPairWords>()
    );
    assert_eq!(
        struct_size(&module, "SatResult") as usize,
        size_of::<SatResultWords>()
    );
    let header = module
        .constants
        .iter()
        .find(|(_, c)| c.name.as_deref() == Some("HULL_HEADER_WORDS"))
        .map(|(_, c)| &module.global_expressions[c.init]);
    assert!(
        matches!(header, Some(naga::Expression::Literal(naga::Literal::U32(n))) if *n as usize == HULL_HEADER_WORDS)
    );
}

#[test]
fn a_packed_box_has_its_points_planes_edges_and_graph_where_the_header_says() {
    let cube = ConvexShape::cuboid(Vec3::new(1.0, 2.0, 3.0)).unwrap();
    let hull = cube.polyhedron().unwrap();
    let words = hull_words(hull);
    let at = |k: usize| words[k] as usize;
    assert_eq!([at(0), at(1), at(2), at(3)], [8, 6, 12, 0]);
    let point =
        |i: usize| Vec3::from_array([0, 1, 2].map(|c| f32::from_bits(words[at(4) + 3 * i + c])));
    for (i, p) in hull.points.iter().enumerate() {
        assert_eq!(point(i), p.as_vec3());
    }
    let plane = |k: usize| f32::from_bits(words[at(5) + 4 * k + 3]);
    assert_eq!(plane(0), hull.planes[0].1 as f32);
    assert_eq!(
        words[at(6)..at(6) + 4],
        [
            hull.edges[0].ends[0],
            hull.edges[0].ends[1],
            hull.edges[0].faces[0],
            hull.edges[0].faces[1]
        ]
    );
    // Every corner of a box has three neighbours.
    let first = &words[at(7)..at(7) + 9];
    assert!(first.windows(2).all(|w| w[1] - w[0] == 3), "{first:?}");
    assert_eq!(at(9) - at(8), 24);
    assert_eq!(words.len(), at(9));
    assert!(at(4) >= HULL_HEADER_WORDS);
}

/// The comparison has teeth: the CPU's own answers agree, and each kind of wrong answer is counted.
#[test]
fn the_comparison_counts_wrong_flags_separations_and_normals() {
    use super::compare::compare_with_cpu;
    use super::GpuSatAnswer;
    use crate::sat::compare::polyhedral_pairs;
    use crate::sat::separating_axis;
    let owned = polyhedral_pairs(200, &[0, 8], 3);
    let pairs: Vec<_> = owned.iter().map(|p| p.input()).collect();
    let exact: Vec<GpuSatAnswer> = pairs
        .iter()
        .map(|p| GpuSatAnswer::Answered(separating_axis(p).unwrap()))
        .collect();
    let found = compare_with_cpu(&pairs, &exact);
    assert!(found.is_clean() && found.compared + found.touching_band == 200);
    assert_eq!(found.max_separation_error, 0.0);
    let overlapping = exact
        .iter()
        .position(|a| matches!(a, GpuSatAnswer::Answered(s) if s.intersecting))
        .unwrap();
    let scale = |k: usize| {
        pairs[k]
            .a
            .bounding_radius()
            .max(pairs[k].b.bounding_radius()) as f64
    };
    let mut wrong = exact.clone();
    let GpuSatAnswer::Answered(mut answer) = exact[overlapping] else {
        unreachable!()
    };
    answer.intersecting = false;
    wrong[overlapping] = GpuSatAnswer::Answered(answer);
    assert_eq!(compare_with_cpu(&pairs, &wrong).flag_disagreements.len(), 1);
    answer.intersecting = true;
    answer.separation -= 2e-5 * scale(overlapping);
    wrong[overlapping] = GpuSatAnswer::Answered(answer);
    assert_eq!(
        compare_with_cpu(&pairs, &wrong).depth_disagreements.len(),
        1
    );
    let GpuSatAnswer::Answered(mut answer) = exact[overlapping] else {
        unreachable!()
    };
    answer.normal = (answer.normal + glam::DVec3::new(0.3, -0.2, 0.1)).normalize();
    wrong[overlapping] = GpuSatAnswer::Answered(answer);
    assert_eq!(
        compare_with_cpu(&pairs, &wrong).depth_disagreements.len(),
        1
    );
    wrong[overlapping] = GpuSatAnswer::GpuLoopLimit;
    let found = compare_with_cpu(&pairs, &wrong);
    assert!(found.is_clean() && found.gpu_failures == 1);
    wrong[overlapping] = GpuSatAnswer::NotPolyhedra;
    assert_eq!(compare_with_cpu(&pairs, &wrong).flag_disagreements.len(), 1);
}
