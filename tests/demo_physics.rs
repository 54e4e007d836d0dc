//! `gpu-gjk demo --no-window --response physics`: the bodies fall onto the floor. The summary reports the
//! physics (contacts, kinetic energy), and the picture shows the bodies lower than the same scene without a
//! response. Without any GPU adapter the test says it was skipped, except under `CI=true`.

use std::path::Path;
use std::process::{Command, Output};

fn run(response: &str, screenshot: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("XDG_RUNTIME_DIR")
        .args(["demo", "--no-window", "--bodies", "200", "--frames", "150"])
        .args(["--response", response, "--screenshot"])
        .arg(screenshot)
        .output()
        .expect("running gpu-gjk")
}

/// The fraction of the body pixels (lit, not the dark background) of the PNG at `path` in its bottom half.
fn bottom_share(path: &Path) -> f64 {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut rgba = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut rgba).unwrap();
    let (w, h) = (info.width as usize, info.height as usize);
    let (mut all, mut bottom) = (0usize, 0usize);
    for row in 0..h {
        for col in 0..w {
            let i = 4 * (row * w + col);
            if rgba[i..i + 3].iter().any(|&c| c > 80) {
                all += 1;
                bottom += usize::from(row >= h / 2);
            }
        }
    }
    assert!(all > 2000, "{all} body pixels");
    bottom as f64 / all as f64
}

#[test]
fn physics_drops_the_bodies_onto_the_floor() {
    let dir = std::env::temp_dir().join(format!("gpu-gjk-physics-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut shares = Vec::new();
    for response in ["off", "physics"] {
        let png = dir.join(format!("{response}.png"));
        let output = run(response, &png);
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        if !output.status.success()
            && stderr.contains("opening a GPU")
            && std::env::var("CI").as_deref() != Ok("true")
        {
            eprintln!("SKIPPED: no GPU adapter here: {stderr}");
            return;
        }
        assert!(output.status.success(), "{response}: {stdout}\n{stderr}");
        let summary: serde_json::Value = serde_json::from_str(&stdout)
            .unwrap_or_else(|e| panic!("summary is not JSON ({e}): {stdout}"));
        assert_eq!(summary["response_mode"], response);
        assert_eq!(summary["disagreements"], 0, "{summary}");
        if response == "physics" {
            let physics = &summary["physics"];
            eprintln!("physics: {physics}");
            assert!(
                physics["last"]["contacts"].as_u64().unwrap() > 50,
                "{physics}"
            );
            let first = physics["first_kinetic_energy"].as_f64().unwrap();
            let last = physics["last"]["kinetic_energy"].as_f64().unwrap();
            assert!(last < first, "{physics}");
        } else {
            assert!(summary["physics"].is_null());
        }
        shares.push(bottom_share(&png));
    }
    eprintln!("share of body pixels in the bottom half, off then physics: {shares:?}");
    assert!(
        shares[1] > shares[0] + 0.15,
        "off {:.3}, physics {:.3}: the bodies did not fall",
        shares[0],
        shares[1]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
