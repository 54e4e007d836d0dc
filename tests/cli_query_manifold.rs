//! `gpu-gjk query --kind manifold`: a cube resting on a slab far from the origin (its four corners), a blank
//! line, a pair apart (no points) and a bad line (its error line, exit code 2); a GPU backend's manifolds match
//! the CPU's (columnar batches: `tests/cli_query_manifold_columnar.rs`).

mod common;

use common::query_cli::query_lines;
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

const CUBE: &str = "[[-0.5,-0.5,-0.5],[0.5,-0.5,-0.5],[-0.5,0.5,-0.5],[0.5,0.5,-0.5],[-0.5,-0.5,0.5],[0.5,-0.5,0.5],\
                    [-0.5,0.5,0.5],[0.5,0.5,0.5]]";
const SLAB: &str =
    "[[-2,-0.5,-2],[2,-0.5,-2],[-2,0.5,-2],[2,0.5,-2],[-2,-0.5,2],[2,-0.5,2],[-2,0.5,2],[2,0.5,2]]";

fn run(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .args(["query", "--kind", "manifold"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start gpu-gjk");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn manifold_lines_answer_every_input_line() {
    let input = format!(
        "{{\"a\": {{\"points\": {SLAB}, \"position\": [1e8, 0, 0]}}, \"b\": {{\"points\": {CUBE}, \
         \"position\": [1e8, 0.99, 0]}}}}\n\n\
         {{\"a\": {{\"points\": [[0,0,0]], \"radius\": 1}}, \"b\": {{\"points\": [[0,0,0]], \"radius\": 1, \
         \"position\": [5, 0, 0]}}}}\n\
         {{\"a\": {{\"points\": [[0,0,0]], \"radius\": -1}}, \"b\": {{\"points\": [[0,0,0]]}}}}\n"
    );
    let out = run(&["--backend", "cpu"], &input);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    let resting: Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(resting["status"], "penetrating");
    assert_eq!(resting["normal"], serde_json::json!([0.0, 1.0, 0.0]));
    let points = resting["points"].as_array().unwrap();
    assert_eq!(points.len(), 4);
    for p in points {
        assert!((p["depth"].as_f64().unwrap() - 0.01).abs() < 1e-6, "{p}");
        let b = p["point_b"].as_array().unwrap();
        // The cube's bottom corners, 0.5 either side of x = 1e8, kept to the digit far from the origin.
        assert!((b[0].as_f64().unwrap() - 1e8).abs() == 0.5, "{p}");
        assert!((b[1].as_f64().unwrap() - 0.49).abs() < 1e-6, "{p}");
        assert!(p["feature_id"].as_u64().is_some(), "{p}");
    }
    assert_eq!(lines[1], "");
    let apart: Value = serde_json::from_str(lines[2]).unwrap();
    assert_eq!(apart["status"], "separated");
    assert_eq!(apart["points"], serde_json::json!([]));
    assert!(
        lines[3].starts_with("{\"error\": \"line 4: a.radius"),
        "{}",
        lines[3]
    );
}

/// A tilted cube on a slab far from the origin, turned boxes corner in, a sphere on a cube (answered on the
/// CPU) and a pair apart: on each GPU backend the same statuses, point counts and feature ids as the CPU's, the
/// points and depths within the GPU manifolds' band (1e-5 of the pair's scale, here 3e-5 absolute).
#[test]
fn manifolds_on_a_gpu_backend_match_the_cpus() {
    let input = format!(
        "{{\"a\": {{\"points\": {SLAB}, \"position\": [1e6, 0, 0]}}, \"b\": {{\"points\": {CUBE}, \
         \"position\": [1e6, 0.98, 0.1], \"rotation\": [0.01, 0, 0.004, 1]}}}}\n\
         {{\"a\": {{\"points\": {CUBE}}}, \"b\": {{\"points\": {CUBE}, \"position\": [0.9, 0.6, 0.1], \
         \"rotation\": [0.1, 0.2, 0.3, 0.9]}}}}\n\
         {{\"a\": {{\"points\": [[0,0,0]], \"radius\": 0.5}}, \"b\": {{\"points\": {CUBE}, \
         \"position\": [0, 0.9, 0]}}}}\n\
         {{\"a\": {{\"points\": {CUBE}}}, \"b\": {{\"points\": {CUBE}, \"position\": [0, 2, 0]}}}}\n"
    );
    let cpu = query_lines(&["--kind", "manifold", "--backend", "cpu"], input.clone()).unwrap();
    assert_eq!(cpu.len(), 4);
    assert_eq!(cpu[0]["points"].as_array().unwrap().len(), 4);
    for backend in ["gl", "vulkan"] {
        let Some(gpu) = query_lines(&["--kind", "manifold", "--backend", backend], input.clone())
        else {
            continue;
        };
        assert_eq!(gpu.len(), cpu.len(), "{backend}");
        for (g, c) in gpu.iter().zip(&cpu) {
            assert_eq!(g["status"], c["status"], "{backend}: {g} against {c}");
            let (gp, cp) = (
                g["points"].as_array().unwrap(),
                c["points"].as_array().unwrap(),
            );
            assert_eq!(gp.len(), cp.len(), "{backend}: {g} against {c}");
            for p in gp {
                let q = cp
                    .iter()
                    .find(|q| q["feature_id"] == p["feature_id"])
                    .unwrap_or_else(|| panic!("{backend}: {p} not among {c}"));
                let near = |x: &Value, y: &Value| {
                    (x.as_f64().unwrap() - y.as_f64().unwrap()).abs() <= 3e-5
                };
                assert!(near(&p["depth"], &q["depth"]), "{backend}: {p} against {q}");
                for side in ["point_a", "point_b"] {
                    for axis in 0..3 {
                        assert!(
                            near(&p[side][axis], &q[side][axis]),
                            "{backend}: {p} against {q}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn manifold_lines_carry_the_pairs_ids_first() {
    let input = "{\"id\": 7, \"a\": {\"points\": [[0,0,0]], \"radius\": 1}, \"b\": {\"points\": [[0,0,0]], \
                 \"radius\": 1, \"position\": [1.5, 0, 0]}}\n\
                 {\"id\": \"bad-one\", \"a\": {\"points\": [[0,0,0]], \"radius\": -1}, \"b\": {\"points\": [[0,0,0]]}}\n";
    let out = run(&["--backend", "cpu"], input);
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("{\"id\": 7, \"status\": \"penetrating\""),
        "{text}"
    );
    let answer: Value = serde_json::from_str(lines[0]).unwrap();
    assert!(
        answer["points"][0]["feature_id"].as_u64().is_some(),
        "{text}"
    );
    assert!(
        lines[1].starts_with("{\"id\": \"bad-one\", \"error\": \"line 2: "),
        "{text}"
    );
}
