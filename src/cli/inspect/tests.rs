//! `inspect`'s trace on random pairs, in process: the trace ends on `query`'s answer (distance, status,
//! iteration count), every simplex point is the difference of a point of A and a point of B, and GJK's upper
//! bound never grows. `tests/cli_inspect.rs` runs the command itself on a sample of lines.

use super::{inspect_pair, trace_value};
use crate::io::batch::query_pair;
use crate::io::jsonl::{pair_line, parse_line, PairInput};
use crate::pose::{CentredPose, DPose};
use crate::query::AnswerKind;
use crate::scenario::{random_scene, MixSpec};
use glam::DVec3;
use serde_json::Value;

/// Random pairs (every shape kind, hull clouds with interior points, touching to far apart) as `query` lines.
fn random_lines(seed: u64, count: usize) -> Vec<String> {
    let scene = random_scene(seed, count, &MixSpec::default());
    scene
        .pairs
        .iter()
        .map(|&[i, j]| {
            let (a, b) = (&scene.instances[i as usize], &scene.instances[j as usize]);
            pair_line(
                &scene.shapes[a.shape as usize],
                &a.pose.to_f64(),
                &scene.shapes[b.shape as usize],
                &b.pose.to_f64(),
            )
        })
        .collect()
}

fn vec3(v: &Value) -> DVec3 {
    let c: Vec<f64> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    DVec3::new(c[0], c[1], c[2])
}

/// World vertices of one placed shape.
fn vertices(pair: &PairInput, which_a: bool) -> Vec<DVec3> {
    let placed = if which_a { &pair.a } else { &pair.b };
    placed
        .shape
        .local_points()
        .map(|p| placed.pose.folded().transform_point(p.as_dvec3()))
        .collect()
}

/// The three properties, on one trace; `answer` is `query`'s output object for the same line.
fn check_trace(pair: &PairInput, trace: &Value, answer: &Value, what: &str) {
    assert_eq!(
        &trace["answer"], answer,
        "{what}: the trace ends on query's answer"
    );
    let gjk = trace["gjk"].as_array().unwrap();
    let last = gjk.last().unwrap();
    assert_eq!(last["status"], answer["status"], "{what}");
    assert_eq!(last["iteration"], answer["iterations"], "{what}");
    assert_eq!(
        gjk.len() as u64,
        answer["iterations"].as_u64().unwrap() + 1,
        "{what}"
    );
    let distance = answer["distance"].as_f64().unwrap();
    let scale = f64::from(
        pair.a
            .shape
            .bounding_radius()
            .max(pair.b.shape.bounding_radius()),
    );
    // Equal bits for float32 answers; a float64 repeat's answer is printed rounded to float32.
    assert!(
        (last["distance"].as_f64().unwrap() - distance).abs() <= 1e-6 * scale.max(distance),
        "{what}: trace distance {} against query's {distance}",
        last["distance"]
    );

    let (a_points, b_points) = (vertices(pair, true), vertices(pair, false));
    let reach = pair
        .a
        .pose
        .folded()
        .position
        .length()
        .max(pair.b.pose.folded().position.length())
        + scale;
    // A point of a shape's core: one of its vertices, or for a segment core (capsules) a point of the segment,
    // where the closed form for point and segment cores finds the closest points (in float32, hence the
    // looser bound for A there).
    let near = |p: DVec3, set: &[DVec3]| {
        if let [s, e] = set {
            let t = ((p - *s).dot(*e - *s) / (*e - *s).length_squared().max(f64::MIN_POSITIVE))
                .clamp(0.0, 1.0);
            return (*s + (*e - *s) * t - p).length();
        }
        set.iter()
            .map(|v| (*v - p).length())
            .fold(f64::MAX, f64::min)
    };
    let a_bound = if a_points.len() == 2 { 2e-6 } else { 1e-9 };
    let mut upper = f64::INFINITY;
    for (k, it) in gjk.iter().enumerate() {
        let support = std::iter::once(&it["support"]);
        for point in it["simplex"].as_array().unwrap().iter().chain(support) {
            let (a, b, w) = (vec3(&point["a"]), vec3(&point["b"]), vec3(&point["w"]));
            // A's points go through A's own pose only (exact); B's through the float32 relative pose.
            assert!(
                near(a, &a_points) <= a_bound * reach,
                "{what} it {k}: {a} is no point of A"
            );
            assert!(
                near(b, &b_points) <= 2e-6 * reach,
                "{what} it {k}: {b} is no point of B"
            );
            assert!(
                (a - b - w).length() <= 1e-6 * reach,
                "{what} it {k}: {w} is not {a} - {b}"
            );
        }
        let (lower, this_upper) = (
            it["lower_bound"].as_f64().unwrap(),
            it["upper_bound"].as_f64().unwrap(),
        );
        assert!(
            this_upper <= upper,
            "{what} it {k}: the upper bound grew from {upper} to {this_upper}"
        );
        assert!(
            lower <= this_upper + 1e-6 * scale,
            "{what} it {k}: bounds crossed, {lower} > {this_upper}"
        );
        upper = this_upper;
    }
}

