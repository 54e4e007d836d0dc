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

pub use adapters::{run_adapters, AdaptersArgs};
pub use bench::{run_bench, BenchArgs};
pub use bench_io::write_mix_file;
pub use convert::{run_convert, table_formats, ConvertArgs};
pub use inspect::{inspect_pair, run_inspect, trace_value, InspectArgs, Inspected};
pub use query::{run_query, stats_line, QueryArgs, QueryReport};
