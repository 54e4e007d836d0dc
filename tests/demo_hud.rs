//! The demo's HUD and selection in a window under Xvfb on OpenGL (llvmpipe), read from the JSON summary of
//! `--frames` runs (its `hud` rows and `selection`) and from screenshots: the inspector, the selection and
//! "copy pair" name one pair; the CPU narrow phase shows no GPU row; the speedup divides by GPU time; the
//! overlays can be limited to the picked body, whose partners are outlined.
//!
//! Screenshots stay in `target/tmp/demo-hud/`. Without Xvfb the tests say they were skipped, except under
//! `CI=true`.

mod common;

use common::picture::Picture;
use common::xvfb::{under_xvfb, xvfb_run};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn artefacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("demo-hud");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `gpu-gjk demo --backend gl --frames N --screenshot NAME.png` with `extra` and returns the summary.
fn demo(xvfb: &Path, name: &str, frames: u32, extra: &[&str]) -> Value {
    let png = artefacts().join(format!("{name}.png"));
    let output = under_xvfb(xvfb, |command| {
        command
            .args(["demo", "--backend", "gl", "--frames"])
            .arg(frames.to_string())
            .arg("--screenshot")
            .arg(&png)
            .args(extra);
    });
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "demo {name} {extra:?}: {}\n{stderr}",
        output.status
    );
    serde_json::from_slice(&output.stdout).expect("a JSON summary")
}

