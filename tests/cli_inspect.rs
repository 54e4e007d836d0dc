//! `gpu-gjk inspect` through the binary on a sample of lines: it prints `query`'s answer line, writes the trace
//! of the line asked for, and names bad lines and line numbers. The trace's properties are checked in process,
//! on thousands of pairs, by the command's unit tests (`src/cli/inspect/tests.rs`).

use gpu_gjk::io::jsonl::pair_line;
use gpu_gjk::scenario::{random_scene, MixSpec};
use serde_json::Value;
use std::process::Command;

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

#[test]
fn the_inspect_command_prints_the_query_line_and_writes_the_trace() {
    let dir = std::env::temp_dir().join(format!("gpu-gjk-inspect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("pairs.jsonl");
    let lines = random_lines(7, 60);
    std::fs::write(&input, lines.join("\n") + "\n").unwrap();
    let query = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .args(["query", "--backend", "cpu"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(query.status.success());
    let answers: Vec<String> = String::from_utf8(query.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(answers.len(), 60);
    for n in (1..=60).step_by(7) {
        let trace_path = dir.join(format!("trace-{n}.json"));
        let out = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
            .args(["inspect", "--line", &n.to_string(), "--trace"])
            .arg(&trace_path)
            .arg(&input)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(stdout.lines().last().unwrap(), answers[n - 1], "line {n}");
        assert!(stdout.contains("GJK (float"), "{stdout}");
        let trace: Value =
            serde_json::from_str(&std::fs::read_to_string(&trace_path).unwrap()).unwrap();
        assert_eq!(trace["line"], n);
        let answer: Value = serde_json::from_str(&answers[n - 1]).unwrap();
        assert_eq!(
            trace["answer"], answer,
            "line {n}: the trace ends on query's answer"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_lines_and_line_numbers_are_named() {
    let dir = std::env::temp_dir().join(format!("gpu-gjk-inspect-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("pairs.jsonl");
    std::fs::write(
        &input,
        "{\"a\": {\"points\": [[0,0,0]]}, \"b\": {\"points\": []}}\n",
    )
    .unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
            .arg("inspect")
            .args(args)
            .arg(&input)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stderr) = run(&[]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("line 1: b.points: empty point list"),
        "{stderr}"
    );
    let (code, stderr) = run(&["--line", "3"]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("--line 3") && stderr.contains("has 1 line"),
        "{stderr}"
    );
    let (code, stderr) = run(&["--line", "0"]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("--line 0") && stderr.contains("lines count from 1"),
        "{stderr}"
    );
    // A trace named as the input would overwrite it.
    let before = std::fs::read(&input).unwrap();
    let (code, stderr) = run(&["--trace", input.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("--trace") && stderr.contains("same file as the input"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&input).unwrap(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

fn sample_file() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/data/pairs.jsonl")
}

fn inspect(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .arg("inspect")
        .args(args)
        .output()
        .unwrap()
}

/// No GPU adapter here (outside CI): the picture cannot be drawn, which the command says.
fn no_adapter(stderr: &str) -> bool {
    stderr.contains("needs a GPU adapter") && std::env::var("CI").as_deref() != Ok("true")
}

#[test]
fn every_sample_line_inspects_in_text_and_in_a_picture_with_no_difference_flagged() {
    let input = sample_file();
    let query = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .args(["query", "--backend", "cpu"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(query.status.success());
    let answers: Vec<String> = String::from_utf8(query.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let dir = std::env::temp_dir().join(format!("gpu-gjk-inspect-samples-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    assert!(answers.len() >= 4);
    for n in 1..=answers.len() {
        let line = n.to_string();
        let text = inspect(&[input.to_str().unwrap(), "--line", &line]);
        let stdout = String::from_utf8_lossy(&text.stdout);
        let stderr = String::from_utf8_lossy(&text.stderr);
        assert!(text.status.success(), "line {n}: {stderr}");
        assert_eq!(stdout.lines().last().unwrap(), answers[n - 1], "line {n}");
        assert!(stdout.lines().next().unwrap().contains("world coordinates"));
        assert!(!stderr.contains("differ"), "line {n}: {stderr}");

        let png = dir.join(format!("line{n}.png"));
        let picture = inspect(&[
            input.to_str().unwrap(),
            "--line",
            &line,
            "--screenshot",
            png.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&picture.stderr);
        if no_adapter(&stderr) {
            eprintln!("SKIPPED: no GPU adapter for the inspector's picture");
            continue;
        }
        assert!(picture.status.success(), "line {n}: {stderr}");
        assert!(png.is_file(), "line {n}: no picture");
        assert!(
            stderr.contains("the GPU's answer agrees with the CPU's"),
            "line {n}: {stderr}"
        );
        // The same table as the text mode, then the picture of its last step.
        assert_eq!(String::from_utf8_lossy(&picture.stdout), stdout);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn outputs_are_checked_before_any_work_and_steps_are_chosen_by_number() {
    let input = sample_file();
    let input = input.to_str().unwrap();
    let dir = std::env::temp_dir().join(format!("gpu-gjk-inspect-outputs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("no-such-folder/out.png");
    for (flag, path, says) in [
        ("--screenshot", missing.clone(), "does not exist"),
        ("--screenshot", dir.join("out.txt"), "ends in .txt"),
        (
            "--trace",
            dir.join("no-such-folder/trace.json"),
            "does not exist",
        ),
        ("--trace", dir.join("trace.png"), "ends in .png"),
    ] {
        let out = inspect(&[input, "--line", "2", flag, path.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag} {path:?}: {stderr}");
        assert!(stderr.contains(flag) && stderr.contains(says), "{stderr}");
        assert!(
            out.stdout.is_empty(),
            "{flag}: the table came before the check"
        );
    }
    // A window without a display is refused before the table, too.
    let out = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .args(["inspect", input, "--line", "2", "--window"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !cfg!(any(target_os = "windows", target_os = "macos")) {
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("--window needs a display"), "{stderr}");
        assert!(out.stdout.is_empty());
    }
    // Line 2 has 3 steps: GJK's start, then EPA's starting polytope and one expansion.
    let out = inspect(&[input, "--line", "2", "--step", "3"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--step 3: line 2 has 3 steps (0 to 2)"),
        "{stderr}"
    );
    let out = inspect(&[input, "--line", "2"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("EPA (float32), try 1 of 1: 1 expansion (it 0 is the starting polytope)"),
        "{stdout}"
    );
    let png = dir.join("step0.png");
    let out = inspect(&[
        input,
        "--line",
        "2",
        "--step",
        "0",
        "--screenshot",
        png.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !no_adapter(&stderr) {
        assert!(out.status.success(), "{stderr}");
        assert!(
            stderr.contains("inspector view (step 0 of 0 to 2) saved"),
            "{stderr}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
