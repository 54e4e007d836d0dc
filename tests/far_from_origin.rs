//! Small shapes far from the origin answer as they would at the origin, on every backend: `gpu-gjk query` on
//! the CPU, the OpenGL and the Vulkan backends (llvmpipe and lavapipe where there is no GPU; a backend without
//! an adapter is skipped, except under `CI=true`), each answer compared with an exact referee on the parsed
//! float64 inputs (`common::exact`: the shapes placed relative to each other in exact fixed-point sums, then
//! Wolfe's minimum-norm point of their Minkowski difference).
//!
//! Folding a shape's centre into a large position before the positions are subtracted rounds it to the
//! precision of the position: 3e-8 at 3e8, several times the touching tolerance of a 1e-3 cube. The relative
//! pose is formed from the exact differences instead (`RelativePose::between_centred`).

mod common;

use common::query_cli::query_lines;

use common::exact::{exact_offset, hull_hull};
use glam::DVec3;
use serde_json::Value;

/// The library's touching tolerance, as a fraction of the pair scale.
const TOUCH: f64 = 1e-5;
/// What a pair far from the origin keeps (docs/answers.md, "Precision far from the origin"): its distance
/// within this fraction of the pair scale of the exact distance, as at the origin.
const FAR_DISTANCE: f64 = 1e-6;

/// A point on an edge of a 1e-3 cube at 3e8: touching.
const EDGE_AT_3E8: &str = r#"{"a": {"points": [[0,0,0],[0,0,0.001],[0,0.001,0],[0,0.001,0.001],[0.001,0,0],[0.001,0,0.001],[0.001,0.001,0],[0.001,0.001,0.001]], "position": [300000000.0, -300000000.0, 300000000.0]}, "b": {"points": [[0,0,0]], "position": [300000000.0, -299999999.999, 300000000.0]}}"#;
/// A point beside a 1e-4 cube at the origin, and the same pair translated exactly to about 1e9.
const BESIDE_AT_ORIGIN: &str = r#"{"a": {"points": [[0,0,0],[0,0,0.0001],[0,0.0001,0],[0,0.0001,0.0001],[0.0001,0,0],[0.0001,0,0.0001],[0.0001,0.0001,0],[0.0001,0.0001,0.0001]], "position": [0.0, -0.0, 0.0]}, "b": {"points": [[0,0,0]], "position": [3.5762786865234375e-05, -6.127357482910156e-05, -7.486343383789062e-05]}}"#;
const BESIDE_AT_1E9: &str = r#"{"a": {"points": [[0,0,0],[0,0,0.0001],[0,0.0001,0],[0,0.0001,0.0001],[0.0001,0,0],[0.0001,0,0.0001],[0.0001,0.0001,0],[0.0001,0.0001,0.0001]], "position": [999000000.0, -999000000.0, 999000000.0]}, "b": {"points": [[0,0,0]], "position": [999000000.0000358, -999000000.0000613, 998999999.9999251]}}"#;
/// Two 1e-3 cubes written with world coordinates about 1e9 (no position), 2e-4 apart along x.
const CUBES_WRITTEN_AT_1E9: &str = r#"{"a": {"points": [[999000000.0, 999000000.0, 999000000.0], [999000000.001, 999000000.0, 999000000.0], [999000000.0, 999000000.001, 999000000.0], [999000000.0, 999000000.0, 999000000.001], [999000000.001, 999000000.001, 999000000.0], [999000000.001, 999000000.0, 999000000.001], [999000000.0, 999000000.001, 999000000.001], [999000000.001, 999000000.001, 999000000.001]]}, "b": {"points": [[999000000.0012, 999000000.0003, 999000000.0], [999000000.0022, 999000000.0003, 999000000.0], [999000000.0012, 999000000.0013, 999000000.0], [999000000.0012, 999000000.0003, 999000000.001], [999000000.0022, 999000000.0013, 999000000.0], [999000000.0022, 999000000.0003, 999000000.001], [999000000.0012, 999000000.0013, 999000000.001], [999000000.0022, 999000000.0013, 999000000.001]]}}"#;

/// Two 1e-3 cubes at one position about 1e9, their points written about their own origin, 2e-4 apart along x.
const CUBES_PLACED_AT_1E9: &str = r#"{"a": {"points": [[0,0,0],[0,0,0.001],[0,0.001,0],[0,0.001,0.001],[0.001,0,0],[0.001,0,0.001],[0.001,0.001,0],[0.001,0.001,0.001]], "position": [999000000.0, -999000000.0, 999000000.0]}, "b": {"points": [[0.0012,0.0003,0],[0.0012,0.0003,0.001],[0.0012,0.0013,0],[0.0012,0.0013,0.001],[0.0022,0.0003,0],[0.0022,0.0003,0.001],[0.0022,0.0013,0],[0.0022,0.0013,0.001]], "position": [999000000.0, -999000000.0, 999000000.0]}}"#;

