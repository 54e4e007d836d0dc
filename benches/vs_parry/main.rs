//! gpu-gjk's CPU reference against parry3d 0.31 (f32), single thread, the same geometry and poses for both:
//! one program, five ways of timing them.
//!
//! `cargo bench --no-default-features --features scenario --bench vs_parry -- MODE [ARGS]`, MODE one of
//! - `criterion` (the default, also when the first argument is not a mode: then every argument is criterion's):
//!   the headline cases of [`cases`] under criterion, ARGS criterion's (a filter such as `distance/mix`,
//!   `--quick`, ...). See [`headline`].
//! - `paired [FILTER...] [--rounds N] [--pairs N]`: the same cases with the two libraries timed in alternation,
//!   a Markdown table of median ratios. See [`paired`].
//! - `classes [FILTER...] [--rounds N] [--pairs N]`: the random mix split by shape class, timed in alternation.
//!   See [`classes`].
//! - `manifolds [FILTER...] [--rounds N] [--pairs N]`: contact manifolds against parry3d-f64's on the polyhedral
//!   pairs of `gpu-gjk bench --algorithm`, timed in alternation. See [`manifolds`].
//! - `groups [ARGS]`: seeded scenes of one shape kind each (boxes, spheres, hulls of 16 to 512 points, ...)
//!   under criterion, ARGS criterion's. See [`groups`].
//!
//! `--help` (or a first argument that is neither a mode nor part of a headline id) prints the modes.

mod cases;
mod classes;
mod groups;
mod headline;
mod manifolds;
mod one_pair;
mod options;
mod paired;
mod pairs;
mod timed_passes;

// Shared with `benches/warm_start_demo.rs` and the harness of `scripts/old_new.sh`.
#[path = "../alternation/mod.rs"]
mod alternation;

use std::process::{exit, Command};

/// The modes, for `--help` and for a first argument that names none.
fn usage() -> String {
    format!(
        "\
gpu-gjk's CPU reference against parry3d 0.31 (f32), single thread.

cargo bench --bench vs_parry -- MODE [ARGS]

  criterion [ARGS]   the headline cases under criterion (the default: a first argument that is not a mode
                     goes to criterion too); ARGS are criterion's: a filter on {{kind}}/{{case}}/{{implementation}},
                     --quick, --warm-up-time S, ... (`criterion --help` lists them)
  paired [FILTER...] [--rounds N] [--pairs N]
                     the headline cases, gpu-gjk and parry3d timed in alternation ({} rounds): a Markdown
                     table of median ratios; a row runs when its {{kind}}/{{case}} id contains a FILTER
  classes [FILTER...] [--rounds N] [--pairs N]
                     the random mix split by shape class, timed in alternation ({} rounds); FILTER on
                     {{kind}}/{{class}}
  manifolds [FILTER...] [--rounds N] [--pairs N]
                     contact manifolds against parry3d-f64's on boxes and hulls of 8, 64 and 512 points,
                     timed in alternation ({} rounds); FILTER on the family (box, hull 8, ...)
  groups [ARGS]      seeded scenes of one shape kind each under criterion; ARGS are criterion's
",
        paired::DEFAULT_ROUNDS,
        classes::DEFAULT_ROUNDS,
        manifolds::DEFAULT_ROUNDS
    )
}

/// Set on the copy of this program that a criterion mode named on the command line runs (see [`rerun_as`]).
const MODE_VARIABLE: &str = "GPU_GJK_VS_PARRY_MODE";

/// Prints the modes to stderr and exits with status 2.
fn usage_error(message: &str) -> ! {
    eprintln!("{message}\n\n{}", usage());
    exit(2)
}

/// Runs this program again with `args` alone and `mode` in [`MODE_VARIABLE`], and exits with its status.
/// Criterion reads the process's own arguments and takes one positional, its filter: a mode word before it
/// would be read as a second filter.
fn rerun_as(mode: &str, args: &[String]) -> ! {
    let program = std::env::current_exe().expect("the bench's own path");
    let status = Command::new(program)
        .args(args)
        .env(MODE_VARIABLE, mode)
        .status()
        .expect("the bench runs itself");
    exit(status.code().unwrap_or(1))
}

fn main() {
    if let Ok(mode) = std::env::var(MODE_VARIABLE) {
        match mode.as_str() {
            "criterion" => headline::run(),
            "groups" => groups::run(),
            other => usage_error(&format!(
                "{MODE_VARIABLE}={other:?} names no criterion mode"
            )),
        }
        return;
    }
    // Cargo adds `--bench` after the arguments it passes on.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let asks_help = |args: &[String]| args.iter().any(|a| a == "--help" || a == "-h");
    match args.first().map(String::as_str) {
        Some("--help" | "-h" | "help") => print!("{}", usage()),
        Some("paired" | "classes" | "manifolds") if asks_help(&args[1..]) => print!("{}", usage()),
        Some("paired") => paired::run(&options::parse(&args[1..], paired::DEFAULT_ROUNDS)),
        Some("classes") => classes::run(&options::parse(&args[1..], classes::DEFAULT_ROUNDS)),
        Some("manifolds") => manifolds::run(&options::parse(&args[1..], manifolds::DEFAULT_ROUNDS)),
        Some(mode @ ("criterion" | "groups")) => rerun_as(mode, &args[1..]),
        _ => headline::run(),
    }
}
