//! `gpu-gjk inspect --window` under Xvfb with software rendering: the inspector opens in a window on one line,
//! on the step asked for, draws `--frames` frames and exits with a summary; a flat pair gets the 2D view.
//! Without Xvfb the test says it was skipped, except under `CI=true`.

mod common;

use common::xvfb::{under_xvfb, xvfb_run};
use serde_json::Value;
use std::path::Path;

/// Runs `inspect --window` and returns its summary (the last line of stdout) and stderr.
fn inspect_window(xvfb: &Path, input: &Path, extra: &[&str]) -> (Value, String) {
    let output = under_xvfb(xvfb, |command| {
        command
            .arg("inspect")
            .arg(input)
            .args(["--window", "--frames", "3"])
            .args(extra);
    });
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        output.status.success(),
        "{extra:?}: {}\n{stdout}\n{stderr}",
        output.status
    );
    let summary = stdout.lines().last().unwrap_or_default();
    let summary = serde_json::from_str(summary)
        .unwrap_or_else(|e| panic!("the summary is not JSON ({e}): {stdout}"));
    (summary, stderr)
}

#[test]
fn the_inspector_window_opens_on_the_step_asked_for_and_exits_after_its_frames() {
    let Some(xvfb) = xvfb_run("the window tests") else {
        return;
    };
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/data/pairs.jsonl");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("inspect-window");
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("line4-step1.png");
    let (summary, stderr) = inspect_window(
        &xvfb,
        &samples,
        &[
            "--line",
            "4",
            "--step",
            "1",
            "--screenshot",
            png.to_str().unwrap(),
        ],
    );
    eprintln!("{summary}");
    assert_eq!(summary["frames"], 3);
    assert_eq!(summary["line"], 4);
    assert_eq!(summary["steps"], 4, "GJK's start and its 3 iterations");
    assert_eq!(summary["step"], 1);
    assert_eq!(summary["gpu"], "agrees");
    assert_eq!(
        summary["flat"], false,
        "a triangle and a sphere: seen from the side"
    );
    assert!(
        stderr.contains("the GPU's answer agrees with the CPU's"),
        "{stderr}"
    );
    assert!(png.is_file());
    // Without --step: the last step, the answer.
    let (summary, _) = inspect_window(&xvfb, &samples, &["--line", "2"]);
    assert_eq!(
        (summary["steps"].clone(), summary["step"].clone()),
        (3.into(), 2.into())
    );
    // Two squares in one plane: the 2D view.
    let flat = dir.join("flat.jsonl");
    std::fs::write(
        &flat,
        "{\"a\": {\"points\": [[-1,-1,0],[1,-1,0],[-1,1,0],[1,1,0]]}, \
         \"b\": {\"points\": [[-1,-1,0],[1,-1,0],[-1,1,0],[1,1,0]], \"position\": [1.5, 0.5, 0]}}\n",
    )
    .unwrap();
    let (summary, _) = inspect_window(&xvfb, &flat, &[]);
    assert_eq!(summary["flat"], true, "{summary}");
}
