//! `--shader-checks on|off|auto` on `bench` and `demo`: the report and the JSON say which was asked and what the
//! kernels carry (and the JSON the rate of the readback copy), and a value other than the three is refused with
//! its name. GPU runs are skipped without an
//! adapter, except under `CI=true`.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .args(args)
        .env_remove("GPU_GJK_SHADER_CHECKS")
        .output()
        .expect("the binary runs")
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn an_unknown_value_is_refused_by_name() {
    for command in ["bench", "demo"] {
        let out = run(&[command, "--shader-checks", "unchecked"]);
        let (_, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{command}: {stderr}");
        assert!(
            stderr.contains("--shader-checks") && stderr.contains("`unchecked`"),
            "{command}: {stderr}"
        );
        assert!(stderr.contains("on, off or auto"), "{command}: {stderr}");
    }
}

/// An invalid `GPU_GJK_SHADER_CHECKS` is an error naming the variable, not a quiet fall-back to the CPU.
#[test]
fn an_invalid_environment_value_is_an_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .args(["bench", "--pairs", "100", "--repeat", "1"])
        .env("GPU_GJK_SHADER_CHECKS", "bogus")
        .output()
        .expect("the binary runs");
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("GPU_GJK_SHADER_CHECKS=\"bogus\" is invalid"),
        "{stderr}"
    );
}

#[test]
fn bench_reports_the_checks_asked_for_and_in_force() {
    for (asked, in_force) in [("off", "off, trusted modules"), ("on", "on")] {
        let out = run(&[
            "bench",
            "--pairs",
            "300",
            "--repeat",
            "1",
            "--kind",
            "distance",
            "--backend",
            "gpu",
            "--shader-checks",
            asked,
            "--json",
            "-",
        ]);
        let (stdout, stderr) = text(&out);
        if out.status.code() == Some(2) && stderr.contains("no GPU adapter") {
            assert_ne!(std::env::var("CI").as_deref(), Ok("true"), "{stderr}");
            eprintln!("SKIPPED: {stderr}");
            return;
        }
        assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
        // With --json -, the report goes to stderr.
        let line = format!("GPU shader checks: {in_force} (--shader-checks {asked})");
        assert!(stderr.contains(&line), "{stderr}");
        let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
        assert_eq!(json["shader_checks"], asked, "{stdout}");
        // The readback copy's rate comes with the GPU row.
        let gpu = json["records"]
            .as_array()
            .and_then(|records| records.iter().find(|r| r["backend"] == "gpu"))
            .unwrap_or_else(|| panic!("no GPU record: {stdout}"));
        let rate = gpu["readback_gb_s"].as_f64();
        assert!(rate.is_some_and(|r| r > 0.0), "{gpu}");
    }
}
