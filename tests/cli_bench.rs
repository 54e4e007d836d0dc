//! `gpu-gjk bench` through the binary: the CPU rows, the JSON/CSV/SVG files, the sweep and bad arguments.
//! GPU runs are skipped without an adapter, except under `CI=true`.

use std::path::PathBuf;
use std::process::{Command, Output};

mod common;

use common::bench_cli::{bench, no_adapter, text};

/// Table rows (lines with column separators) whose backend cell starts with `backend`.
fn rows(stdout: &str, backend: &str) -> usize {
    stdout
        .lines()
        .filter(|l| l.starts_with(backend) && l.contains(" | "))
        .count()
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_bench_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn cpu_only_run_prints_the_cpu_rows() {
    let out = bench(&["--pairs", "2000", "--repeat", "1", "--backend", "cpu"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("GPU: skipped (--backend cpu)"), "{stdout}");
    for kind in ["distance", "intersection"] {
        assert!(
            stdout.contains(&format!("== 2000 pairs (4000 instances), {kind} queries")),
            "{stdout}"
        );
    }
    assert_eq!(rows(&stdout, "CPU 1 thread "), 2, "{stdout}");
    assert_eq!(rows(&stdout, "CPU "), 4, "{stdout}");
    assert_eq!(rows(&stdout, "GPU "), 0, "{stdout}");
    assert!(stdout.contains("result: clean"), "{stdout}");
}

#[test]
fn gpu_run_writes_json_csv_and_svg() {
    let dir = scratch("files");
    let (json, csv, svg) = (
        dir.join("out.json"),
        dir.join("out.csv"),
        dir.join("out.svg"),
    );
    let out = bench(&[
        "--backend",
        "gpu",
        "--pairs",
        "3000",
        "--repeat",
        "1",
        "--kind",
        "distance",
        "--json",
        json.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
        "--chart",
        svg.to_str().unwrap(),
    ]);
    if no_adapter(&out) {
        return;
    }
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("GPU vs CPU 1 thread (clean)"), "{stdout}");

    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(value["seed"], 1);
    assert_eq!(value["clean"], true);
    let records = value["records"].as_array().unwrap();
    let backends: Vec<&str> = records
        .iter()
        .map(|r| r["backend"].as_str().unwrap())
        .collect();
    assert_eq!(backends, ["cpu1", "cpu_all", "gpu"]);
    for r in records {
        assert_eq!(r["pairs"], 3000);
        assert_eq!(r["kind"], "distance");
        assert!(r["pairs_per_s"].as_f64().unwrap() > 0.0, "{r}");
        assert!(r["total_s"].as_f64().unwrap() > 0.0, "{r}");
        for field in [
            "adapter",
            "threads",
            "speedup_vs_cpu1",
            "upload_s",
            "kernel_s",
            "flag_disagreements",
        ] {
            assert!(r.get(field).is_some(), "{field} missing in {r}");
        }
    }
    let gpu = &records[2];
    assert!(
        gpu["upload_s"].as_f64().is_some() && gpu["readback_s"].as_f64().is_some(),
        "{gpu}"
    );
    assert_eq!(gpu["flag_disagreements"], 0);
    assert!(gpu["max_distance_error"].as_f64().unwrap() < 1e-4);
    assert_eq!(records[0]["speedup_vs_cpu1"], 1.0);

    let csv = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 4, "{csv}");
    assert!(lines[0].starts_with("pairs,kind,backend,adapter,"), "{csv}");
    assert!(lines[1].starts_with("3000,distance,cpu1,"), "{csv}");
    assert!(lines[3].starts_with("3000,distance,gpu,"), "{csv}");

    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.contains("<svg") && svg.contains("GPU"), "{svg}");
}

