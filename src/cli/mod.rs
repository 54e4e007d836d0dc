//! The command-line tool's commands, kept in the library so tests can call the line parser and formatter
//! directly; `src/main.rs` only parses arguments and maps the outcome to an exit code.

mod adapters;
mod answer;
mod answer_batch;
mod answer_lines;
mod answer_writer;
mod backend;
mod bench;
mod bench_io;
pub mod columnar;
mod exec;
mod indexed_answers;
mod input;
mod inspect;
mod lexical;
mod output;
mod overflow;
mod pair_line;
mod parse;
mod query;
mod query_gpu;
mod read_ahead;
mod repeated_keys;
pub(crate) mod same_file;
mod sink;
mod stream_cpu;
mod typed;
mod write_behind;

pub use adapters::{run_adapters, AdaptersArgs};
pub use answer::{query_pair, query_placed, AnswerFields, PairAnswer};
pub use answer_batch::answer_pairs;
pub use backend::{select_backend, Backend, Selected, SoftwareAdapters};
pub use bench::{run_bench, BenchArgs};
pub use bench_io::write_mix_file;
pub use exec::{parse_threads, threads_from_count, Executor};
pub use indexed_answers::IndexedAnswers;
pub use input::{parse_input, parse_input_with, read_input, split_lines, ParsedLine};
pub use inspect::{inspect_pair, run_inspect, trace_value, InspectArgs, Inspected};
pub use output::{push_result, write_error, write_result};
pub use pair_line::pair_line;
pub use parse::{
    centred_shape, check_coordinate, check_finite, check_radius, check_rotation, fold_centre,
    parse_line, place, PairInput, PlacedShape,
};
pub use query::{run_query, stats_line, QueryArgs, QueryReport};
pub use query_gpu::IndexedPair;
pub use sink::{is_broken_pipe, require_stdout, stdout_was_closed, Destination, Format};
pub use typed::ShapeCache;
