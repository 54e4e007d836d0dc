//! Where the commands write, and what happens when they cannot: every output path is checked before the work
//! starts, `-` is standard output for each, an extension that names another format is refused, a reader that
//! goes away (`| head -1`) ends the command quietly, and a standard output closed before the start (`>&-`)
//! is an error rather than results silently lost.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_gpu-gjk");
const PAIR: &str = r#"{"a": {"points": [[0,0,0]], "radius": 1}, "b": {"points": [[0,0,0]], "radius": 1, "position": [3,0,0]}}"#;

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start gpu-gjk");
    let mut input = child.stdin.take().unwrap();
    let text = stdin.to_owned();
    let writer = std::thread::spawn(move || input.write_all(text.as_bytes()));
    let out = child.wait_with_output().unwrap();
    let _ = writer.join().unwrap();
    out
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh folder for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_outputs_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const BENCH: [&str; 8] = [
    "bench",
    "--backend",
    "cpu",
    "--pairs",
    "300",
    "--repeat",
    "1",
    "--kind",
];

fn bench(extra: &[&str]) -> Output {
    let mut args = BENCH.to_vec();
    args.push("distance");
    args.extend_from_slice(extra);
    run(&args, "")
}

#[test]
fn query_checks_its_output_before_reading_anything() {
    let dir = scratch("query_output");
    let output = dir.join("missing/out.jsonl");
    // The input does not exist either: the output is what the error is about, so it was checked first.
    let out = run(
        &[
            "query",
            "--backend",
            "cpu",
            dir.join("no-input.jsonl").to_str().unwrap(),
            "--output",
            output.to_str().unwrap(),
        ],
        "",
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--output") && err.contains("does not exist"),
        "{err}"
    );
    assert!(!err.contains("no-input"), "{err}");
    // A folder is not an output file.
    let out = run(
        &[
            "query",
            "--backend",
            "cpu",
            "--output",
            dir.to_str().unwrap(),
        ],
        PAIR,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("is a folder"),
        "{}",
        text(&out.stderr)
    );
    // `-` is standard output.
    let out = run(&["query", "--backend", "cpu", "--output", "-"], PAIR);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("{\"intersecting\": false"));
}

