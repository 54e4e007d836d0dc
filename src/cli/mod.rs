//! The command-line tool's commands: their arguments (clap), checks, reports and progress; the batches they
//! read and the answers they write are [`crate::io`]'s. `src/main.rs` only parses arguments and maps the
//! outcome to an exit code.

mod adapters;
mod bench;
mod bench_io;
mod choices;
mod convert;
mod inspect;
mod query;
mod stdin_notice;

pub use adapters::{run_adapters, AdaptersArgs};
pub use bench::{run_bench, BenchArgs};
pub use convert::{run_convert, ConvertArgs};
pub use inspect::steps as inspect_steps;
#[cfg(test)]
pub use inspect::{inspect_pair, inspect_table, trace_value};
pub use inspect::{run_inspect, InspectArgs, Inspected};
pub use query::{run_query, QueryArgs};