/// `--no-binning` dispatches the GPU's pairs in the order given: the JSON says which order ran, and binned by
/// work (the default) the lanes of a group of 32 are busier evenly, with the answers as clean either way.
#[test]
fn no_binning_keeps_the_order_given() {
    let dir = scratch("binning");
    let mut simt = Vec::new();
    for (name, extra) in [("binned", None), ("unbinned", Some("--no-binning"))] {
        let json = dir.join(format!("{name}.json"));
        let mut args = vec!["--backend", "gpu", "--pairs", "3000", "--repeat", "1"];
        args.extend(["--kind", "distance", "--json", json.to_str().unwrap()]);
        args.extend(extra);
        let out = bench(&args);
        if no_adapter(&out) {
            return;
        }
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
        let value: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert_eq!(value["binning"], extra.is_none(), "{value}");
        assert_eq!(value["clean"], true);
        let gpu = &value["records"][2];
        assert_eq!(gpu["flag_disagreements"], 0);
        let work = &gpu["gpu_work"];
        simt.push(
            work["simt_support_reads"]
                .as_f64()
                .expect("gpu_work in the JSON"),
        );
    }
    assert!(simt[0] > simt[1], "binned {} unbinned {}", simt[0], simt[1]);
}

#[test]
fn sweep_has_a_group_per_size() {
    let out = bench(&[
        "--sweep",
        "--sweep-max",
        "10000",
        "--repeat",
        "1",
        "--backend",
        "gpu",
        "--kind",
        "intersection",
    ]);
    if no_adapter(&out) {
        return;
    }
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    for size in [1000, 10000] {
        assert!(
            stdout.contains(&format!(
                "== {size} pairs ({} instances), intersection",
                2 * size
            )),
            "{stdout}"
        );
    }
    assert!(!stdout.contains("== 100000 pairs"), "{stdout}");
    assert_eq!(rows(&stdout, "GPU "), 2, "{stdout}");
}

