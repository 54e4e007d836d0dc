//! Running `gpu-gjk` in a virtual X display for the window tests (`xvfb-run`, software rendering).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// What `xvfb-run` prints when it fails to remove its temporary directory after the program has exited.
const CLEANUP_RACE: &str = "xvfb-run: error: problem while cleaning up temporary directory";

/// How many times a run is made when `xvfb-run` keeps failing to clean up.
const TRIES: usize = 3;

/// `xvfb-run` on the PATH. Without it the test says it was skipped (`what` names the tests), except under
/// `CI=true`, where `.ci/run` installs it.
pub fn xvfb_run(what: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("xvfb-run"))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true requires xvfb-run (apt-get install xvfb xauth; .ci/run does it)"
        );
        eprintln!("SKIPPED: {what} need xvfb-run (apt-get install xvfb xauth)");
    }
    found
}

/// Runs `gpu-gjk` with the arguments `args` adds, under `xvfb-run -a` on a 1280x800 screen, without Wayland.
///
/// `xvfb-run` itself sometimes fails after the program has exited: removing its temporary directory races
/// with `xauth` writing there (seen in a CI run: the demo's one-line error, then "problem while cleaning up
/// temporary directory" and exit status 5 in place of the demo's 2). Such a run says nothing about the
/// program, so it is made again, up to [`TRIES`] times; the last one is returned whatever it says.
pub fn under_xvfb(xvfb: &Path, args: impl Fn(&mut Command)) -> Output {
    let mut tries = 0;
    loop {
        let mut command = Command::new(xvfb);
        command
            .args(["-a", "-s", "-screen 0 1280x800x24"])
            .arg(env!("CARGO_BIN_EXE_gpu-gjk"));
        args(&mut command);
        let output = command
            .env_remove("WAYLAND_DISPLAY")
            .output()
            .expect("running xvfb-run");
        tries += 1;
        let raced = String::from_utf8_lossy(&output.stderr).contains(CLEANUP_RACE);
        if !raced || tries == TRIES {
            return output;
        }
        eprintln!("xvfb-run could not clean up after the run (try {tries}); running it again");
    }
}