const CASES: [&str; 5] = [
    EDGE_AT_3E8,
    BESIDE_AT_ORIGIN,
    BESIDE_AT_1E9,
    CUBES_WRITTEN_AT_1E9,
    CUBES_PLACED_AT_1E9,
];

fn vec3(v: &Value) -> DVec3 {
    let a: Vec<f64> = serde_json::from_value(v.clone()).unwrap();
    DVec3::new(a[0], a[1], a[2])
}

/// One side of an input line (no rotation, no radius in these cases): its points and position.
fn side(line: &Value, name: &str) -> (Vec<DVec3>, DVec3) {
    let shape = &line[name];
    assert!(shape.get("rotation").is_none() && shape.get("radius").is_none());
    let points = shape["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(vec3)
        .collect();
    let position = shape.get("position").map_or(DVec3::ZERO, vec3);
    (points, position)
}

/// The exact distance of a line's pair and its pair scale (the larger bounding radius about the middle of
/// each shape's bounding box), from the parsed float64 inputs.
fn exact_answer(line: &str) -> (f64, f64) {
    let line: Value = serde_json::from_str(line).unwrap();
    let (a_points, a_position) = side(&line, "a");
    let (b_points, b_position) = side(&line, "b");
    // Every point relative to A's first point, in exact sums rounded once: small numbers.
    let origin = [a_points[0], a_position];
    let place = |points: &[DVec3], position: DVec3| -> Vec<DVec3> {
        points
            .iter()
            .map(|p| exact_offset(&[*p, position], &origin))
            .collect()
    };
    let (a, b) = (place(&a_points, a_position), place(&b_points, b_position));
    let referee = hull_hull(&a, &b);
    assert!(referee.gap() <= 1e-12 * referee.upper.max(1e-12));
    (referee.upper, bounding_radius(&a).max(bounding_radius(&b)))
}

fn bounding_radius(points: &[DVec3]) -> f64 {
    let lo = points.iter().fold(DVec3::splat(f64::MAX), |m, p| m.min(*p));
    let hi = points.iter().fold(DVec3::splat(f64::MIN), |m, p| m.max(*p));
    let centre = (lo + hi) * 0.5;
    points
        .iter()
        .map(|p| (*p - centre).length())
        .fold(0.0, f64::max)
}

/// `query --backend BACKEND` on the cases; `None` (after printing `SKIPPED`) when the backend has no adapter.
fn run_query(backend: &str) -> Option<Vec<Value>> {
    let input = CASES.join("\n") + "\n";
    query_lines(&["--backend", backend], input)
}

/// Each answer within [`FAR_DISTANCE`] of the pair scale of the exact distance, and touching exactly when the
/// exact distance is within the touching tolerance (none of the cases is near its edge).
fn check_backend(backend: &str) {
    let Some(answers) = run_query(backend) else {
        return;
    };
    assert_eq!(answers.len(), CASES.len());
    for (case, answer) in CASES.iter().zip(&answers) {
        let (exact, scale) = exact_answer(case);
        let touching = exact <= TOUCH * scale;
        let distance = answer["distance"].as_f64().unwrap();
        let error = (distance - exact).abs() / scale;
        println!(
            "--backend {backend}: exact {exact:e}, answer {distance:e}, error {error:.2e} of the scale {scale:e}"
        );
        assert_eq!(
            answer["intersecting"].as_bool(),
            Some(touching),
            "--backend {backend}: exact distance {exact:e} (tolerance {:e}), answered {answer}",
            TOUCH * scale
        );
        if !touching {
            assert!(
                error <= FAR_DISTANCE,
                "--backend {backend}: exact distance {exact:e}, answered {distance:e}: {error:e} of the \
                 scale {scale:e}"
            );
        }
    }
}

/// The referee's answers where they are known: the point on the edge touches, the cubes placed at 1e9 are
/// 2e-4 apart (their positions cancel exactly), and the pair moved to 1e9 is the pair at the origin (the
/// translation is exact: B's offsets are whole multiples of 1e9's last place, 2^-23). The last one also
/// checks the parse: a number read a unit of its last place off (serde_json without `float_roundtrip`)
/// moves B by 1.2e-7 there.
#[test]
fn referee_answers_the_known_cases() {
    assert_eq!(exact_answer(EDGE_AT_3E8).0, 0.0);
    let (cubes, _) = exact_answer(CUBES_PLACED_AT_1E9);
    assert!((cubes - 2e-4).abs() <= 1e-18, "{cubes:e}");
    let (at_origin, _) = exact_answer(BESIDE_AT_ORIGIN);
    let (at_1e9, _) = exact_answer(BESIDE_AT_1E9);
    assert!(
        (at_origin - at_1e9).abs() <= 1e-14 * at_origin,
        "{at_origin:e} {at_1e9:e}"
    );
}

#[test]
fn cpu_answers_far_pairs_as_at_the_origin() {
    check_backend("cpu");
}

#[test]
fn gl_answers_far_pairs_as_at_the_origin() {
    check_backend("gl");
}

#[test]
fn vulkan_answers_far_pairs_as_at_the_origin() {
    check_backend("vulkan");
}
