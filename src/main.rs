//! `gpu-gjk`: argument parsing and exit codes only; the commands live in `gpu_gjk::cli`.

use clap::{CommandFactory, Parser, Subcommand};
use gpu_gjk::cli::{run_adapters, run_bench, run_query, AdaptersArgs, BenchArgs, QueryArgs};
use std::process::ExitCode;

/// Exit code for bad input lines, I/O errors and usage errors (clap uses 2 for the latter too).
const FAILURE: u8 = 2;

#[derive(Parser)]
#[command(name = "gpu-gjk", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Distance queries for pairs of convex shapes read as JSON Lines, one answer line per input line.
    Query(QueryArgs),
    /// List the GPU adapters wgpu can use here.
    Adapters(AdaptersArgs),
    /// Benchmark GPU against CPU on a seeded scene.
    Bench(BenchArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Some(Command::Query(args)) => run_query(&args).map(|report| report.failed_lines == 0),
        Some(Command::Adapters(args)) => {
            run_adapters(&args);
            Ok(true)
        }
        Some(Command::Bench(args)) => run_bench(&args),
        None => {
            let _ = Cli::command().print_help();
            return ExitCode::from(FAILURE);
        }
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(FAILURE),
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(FAILURE)
        }
    }
}
