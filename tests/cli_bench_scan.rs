//! `gpu-gjk bench --scan`: one GPU row per scan kernel where the adapter has subgroups (lavapipe), refused naming
//! the feature where it has none (llvmpipe through OpenGL), and a bad name refused naming it. Runs without an
//! adapter are skipped, except under `CI=true`.

mod common;

use common::bench_cli::{bench, no_adapter, text};

const SCENE: [&str; 12] = [
    "--shapes",
    "hull",
    "--max-hull-points",
    "300",
    "--raw-scan",
    "--pairs",
    "600",
    "--repeat",
    "1",
    "--kind",
    "distance",
    "--json",
];

#[test]
fn both_scan_kernels_get_a_row_or_the_feature_is_named() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_bench_scan");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for backend in ["vulkan", "gl"] {
        let json = dir.join(format!("{backend}.json"));
        let mut args = vec!["--backend", backend, "--scan", "per-thread,subgroup"];
        args.extend(SCENE);
        args.push(json.to_str().unwrap());
        let out = bench(&args);
        if no_adapter(&out) {
            continue;
        }
        let (stdout, stderr) = text(&out);
        if out.status.code() == Some(2) {
            // No subgroups on this adapter: refused before any row is timed, naming the feature.
            assert!(
                stderr.contains("--scan subgroup") && stderr.contains("SUBGROUP"),
                "{backend}: {stderr}"
            );
            continue;
        }
        assert_eq!(out.status.code(), Some(0), "{backend}: {stdout}\n{stderr}");
        assert!(
            stdout.contains("GPU (scan per-thread)") && stdout.contains("GPU (scan subgroup)"),
            "{stdout}"
        );
        let value: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(
            value["scan_kernels"],
            serde_json::json!(["per-thread", "subgroup"])
        );
        assert_eq!(value["clean"], true, "{backend}");
        let gpu: Vec<&serde_json::Value> = value["records"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["backend"] == "gpu")
            .collect();
        assert_eq!(gpu.len(), 2, "{backend}");
        assert_eq!(gpu[0]["scan_kernel"], "per-thread");
        assert_eq!(gpu[0]["subgroup_pairs"], 0);
        assert_eq!(gpu[1]["scan_kernel"], "subgroup");
        assert!(
            gpu[1]["subgroup_pairs"].as_u64().unwrap() > 0,
            "{backend}: {value}"
        );
    }
}

#[test]
fn an_unknown_scan_kernel_is_named() {
    let out = bench(&["--backend", "cpu", "--scan", "per-thread,warp"]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("`warp`") && stderr.contains("per-thread,subgroup"),
        "{stderr}"
    );
}
