//! `gpu-gjk demo` in a real window under Xvfb with software rendering: the headless run (2,000
//! bodies, 120 frames, a screenshot), on the automatic backend and on OpenGL. The summary must report 0
//! disagreements and the picture must show lit red and neutral meshes and the HUD. Without Xvfb the test
//! says it was skipped, except under `CI=true` (where `.ci/run` installs it).

mod common;

use common::picture::Picture;
use common::xvfb::{under_xvfb, xvfb_run};
use std::path::Path;
use std::process::Command;

/// Runs the demo under Xvfb and returns its JSON summary.
fn run_demo(xvfb: &Path, extra: &[&str], screenshot: &Path) -> serde_json::Value {
    let output = under_xvfb(xvfb, |command| {
        command
            .args([
                "demo",
                "--bodies",
                "2000",
                "--frames",
                "120",
                "--screenshot",
            ])
            .arg(screenshot)
            .args(extra);
    });
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "demo {extra:?} failed ({}):\n{stdout}\n{stderr}",
        output.status
    );
    eprintln!("demo {extra:?}: {stdout}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("summary is not JSON ({e}): {stdout}"))
}

fn red([r, g, b]: [u8; 3]) -> bool {
    r > 90 && u16::from(r) > 2 * u16::from(g.max(b)) + 20
}

/// Lit grey-blue: bright enough to be a lit face, little saturation.
fn neutral([r, g, b]: [u8; 3]) -> bool {
    let (lo, hi) = (r.min(g).min(b), r.max(g).max(b));
    lo > 80 && hi - lo < 60 && b >= r
}

fn check_picture(path: &Path, summary: &serde_json::Value) {
    let picture = Picture::load(path);
    assert_eq!((picture.width, picture.height), (1280, 720));
    // The scene fills the right half of the window (the HUD sits top left).
    let scene = ((0.45, 1.0), (0.0, 1.0));
    let reds = picture.count(scene.0, scene.1, red);
    let neutrals = picture.count(scene.0, scene.1, neutral);
    eprintln!(
        "{}: {reds} red and {neutrals} neutral pixels",
        path.display()
    );
    assert!(reds > 2000, "too few red pixels: {reds}");
    assert!(neutrals > 2000, "too few neutral pixels: {neutrals}");
    // Lit meshes: faces at different angles to the light give many distinct shades of red.
    let mut shades = std::collections::BTreeSet::new();
    for i in (0..picture.rgba.len()).step_by(4) {
        let rgb = [picture.rgba[i], picture.rgba[i + 1], picture.rgba[i + 2]];
        if red(rgb) {
            shades.insert(rgb[0] / 8);
        }
    }
    assert!(
        shades.len() >= 6,
        "red looks unlit: {} shades",
        shades.len()
    );
    // The HUD: a translucent panel in the top-left corner, darker than both the background and any lit
    // face, holding light-grey text.
    let hud = ((0.02, 0.25), (0.1, 0.7));
    let area = (0.23 * 1280.0 * 0.6 * 720.0) as usize;
    let panel = picture.count(hud.0, hud.1, |rgb| rgb.iter().all(|&c| c < 25));
    let text = picture.count(hud.0, hud.1, |[r, g, b]| {
        r.min(g).min(b) > 110 && r.max(g).max(b) - r.min(g).min(b) < 30
    });
    eprintln!("HUD region: {panel} panel and {text} text pixels of {area}");
    assert!(
        panel > area / 2,
        "no HUD panel: {panel} dark pixels of {area}"
    );
    assert!(text > 1000, "no HUD text: {text} light pixels");
    assert!(summary["candidate_pairs_mean"].as_f64().unwrap() > 1000.0);
    assert!(summary["colliding_pairs_last"].as_u64().unwrap() > 0);
}

#[test]
fn headless_demo_under_xvfb_draws_both_colours_and_agrees_with_the_cpu() {
    let Some(xvfb) = xvfb_run("the window tests") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("gpu-gjk-demo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, extra) in [("auto", &[][..]), ("gl", &["--backend", "gl"][..])] {
        let png = dir.join(format!("{name}.png"));
        let summary = run_demo(&xvfb, extra, &png);
        assert_eq!(summary["frames"], 120);
        assert_eq!(summary["bodies"], 2000);
        assert_eq!(summary["frames_checked"], 120, "every frame is checked");
        assert_eq!(summary["disagreements"], 0, "{summary}");
        assert!(summary["mean_ms"]["gpu_narrow_phase"].as_f64().unwrap() > 0.0);
        assert!(summary["mean_ms"]["cpu_narrow_phase"].as_f64().unwrap() > 0.0);
        if name == "gl" {
            assert_eq!(summary["backend"], "Gl");
        }
        check_picture(&png, &summary);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn demo_without_a_display_says_so() {
    let output = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .args(["demo", "--frames", "1"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no display"), "{stderr}");
}

#[test]
fn demo_with_a_malformed_mesh_names_the_file_and_line() {
    let dir = std::env::temp_dir().join(format!("gpu-gjk-demo-mesh-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("broken.obj");
    std::fs::write(&bad, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n").unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .args(["demo", "--frames", "1", "--mesh"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("broken.obj:4"), "{stderr}");
    let missing = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .args(["demo", "--frames", "1", "--assets"])
        .arg(dir.join("nowhere"))
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(
        stderr.contains("cube.obj") && stderr.contains("not found"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A tetrahedron OBJ with edges of length `edge` (as written in the file).
fn tetrahedron_obj(path: &Path, edge: &str) {
    let text = format!(
        "v 0 0 0\nv {edge} 0 0\nv 0 {edge} 0\nv 0 0 {edge}\nf 1 2 3\nf 1 2 4\nf 1 3 4\nf 2 3 4\n"
    );
    std::fs::write(path, text).unwrap();
}

#[test]
fn tiny_meshes_and_huge_windows_are_one_line_errors_or_work() {
    let dir = std::env::temp_dir().join(format!("gpu-gjk-demo-tiny-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Refused when the mesh is read, before any window opens: 1e-40 is below float32's smallest normal number
    // (the demo's own check, that a factor of 1e40 has no float32, is tested in `stress::scene`).
    let unscalable = dir.join("tiny40.obj");
    tetrahedron_obj(&unscalable, "1e-40");
    let output = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .args(["demo", "--frames", "1", "--mesh"])
        .arg(&unscalable)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("tiny40.obj:2") && stderr.contains("1e-40 is too small for float32"),
        "{stderr}"
    );
    let Some(xvfb) = xvfb_run("the window tests") else {
        return;
    };
    let demo = |extra: &[&str]| {
        under_xvfb(&xvfb, |command| {
            command
                .args(["demo", "--bodies", "40", "--frames", "2"])
                .args(extra);
        })
    };
    // 1e-23 edges panicked (PointOutOfRange); 1e-30 made bodies 1e8 units wide. Both now scale to the
    // body sizes, and the run is checked against the CPU.
    for edge in ["1e-23", "1e-30"] {
        let mesh = dir.join(format!("tiny{edge}.obj"));
        tetrahedron_obj(&mesh, edge);
        let output = demo(&["--mesh", mesh.to_str().unwrap()]);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{edge}: {}\n{stdout}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        let summary: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(summary["disagreements"], 0, "{summary}");
    }
    // Wider than the adapter draws (llvmpipe: 16,384): wgpu panicked here.
    let output = demo(&["--width", "20000"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--width 20000") && stderr.contains("draws at most"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}
