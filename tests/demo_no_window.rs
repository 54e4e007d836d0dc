//! `gpu-gjk demo --frames N --no-window`: the stress test with no display at all (no DISPLAY, no
//! WAYLAND_DISPLAY, no XDG_RUNTIME_DIR, as on a GPU server or a fresh CI machine), on the automatic backend
//! and on OpenGL. The summary must say no window was used, every frame checked with 0 disagreements, and the
//! picture must show lit red and neutral meshes and no HUD. Without any GPU adapter the test says it was
//! skipped, except under `CI=true`.

use std::path::Path;
use std::process::{Command, Output};

fn gpu_gjk() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"));
    command
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("XDG_RUNTIME_DIR");
    command
}

fn run(extra: &[&str], screenshot: &Path) -> Output {
    gpu_gjk()
        .args(["demo", "--no-window", "--bodies", "400", "--frames", "30"])
        .arg("--screenshot")
        .arg(screenshot)
        .args(extra)
        .output()
        .expect("running gpu-gjk")
}

/// Pixels of the PNG at `path` (RGBA, 1280 x 720) that satisfy `test`, within the rectangle of fractions.
fn count(path: &Path, x: (f32, f32), y: (f32, f32), test: impl Fn([u8; 3]) -> bool) -> usize {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut rgba = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut rgba).unwrap();
    assert_eq!((info.width, info.height), (1280, 720));
    let (w, h) = (info.width as f32, info.height as f32);
    let mut n = 0;
    for row in (y.0 * h) as usize..(y.1 * h) as usize {
        for col in (x.0 * w) as usize..(x.1 * w) as usize {
            let i = 4 * (row * info.width as usize + col);
            n += usize::from(test([rgba[i], rgba[i + 1], rgba[i + 2]]));
        }
    }
    n
}

fn red([r, g, b]: [u8; 3]) -> bool {
    r > 90 && u16::from(r) > 2 * u16::from(g.max(b)) + 20
}

fn neutral([r, g, b]: [u8; 3]) -> bool {
    let (lo, hi) = (r.min(g).min(b), r.max(g).max(b));
    lo > 80 && hi - lo < 60 && b >= r
}

#[test]
fn the_stress_test_runs_without_a_display_and_agrees_with_the_cpu() {
    let dir = std::env::temp_dir().join(format!("gpu-gjk-no-window-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, extra) in [("auto", &[][..]), ("gl", &["--backend", "gl"][..])] {
        let png = dir.join(format!("{name}.png"));
        let output = run(extra, &png);
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        if !output.status.success()
            && stderr.contains("opening a GPU")
            && std::env::var("CI").as_deref() != Ok("true")
        {
            eprintln!("SKIPPED ({name}): no GPU adapter here: {stderr}");
            continue;
        }
        assert!(
            output.status.success(),
            "demo --no-window {extra:?} failed ({}):\n{stdout}\n{stderr}",
            output.status
        );
        let summary: serde_json::Value = serde_json::from_str(&stdout)
            .unwrap_or_else(|e| panic!("summary is not JSON ({e}): {stdout}"));
        eprintln!("{name}: {summary}");
        assert_eq!(summary["window"], false);
        assert_eq!(summary["frames"], 30);
        assert_eq!(summary["bodies"], 400);
        assert_eq!(summary["frames_checked"], 30, "every frame is checked");
        assert_eq!(summary["disagreements"], 0, "{summary}");
        assert!(summary["mean_ms"]["gpu_narrow_phase"].as_f64().unwrap() > 0.0);
        assert!(summary["mean_ms"]["render"].as_f64().unwrap() > 0.0);
        assert!(summary["colliding_pairs_last"].as_u64().unwrap() > 0);
        if name == "gl" {
            assert_eq!(summary["backend"], "Gl");
        }
        let whole = ((0.0, 1.0), (0.0, 1.0));
        let reds = count(&png, whole.0, whole.1, red);
        let neutrals = count(&png, whole.0, whole.1, neutral);
        assert!(
            reds > 2000 && neutrals > 2000,
            "{reds} red, {neutrals} neutral pixels"
        );
        // No HUD: its dark translucent panel (top left in a window) is not drawn.
        let panel = count(&png, (0.02, 0.25), (0.1, 0.7), |rgb| {
            rgb.iter().all(|&c| c < 25)
        });
        assert!(panel < 1000, "{panel} HUD-dark pixels: a HUD was drawn");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn no_window_needs_frames_and_refuses_what_needs_a_window() {
    for (args, named) in [
        (&["demo", "--no-window"][..], "--frames"),
        (
            &["demo", "--no-window", "--frames", "2", "--2d"][..],
            "--2d",
        ),
        (
            &["demo", "--no-window", "--frames", "2", "--pick", "3"][..],
            "--pick",
        ),
    ] {
        let output = gpu_gjk().args(args).output().expect("running gpu-gjk");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(named), "{args:?}: {stderr}");
    }
}
