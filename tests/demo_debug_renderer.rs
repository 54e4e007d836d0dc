//! The debug renderer under Xvfb, on OpenGL (llvmpipe), checked by pixels: each overlay's colour is in the
//! scene when it is on and absent when it is off; the picked body's panel, the GJK/EPA inspector and the 2D
//! mode draw; the HUD leaves the scene visible at 800x600; `inspect --screenshot` draws offscreen.
//!
//! The screenshots are kept as test artefacts in `target/tmp/debug-renderer/` (one PNG per view). Without
//! Xvfb the window tests say they were skipped, except under `CI=true`.

mod common;

use common::picture::Picture;
use common::xvfb::{under_xvfb, xvfb_run};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Where the screenshots stay after the run.
fn artefacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("debug-renderer");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `gpu-gjk demo` for a few frames under Xvfb on OpenGL and returns the screenshot and the output.
fn demo(xvfb: &Path, name: &str, extra: &[&str]) -> (Picture, Output) {
    let png = artefacts().join(format!("{name}.png"));
    let output = under_xvfb(xvfb, |command| {
        command
            .args(["demo", "--backend", "gl", "--frames", "3", "--screenshot"])
            .arg(&png)
            .args(extra);
    });
    eprintln!(
        "demo {name} {extra:?}: {}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
            .lines()
            .filter(|l| !l.contains("XDG_RUNTIME_DIR"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(png.is_file(), "demo {name} wrote no screenshot");
    (Picture::load(&png), output)
}

/// Pixels of the scene (right of the HUD) that satisfy `test`.
fn scene(picture: &Picture, test: impl Fn([u8; 3]) -> bool) -> usize {
    picture.count((0.3, 1.0), (0.0, 1.0), test)
}

/// The overlays' colours where they are in front, as they land in the sRGB picture (see
/// `src/app/overlays.rs`): flat colours no lit body has, and that their faint hidden parts (blended over
/// bodies) do not reach.
fn contact_yellow([r, g, b]: [u8; 3]) -> bool {
    r > 225 && (200..=250).contains(&g) && b < 40
}

fn closest_green_to_blue([r, g, b]: [u8; 3]) -> bool {
    r < 40 && g > 160 && b > 100
}

/// The contact discs' yellow, anti-aliased over red bodies, passes through orange too, but it keeps some of
/// the bodies' blue and more green: the boxes' orange is redder and has almost no blue.
fn aabb_orange([r, g, b]: [u8; 3]) -> bool {
    r > 230 && (110..=165).contains(&g) && b < 20 && 100 * u16::from(g) < 68 * u16::from(r)
}

fn pair_violet([r, g, b]: [u8; 3]) -> bool {
    (100..=175).contains(&r) && (100..=175).contains(&g) && b > 210 && r.abs_diff(g) < 25
}

fn ring_magenta([r, g, b]: [u8; 3]) -> bool {
    r > 230 && g < 40 && b > 230
}

/// The HUD's panels: nearly opaque dark grey, tinted a little by what is behind.
fn dark_panel(p: [u8; 3]) -> bool {
    p.iter().all(|&c| c < 60) && p[2] >= p[1]
}

/// The picked body's edges: a neutral near-white that no lit body reaches (the free bodies' grey is bluish
/// and darker).
fn white(p: [u8; 3]) -> bool {
    let (low, high) = (*p.iter().min().unwrap(), *p.iter().max().unwrap());
    low > 195 && high - low <= 16
}

fn red([r, g, b]: [u8; 3]) -> bool {
    r > 90 && u16::from(r) > 2 * u16::from(g.max(b)) + 20
}

type Classifier = fn([u8; 3]) -> bool;

/// Each overlay, its colour and the flags that show it (closest points within 0.5, twice the default range,
/// so that the short segments add up to enough pixels).
const OVERLAYS: [(&str, Classifier, &[&str]); 4] = [
    ("contacts", contact_yellow, &["--overlay", "contacts"]),
    (
        "closest",
        closest_green_to_blue,
        &["--overlay", "closest", "--closest-range", "0.5"],
    ),
    ("aabbs", aabb_orange, &["--overlay", "aabbs"]),
    ("pairs", pair_violet, &["--overlay", "pairs"]),
];

#[test]
fn each_overlay_shows_its_colour_when_on_and_none_when_off() {
    let Some(xvfb) = xvfb_run("the debug renderer tests") else {
        return;
    };
    let (off, output) = demo(&xvfb, "overlays-off", &["--bodies", "2000"]);
    assert!(output.status.success());
    let baseline: Vec<usize> = OVERLAYS
        .iter()
        .map(|(_, test, _)| scene(&off, test))
        .collect();
    eprintln!("overlays off: {baseline:?}");
    for (k, (name, _, flags)) in OVERLAYS.iter().enumerate() {
        let (on, output) = demo(
            &xvfb,
            &format!("overlay-{name}"),
            &[&["--bodies", "2000"], *flags].concat(),
        );
        assert!(output.status.success());
        let counts: Vec<usize> = OVERLAYS.iter().map(|(_, t, _)| scene(&on, t)).collect();
        eprintln!("overlay {name} on: {counts:?}");
        assert!(
            counts[k] > 1500,
            "{name}: only {} pixels of its colour",
            counts[k]
        );
        assert!(
            counts[k] > 20 * (baseline[k] + 10),
            "{name}: {} pixels with it on, {} with it off",
            counts[k],
            baseline[k]
        );
        for (j, (other, _, _)) in OVERLAYS.iter().enumerate() {
            if j != k {
                assert!(
                    counts[j] <= 3 * baseline[j] + 150,
                    "{other} is off but has {} pixels of its colour ({} with every overlay off)",
                    counts[j],
                    baseline[j]
                );
            }
        }
    }
}

#[test]
fn disagreements_get_rings_and_the_camera_flies_to_one() {
    let Some(xvfb) = xvfb_run("the debug renderer tests") else {
        return;
    };
    let flip = [
        "--bodies",
        "1500",
        "--flip-gpu-answers",
        "2",
        "--next-disagreement",
    ];
    let (marked, output) = demo(
        &xvfb,
        "overlay-disagreements",
        &[&flip[..], &["--overlay", "disagreements"]].concat(),
    );
    // The flipped answers are real disagreements to the check: the run reports them with exit code 2.
    assert_eq!(output.status.code(), Some(2));
    let summary: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(summary["disagreements"].as_u64().unwrap() >= 2, "{summary}");
    let rings = scene(&marked, ring_magenta);
    let (unmarked, _) = demo(&xvfb, "disagreements-no-overlay", &flip);
    let without = scene(&unmarked, ring_magenta);
    eprintln!("magenta ring pixels: {rings} with the overlay, {without} without");
    assert!(
        rings > 400 && rings > 10 * (without + 10),
        "{rings} against {without}"
    );
    // The camera flew to the pair: the disputed (magenta) bodies fill much of the view.
    let magenta_bodies = scene(&unmarked, |[r, g, b]| {
        r > 120 && b > 120 && u16::from(g) * 2 < u16::from(r.min(b))
    });
    assert!(
        magenta_bodies > 3000,
        "{magenta_bodies} magenta body pixels after the flight"
    );
}

#[test]
fn the_picked_body_has_its_panel_and_highlight_and_the_inspector_draws() {
    let Some(xvfb) = xvfb_run("the debug renderer tests") else {
        return;
    };
    let (picked, output) = demo(&xvfb, "picked", &["--bodies", "2000", "--pick", "0"]);
    assert!(output.status.success());
    // The panel: top right, dark with light text.
    let panel = picked.count((0.75, 0.99), (0.02, 0.2), dark_panel);
    let text = picked.count((0.75, 0.99), (0.02, 0.2), |[r, g, b]| {
        r.min(g).min(b) > 120 && r.max(g).max(b) - r.min(g).min(b) < 40
    });
    eprintln!("picked panel: {panel} dark, {text} text pixels");
    assert!(
        panel > 10_000 && text > 300,
        "no picked-body panel: {panel} dark, {text} text"
    );
    // The highlight: the picked body's white edges near the middle of the view.
    let highlight = picked.count((0.3, 0.7), (0.25, 0.75), white);
    assert!(highlight > 300, "{highlight} white highlight pixels");

    let (inspector, output) = demo(
        &xvfb,
        "inspector",
        &["--bodies", "2000", "--pick", "0", "--inspect"],
    );
    assert!(output.status.success());
    // The inspector's 3D view, docked bottom right (300x225 points left of its text at 1280x720): its own
    // background (`BACKGROUND` of `src/app/inspector/view.rs` in sRGB), the translucent blue hull of A - B
    // and the coloured step on it.
    let view = ((0.5, 0.7), (0.48, 0.74));
    let view_background = |p: [u8; 3]| {
        p.iter()
            .zip([29u8, 31, 43])
            .all(|(&c, want)| c.abs_diff(want) <= 3)
    };
    let dark = inspector.count(view.0, view.1, view_background);
    let hull = inspector.count(view.0, view.1, |[r, g, b]| {
        u16::from(b) > u16::from(r) + 40 && b > 80 && g < 200
    });
    let step = inspector.count(view.0, view.1, |[r, g, b]| {
        // Simplex orange, support and closest-face yellow, polytope green, closest-point cyan, depth red.
        (r > 200 && g > 100 && b < 90) || (g > 180 && r < 120) || (r > 200 && g < 90 && b < 110)
    });
    eprintln!("inspector view: {dark} dark, {hull} hull, {step} step pixels");
    assert!(
        dark > 20_000 && hull > 2_000 && step > 150,
        "{dark} {hull} {step}"
    );
    let unpicked_view = picked.count(view.0, view.1, view_background);
    assert!(
        unpicked_view < dark / 4,
        "without --inspect the view is the scene"
    );
}

#[test]
fn the_2d_mode_draws_polygons_coloured_by_collision_and_their_minkowski_difference() {
    let Some(xvfb) = xvfb_run("the debug renderer tests") else {
        return;
    };
    let (plane, output) = demo(&xvfb, "2d", &["--2d"]);
    assert!(output.status.success());
    let reds = plane.count((0.2, 0.5), (0.2, 0.6), red);
    let greys = plane.count((0.2, 0.5), (0.55, 0.8), |[r, g, b]| {
        r > 100 && b >= r && b - r < 40 && u16::from(r.max(g).max(b) - r.min(g).min(b)) < 40
    });
    // The Minkowski difference, bottom right: translucent blue with EPA's green polytope edges on it.
    let hull = plane.count((0.5, 0.8), (0.5, 1.0), |[r, _, b]| {
        u16::from(b) > u16::from(r) + 30 && b > 60
    });
    let polytope = plane.count((0.5, 0.8), (0.5, 1.0), |[r, g, b]| {
        g > 150 && r < 120 && b < 150
    });
    eprintln!("2D: {reds} red, {greys} grey, {hull} hull, {polytope} polytope pixels");
    assert!(reds > 5_000 && greys > 5_000, "{reds} red, {greys} grey");
    assert!(
        hull > 10_000 && polytope > 300,
        "{hull} hull, {polytope} polytope"
    );
}

#[test]
fn the_2d_mode_shows_the_inspector_step_asked_for_and_the_whole_minkowski_difference() {
    let Some(xvfb) = xvfb_run("the debug renderer tests") else {
        return;
    };
    let inspect = |step: &str| {
        let (picture, output) = demo(
            &xvfb,
            &format!("2d-step{step}"),
            &["--2d", "--pick", "0", "--inspect", "--inspect-step", step],
        );
        assert!(output.status.success());
        picture
    };
    // GJK's simplex is orange: a point at step 0, a triangle at step 2, gone at EPA's last step (11); the
    // panel's chart and legend have a little orange at every step.
    let orange = |p: &Picture| {
        p.count((0.45, 1.0), (0.0, 1.0), |[r, g, b]| {
            r > 200 && (120..=215).contains(&g) && b < 120
        })
    };
    let (start, triangle) = (inspect("0"), inspect("2"));
    let (last, _) = demo(&xvfb, "2d-last", &["--2d"]);
    let (start, triangle, last_orange) = (orange(&start), orange(&triangle), orange(&last));
    eprintln!("2D simplex: {start} orange pixels at step 0, {triangle} at step 2, {last_orange} at the end");
    assert!(
        triangle > start + 1000 && triangle > last_orange + 1000,
        "{start} {triangle} {last_orange}"
    );
    // The Minkowski difference is drawn whole: none of its blue reaches the picture's edges.
    let blue = |[r, _, b]: [u8; 3]| u16::from(b) > u16::from(r) + 30 && b > 60;
    let edges = last.count((0.0, 1.0), (0.995, 1.0), blue)
        + last.count((0.995, 1.0), (0.0, 1.0), blue)
        + last.count((0.0, 0.005), (0.0, 1.0), blue);
    assert_eq!(edges, 0, "A - B is cut off at the picture's edges");
}

#[test]
fn at_800x600_the_hud_leaves_the_scene_visible() {
    let Some(xvfb) = xvfb_run("the debug renderer tests") else {
        return;
    };
    let (small, output) = demo(
        &xvfb,
        "hud-800x600",
        &["--bodies", "2000", "--width", "800", "--height", "600"],
    );
    assert!(output.status.success());
    assert_eq!((small.width, small.height), (800, 600));
    // The HUD's panel is darker than the background and any lit face.
    let panel = small.count((0.0, 1.0), (0.0, 1.0), |p| p.iter().all(|&c| c < 30));
    let total = 800 * 600;
    eprintln!("800x600: {panel} HUD pixels of {total}");
    assert!(
        panel < total * 30 / 100,
        "the HUD covers {panel} of {total} pixels"
    );
    assert!(panel > total / 20, "no HUD: {panel}");
    let middle = small.count((0.4, 0.6), (0.4, 0.6), red)
        + small.count((0.4, 0.6), (0.4, 0.6), |p| p[0] > 100);
    assert!(middle > 1000, "the middle of the window shows the scene");
}

#[test]
fn inspect_screenshot_draws_the_inspector_offscreen() {
    let input = artefacts().join("pair.jsonl");
    std::fs::write(
        &input,
        "{\"a\": {\"points\": [[-1,-1,-1],[1,-1,-1],[-1,1,-1],[1,1,-1],[-1,-1,1],[1,-1,1],[-1,1,1],[1,1,1]]}, \
         \"b\": {\"points\": [[0,1,0],[0.9,-0.6,0.4],[-0.8,-0.6,0.5],[0.1,-0.6,-0.9]], \"position\": [1.2, 0.5, 0.3], \
         \"rotation\": [0.2, 0.1, 0.3, 0.927]}}\n",
    )
    .unwrap();
    let png = artefacts().join("inspect.png");
    let output = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .args(["inspect", "--screenshot"])
        .arg(&png)
        .arg(&input)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success()
        && stderr.contains("needs a GPU adapter")
        && std::env::var("CI").as_deref() != Ok("true")
    {
        eprintln!("SKIPPED: no GPU adapter for the inspector's picture");
        return;
    }
    assert!(output.status.success(), "{stderr}");
    let picture = Picture::load(&png);
    assert_eq!((picture.width, picture.height), (1280, 720));
    let view = ((0.02, 0.55), (0.1, 0.95));
    let hull = picture.count(view.0, view.1, |[r, g, b]| {
        u16::from(b) > u16::from(r) + 40 && b > 80 && g < 200
    });
    let epa = picture.count(view.0, view.1, |[r, g, b]| g > 150 && r < 150 && b < 170);
    let text = picture.count((0.57, 1.0), (0.05, 0.3), |[r, g, b]| r.min(g).min(b) > 110);
    eprintln!("inspect screenshot: {hull} hull, {epa} polytope, {text} text pixels");
    assert!(
        hull > 20_000 && epa > 500 && text > 1_000,
        "{hull} {epa} {text}"
    );
}