#[test]
fn bench_checks_every_file_before_measuring() {
    let dir = scratch("bench_files");
    for (flag, name, want) in [
        ("--json", "missing/out.json", "does not exist"),
        ("--csv", "missing/out.csv", "does not exist"),
        ("--chart", "missing/out.svg", "does not exist"),
        ("--chart", "chart.png", "--chart writes SVG"),
        ("--chart", "chart.PDF", "ends in .pdf"),
    ] {
        let path = dir.join(name);
        let out = bench(&[flag, path.to_str().unwrap()]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag} {name}: {err}");
        assert!(
            err.contains(flag) && err.contains(want),
            "{flag} {name}: {err}"
        );
        // Nothing was measured.
        assert!(
            !text(&out.stdout).contains("== 300 pairs"),
            "{}",
            text(&out.stdout)
        );
        assert!(!path.exists());
    }
    let out = bench(&["--json", "-", "--csv", "-"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("only one of"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn dash_puts_one_exported_file_on_stdout_and_the_report_on_stderr() {
    let out = bench(&["--json", "-"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("stdout is not the JSON alone ({e}): {}", text(&out.stdout)));
    assert_eq!(json["records"].as_array().unwrap().len(), 2);
    assert!(
        text(&out.stderr).contains("== 300 pairs"),
        "{}",
        text(&out.stderr)
    );

    let out = bench(&["--csv", "-"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let csv = text(&out.stdout);
    assert!(csv.starts_with("pairs,kind,backend,"), "{csv}");
    assert_eq!(csv.lines().count(), 3, "{csv}");

    let out = bench(&["--chart", "-"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let svg = text(&out.stdout);
    assert!(
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
}

#[test]
fn files_with_matching_or_no_extensions_are_written() {
    let dir = scratch("bench_written");
    let (json, chart) = (dir.join("figures"), dir.join("chart.SVG"));
    let out = bench(&[
        "--json",
        json.to_str().unwrap(),
        "--chart",
        chart.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(std::fs::read_to_string(&json)
        .unwrap()
        .contains("\"records\""));
    assert!(std::fs::read_to_string(&chart).unwrap().starts_with("<svg"));
}

#[test]
fn the_demo_checks_its_screenshot_before_opening_a_window() {
    let dir = scratch("demo_screenshot");
    for (name, want) in [
        ("shot.jpg", "screenshots are PNG"),
        ("missing/shot.png", "does not exist"),
    ] {
        let path = dir.join(name);
        // No display is needed to get this far: the check comes first.
        let out = Command::new(BIN)
            .args(["demo", "--frames", "1", "--screenshot"])
            .arg(&path)
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .output()
            .unwrap();
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(
            err.contains("--screenshot") && err.contains(want),
            "{name}: {err}"
        );
        assert!(!err.contains("no display"), "{name}: {err}");
    }
}

/// `sh -c 'exec gpu-gjk ARGS >&-'`: the program starts with standard output closed.
#[cfg(unix)]
fn with_stdout_closed(args: &str, stdin: &str) -> Output {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec \"$0\" {args} >&-"))
        .arg(BIN)
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command that fails before reading its input (closed stdout) may have gone already: a broken pipe
    // here is expected, and the exit status below is what is checked.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

#[cfg(unix)]
#[test]
fn a_closed_stdout_is_an_error_not_lost_results() {
    for args in [
        "query --backend cpu",
        "bench --backend cpu --pairs 300 --repeat 1",
        "adapters",
    ] {
        let out = with_stdout_closed(args, PAIR);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args}: {err}");
        assert!(err.contains("standard output is closed"), "{args}: {err}");
    }
    // Writing to a file instead is fine, and so is a stdout sent to /dev/null on purpose.
    let dir = scratch("closed_stdout");
    let file = dir.join("out.jsonl");
    let out = with_stdout_closed(
        &format!("query --backend cpu --output {}", file.display()),
        PAIR,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .contains("separated"));
    let out = Command::new("sh")
        .arg("-c")
        .arg("echo '{}' | \"$0\" query --backend cpu > /dev/null".replace("{}", PAIR))
        .arg(BIN)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// Reads the first line of stdout, closes the pipe, and waits: the command must end quietly (exit status 141,
/// as for SIGPIPE, nothing on stderr), not panic with "failed printing to stdout".
fn first_line_then_close(args: &[&str], stdin: String) -> (String, Output) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(stdin.as_bytes());
    });
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    drop(stdout);
    let start = Instant::now();
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(start.elapsed() < Duration::from_secs(120));
    (first, out)
}

#[test]
fn a_reader_that_goes_away_ends_the_command_quietly() {
    let (first, out) = first_line_then_close(
        &[
            "bench",
            "--backend",
            "cpu",
            "--pairs",
            "2000",
            "--repeat",
            "1",
        ],
        String::new(),
    );
    assert!(first.starts_with("gpu-gjk bench:"), "{first}");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "{err}");
    assert!(!err.contains("panicked") && !err.contains("error"), "{err}");

    // Far more answers than a pipe holds.
    let input = format!("{PAIR}\n").repeat(20_000);
    let (first, out) = first_line_then_close(&["query", "--backend", "cpu"], input);
    assert!(first.contains("\"separated\""), "{first}");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(141), "{err}");
    assert!(err.is_empty(), "{err}");
}

/// Runs `gpu-gjk query --backend cpu` with `args` and asserts it refused, naming `--output`, the output and
/// the input, and left the input's bytes as they were.
fn assert_refused_over_input(args: &[&str], input: &std::path::Path, output: &str, before: &[u8]) {
    let mut all = vec!["query", "--backend", "cpu"];
    all.extend_from_slice(args);
    let out = run(&all, "");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains("--output")
            && err.contains(output)
            && err.contains("same file as the input")
            && err.contains(input.to_str().unwrap()),
        "{args:?}: {err}"
    );
    assert_eq!(std::fs::read(input).unwrap(), before, "{args:?}: the input");
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
}

#[test]
fn query_refuses_an_output_that_is_its_input() {
    let dir = scratch("output_is_input");
    let input = dir.join("pairs.jsonl");
    let before = format!("{PAIR}\n{PAIR}\n").into_bytes();
    std::fs::write(&input, &before).unwrap();
    let path = input.to_str().unwrap();
    // The same name, on the streaming path with its writing thread and on one thread.
    assert_refused_over_input(&[path, "--output", path], &input, path, &before);
    assert_refused_over_input(
        &[path, "--threads", "1", "--output", path],
        &input,
        path,
        &before,
    );
    // Another name of the same file.
    let dotted = dir.join(".").join("pairs.jsonl");
    let dotted = dotted.to_str().unwrap();
    assert_refused_over_input(&[path, "--output", dotted], &input, dotted, &before);
    #[cfg(unix)]
    {
        // A symbolic link to the output as the input, and a hard link to the input as the output.
        let link = dir.join("link.jsonl");
        std::os::unix::fs::symlink(&input, &link).unwrap();
        let link_path = link.to_str().unwrap();
        let out = run(
            &["query", "--backend", "cpu", link_path, "--output", path],
            "",
        );
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains(link_path),
            "{}",
            text(&out.stderr)
        );
        assert_eq!(std::fs::read(&input).unwrap(), before);
        let hard = dir.join("hard.jsonl");
        std::fs::hard_link(&input, &hard).unwrap();
        assert_refused_over_input(
            &[path, "--output", hard.to_str().unwrap()],
            &input,
            hard.to_str().unwrap(),
            &before,
        );
        // Standard input read from the output file (`< pairs.jsonl`).
        let out = Command::new(BIN)
            .args(["query", "--backend", "cpu", "--output", path])
            .stdin(std::fs::File::open(&input).unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("the file standard input reads"),
            "{}",
            text(&out.stderr)
        );
        assert_eq!(std::fs::read(&input).unwrap(), before);
    }
    // Another file is written as before.
    let other = dir.join("answers.jsonl");
    let out = run(
        &[
            "query",
            "--backend",
            "cpu",
            path,
            "--output",
            other.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(&other).unwrap().lines().count(), 2);
}

#[test]
fn inspect_and_bench_refuse_to_write_one_file_twice_or_over_the_input() {
    let dir = scratch("inspect_bench_same");
    let input = dir.join("pairs.jsonl");
    let before = format!("{PAIR}\n").into_bytes();
    std::fs::write(&input, &before).unwrap();
    let path = input.to_str().unwrap();
    let out = run(&["inspect", "--trace", path, path], "");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--trace") && err.contains("same file as the input"),
        "{err}"
    );
    assert_eq!(std::fs::read(&input).unwrap(), before);

    let twice = dir.join("figures.txt");
    let twice = twice.to_str().unwrap();
    let out = bench(&["--json", twice, "--csv", twice]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--csv") && err.contains("same file as --json"),
        "{err}"
    );
    assert!(!text(&out.stdout).contains("== 300 pairs"));
}

/// Runs `args` with stdin `stdin`, stderr (and stdout too when `both`) connected to a pipe whose reader is
/// gone before the program starts (`2>&1 | head -c0`): every write there fails with a broken pipe.
#[cfg(unix)]
fn with_readers_gone(args: &[&str], stdin: &str, both: bool) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let stdout = match both {
        true => Stdio::from(writer.try_clone().unwrap()),
        false => Stdio::piped(),
    };
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(writer)
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

/// A stderr whose reader has gone never turns a run into a panic (exit code 101, "failed printing to
/// stderr"): the notices, summaries and statistics written there are best effort. With stdout gone too the
/// run ends quietly (exit code 141), or with 0 when it had nothing more to write there.
#[cfg(unix)]
#[test]
fn a_stderr_whose_reader_has_gone_ends_no_command_in_a_panic() {
    let dir = scratch("stderr_gone");
    let input = dir.join("pairs.jsonl");
    std::fs::write(&input, format!("{PAIR}\n{{\n")).unwrap();
    let good = dir.join("good.jsonl");
    std::fs::write(&good, format!("{PAIR}\n")).unwrap();
    let (input, good) = (input.to_str().unwrap(), good.to_str().unwrap());
    let shapes = dir.join("shapes.arrow");
    let pairs = dir.join("pairs.arrow");
    let (shapes, pairs) = (shapes.to_str().unwrap(), pairs.to_str().unwrap());
    let commands: [&[&str]; 6] = [
        // The auto backend's notice (a software adapter, or none) and the statistics line.
        &["query", good, "--stats"],
        // A bad line's echo.
        &["query", input, "--backend", "cpu", "--stats"],
        &["convert", good, "--shapes", shapes, "--pairs", pairs],
        &["inspect", good],
        &["adapters", "--backend", "gl"],
        &[
            "bench",
            "--backend",
            "cpu",
            "--pairs",
            "300",
            "--repeat",
            "1",
        ],
    ];
    for args in commands {
        let both = with_readers_gone(args, "", true);
        // `adapters` fails (2) on a machine without an OpenGL adapter.
        let failed = args[0] == "adapters" && both.status.code() == Some(2);
        assert!(
            matches!(both.status.code(), Some(0 | 141)) || failed,
            "{args:?}, stdout and stderr gone: {:?}",
            both.status
        );
        // With stdout there, the command does its work and says so there.
        let out = with_readers_gone(args, "", false);
        assert_ne!(out.status.code(), Some(101), "{args:?}: {:?}", out.status);
    }
    // The bad line makes exit code 2 (a failed line), not a panic; its answer line still comes out.
    let out = with_readers_gone(&["query", input, "--backend", "cpu"], "", false);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stdout).contains("line 2: "),
        "{}",
        text(&out.stdout)
    );
    let out = with_readers_gone(&["query", good, "--stats"], "", false);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("separated"));
}
