//! The CPU fuzz tests: one per generator family, every pair through every CPU entry point in both orders
//! (and its twin, for the family that has one), judged by [`crate::checks::check_case`]. The name given to
//! `fuzz_cases` fixes the CI seed.

use crate::generators::{far_from_origin, near_limit, needles, slabs, special};
use crate::runner::fuzz_cases;

#[test]
fn thin_slabs_against_points_spheres_and_boxes_match_the_exact_answer_in_both_orders() {
    fuzz_cases("thin slabs", slabs::pairs(), 50_000);
}

#[test]
fn needles_against_points_spheres_and_boxes_match_the_exact_answer_in_both_orders() {
    fuzz_cases("needles", needles::pairs(), 50_000);
}

#[test]
fn shapes_written_far_from_their_local_origin_answer_like_the_same_shapes_placed_there() {
    fuzz_cases(
        "far from the local origin",
        far_from_origin::pairs(),
        25_000,
    );
}

#[test]
fn boxes_and_positions_near_the_coordinate_limit_match_the_exact_answer_in_both_orders() {
    fuzz_cases("near the coordinate limit", near_limit::pairs(), 50_000);
}

#[test]
fn identical_nested_tiny_and_huge_shapes_match_the_exact_answer_in_both_orders() {
    fuzz_cases("identical, nested, tiny and huge", special::pairs(), 50_000);
}