#[test]
fn penetration_compares_depth_and_normal_with_the_cpu() {
    let dir = scratch("penetration");
    let csv = dir.join("out.csv");
    let out = bench(&[
        "--pairs",
        "3000",
        "--repeat",
        "1",
        "--backend",
        "gpu",
        "--kind",
        "penetration",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    if no_adapter(&out) {
        return;
    }
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("== 3000 pairs (6000 instances), penetration queries"),
        "{stdout}"
    );
    assert_eq!(rows(&stdout, "GPU "), 1, "{stdout}");
    assert!(stdout.contains("GPU EPA pass: "), "{stdout}");
    assert!(
        stdout.contains("GPU vs CPU 1 thread, penetration (clean)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("named failure statuses GPU 0 CPU 0"),
        "{stdout}"
    );
    let csv = std::fs::read_to_string(&csv).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let gpu_row = csv
        .lines()
        .find(|l| l.contains(",gpu,"))
        .expect("a GPU row");
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let cells: Vec<&str> = gpu_row.rsplitn(header.len(), ',').collect::<Vec<_>>();
    // Adapter names hold commas (quoted), so read the numeric columns from the right.
    let from_right = |name: &str| cells[header.len() - 1 - column(name)];
    let depth_error: f64 = from_right("max_depth_error").parse().unwrap();
    let angle: f64 = from_right("max_normal_angle").parse().unwrap();
    let epa_pairs: usize = from_right("epa_pairs").parse().unwrap();
    assert!(depth_error <= 1e-3 && angle <= 0.01, "{gpu_row}");
    assert!(epa_pairs > 0 && epa_pairs < 3000, "{gpu_row}");
    assert_eq!(from_right("penetration_failures"), "0", "{gpu_row}");
}

#[test]
fn bad_arguments_are_named() {
    let out = bench(&["--shapes", "box,nosuchshape"]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("nosuchshape"), "{stderr}");
    assert!(
        stderr.contains("hull") && stderr.contains("flat_polygon"),
        "{stderr}"
    );

    let out = bench(&["--pairs", "0"]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--pairs") && stderr.contains("at least 1"),
        "{stderr}"
    );
}

/// Sizes beyond what the bench can allocate are refused before anything runs, naming the flag, the value and
/// the limit: `--pairs 18446744073709551615` panicked (capacity overflow), `--pairs 4294967296` aborted (an
/// allocation of 412 GB), `--max-hull-points 4294967295` grew until killed.
#[test]
fn sizes_beyond_their_limits_are_refused_with_the_limit() {
    // The other flags keep a run short should a limit be lost.
    let cpu = ["--backend", "cpu", "--repeat", "1"];
    let pairs = "18446744073709551615";
    let cases: [(Vec<&str>, &str, &str); 7] = [
        (
            [&cpu[..], &["--pairs", pairs]].concat(),
            "--pairs",
            "limit of 100000000 pairs",
        ),
        (
            [&cpu[..], &["--pairs", "4294967296"]].concat(),
            "--pairs",
            "limit of 100000000 pairs",
        ),
        (
            vec!["--io", "--repeat", "1", "--pairs", pairs],
            "--pairs",
            "limit of 100000000 pairs",
        ),
        (
            [
                &cpu[..],
                &["--pairs", "10", "--max-hull-points", "4294967295"],
            ]
            .concat(),
            "--max-hull-points",
            "limit of 1000000 points",
        ),
        (
            vec!["--pairs", "10", "--repeat", "1000000"],
            "--repeat",
            "limit of 1000 timed runs",
        ),
        (
            vec!["--sweep", "--sweep-max", "1e12"],
            "--sweep-max",
            "not a whole number",
        ),
        (
            vec!["--sweep", "--sweep-max", "1000000000000"],
            "--sweep-max",
            "limit of 100000000 pairs",
        ),
    ];
    for (args, flag, limit) in cases {
        let out = bench(&args);
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stdout}\n{stderr}");
        let value = args.last().unwrap();
        assert!(
            stderr.contains(&format!("invalid value '{value}' for '{flag}"))
                && stderr.contains(limit),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }

    // With --io the file of every pair's shapes is the bound.
    let out = bench(&["--io", "--pairs", "1000001", "--repeat", "1"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("--pairs 1000001 with --io: more than the limit of 1000000 pairs"),
        "{stderr}"
    );

    // Hulls have at least 8 points, so 0 is refused with 8, not "at least 1".
    for value in ["0", "7"] {
        let out = bench(&["--max-hull-points", value]);
        let (_, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("must be at least 8 points"), "{stderr}");
    }
}

/// `GPU_GJK_ADAPTER=i` runs on adapter i of `gpu-gjk adapters` (one worker per GPU on a multi-GPU machine);
/// an index past the list or a non-number fails, naming the variable.
#[test]
fn the_adapter_variable_picks_an_adapter_by_its_index() {
    let listed = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .arg("adapters")
        .env_remove("GPU_GJK_ADAPTER")
        .output()
        .expect("the binary runs");
    let listing = String::from_utf8_lossy(&listed.stdout).into_owned();
    let adapters: Vec<&str> = listing.lines().filter(|l| l.contains(": ")).collect();
    if adapters.is_empty() {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "CI=true requires an adapter"
        );
        eprintln!("SKIPPED: no adapter");
        return;
    }
    let run = |value: &str| {
        Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
            .args([
                "bench",
                "--backend",
                "gpu",
                "--pairs",
                "200",
                "--repeat",
                "1",
            ])
            .args(["--kind", "intersection"])
            .env("GPU_GJK_ADAPTER", value)
            .output()
            .expect("the binary runs")
    };
    for (index, line) in adapters.iter().enumerate() {
        if line.contains("[no compute shaders") {
            continue;
        }
        // "0: NAME (backend, type, driver) [flags]": the bench's "GPU: " line names the same adapter.
        let summary = line.split_once(": ").unwrap().1;
        let summary = summary.split(" [").next().unwrap();
        let out = run(&index.to_string());
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "adapter {index}: {stderr}");
        assert!(
            stdout.contains(&format!("GPU: {summary}")),
            "adapter {index} is {summary}, the bench ran on:\n{stdout}"
        );
    }
    // The message names the variable with the value given (a text quoted), and says what is wrong.
    let past = adapters.len().to_string();
    let expected = [
        (
            past.as_str(),
            format!("GPU_GJK_ADAPTER={past}, but backend 'auto' has {past} adapter(s)"),
        ),
        (
            "first",
            "GPU_GJK_ADAPTER=\"first\" is not an adapter index".to_string(),
        ),
    ];
    for (value, message) in expected {
        let out = run(value);
        let (_, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{value}: {stderr}");
        assert!(
            stderr.contains("GPU_GJK_ADAPTER=") && stderr.contains(value),
            "{value}: {stderr}"
        );
        assert!(
            stderr.contains(&message),
            "{value}: expected {message:?} in {stderr}"
        );
    }
}

/// `bench` as on a fresh machine (no `XDG_RUNTIME_DIR`), on whatever adapter `auto` takes (a software one
/// when that is all there is).
fn bench_fresh(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .arg("bench")
        .args(args)
        .env_remove("XDG_RUNTIME_DIR")
        .output()
        .expect("the binary runs")
}

/// The lines of `text` longer than 100 characters.
fn wider_than_100(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.chars().count() > 100).collect()
}

#[test]
fn the_report_fits_100_columns_and_wide_has_every_column() {
    let out = bench_fresh(&["--pairs", "300", "--repeat", "1", "--kind", "all"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert_eq!(wider_than_100(&stdout), Vec::<&str>::new(), "{stdout}");
    assert_eq!(wider_than_100(&stderr), Vec::<&str>::new(), "{stderr}");
    assert!(stdout.contains("| speedup |"), "{stdout}");
    assert!(stdout.contains("--wide adds readback"), "{stdout}");
    // A clean run on a fresh machine prints no line that reads as a failure.
    assert!(
        !stdout
            .lines()
            .chain(stderr.lines())
            .any(|l| l.starts_with("error:")),
        "{stdout}\n{stderr}"
    );
    let out = bench_fresh(&["--pairs", "300", "--repeat", "1", "--wide"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    let header = stdout
        .lines()
        .find(|l| l.starts_with("backend "))
        .unwrap_or_else(|| panic!("no table header: {stdout}"));
    for column in [
        "pairs/s",
        "speedup vs CPU 1 thread",
        "time (ms)",
        "upload (ms)",
        "wait (ms)",
        "kernel (ms)",
        "readback (ms)",
        "chunks",
        "host ns/pair",
        "bytes/pair up/down",
        "submits/waits",
    ] {
        assert!(header.contains(column), "{column} missing: {header}");
    }
    // The GPU timing line, whole.
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("GPU timing: ") && l.contains("timestamp queries"))
            || stdout.contains("GPU: skipped"),
        "{stdout}"
    );
}

#[test]
fn the_io_report_fits_100_columns() {
    let out = bench_fresh(&["--io", "--pairs", "200", "--repeat", "1"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert_eq!(wider_than_100(&stdout), Vec::<&str>::new(), "{stdout}");
}

#[test]
fn counts_of_one_are_singular() {
    let out = bench(&[
        "--pairs",
        "1",
        "--repeat",
        "1",
        "--backend",
        "cpu",
        "--kind",
        "distance",
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("best of 1 run per backend"), "{stdout}");
    assert!(
        stdout.contains("== 1 pair (2 instances), distance queries, best of 1 run per backend =="),
        "{stdout}"
    );
    assert!(
        stdout.contains("distance differences on 1 pair\n"),
        "{stdout}"
    );
    for plural in ["1 pairs", "1 runs", "1 iterations"] {
        assert!(!stdout.contains(plural), "{plural}: {stdout}");
    }
}
