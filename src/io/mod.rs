//! Batches in and answers out, under the commands and the Python module: the JSON Lines reader
//! ([`jsonl`]), the answer writers ([`answers`]), the Arrow IPC and Parquet tables and their guards
//! ([`columnar`]), and the drivers that answer a batch on the CPU or the GPU ([`batch`]), with one shape
//! list per batch that every reader fills and the GPU uploads. Where the output goes, and the check that it
//! is none of the inputs, are [`sink`] and [`same_file`].
//!
//! Errors are `anyhow` errors whose context chain names the file and the line, as the command line prints
//! them (`{err:#}`); a line's or a row's own error is a `String`, the text its answer line carries.

pub mod answers;
pub mod batch;
pub mod columnar;
pub mod jsonl;
pub mod pair_id;
pub mod same_file;
pub mod sink;
