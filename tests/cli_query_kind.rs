//! `gpu-gjk query --kind`: the same pairs asked for penetration (the default), distance or the intersection
//! flag. Every kind gives the same flag; distance and penetration the same distance; only penetration prints
//! the depth fields. Runs on the CPU backend.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

/// A box pair apart (distance 1), a box pair overlapping by 0.5, and a sphere against a capsule apart by 0.5.
const PAIRS: &str = concat!(
    r#"{"a": {"points": [[-1,-1,-1],[1,-1,-1],[-1,1,-1],[1,1,-1],[-1,-1,1],[1,-1,1],[-1,1,1],[1,1,1]]}, "#,
    r#""b": {"points": [[-1,-1,-1],[1,-1,-1],[-1,1,-1],[1,1,-1],[-1,-1,1],[1,-1,1],[-1,1,1],[1,1,1]], "position": [3, 0, 0]}}"#,
    "\n",
    r#"{"a": {"points": [[-1,-1,-1],[1,-1,-1],[-1,1,-1],[1,1,-1],[-1,-1,1],[1,-1,1],[-1,1,1],[1,1,1]]}, "#,
    r#""b": {"points": [[-1,-1,-1],[1,-1,-1],[-1,1,-1],[1,1,-1],[-1,-1,1],[1,-1,1],[-1,1,1],[1,1,1]], "position": [1.5, 0, 0]}}"#,
    "\n",
    r#"{"a": {"points": [[0,0,0]], "radius": 1.0}, "b": {"points": [[0,-1,0],[0,1,0]], "radius": 0.5, "position": [2.0, 0, 0]}}"#,
    "\n",
);

fn query(args: &[&str]) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .args(["query", "--backend", "cpu"])
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
        .write_all(PAIRS.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn number(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} in {v}"))
}

#[test]
fn every_kind_answers_its_fields_and_the_same_flags() {
    let default = query(&[]);
    let penetration = query(&["--kind", "penetration"]);
    let distance = query(&["--kind", "distance"]);
    let intersection = query(&["--kind", "intersection"]);
    assert_eq!(default, penetration, "penetration is the default");
    let flags = [false, true, false];
    for lines in [&penetration, &distance, &intersection] {
        assert_eq!(lines.len(), 3);
        for (line, flag) in lines.iter().zip(flags) {
            assert_eq!(line["intersecting"], Value::Bool(flag), "{line}");
        }
    }
    for (k, expected) in [(0, 1.0), (1, 0.0), (2, 0.5)] {
        for lines in [&penetration, &distance] {
            let d = number(&lines[k], "distance");
            assert!((d - expected).abs() < 1e-6, "pair {k}: {d}");
        }
    }
    // Depth and contacts only where asked for and overlapping: 0.5 of overlap along x.
    assert!((number(&penetration[1], "depth") - 0.5).abs() < 1e-6);
    assert_eq!(penetration[0]["penetration_status"], "separated");
    for lines in [&distance, &intersection] {
        for line in lines.iter() {
            for key in ["penetration_status", "depth", "contact_a", "contact_b"] {
                assert!(line.get(key).is_none(), "{key} in {line}");
            }
        }
    }
}

#[test]
fn an_unknown_kind_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .args(["query", "--backend", "cpu", "--kind", "depth"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--kind"), "{stderr}");
}
