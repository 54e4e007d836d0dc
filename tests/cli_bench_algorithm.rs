//! `gpu-gjk bench --algorithm both`: both rates and the agreement counts for each polyhedral family, exit code
//! 0 when they agree, the GPU's separating axis test beside them where there is an adapter; flags that do not
//! apply are refused.

use std::process::Command;

#[test]
fn both_algorithms_are_timed_and_agree_on_every_family() {
    let out = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .args([
            "bench",
            "--algorithm",
            "both",
            "--pairs",
            "30",
            "--repeat",
            "1",
        ])
        .output()
        .expect("run gpu-gjk");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for family in ["box", "hull 8", "hull 64", "hull 512"] {
        let row = text
            .lines()
            .find(|l| l.starts_with(&format!("{family:<10} ")))
            .unwrap_or_else(|| panic!("no {family} row in\n{text}"));
        let cells: Vec<&str> = row[10..].split_whitespace().collect();
        // Three rates (the GPU's "-" without an adapter), the ratio, compared, band, and no disagreement of
        // any kind.
        assert_eq!(cells.len(), 9, "{row}");
        assert!(
            cells[4].parse::<usize>().unwrap() + cells[5].parse::<usize>().unwrap() == 30,
            "{row}"
        );
        assert_eq!(&cells[6..8], ["0", "0"], "{row}");
        assert!(["0", "-"].contains(&cells[8]), "{row}");
    }
}

#[test]
fn the_gpu_separating_axis_test_is_timed_and_agrees_with_the_cpu() {
    let out = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .args([
            "bench",
            "--algorithm",
            "sat",
            "--backend",
            "gpu",
            "--pairs",
            "40",
            "--repeat",
            "1",
        ])
        .env_remove("XDG_RUNTIME_DIR")
        .output()
        .expect("run gpu-gjk");
    let text = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if stderr.contains("no GPU adapter") && std::env::var("CI").as_deref() != Ok("true") {
        eprintln!("SKIPPED: no GPU adapter: {stderr}");
        return;
    }
    assert_eq!(out.status.code(), Some(0), "{text}\n{stderr}");
    for family in ["box", "hull 8", "hull 64", "hull 512"] {
        let row = text
            .lines()
            .find(|l| l.starts_with(&format!("{family:<10} ")))
            .unwrap_or_else(|| panic!("no {family} row in\n{text}"));
        let cells: Vec<&str> = row[10..].split_whitespace().collect();
        assert_eq!(cells.len(), 9, "{row}");
        assert_eq!(cells[0], "-", "{row}");
        assert!(
            cells[2].replace(',', "").parse::<f64>().unwrap() > 0.0,
            "{row}"
        );
        assert_eq!(cells[8], "0", "{row}");
        assert!(
            text.contains(&format!("{family}, GPU against CPU SAT: 40 compared")),
            "{text}"
        );
    }
}

#[test]
fn algorithm_refuses_the_flags_of_the_other_modes() {
    let out = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .args(["bench", "--algorithm", "sat", "--kind", "distance"])
        .output()
        .expect("run gpu-gjk");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot be used with"));
}