/// The HUD's rows of the last frame, as (label, value).
fn rows(summary: &Value) -> Vec<(String, String)> {
    summary["hud"]
        .as_array()
        .expect("window runs report the HUD's rows")
        .iter()
        .map(|row| {
            (
                row[0].as_str().unwrap().to_owned(),
                row[1].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn value<'a>(rows: &'a [(String, String)], label: &str) -> Option<&'a str> {
    rows.iter()
        .find(|(l, _)| l == label)
        .map(|(_, v)| v.as_str())
}

/// After 30 frames the first pair of the player's cube has parted (its boxes no longer overlap): the pair the
/// inspector opened on at frame 1 is still the selected one, and "copy pair" writes it, not the first row of
/// the last frame.
#[test]
fn the_inspector_the_selection_and_copy_pair_name_one_pair() {
    let Some(xvfb) = xvfb_run("the HUD tests") else {
        return;
    };
    let pairs = artefacts().join("copied-pairs.jsonl");
    let _ = std::fs::remove_file(&pairs);
    let summary = demo(
        &xvfb,
        "pick-inspect-copy",
        30,
        &[
            "--bodies",
            "2000",
            "--pick",
            "0",
            "--inspect",
            "--copy-pair",
            "--pairs-out",
            pairs.to_str().unwrap(),
        ],
    );
    let selection = &summary["selection"];
    eprintln!("selection: {selection}");
    assert_eq!(selection["picked"], 0);
    let selected = &selection["selected_pair"];
    assert!(selected.is_array(), "{selection}");
    assert_eq!(&selection["inspected_pair"], selected, "{selection}");
    assert_eq!(&selection["copied_pair"], selected, "{selection}");
    // The inspector was traced at frame 1 and the run went on: it says it is a frozen snapshot.
    assert_eq!(selection["inspected_frame"], 1);
    assert_eq!(selection["inspector_frozen"], true);
    assert_eq!(
        std::fs::read_to_string(&pairs).unwrap().lines().count(),
        1,
        "one line copied"
    );
}

/// `M` (here `--next-disagreement`) picks a disputed pair: it is the selected pair, the one the table
/// highlights, and the one "copy pair" writes. (`--flip-gpu-answers` makes disagreements; debug builds only.)
#[test]
fn next_disagreement_selects_the_disputed_pair_that_copy_pair_writes() {
    if !cfg!(debug_assertions) {
        return;
    }
    let Some(xvfb) = xvfb_run("the HUD tests") else {
        return;
    };
    let pairs = artefacts().join("disputed-pairs.jsonl");
    let _ = std::fs::remove_file(&pairs);
    let png = artefacts().join("next-disagreement.png");
    let output = under_xvfb(&xvfb, |command| {
        command
            .args([
                "demo",
                "--backend",
                "gl",
                "--frames",
                "4",
                "--bodies",
                "1000",
            ])
            .args([
                "--flip-gpu-answers",
                "3",
                "--next-disagreement",
                "--copy-pair",
            ])
            .arg("--pairs-out")
            .arg(&pairs)
            .arg("--screenshot")
            .arg(&png);
    });
    // Flipped answers are disagreements: the run exits with code 2, its summary printed.
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let summary: Value = serde_json::from_slice(&output.stdout).expect("a JSON summary");
    let selection = &summary["selection"];
    eprintln!("selection: {selection}");
    assert_eq!(selection["selected_pair_disputed"], true, "{selection}");
    assert_eq!(&selection["copied_pair"], &selection["selected_pair"]);
    assert_eq!(selection["picked"], selection["selected_pair"][0]);
}

#[test]
fn the_cpu_narrow_phase_shows_no_gpu_row() {
    let Some(xvfb) = xvfb_run("the HUD tests") else {
        return;
    };
    let summary = demo(
        &xvfb,
        "cpu-narrow-phase",
        3,
        &["--bodies", "500", "--cpu-narrow-phase"],
    );
    let rows = rows(&summary);
    eprintln!("{rows:?}");
    for (label, _) in &rows {
        assert!(
            !label.contains("GPU") && !label.contains("Speedup") && !label.contains("check"),
            "{label} shown with the CPU as the narrow phase"
        );
    }
    assert_eq!(value(&rows, "Narrow phase"), Some("CPU"));
    assert!(value(&rows, "CPU narrow ms").is_some());
    // The bus section's rows: the CPU grid and the CPU narrow phase move nothing.
    assert_eq!(value(&rows, "Bytes up"), Some("0 B"));
    assert_eq!(value(&rows, "Bytes down"), Some("0 B"));
    assert_eq!(value(&rows, "Submissions"), Some("0"));
    assert_eq!(value(&rows, "Blocking waits"), Some("0"));
}

/// The window's default mode (the check sampled when idle, nothing shown that needs the answers) does not
/// wait for the GPU: the host row says it timed submitting, and the speedup divides by GPU time, as it does
/// once an overlay makes the frames wait; without a GPU time (a software adapter, as on CI) it divides by the
/// round trip of frames that waited, and by nothing otherwise.
#[test]
fn the_speedup_divides_by_gpu_time_in_every_mode() {
    let Some(xvfb) = xvfb_run("the HUD tests") else {
        return;
    };
    let deferred = demo(
        &xvfb,
        "speedup-deferred",
        12,
        &["--bodies", "1000", "--check", "when-idle"],
    );
    let waited = demo(
        &xvfb,
        "speedup-waited",
        12,
        &[
            "--bodies",
            "1000",
            "--check",
            "when-idle",
            "--overlay",
            "contacts",
        ],
    );
    let timestamps = deferred["mean_ms"]["gpu_kernel"].is_number();
    for (name, summary, host) in [
        ("deferred", &deferred, "Host submit ms"),
        ("waited", &waited, "Host round trip ms"),
    ] {
        let rows = rows(summary);
        eprintln!("{name}: {rows:?}");
        assert!(value(&rows, host).is_some(), "{name}: no {host} row");
        let ratio = |label| {
            value(&rows, label).map(|v| v.trim_end_matches('x').parse::<f64>().unwrap_or(f64::NAN))
        };
        if timestamps {
            let gpu: f64 = value(&rows, "GPU time ms").unwrap().parse().unwrap();
            let cpu: f64 = value(&rows, "CPU check ms").unwrap().parse().unwrap();
            let speedup = ratio("Speedup vs GPU time").expect("a speedup over GPU time");
            assert!(
                (speedup - cpu / gpu).abs() <= 0.02 * speedup.max(1.0),
                "{name}: {speedup} is not {cpu} / {gpu}"
            );
        } else if name == "deferred" {
            // No GPU time (no timestamp queries, or a software adapter's) and a frame that did not wait:
            // nothing to divide by.
            assert!(value(&rows, "GPU time ms").is_none());
            assert!(value(&rows, "Speedup vs GPU").unwrap().starts_with('—'));
        } else {
            let host: f64 = value(&rows, host).unwrap().parse().unwrap();
            let cpu: f64 = value(&rows, "CPU check ms").unwrap().parse().unwrap();
            let speedup = ratio("Speedup vs round trip").expect("a speedup over the round trip");
            assert!(
                (speedup - cpu / host).abs() <= 0.02 * speedup.max(1.0),
                "{name}: {speedup} is not {cpu} / {host}"
            );
        }
        // The FPS row: one rate and the time per frame it implies.
        let fps = value(&rows, "FPS").unwrap();
        let (rate, ms) = fps.split_once(" (").unwrap();
        let (rate, ms): (f64, f64) = (
            rate.parse().unwrap(),
            ms.trim_end_matches(" ms)").parse().unwrap(),
        );
        assert!((rate * ms / 1e3 - 1.0).abs() < 0.06, "{fps}");
    }
}

/// Pixels of the scene (right of the HUD's panel, left of the picked body's) that satisfy `test`.
fn scene(picture: &Picture, test: impl Fn([u8; 3]) -> bool) -> usize {
    picture
        .rgba
        .chunks_exact(4)
        .enumerate()
        .filter(|(i, _)| {
            let x = i % picture.width;
            x > picture.width * 3 / 10 && x < picture.width * 7 / 10
        })
        .filter(|(_, p)| test([p[0], p[1], p[2]]))
        .count()
}

/// The candidate pairs' violet lines (see `tests/demo_debug_renderer.rs`).
fn pair_violet([r, g, b]: [u8; 3]) -> bool {
    (100..=175).contains(&r) && (100..=175).contains(&g) && b > 210 && r.abs_diff(g) < 25
}

/// The outlines of the picked body's partners (amber, shaded along the edges) and of the selected pair's
/// partner (green), in sRGB: the amber keeps more blue than the boxes' orange and more green than red bodies.
fn partner_amber([r, g, b]: [u8; 3]) -> bool {
    r > 200 && (115..=205).contains(&g) && (55..=95).contains(&b) && r - b > 120
}

fn selected_green([r, g, b]: [u8; 3]) -> bool {
    g > 235 && (90..=170).contains(&r) && (120..=200).contains(&b)
}

#[test]
fn overlays_can_show_the_picked_body_only_and_its_partners_are_outlined() {
    let Some(xvfb) = xvfb_run("the HUD tests") else {
        return;
    };
    let pick = ["--bodies", "2000", "--pick", "0", "--overlay", "pairs"];
    demo(&xvfb, "overlay-all-pairs", 3, &pick);
    let mut only = pick.to_vec();
    only.push("--picked-only");
    demo(&xvfb, "overlay-picked-only", 3, &only);
    demo(&xvfb, "overlay-unpicked", 3, &["--bodies", "2000"]);
    let all = Picture::load(&artefacts().join("overlay-all-pairs.png"));
    let picked_only = Picture::load(&artefacts().join("overlay-picked-only.png"));
    let unpicked = Picture::load(&artefacts().join("overlay-unpicked.png"));
    let (every, mine) = (scene(&all, pair_violet), scene(&picked_only, pair_violet));
    eprintln!("pair lines: {every} pixels for every pair, {mine} for the picked body's");
    assert!(every > 500, "{every} violet pixels with every pair drawn");
    assert!(
        mine * 5 < every,
        "{mine} of {every}: not limited to the picked body"
    );
    let (amber, green) = (scene(&all, partner_amber), scene(&all, selected_green));
    let (amber_before, green_before) = (
        scene(&unpicked, partner_amber),
        scene(&unpicked, selected_green),
    );
    eprintln!(
        "partner outlines: {amber} amber, {green} green; unpicked {amber_before}, {green_before}"
    );
    assert!(amber > 100 && green > 100, "{amber} amber, {green} green");
    assert!(amber_before + green_before < 50);
}
