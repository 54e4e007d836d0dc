//! `gpu-gjk query --kind manifold`: a cube resting on a slab far from the origin (its four corners), a blank
//! line, a pair apart (no points) and a bad line (its error line, exit code 2); a GPU backend is refused.

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

#[test]
fn manifolds_are_refused_on_a_gpu_backend() {
    let out = run(&["--backend", "gpu"], "");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--kind manifold runs on the CPU"),
        "{stderr}"
    );
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
