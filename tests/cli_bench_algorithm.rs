//! `gpu-gjk bench --algorithm both`: both rates and the agreement counts for each polyhedral family, exit code
//! 0 when they agree; flags that do not apply are refused.

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
        // Two rates, the ratio, compared, band, and no disagreement of either kind.
        assert_eq!(cells.len(), 7, "{row}");
        assert!(
            cells[3].parse::<usize>().unwrap() + cells[4].parse::<usize>().unwrap() == 30,
            "{row}"
        );
        assert_eq!(&cells[5..], ["0", "0"], "{row}");
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