#[test]
fn traces_of_random_pairs_end_on_the_query_answer_with_valid_simplices_and_bounds() {
    let lines = random_lines(41, 3000);
    let (mut separated, mut intersecting, mut epa, mut repeats) = (0, 0, 0, 0);
    for (i, line) in lines.iter().enumerate() {
        let pair = parse_line(line.as_bytes()).unwrap();
        let (r, hit) = query_pair(&pair, AnswerKind::Penetration);
        let mut out = Vec::new();
        crate::io::answers::write_result(&mut out, &r, hit.as_ref()).unwrap();
        let answer: Value = serde_json::from_slice(&out).unwrap();
        let inspected = inspect_pair(i + 1, pair.clone());
        let trace = trace_value(&inspected).unwrap();
        check_trace(&pair, &trace, &answer, &format!("line {}", i + 1));
        separated += usize::from(answer["status"] == "separated");
        intersecting += usize::from(answer["status"] == "intersecting");
        epa += usize::from(!trace["epa"].as_array().unwrap().is_empty());
        repeats += usize::from(trace["runs"].as_array().unwrap().len() > 1);
    }
    eprintln!("{separated} separated, {intersecting} intersecting, {epa} through EPA, {repeats} float64 repeats");
    assert!(
        separated > 500 && intersecting > 500 && epa > 300,
        "a mix of answers"
    );
}

/// Points inside needles 1e-4 to 1e-3 of their length thick: float32 cannot certify some of them, and the
/// trace then holds the float64 repeat, whose answer is the one `query` prints.
#[test]
fn float64_repeats_are_traced_and_answer() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
    let mut repeats = 0;
    for k in 0..400 {
        let t: f64 = 10f64.powf(rng.random_range(-4.0..-3.0));
        let (x, y, z) = (
            rng.random_range(-0.9..0.9),
            rng.random_range(-0.9..0.9) * t,
            0.3 * t,
        );
        let angle: f64 = rng.random_range(0.0..6.0);
        let (s, c) = (0.5 * angle).sin_cos();
        let line = format!(
            "{{\"a\": {{\"points\": [[{x}, {y}, {z}]]}}, \"b\": {{\"points\": [[-1, {m}, {m}], [1, {m}, {m}], \
             [-1, {t}, {m}], [1, {t}, {m}], [-1, {m}, {t}], [1, {m}, {t}], [-1, {t}, {t}], [1, {t}, {t}]], \
             \"rotation\": [{s}, 0, 0, {c}]}}}}",
            m = -t,
        );
        // The point is given in the needle's frame; rotate it with the needle.
        let mut pair = parse_line(line.as_bytes()).unwrap();
        let point = pair.a.pose.folded();
        let turned = DPose {
            position: pair.b.pose.pose.rotation * point.position,
            rotation: point.rotation,
        };
        pair.a.pose = CentredPose::new(turned, DVec3::ZERO);
        let (r, hit) = query_pair(&pair, AnswerKind::Penetration);
        let mut out = Vec::new();
        crate::io::answers::write_result(&mut out, &r, hit.as_ref()).unwrap();
        let answer: Value = serde_json::from_slice(&out).unwrap();
        let trace = trace_value(&inspect_pair(k + 1, pair.clone())).unwrap();
        check_trace(&pair, &trace, &answer, &format!("needle {k}"));
        let runs = trace["runs"].as_array().unwrap();
        if runs.len() > 1 {
            repeats += 1;
            assert_eq!(runs[1]["precision"], "float64");
        }
    }
    eprintln!("{repeats} float64 repeats in 400 needles");
    assert!(repeats > 0, "no needle needed the float64 repeat");
}
