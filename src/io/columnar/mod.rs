//! Columnar batches (Arrow IPC and Parquet): a shapes table, a pairs table that names shapes by id, and an
//! answers table with one row per pair. The pairs are read record batch by record batch from the columns'
//! value buffers into the batch the CPU or the GPU runs, with the JSON reader's rules and error wording.

mod answers;
mod columns;
mod convert;
mod files;
mod guard;
mod ipc_file;
mod ipc_message;
mod ipc_stream;
mod known_columns;
mod lists;
mod manifolds;
mod pair_ids;
mod pairs;
mod run;
mod schema;
mod shapes;

pub use convert::{convert_jsonl, Converted};
pub use files::{read_table, write_table, BatchFormat};
pub use guard::reading_a_table;
pub use manifolds::{write_manifolds, ManifoldRun, ManifoldsBuilder};
pub use pair_ids::PairIds;
pub use run::{write_answers, ColumnarBatch, CpuAnswers, RangedAnswers};
pub use schema::{answers_schema, manifolds_schema, pairs_schema, shapes_schema};
