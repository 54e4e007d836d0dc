//! `gpu-gjk demo --no-window --response physics`: the bodies fall onto the floor. The summary reports the
//! physics (contacts, kinetic energy, where it ran and the CPU's check of the GPU's contacts), and the picture
//! shows the bodies lower than the same scene without a response, with physics on the GPU (`--broad-phase
//! gpu --check-pairs sample`: the scene's bodies live there) and on the CPU (`--broad-phase cpu` keeps the
//! scene on the host; on the GPU the shipped sphere and capsule step as their contact proxies). Without any GPU
//! adapter the test says it was skipped, except under `CI=true`.

use std::path::Path;
use std::process::{Command, Output};

fn run(response: &str, extra: &[&str], screenshot: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("XDG_RUNTIME_DIR")
        .args(["demo", "--no-window", "--bodies", "200", "--frames", "150"])
        .args(["--response", response])
        .args(extra)
        .arg("--screenshot")
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
    let runs: [(&str, &[&str]); 3] = [
        ("off", &[]),
        (
            "physics",
            &["--broad-phase", "gpu", "--check-pairs", "sample"],
        ),
        ("physics", &["--broad-phase", "cpu"]),
    ];
    for (k, (response, extra)) in runs.into_iter().enumerate() {
        let on_gpu = extra.contains(&"gpu");
        let png = dir.join(format!("{k}-{response}.png"));
        let output = run(response, extra, &png);
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
            assert_eq!(physics["last"]["on_gpu"], on_gpu, "{physics}");
            // The device clips in float32: now and then a clipped point lands past the band, or a point at the
            // keeping threshold is kept on one side only (about 1 in 15,000 sampled contacts of a pile).
            let disputed = physics["contacts_disputed"].as_u64().unwrap();
            // A software adapter's loop budget, shared by a group of 64 slots, can run out where big hulls meet:
            // such slots are named and left out of their step (a few in 10,000 here; none on a hardware GPU).
            let failed = physics["contacts_failed"].as_u64().unwrap();
            let checked = physics["contacts_checked"].as_u64().unwrap();
            if on_gpu {
                // 64 contacts a frame once the pile has that many candidate pairs.
                assert!(checked > 1000 && failed * 100 <= checked, "{physics}");
                assert!(disputed * 1000 <= checked, "{physics}");
            } else {
                assert_eq!((checked, failed, disputed), (0, 0, 0), "{physics}");
            }
        } else {
            assert!(summary["physics"].is_null());
        }
        shares.push(bottom_share(&png));
    }
    eprintln!(
        "share of body pixels in the bottom half, off, physics on the GPU, on the CPU: {shares:?}"
    );
    for (k, place) in [(1, "GPU"), (2, "CPU")] {
        assert!(
            shares[k] > shares[0] + 0.15,
            "off {:.3}, physics on the {place} {:.3}: the bodies did not fall",
            shares[0],
            shares[k]
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
