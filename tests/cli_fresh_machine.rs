//! A fresh machine (a container, a CI runner, an ssh session) has no `XDG_RUNTIME_DIR`, and Mesa then prints
//! `error: XDG_RUNTIME_DIR is invalid...` on stderr whenever a wgpu instance is created. So the commands that
//! need no GPU must create none: with `GPU_GJK_LOG_INSTANCES` set, the program says on stderr when it creates
//! one, and these tests check that help, argument errors, `query --backend cpu` and `bench --backend cpu`
//! never do (and that the commands that do need one say so, so the check can fail). Also: the messages for
//! an invalid `WGPU_BACKEND` and for a backend this build does not have.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const LOG_LINE: &str = "gpu-gjk: creating a wgpu instance";

/// Runs the binary as a fresh machine would, with instance creation logged, `stdin` on its standard input.
fn run(args: &[&str], stdin: &str, env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"));
    command
        .args(args)
        .env_remove("XDG_RUNTIME_DIR")
        .env_remove("WGPU_BACKEND")
        .env("GPU_GJK_LOG_INSTANCES", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command.spawn().expect("start gpu-gjk");
    let mut input = child.stdin.take().unwrap();
    let text = stdin.to_owned();
    let writer = std::thread::spawn(move || input.write_all(text.as_bytes()));
    let out = child.wait_with_output().unwrap();
    let _ = writer.join().unwrap();
    out
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const PAIR: &str = r#"{"a": {"points": [[0,0,0]], "radius": 1}, "b": {"points": [[0,0,0]], "radius": 1, "position": [3,0,0]}}"#;

#[test]
fn commands_that_need_no_gpu_create_no_wgpu_instance() {
    let input = format!("{PAIR}\n");
    let cases: [(&[&str], &str, i32); 9] = [
        (&["--help"], "", 0),
        (&["query", "--help"], "", 0),
        (&["bench", "--help"], "", 0),
        (&["demo", "--help"], "", 0),
        (&["query", "--no-such-flag"], "", 2),
        (&["demo", "--bodies", "0"], "", 2),
        (&["query", "--backend", "cpu"], &input, 0),
        (&["query", "--backend", "cpu", "--threads", "1"], &input, 0),
        (
            &[
                "bench",
                "--backend",
                "cpu",
                "--pairs",
                "300",
                "--repeat",
                "1",
                "--kind",
                "distance",
            ],
            "",
            0,
        ),
    ];
    for (args, stdin, code) in cases {
        let out = run(args, stdin, &[]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        assert!(
            !err.contains(LOG_LINE),
            "{args:?} created a wgpu instance:\n{err}"
        );
        // What Mesa prints when an instance is made without XDG_RUNTIME_DIR (lavapipe installed).
        assert!(!err.contains("XDG_RUNTIME_DIR"), "{args:?}:\n{err}");
    }
}

#[test]
fn commands_that_need_a_gpu_say_they_create_an_instance() {
    // The control for the test above: the log line is printed where an instance is made.
    let out = run(&["adapters"], "", &[]);
    assert!(stderr(&out).contains(LOG_LINE), "{}", stderr(&out));
}

#[test]
fn an_invalid_wgpu_backend_variable_is_named() {
    let nonsense = [("WGPU_BACKEND", "nonsense")];
    for args in [
        &["adapters"][..],
        &["query", "--backend", "gpu"][..],
        &["query", "--backend", "auto"][..],
    ] {
        let out = run(args, &format!("{PAIR}\n"), &nonsense);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("WGPU_BACKEND=\"nonsense\" is invalid")
                && err.contains("\"nonsense\" is not"),
            "{args:?}: {err}"
        );
        assert!(!err.contains(LOG_LINE), "{args:?}: {err}");
    }
    // A command that does not use wgpu does not care.
    let out = run(
        &["query", "--backend", "cpu"],
        &format!("{PAIR}\n"),
        &nonsense,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// Metal and DX12 are not built on Linux: `adapters` fails like `query` does, and no message ends in the
/// empty `{}` wgpu prints for "no backend to try".
#[cfg(target_os = "linux")]
#[test]
fn a_backend_this_build_lacks_is_an_error_that_says_so() {
    for args in [
        &["adapters", "--backend", "metal"][..],
        &["adapters", "--backend", "dx12"][..],
        &["query", "--backend", "metal"][..],
        &["query", "--backend", "dx12"][..],
    ] {
        let out = run(args, &format!("{PAIR}\n"), &[]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        let backend = args[2];
        assert!(
            err.contains(&format!("there is no {backend} backend in this build")),
            "{args:?}: {err}"
        );
        assert!(!err.trim_end().ends_with("{}"), "{args:?}: {err}");
        assert!(!err.contains(LOG_LINE), "{args:?}: {err}");
    }
}

/// With Vulkan's or EGL's Wayland probe, libwayland-client says `error: XDG_RUNTIME_DIR is invalid or not set`
/// for each instance on a machine without the variable; the program gives the probe an empty folder, so no
/// command that touches a GPU prints a line that reads as its own failure.
#[test]
fn a_fresh_machine_sees_no_error_line_from_the_wayland_probe() {
    let out = run(&["adapters"], "", &[("WAYLAND_DISPLAY", "")]);
    let text = stderr(&out);
    assert!(
        !text
            .lines()
            .any(|line| line.starts_with("error: XDG_RUNTIME_DIR")),
        "{text}"
    );
    let out = run(&["bench", "--pairs", "2000", "--repeat", "1"], "", &[]);
    let text = stderr(&out);
    assert!(
        !text.lines().any(|line| line.starts_with("error:")),
        "{text}"
    );
}

/// `query` on a file that does not exist says so before it probes the GPU (no wgpu instance, no adapter
/// notice), and its help says what it answers by default.
#[test]
fn a_missing_input_is_named_before_any_gpu_is_probed() {
    let out = run(&["query", "no-such-pairs.jsonl"], "", &[]);
    let text = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("cannot read input file no-such-pairs.jsonl"),
        "{text}"
    );
    assert!(!text.contains(LOG_LINE), "a GPU was probed first:\n{text}");
    let help = run(&["query", "--help"], "", &[]);
    let usage = String::from_utf8_lossy(&help.stdout);
    assert!(
        usage.contains("penetration depth and contacts by default"),
        "{usage}"
    );
}
