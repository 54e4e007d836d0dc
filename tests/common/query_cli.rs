//! Runs the built `gpu-gjk query` on JSON Lines input and parses its answer lines, for the tests that compare
//! the command's answers on several backends.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

/// `gpu-gjk query ARGS` on `input`, each output line parsed; `None` (after printing `SKIPPED`) when the backend
/// has no adapter, which `CI=true` turns into a failure. Any other failure of the command fails the test.
pub fn query_lines(args: &[&str], input: String) -> Option<Vec<Value>> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .arg("query")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A backend without an adapter exits before reading its input: that pipe error is its stderr's to tell.
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let what = args.join(" ");
    if !out.status.success() && stderr.contains("no GPU adapter") {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "CI=true requires an adapter for query {what}: {stderr}"
        );
        eprintln!("SKIPPED query {what}: {stderr}");
        return None;
    }
    assert!(out.status.success(), "query {what}: {stderr}");
    Some(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect(),
    )
}
