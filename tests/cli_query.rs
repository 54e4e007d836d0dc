//! End-to-end tests of `gpu-gjk query`: the binary is run with JSON Lines on stdin.

use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

struct Run {
    code: i32,
    stdout: String,
    /// stderr without the backend notice, which `--backend auto` prints when it settles on the CPU.
    stderr: String,
    notices: Vec<String>,
}

/// Runs `query` on the CPU unless the test picks a backend itself: a command that creates a GPU instance
/// may get lines on stderr from system libraries (Mesa prints `XDG_RUNTIME_DIR is invalid` on a machine
/// without a login session), and no test may depend on what a system library prints. The tests that pick
/// `auto` or a GPU backend check only the lines this program prints.
fn run(args: &[&str], stdin: &str) -> Run {
    if args.contains(&"--backend") {
        run_raw(args, stdin)
    } else {
        let mut with_cpu = vec!["--backend", "cpu"];
        with_cpu.extend_from_slice(args);
        run_raw(&with_cpu, stdin)
    }
}

impl Run {
    /// The output lines, each parsed as JSON.
    fn lines(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad output {l:?}: {e}")))
            .collect()
    }
}

fn run_raw(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .arg("query")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start gpu-gjk");
    let mut input = child.stdin.take().unwrap();
    let text = stdin.to_owned();
    // Written from a thread so a large output cannot block the child while we are still writing.
    let writer = std::thread::spawn(move || input.write_all(text.as_bytes()));
    let out = child.wait_with_output().unwrap();
    // A command that refuses its arguments (an unwritable --output) exits before reading its input.
    if let Err(e) = writer.join().unwrap() {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "writing stdin: {e}"
        );
    }
    let stderr = String::from_utf8(out.stderr).unwrap();
    let (notices, rest): (Vec<&str>, Vec<&str>) =
        stderr.lines().partition(|l| l.starts_with("notice: "));
    Run {
        code: out.status.code().expect("exit code"),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: rest.iter().map(|l| format!("{l}\n")).collect(),
        notices: notices.iter().map(|l| l.to_string()).collect(),
    }
}

#[test]
fn auto_backend_prints_at_most_one_notice_and_cpu_none() {
    let input = format!("{}\n{}\n", boxes(3.0), boxes(1.5));
    let auto = run(&["--backend", "auto"], &input);
    assert_eq!(auto.code, 0, "{}", auto.stderr);
    assert!(auto.notices.len() <= 1, "{:?}", auto.notices);
    let cpu = run(&["--backend", "cpu"], &input);
    assert!(cpu.notices.is_empty(), "{:?}", cpu.notices);
    if auto.notices.len() == 1 {
        // auto settled on the CPU (no hardware GPU here): the answers are the CPU's, byte for byte.
        assert_eq!(cpu.stdout, auto.stdout);
    }
}

const BOX: &str = "[[-1,-1,-1],[1,-1,-1],[-1,1,-1],[1,1,-1],[-1,-1,1],[1,-1,1],[-1,1,1],[1,1,1]]";

