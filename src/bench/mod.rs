//! `gpu-gjk bench`: the same seeded scene run on the CPU with one thread, on the CPU with all threads and on
//! the GPU narrow phase, timed, checked against each other and reported as a table, JSON, CSV and a chart.
//!
//! The library holds the logic so tests can drive it without the binary; `cli::bench` only maps arguments.

mod algorithms;
mod chart;
mod export;
mod fit;
mod record;
mod run;
mod spec;
mod table;
mod warmup;

pub use algorithms::{run_algorithms, AlgorithmChoice};
pub use chart::render_chart;
pub use export::{to_csv, to_json};
pub use fit::{FitWriter, REPORT_COLUMNS};
pub use record::{kind_name, BackendId, BenchKind, Record};
#[cfg(test)]
pub use run::MAX_STEP_LABEL;
pub use run::{run_bench, step_count, GpuBench, Group, Progress, GPU_WARMUP_PAIRS};
pub use spec::{
    parse_epa_kernels, parse_hull_points, parse_pairs, parse_repeat, parse_scan_kernels,
    parse_shapes, parse_within, sweep_sizes, BenchSpec, EpaKernels, KindChoice, ScanKernels,
    ShapeList,
};
#[cfg(test)]
pub use spec::{MAX_PAIRS, MAX_REPEAT};
pub use table::{render_group, text_table, thousands};
pub use warmup::{GPU_WARMUP_BATCH_PAIRS, GPU_WARMUP_SECONDS};
