//! Runs the built `gpu-gjk bench` and reads its output, for the tests of the command's rows and files.

use std::process::{Command, Output};

/// `gpu-gjk bench ARGS`, run to its end.
pub fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .arg("bench")
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The command's stdout and stderr as text.
pub fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// True (after printing SKIPPED) when the GPU backend asked for found no adapter; fails instead under `CI=true`.
pub fn no_adapter(out: &Output) -> bool {
    let (_, stderr) = text(out);
    if out.status.code() == Some(2) && stderr.contains("no GPU adapter") {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "CI=true requires an adapter: {stderr}"
        );
        eprintln!("SKIPPED: {stderr}");
        return true;
    }
    false
}