/// Unit boxes (half extent 1), A at the origin and B at x = `bx`.
fn boxes(bx: f64) -> String {
    format!(r#"{{"a": {{"points": {BOX}}}, "b": {{"points": {BOX}, "position": [{bx}, 0, 0]}}}}"#)
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn vec3(v: &Value) -> [f64; 3] {
    let a = v.as_array().unwrap_or_else(|| panic!("not an array: {v}"));
    assert_eq!(a.len(), 3);
    [num(&a[0]), num(&a[1]), num(&a[2])]
}

fn close(x: f64, want: f64, tol: f64) -> bool {
    (x - want).abs() <= tol
}

/// Checks the answer for `boxes(3.0)` (or the same pair moved together).
fn assert_boxes_apart_by_one(r: &Value, offset: f64, tol: f64) {
    assert_eq!(r["status"], "separated", "{r}");
    assert_eq!(r["intersecting"], false, "{r}");
    assert!(close(num(&r["distance"]), 1.0, tol), "{r}");
    assert!(close(vec3(&r["witness_a"])[0], offset + 1.0, tol), "{r}");
    assert!(close(vec3(&r["witness_b"])[0], offset + 2.0, tol), "{r}");
    let n = vec3(&r["normal"]);
    assert!(
        close(n[0], 1.0, 1e-5) && close(n[1], 0.0, 1e-5) && close(n[2], 0.0, 1e-5),
        "{r}"
    );
    assert!(r["iterations"].as_u64().is_some(), "{r}");
}

#[test]
fn separated_boxes() {
    let out = run(&[], &(boxes(3.0) + "\n"));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    let lines = out.lines();
    assert_eq!(lines.len(), 1);
    assert_boxes_apart_by_one(&lines[0], 0.0, 1e-5);
    // The documented layout, keys in order.
    let keys: Vec<&str> = lines[0]
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    let mut sorted = vec![
        "intersecting",
        "distance",
        "witness_a",
        "witness_b",
        "normal",
        "iterations",
        "status",
        "penetration_status",
    ];
    sorted.sort();
    assert_eq!(keys, sorted);
    assert!(
        out.stdout
            .starts_with("{\"intersecting\": false, \"distance\": "),
        "{}",
        out.stdout
    );
}

#[test]
fn intersecting_boxes() {
    let out = run(&[], &boxes(1.5));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let r = &out.lines()[0];
    assert_eq!(r["status"], "intersecting", "{r}");
    assert_eq!(r["intersecting"], true, "{r}");
    assert_eq!(num(&r["distance"]), 0.0, "{r}");
}

/// Boxes of half extent 0.5 as a point list.
const HALF_BOX: &str = "[[-0.5,-0.5,-0.5],[0.5,-0.5,-0.5],[-0.5,0.5,-0.5],[0.5,0.5,-0.5],[-0.5,-0.5,0.5],[0.5,-0.5,0.5],[-0.5,0.5,0.5],[0.5,0.5,0.5]]";

fn sub(p: [f64; 3], q: [f64; 3]) -> [f64; 3] {
    [p[0] - q[0], p[1] - q[1], p[2] - q[2]]
}

fn close3(v: [f64; 3], want: [f64; 3], tol: f64) -> bool {
    (0..3).all(|i| close(v[i], want[i], tol))
}

/// The keys of an output line in the order written (serde_json's map sorts them).
fn keys_in_order(line: &str) -> Vec<String> {
    let v: Value = serde_json::from_str(line).unwrap();
    let mut keys: Vec<(usize, String)> = v
        .as_object()
        .unwrap()
        .keys()
        .map(|k| (line.find(&format!("\"{k}\": ")).unwrap(), k.clone()))
        .collect();
    keys.sort();
    keys.into_iter().map(|(_, k)| k).collect()
}

/// Checks an intersecting line against the hand-computed depth and normal; contacts must satisfy
/// `contact_a - contact_b = normal * depth`.
fn assert_penetration(r: &Value, depth: f64, normal: [f64; 3]) {
    assert_eq!(r["status"], "intersecting", "{r}");
    assert_eq!(r["penetration_status"], "penetrating", "{r}");
    assert!(close(num(&r["depth"]), depth, 1e-5), "{r}");
    assert!(close3(vec3(&r["normal"]), normal, 1e-5), "{r}");
    let gap = sub(vec3(&r["contact_a"]), vec3(&r["contact_b"]));
    assert!(close3(gap, normal.map(|n| n * depth), 1e-5), "{r}");
}

#[test]
fn overlapping_boxes_give_depth_normal_and_contacts() {
    // [-0.5, 0.5] and [0, 1] along x overlap by 0.5, less than along y and z (1): B must move +x by 0.5.
    let line = format!(
        r#"{{"a": {{"points": {HALF_BOX}}}, "b": {{"points": {HALF_BOX}, "position": [0.5, 0, 0]}}}}"#
    );
    let out = run(&[], &line);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let r = &out.lines()[0];
    assert_penetration(r, 0.5, [1.0, 0.0, 0.0]);
    // A's face at x = 0.5 lies deepest inside B, B's face at x = 0 deepest inside A.
    assert!(close(vec3(&r["contact_a"])[0], 0.5, 1e-5), "{r}");
    assert!(close(vec3(&r["contact_b"])[0], 0.0, 1e-5), "{r}");
    assert_eq!(
        keys_in_order(out.stdout.trim_end()),
        [
            "intersecting",
            "distance",
            "witness_a",
            "witness_b",
            "normal",
            "iterations",
            "status",
            "penetration_status",
            "depth",
            "contact_a",
            "contact_b",
        ]
    );
}

#[test]
fn penetration_is_in_world_coordinates() {
    // The same overlap with both boxes turned a quarter about z, far from the origin and along world y:
    // A's local +x is world +y, so the normal and contacts must come out along y.
    let (c, s) = (0.5f64.sqrt(), 0.5f64.sqrt());
    let line = format!(
        r#"{{"a": {{"points": {HALF_BOX}, "position": [1e4, 1e4, 0], "rotation": [0, 0, {s}, {c}]}}, "b": {{"points": {HALF_BOX}, "position": [1e4, 10000.5, 0], "rotation": [0, 0, {s}, {c}]}}}}"#
    );
    let out = run(&[], &line);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let r = &out.lines()[0];
    assert_penetration(r, 0.5, [0.0, 1.0, 0.0]);
    assert!(close(vec3(&r["contact_a"])[1], 1e4 + 0.5, 1e-4), "{r}");
    assert!(close(vec3(&r["contact_b"])[1], 1e4, 1e-4), "{r}");
}

#[test]
fn overlapping_spheres_give_analytic_contacts() {
    // Radius 1, centres 1.5 apart along y: depth 2 - 1.5, contacts on each sphere along the centre line.
    let line = r#"{"a": {"points": [[0,0,0]], "radius": 1, "position": [1, 2, 3]}, "b": {"points": [[0,0,0]], "radius": 1, "position": [1, 3.5, 3]}}"#;
    let out = run(&[], line);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let r = &out.lines()[0];
    assert_penetration(r, 0.5, [0.0, 1.0, 0.0]);
    assert!(close3(vec3(&r["contact_a"]), [1.0, 3.0, 3.0], 1e-5), "{r}");
    assert!(close3(vec3(&r["contact_b"]), [1.0, 2.5, 3.0], 1e-5), "{r}");
}

#[test]
fn separated_pairs_have_no_penetration_fields() {
    let out = run(&[], &(boxes(3.0) + "\n"));
    assert_eq!(out.code, 0, "{}", out.stderr);
    let r = &out.lines()[0];
    assert_eq!(r["penetration_status"], "separated", "{r}");
    for key in ["depth", "contact_a", "contact_b"] {
        assert!(r.get(key).is_none(), "{key} in {r}");
    }
    // The normal stays GJK's separating direction.
    assert_boxes_apart_by_one(r, 0.0, 1e-5);
}

#[test]
fn spheres_with_radius() {
    let line = r#"{"a": {"points": [[0,0,0]], "radius": 0.5}, "b": {"points": [[0,0,0]], "radius": 1.25, "position": [0, 3, 4]}}"#;
    let out = run(&[], line);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let r = &out.lines()[0];
    assert_eq!(r["status"], "separated", "{r}");
    assert!(close(num(&r["distance"]), 5.0 - 0.5 - 1.25, 1e-5), "{r}");
    let wa = vec3(&r["witness_a"]);
    assert!(close(wa[1], 0.3, 1e-5) && close(wa[2], 0.4, 1e-5), "{r}");
    let n = vec3(&r["normal"]);
    assert!(close(n[1], 0.6, 1e-5) && close(n[2], 0.8, 1e-5), "{r}");
}

#[test]
fn non_normalised_rotation_is_normalised() {
    // [0, 0, 0, 2] is the identity once normalised; a half turn about z ([0, 0, 1, 0] times 3) maps the
    // box onto itself; both must give the same answer as no rotation.
    for rot in ["[0, 0, 0, 2]", "[0, 0, 3, 0]"] {
        let line = format!(
            r#"{{"a": {{"points": {BOX}, "rotation": {rot}}}, "b": {{"points": {BOX}, "position": [3, 0, 0], "rotation": {rot}}}}}"#
        );
        let out = run(&[], &line);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert_boxes_apart_by_one(&out.lines()[0], 0.0, 1e-5);
    }
}

#[test]
fn far_from_the_origin_keeps_precision() {
    let line = format!(
        r#"{{"a": {{"points": {BOX}, "position": [1e4, 1e4, 1e4]}}, "b": {{"points": {BOX}, "position": [10003, 1e4, 1e4]}}}}"#
    );
    let out = run(&[], &line);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_boxes_apart_by_one(&out.lines()[0], 1e4, 1e-4);
}

/// Each bad line sits between two valid lines; the error names the line and the field, goes to stdout
/// and stderr, the valid lines are still answered, and the exit code is 2.
#[test]
fn every_bad_input_kind_is_reported_with_line_and_field() {
    let sphere = r#"{"points": [[0,0,0]]}"#;
    let with_b = |b: &str| format!(r#"{{"a": {sphere}, "b": {b}}}"#);
    let with_a = |a: &str| format!(r#"{{"a": {a}, "b": {sphere}}}"#);
    let cases: Vec<(String, &str)> = vec![
        ("{not json".into(), "not JSON: "),
        (r#"{"a": {"points": [[NaN, 0, 0]]}}"#.into(), "not JSON: "),
        ("[1, 2, 3]".into(), "expected a JSON object, got an array"),
        (
            format!(r#"{{"b": {sphere}}}"#),
            "a: required field is missing",
        ),
        (
            format!(r#"{{"a": {sphere}}}"#),
            "b: required field is missing",
        ),
        (
            with_a(r#"{"radius": 1}"#),
            "a.points: required field is missing",
        ),
        (with_b(r#"{"points": []}"#), "b.points: empty point list"),
        (
            with_b(r#"{"points": [[0,0,0], [1,1,1], [1,2]]}"#),
            "b.points[2]: expected 3 numbers, got 2",
        ),
        (
            with_b(r#"{"points": [[0,0,"x"]]}"#),
            "b.points[0][2]: expected a number, got a string",
        ),
        (
            with_a(r#"{"points": [[0,1e999,0]]}"#),
            "a.points[0][1]: 1e999 overflows float64",
        ),
        (
            with_a(r#"{"points": [[1e300,0,0]]}"#),
            "a.points[0][0]: 1e300 is beyond the coordinate limit +-1e9",
        ),
        (
            with_a(r#"{"points": [[1e999e5,0,0]]}"#),
            "not JSON: malformed number `1e999e5` at column 20",
        ),
        (
            with_b(r#"{"points": [[0,0,0]], "pos": [3,0,0]}"#),
            "b.pos: unknown field",
        ),
        (
            format!(r#"{{"a": {sphere}, "b": {sphere}, "key": 1}}"#),
            "key: unknown field",
        ),
        (
            format!(r#"{{"a": {sphere}, "b": {sphere}, "id": true}}"#),
            "id: expected a string or an integer from -2^63 to 2^64 - 1, got a boolean",
        ),
        (
            with_a(r#"{"points": [[0,0,0]], "radius": -1}"#),
            "a.radius: -1 is negative",
        ),
        (
            with_a(r#"{"points": [[0,0,0]], "radius": -1e999}"#),
            "a.radius: -1e999 overflows float64",
        ),
        (
            with_b(r#"{"points": [[0,0,0]], "rotation": [0,0,0,0]}"#),
            "b.rotation: zero quaternion",
        ),
        (
            with_b(r#"{"points": [[0,0,1000000001]]}"#),
            "b.points[0][2]: 1.000000001e9 is beyond the coordinate limit +-1e9",
        ),
        (
            with_b(r#"{"points": [[0,0,0]], "rotation": [0,0,1]}"#),
            "b.rotation: expected 4 numbers [x, y, z, w], got 3",
        ),
        (
            with_b(r#"{"points": [[0,0,0]], "position": [1,2]}"#),
            "b.position: expected 3 numbers, got 2",
        ),
        (
            with_b(r#"{"points": [[0,0,0]], "position": [1,2,1e999]}"#),
            "b.position[2]: 1e999 overflows float64",
        ),
        (
            with_b(r#"{"points": [[0,0,0]], "position": [0,0,1000000000.0001]}"#),
            "b.position[2]: 1.0000000000001e9 is beyond the coordinate limit +-1e9",
        ),
        // Two points 3e-46 apart with radii of 1e-46 were answered as touching: float32 holds none of it.
        (
            with_b(r#"{"points": [[0,0,0]], "radius": 1e-46, "position": [3e-46,0,0]}"#),
            "b.radius: 1e-46 is too small for float32",
        ),
        (
            with_a(r#"{"points": [[0,0,0],[1e-300,0,0]]}"#),
            "a.points[1][0]: 1e-300 is too small for float32",
        ),
        // Read as 0 by float64 (and let through as 0 before): refused as 1e-46 is.
        (
            with_b(r#"{"points": [[0,0,0]], "position": [0,1e-400,0]}"#),
            "b.position[1]: 1e-400 is too small for float32",
        ),
        // The first of two values was never checked, the second answered.
        (
            with_a(r#"{"points": [[0,0,0]], "radius": -1, "radius": 2}"#),
            "a.radius: given twice",
        ),
        (
            format!(r#"{{"a": {sphere}, "b": {sphere}, "a": {sphere}}}"#),
            "a: given twice",
        ),
    ];
    for (bad, want) in &cases {
        let input = format!("{}\n{bad}\n{}\n", boxes(3.0), boxes(3.0));
        let out = run(&[], &input);
        assert_eq!(out.code, 2, "{bad}: {}", out.stderr);
        let lines = out.lines();
        assert_eq!(lines.len(), 3, "{bad}: {}", out.stdout);
        assert_boxes_apart_by_one(&lines[0], 0.0, 1e-5);
        assert_boxes_apart_by_one(&lines[2], 0.0, 1e-5);
        let error = lines[1]["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{}", lines[1]));
        let expected = format!("line 2: {want}");
        assert!(
            error.starts_with(&expected),
            "{bad}: got {error:?}, want {expected:?}"
        );
        assert_eq!(lines[1].as_object().unwrap().len(), 1, "{}", lines[1]);
        assert_eq!(
            out.stderr.trim_end(),
            error,
            "{bad}: stderr must repeat the message"
        );
    }
}

#[test]
fn errors_carry_their_own_line_numbers() {
    let input = format!("{}\n{{\n{}\n[\n", boxes(3.0), boxes(1.5));
    let out = run(&[], &input);
    assert_eq!(out.code, 2);
    let lines = out.lines();
    assert_eq!(lines.len(), 4);
    assert!(lines[1]["error"]
        .as_str()
        .unwrap()
        .starts_with("line 2: not JSON: "));
    assert_eq!(lines[2]["status"], "intersecting");
    assert!(lines[3]["error"]
        .as_str()
        .unwrap()
        .starts_with("line 4: not JSON: "));
    let stderr: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(stderr.len(), 2, "{}", out.stderr);
    assert!(stderr[0].starts_with("line 2: ") && stderr[1].starts_with("line 4: "));
}

/// The rule that keeps output line N the answer to input line N: a blank line (spaces and tabs at most)
/// is answered by a blank line and is no error; a byte order mark at the start of a line is skipped;
/// `\r\n` ends a line like `\n`.
#[test]
fn blank_lines_are_answered_blank_and_byte_order_marks_are_skipped() {
    let input = format!("\u{feff}{}\r\n\n  \t\r\n{}\n\n", boxes(3.0), boxes(3.0));
    let out = run(&[], &input);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.split('\n').collect();
    assert_eq!(lines.len(), 6, "{:?}", out.stdout);
    assert_eq!(&lines[1..3], ["", ""]);
    assert_eq!(lines[4], "");
    assert_eq!(lines[5], "", "the output ends with a newline");
    for answer in [lines[0], lines[3]] {
        assert_boxes_apart_by_one(&serde_json::from_str(answer).unwrap(), 0.0, 1e-5);
    }
}

/// The example pairs of docs/commands.md, one line each, so they can be pasted as they are.
#[test]
fn the_documented_example_lines_are_answered() {
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/commands.md")).unwrap();
    let section = &page[page.find("## `gpu-gjk query`").expect("the query section")..];
    let block = section
        .split("```json\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the input example");
    let out = run(&[], block);
    assert_eq!(out.code, 0, "{block}\n{}", out.stderr);
    let answers = out.lines();
    assert_eq!(answers.len(), block.lines().count());
    assert!(answers.len() >= 2, "{block}");
    assert!(
        answers.iter().all(|a| a.get("status").is_some()),
        "{answers:?}"
    );
}

#[test]
fn empty_input_gives_no_output() {
    let out = run(&[], "");
    assert_eq!((out.code, out.stdout.as_str()), (0, ""));
}

#[test]
fn stats_line_on_stderr() {
    let input = format!("{}\n{}\n", boxes(3.0), boxes(1.5));
    let out = run(&["--stats"], &input);
    assert_eq!(out.code, 0);
    assert_eq!(out.lines().len(), 2);
    let stats = out.stderr.trim_end();
    let fields: Vec<(&str, &str)> = stats
        .split(' ')
        .map(|f| f.split_once('=').unwrap_or_else(|| panic!("{stats}")))
        .collect();
    let keys: Vec<&str> = fields.iter().map(|f| f.0).collect();
    assert_eq!(keys, ["pairs", "compute_s", "pairs_per_s"], "{stats}");
    assert_eq!(fields[0].1, "2");
    assert!(fields[1].1.parse::<f64>().unwrap() >= 0.0, "{stats}");
    assert!(fields[2].1.parse::<u64>().is_ok(), "{stats}");
}

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("gpu-gjk-cli-{}-{name}", std::process::id()))
}

#[test]
fn output_file_and_input_file() {
    let input = temp_path("in.jsonl");
    let output = temp_path("out.jsonl");
    std::fs::write(&input, boxes(3.0) + "\n").unwrap();
    let out = run(
        &[
            input.to_str().unwrap(),
            "--output",
            output.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "", "results go to the file, not stdout");
    let written = std::fs::read_to_string(&output).unwrap();
    let r: Value = serde_json::from_str(written.trim_end()).unwrap();
    assert_boxes_apart_by_one(&r, 0.0, 1e-5);
    std::fs::remove_file(&input).ok();
    std::fs::remove_file(&output).ok();
}

#[test]
fn threads_do_not_change_the_answers() {
    let mut input = String::new();
    for i in 0..500 {
        let x = 1.0 + i as f64 * 0.01;
        input += &format!(
            r#"{{"a": {{"points": {BOX}, "rotation": [0.1, 0.2, 0.3, 1]}}, "b": {{"points": {BOX}, "radius": 0.1, "position": [{x}, 0.3, -0.2], "rotation": [{i}, 1, 0, 1]}}}}"#
        );
        input += "\n";
    }
    input += "bad\n";
    let one = run(&["--threads", "1"], &input);
    let two = run(&["--threads", "2"], &input);
    let all = run(&["--backend", "cpu"], &input);
    assert_eq!(one.code, 2);
    assert_eq!(one.stdout.lines().count(), 501);
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(one.stdout, all.stdout);
}

#[test]
fn missing_input_file_is_named() {
    let missing = temp_path("does-not-exist.jsonl");
    let out = run(&[missing.to_str().unwrap()], "");
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains(missing.to_str().unwrap()),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("cannot read input file"),
        "{}",
        out.stderr
    );
}

#[test]
fn unwritable_output_file_is_named() {
    let output = temp_path("no-such-dir").join("out.jsonl");
    let out = run(&["--output", output.to_str().unwrap()], &boxes(3.0));
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains(output.to_str().unwrap()),
        "{}",
        out.stderr
    );
}

#[test]
fn unknown_backend_is_a_usage_error() {
    let out = run(&["--backend", "quantum"], "");
    assert_eq!(out.code, 2);
}

#[test]
fn no_subcommand_prints_help_and_fails() {
    let out = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stdout).contains("query"));
}

/// Points written far from their origin keep every digit of the float64 input: the command line centres them
/// in float64 before rounding to float32 (the same cubes placed with `position` answer the same).
#[test]
fn points_written_far_from_their_origin_answer_like_the_same_shapes_placed_there() {
    let cube_at = |offset: f64| -> String {
        let corners: Vec<String> = (0..8)
            .map(|i| {
                let s = |bit: i32| if i & bit == 0 { -1.0 } else { 1.0 };
                format!("[{},{},{}]", offset + 1e6 + s(1), 1e6 + s(2), 1e6 + s(4))
            })
            .collect();
        format!("[{}]", corners.join(","))
    };
    for (shift, gap) in [(12.0, 10.0), (2.001, 1e-3)] {
        let written = format!(
            r#"{{"a": {{"points": {}}}, "b": {{"points": {}}}}}"#,
            cube_at(0.0),
            cube_at(shift)
        );
        let placed = format!(
            r#"{{"a": {{"points": {BOX}, "position": [1e6, 1e6, 1e6]}}, "b": {{"points": {BOX}, "position": [{}, 1e6, 1e6]}}}}"#,
            1e6 + shift
        );
        let out = run(&[], &format!("{written}\n{placed}\n"));
        assert_eq!(out.code, 0, "{}", out.stderr);
        for line in out.lines() {
            assert_eq!(line["status"], "separated", "{line}");
            assert!(close(num(&line["distance"]), gap, 1e-6), "{line}");
            let wa = vec3(&line["witness_a"]);
            assert!(
                close(wa[0], 1e6 + 1.0, 1e-6),
                "witness_a {wa:?} is not on A's face"
            );
        }
    }
}

/// `gpu-gjk ARGS` with no stdin, and how long it ran.
fn run_command(args: &[&str]) -> (std::process::Output, std::time::Duration) {
    let start = std::time::Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("start gpu-gjk");
    (out, start.elapsed())
}

/// A line longer than `--max-line-bytes` (64 MiB unless given) stops `query`, `convert` and `inspect` with
/// an error naming the input, the line, the limit and the option, once the lines before it are answered;
/// an input without a newline (`/dev/zero`) fails at once instead of filling the memory.
#[test]
fn a_line_longer_than_the_limit_is_named_and_stops_the_reading() {
    let pair = r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[1,0,0]]}}"#;
    let dir = std::env::temp_dir().join(format!("gpu-gjk-line-limit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("long.jsonl");
    let long = format!(
        r#"{{"a": {{"points": [[0,0,0],{}[0,0,1]]}}, "b": {{"points": [[1,0,0]]}}}}"#,
        "[0,0,0],".repeat(200)
    );
    std::fs::write(&input, format!("{pair}\n{long}\n{pair}\n")).unwrap();
    let name = input.to_str().unwrap();
    let (shapes, pairs) = (dir.join("s.arrow"), dir.join("p.arrow"));
    let (shapes, pairs) = (shapes.to_str().unwrap(), pairs.to_str().unwrap());
    let limit = "1000";
    let want = format!(
        "error: {name}: line 2: longer than the line length limit of 1000 bytes (the reading stopped \
         there); raise the limit with --max-line-bytes N\n"
    );
    for args in [
        &["query", name, "--backend", "cpu", "--threads", "1"][..],
        &["query", name, "--backend", "cpu", "--threads", "2"],
        &["convert", name, "--shapes", shapes, "--pairs", pairs],
        &["inspect", name, "--line", "1"],
    ] {
        let (out, _) = run_command(&[args, &["--max-line-bytes", limit]].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), want, "{args:?}");
        if args[0] == "query" {
            // The line before it is answered.
            let stdout = String::from_utf8(out.stdout).unwrap();
            assert_eq!(stdout.lines().count(), 1, "{stdout}");
        }
        // Under the default limit the file is fine.
        let (out, _) = run_command(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
    }
    if cfg!(unix) {
        for args in [
            &["query", "/dev/zero", "--backend", "cpu"][..],
            &["query", "/dev/zero", "--backend", "cpu", "--threads", "2"],
            &["convert", "/dev/zero", "--shapes", shapes, "--pairs", pairs],
            &["inspect", "/dev/zero"],
        ] {
            let (out, took) = run_command(args);
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains(
                    "/dev/zero: line 1: longer than the line length limit of 67108864 bytes"
                ),
                "{args:?}: {err}"
            );
            assert!(took.as_secs() < 30, "{args:?} took {took:?}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
