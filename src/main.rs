//! `gpu-gjk`: argument parsing and exit codes only; the commands live in [`cli`], the desktop stress test in
//! [`app`] (with its per-frame pipeline in [`stress`]), the benchmark in [`bench`]. They are the program's own
//! modules, not library API: they use the library `gpu_gjk` like any of its users.

mod app;
mod bench;
mod cli;
mod one_pair;
mod stress;

// The library's modules at the program's root, so that the program's modules name them as `crate::gpu`,
// `crate::query`, ... as they would inside the library.
use gpu_gjk::{
    batch, broad_phase, epa, error, gjk, gpu, instance, io, pose, query, scenario, shape, text,
    validate,
};

use app::{display_available, run_demo, DemoArgs};
use clap::{CommandFactory, Parser, Subcommand};
use cli::{
    run_adapters, run_bench, run_convert, run_inspect, run_query, AdaptersArgs, BenchArgs,
    ConvertArgs, InspectArgs, QueryArgs,
};
use gpu_gjk::io::columnar::reading_a_table;
use gpu_gjk::io::sink::{is_broken_pipe, note, require_stdout};
use std::io::Write;
use std::process::ExitCode;

/// Exit code for bad input lines, I/O errors and usage errors (clap uses 2 for the latter too).
const FAILURE: u8 = 2;
/// Exit code when the reader of standard output went away (`gpu-gjk bench | head -1`): the command stops
/// quietly with the status a shell shows for a process ended by SIGPIPE (128 + 13).
const BROKEN_PIPE: u8 = 141;

#[derive(Parser)]
#[command(name = "gpu-gjk", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Answers pairs of convex shapes read as JSON Lines (one answer line per input line) or an Arrow/Parquet
    /// batch: penetration depth and contacts by default, the distance or the intersection flag with --kind.
    Query(QueryArgs),
    /// Write a JSON Lines batch as the two tables of a columnar batch (Arrow IPC or Parquet).
    Convert(ConvertArgs),
    /// List the GPU adapters wgpu can use here.
    Adapters(AdaptersArgs),
    /// Benchmark GPU against CPU on a seeded scene.
    Bench(BenchArgs),
    /// One pair of a `query` file, traced: GJK's iterations and EPA's expansions, then `query`'s answer.
    Inspect(InspectArgs),
    /// Desktop stress test: thousands of moving bodies coloured by collision state, GPU narrow phase checked
    /// live against the CPU (the default when a display is available).
    Demo(DemoArgs),
}

/// Runs the demo; a `--frames` run prints its JSON summary and fails when the GPU and the CPU disagreed.
fn demo(args: &DemoArgs) -> anyhow::Result<bool> {
    args.check()?;
    // The summary goes to stdout, unless the screenshot does.
    let summary_to_stderr = args.screenshot_to_stdout();
    if args.frames.is_some() && !summary_to_stderr {
        require_stdout("the demo's summary")?;
    }
    let Some(summary) = run_demo(args)? else {
        return Ok(true);
    };
    let text = serde_json::to_string_pretty(&summary)?;
    if summary_to_stderr {
        let _ = writeln!(std::io::stderr(), "{text}");
    } else {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{text}").and_then(|()| out.flush())?;
    }
    let disagreements = summary.disagreements.unwrap_or(0);
    if disagreements > 0 {
        let _ = writeln!(
            std::io::stderr(),
            "error: the GPU and the CPU disagreed on {} (see the summary)",
            text::count(disagreements, "pair")
        );
    }
    Ok(disagreements == 0)
}

