//! The stress test's window at 100,000 bodies under Xvfb on OpenGL (llvmpipe), with the GPU broad phase and a
//! sampled check: a picked body and the GJK/EPA inspector, whose pairs the GPU lists where the frame's pairs lie
//! (no frame reads its pairs back), and the candidate-pair overlay over every pair (whose frames do). The frames
//! run, the summary and the HUD say how many bodies there were, and the screenshots show the overlay, the picked
//! body's panel and the inspector's view.
//!
//! The two runs of two frames of 100,000 bodies took 57 s together, side by side, on the two-core dev VM (debug
//! build), within the minute one window test may take. The screenshots stay in `target/tmp/demo-large-scene/`. Without Xvfb the tests say they were
//! skipped, except under `CI=true`.

mod common;

use common::picture::Picture;
use common::xvfb::{under_xvfb, xvfb_run};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn artefacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("demo-large-scene");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The candidate-pair overlay's violet (as in tests/demo_debug_renderer.rs).
fn pair_violet([r, g, b]: [u8; 3]) -> bool {
    (100..=175).contains(&r) && (100..=175).contains(&g) && b > 210 && r.abs_diff(g) < 25
}

/// The HUD's panels: nearly opaque dark grey, tinted a little by what is behind.
fn dark_panel(p: [u8; 3]) -> bool {
    p.iter().all(|&c| c < 60) && p[2] >= p[1]
}

/// The inspector view's own background (`BACKGROUND` of `src/app/inspector/view.rs` in sRGB).
fn view_background(p: [u8; 3]) -> bool {
    p.iter()
        .zip([29u8, 31, 43])
        .all(|(&c, want)| c.abs_diff(want) <= 3)
}

fn hud_value<'a>(summary: &'a Value, label: &str) -> Option<&'a str> {
    summary["hud"]
        .as_array()?
        .iter()
        .find(|row| row[0] == label)
        .and_then(|row| row[1].as_str())
}

/// Two frames of `bodies` bodies in a window, with `options`; the summary and the screenshot.
fn run_window(bodies: usize, name: &str, options: &[&str]) -> Option<(Value, Picture)> {
    let xvfb = xvfb_run("the large-scene window tests")?;
    let png = artefacts().join(format!("{bodies}-bodies-{name}.png"));
    let count = bodies.to_string();
    let output = under_xvfb(&xvfb, |command| {
        command
            .args([
                "demo",
                "--backend",
                "gl",
                "--frames",
                "2",
                "--bodies",
                &count,
            ])
            .args(["--broad-phase", "gpu", "--check-pairs", "sample"])
            .args(options)
            .arg("--screenshot")
            .arg(&png);
    });
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{bodies} bodies: {stderr}");
    let summary: Value = serde_json::from_slice(&output.stdout).expect("a JSON summary");
    assert_eq!(summary["bodies"], bodies);
    assert_eq!(summary["frames"], 2);
    assert_eq!(summary["disagreements"], 0, "{summary}");
    assert_eq!(summary["per_frame"]["broad_phase_on_gpu_frames"], 2);
    let pairs = summary["candidate_pairs_last"].as_u64().unwrap();
    assert!(pairs > bodies as u64, "{pairs} pairs");
    // The window's HUD counted every body and the frame's traffic.
    let written = hud_value(&summary, "Bodies").expect("a Bodies row");
    assert_eq!(written.replace(',', ""), count);
    assert!(hud_value(&summary, "Bytes down").is_some_and(|v| v != "0 B"));
    Some((summary, Picture::load(&png)))
}

/// A picked body and the inspector keep the frames fed on the device: the GPU lists the body's pairs, the frames
/// read back no pair buffer, and the picked body's panel and the inspector's view are drawn.
fn picking_and_the_inspector_at(bodies: usize) {
    let Some((summary, picture)) = run_window(bodies, "picked", &["--pick", "0", "--inspect"])
    else {
        return;
    };
    // Picked and inspected: body 0 and one of its pairs, which the GPU listed.
    let selection = &summary["selection"];
    assert_eq!(selection["picked"], 0, "{selection}");
    assert_eq!(selection["pairs_source"], "gpu", "{selection}");
    assert!(
        selection["picked_pairs"].as_u64().is_some_and(|n| n > 0),
        "{selection}"
    );
    assert_eq!(selection["picked_pairs_not_listed"], 0, "{selection}");
    assert_eq!(selection["inspected_pair"][0], 0, "{selection}");
    assert_eq!(selection["selected_pair_is_candidate"], true);
    // No frame read its pairs back (8 bytes each; their answers 48 more).
    let most = summary["per_frame"]["bytes_down_max"].as_u64().unwrap();
    assert!(most < 1 << 20, "{most} bytes down in a frame");
    // The picked body's panel top right, and the inspector's view.
    let panel = picture.count((0.75, 0.99), (0.02, 0.2), dark_panel);
    let view = picture.count((0.5, 0.7), (0.48, 0.74), view_background);
    eprintln!("{bodies} bodies: {panel} panel, {view} inspector view pixels, {most} bytes down");
    assert!(panel > 10_000 && view > 20_000);
}

/// The candidate-pair overlay over every pair: the frames read their pairs back.
fn the_pairs_overlay_at(bodies: usize) {
    let Some((_, picture)) = run_window(bodies, "pairs", &["--overlay", "pairs"]) else {
        return;
    };
    let violet = picture.count((0.3, 1.0), (0.0, 1.0), pair_violet);
    eprintln!("{bodies} bodies: {violet} violet pixels");
    assert!(violet > 2_000);
}

#[test]
fn a_hundred_thousand_bodies_keep_their_picked_body_and_inspector_on_the_device() {
    picking_and_the_inspector_at(100_000);
}

#[test]
fn a_hundred_thousand_bodies_draw_the_pairs_overlay() {
    the_pairs_overlay_at(100_000);
}