/// Traces one pair; `--screenshot` draws it with the demo's inspector, offscreen, and `--window` opens the
/// inspector in a window. Both say on stderr whether the GPU's answer agrees with the CPU's.
fn inspect(args: &InspectArgs) -> anyhow::Result<bool> {
    use app::inspector::screenshot::{inspect_screenshot, verdict_note};
    if args.window && !app::display_available() {
        anyhow::bail!(
            "--window needs a display (set DISPLAY or WAYLAND_DISPLAY, or run it under `xvfb-run -a`); \
             --screenshot draws the inspector without one"
        );
    }
    let inspected = run_inspect(args)?;
    if args.window {
        let options = app::inspector::window::InspectorWindowOptions {
            step: args.step,
            frames: args.frames,
            screenshot: args.screenshot.clone(),
        };
        let outcome = app::inspector::window::run_inspector_window(&inspected, &options)?;
        note(format_args!("{}", verdict_note(&outcome.inspector)));
        if let Some(summary) = outcome.summary {
            println!("{}", serde_json::to_string(&summary)?);
        }
        return Ok(true);
    }
    if let Some(path) = &args.screenshot {
        let inspector = inspect_screenshot(&inspected, path, args.step)?;
        note(format_args!(
            "inspector view (step {} of 0 to {}) saved to {}",
            inspector.step_index(),
            inspector.step_count().saturating_sub(1),
            path.display()
        ));
        note(format_args!("{}", verdict_note(&inspector)));
    }
    Ok(true)
}

/// A fresh machine (a container, a CI runner, an ssh login) has no `XDG_RUNTIME_DIR`. Vulkan's and EGL's
/// loaders then probe for a Wayland display, and libwayland-client prints `error: XDG_RUNTIME_DIR is invalid
/// or not set in the environment.` on stderr for every wgpu instance, which reads as this program failing.
/// Without `WAYLAND_DISPLAY` there is no Wayland display to find, so the variable points at an empty private
/// folder: the probe finds no socket and says nothing. An environment that has either variable is left as it
/// is. Runs first in `main`, before any thread exists.
fn quiet_wayland_probe() {
    let set = |name: &str| std::env::var_os(name).is_some_and(|value| !value.is_empty());
    if set("XDG_RUNTIME_DIR") || set("WAYLAND_DISPLAY") {
        return;
    }
    let dir = std::env::temp_dir().join("gpu-gjk-runtime");
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    if builder.create(&dir).is_ok() || dir.is_dir() {
        std::env::set_var("XDG_RUNTIME_DIR", &dir);
    }
}

fn main() -> ExitCode {
    quiet_wayland_probe();
    // wgpu and the drivers under it say why a device was refused or lost only through `log`: with RUST_LOG
    // set (e.g. `RUST_LOG=wgpu_hal=warn`), those messages go to stderr; without it nothing is logged.
    if std::env::var_os("RUST_LOG").is_some() {
        env_logger::init();
    }
    // A table reader's panic on a damaged file becomes an error naming the file (see
    // gpu_gjk::io::columnar's guard); only such panics are kept off stderr.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !reading_a_table() {
            default_hook(info);
        }
    }));
    let cli = Cli::parse();
    let outcome = match cli.command {
        Some(Command::Query(args)) => run_query(&args).map(|report| report.failed_lines == 0),
        Some(Command::Convert(args)) => run_convert(&args).map(|_| true),
        Some(Command::Adapters(args)) => run_adapters(&args).map(|_| true),
        Some(Command::Bench(args)) => run_bench(&args),
        Some(Command::Demo(args)) => demo(&args),
        Some(Command::Inspect(args)) => inspect(&args),
        None if display_available() => demo(&DemoArgs::interactive_default()),
        None => {
            let _ = Cli::command().print_help();
            let _ = writeln!(
                std::io::stderr(),
                "\nno display found (DISPLAY / WAYLAND_DISPLAY unset), so no demo window: pick a command \
                 above, run `gpu-gjk demo` under `xvfb-run -a`, or `gpu-gjk demo --frames 600 --no-window` \
                 for the stress test drawn offscreen"
            );
            return ExitCode::from(FAILURE);
        }
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(FAILURE),
        Err(err) if is_broken_pipe(&err) => ExitCode::from(BROKEN_PIPE),
        Err(err) => {
            // Best effort: a closed stderr must not turn an error into a panic.
            let _ = writeln!(std::io::stderr(), "error: {err:#}");
            ExitCode::from(FAILURE)
        }
    }
}
