//! What a benchmark measures and records: the backends, the kinds of query, one measured cell. Below the
//! files that run, tabulate, chart and export them.

use crate::gjk::QueryKind;
use serde::Serialize;

/// Which of the three measured backends a record belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BackendId {
    /// `Threads::Single`: the reference every speedup is relative to.
    Cpu1,
    /// `Threads::All`: rayon's global pool.
    CpuAll,
    /// The GPU narrow phase on the selected adapter.
    Gpu,
}

impl BackendId {
    /// Stable name for JSON and CSV.
    pub fn id(self) -> &'static str {
        match self {
            BackendId::Cpu1 => "cpu1",
            BackendId::CpuAll => "cpu_all",
            BackendId::Gpu => "gpu",
        }
    }
}

/// What one benchmark group measures: a GJK query, or penetration (GJK in distance mode, then EPA on the
/// pairs whose cores overlap).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchKind {
    Query(QueryKind),
    Penetration,
}

impl BenchKind {
    /// The GJK query the kind runs (penetration runs GJK in distance mode first).
    pub fn query_kind(self) -> QueryKind {
        match self {
            BenchKind::Query(kind) => kind,
            BenchKind::Penetration => QueryKind::Distance,
        }
    }
}

/// The name of a kind in records and tables.
pub fn kind_name(kind: BenchKind) -> &'static str {
    match kind {
        BenchKind::Query(QueryKind::Distance) => "distance",
        BenchKind::Query(QueryKind::Intersection) => "intersection",
        BenchKind::Penetration => "penetration",
    }
}

/// One measured (pair count, query kind, backend) cell. Times are those of the best of `runs` runs; the GPU
/// split belongs to that same run. Agreement fields compare this backend with `Cpu1` on the same pairs
/// (`None` for `Cpu1` itself); `max_distance_error` is `None` for intersection queries, which carry no
/// converged distance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Record {
    pub pairs: usize,
    pub kind: &'static str,
    pub backend: &'static str,
    /// "cpu" for the CPU rows, the adapter's description for the GPU row.
    pub adapter: String,
    pub software_adapter: bool,
    /// CPU threads used; `None` for the GPU.
    pub threads: Option<usize>,
    pub runs: usize,
    pub pairs_per_s: f64,
    pub total_s: f64,
    pub speedup_vs_cpu1: f64,
    pub upload_s: Option<f64>,
    pub compute_s: Option<f64>,
    pub kernel_s: Option<f64>,
    pub readback_s: Option<f64>,
    /// GPU rows: the rate of the host's copy of the answers out of the mapped readback buffers, GB/s.
    pub readback_gb_s: Option<f64>,
    pub chunks: Option<u32>,
    /// GPU rows: wall time minus kernel time, per pair, in nanoseconds (`None` without timestamp queries).
    pub host_ns_per_pair: Option<f64>,
    /// GPU rows: bytes written to the GPU and read back in the timed batch, per pair.
    pub bytes_up_per_pair: Option<f64>,
    pub bytes_down_per_pair: Option<f64>,
    /// GPU rows: queue submissions and times the host blocked on the GPU in the timed batch.
    pub submissions: Option<u32>,
    pub blocking_waits: Option<u32>,
    /// GPU rows: most chunks in flight at once.
    pub chunks_in_flight: Option<u32>,
    /// GPU rows: scene groups the batch went up in (1 when the scene stays on the GPU whole).
    pub scene_groups: Option<u32>,
    pub flag_disagreements: Option<usize>,
    pub distance_disagreements: Option<usize>,
    pub max_distance_error: Option<f64>,
    /// Penetration groups: pairs that went through EPA (GPU only: cores overlapping), the largest depth
    /// error / pair size and normal angle (radians) over the deep pairs, and answers with a failure status.
    pub epa_pairs: Option<usize>,
    pub max_depth_error: Option<f64>,
    pub max_normal_angle: Option<f64>,
    pub penetration_failures: Option<usize>,
    /// GPU rows: GJK answers that came back with a named failure status (`unresolved`, `gpu_loop_limit`,
    /// `max_iterations`): not disagreements, but pairs a caller must answer again on the CPU.
    pub gpu_failures: Option<usize>,
    pub clean: Option<bool>,
    /// GPU rows: how evenly the GJK kernel's lanes work, from an untimed run of the counting kernel over the
    /// same pairs (penetration groups: GJK's distance pass).
    pub gpu_work: Option<GpuWork>,
    /// GPU penetration rows: where the EPA pass kept its polytope (`private` or `scratch`, `--epa-kernel`), and
    /// the private memory one invocation of that EPA kernel needs, in bytes (from naga's IR).
    pub epa_kernel: Option<&'static str>,
    pub epa_private_bytes: Option<u64>,
    /// GPU distance and intersection rows of `--scan`: how the kernel scanned the biggest scanned hulls
    /// (`per-thread` or `subgroup`), and how many pairs the subgroup kernel answered.
    pub scan_kernel: Option<&'static str>,
    pub subgroup_pairs: Option<usize>,
}

/// The SIMT proxies of a GPU row ([`crate::gpu::WorkSummary`]): for each 32 consecutive pairs in dispatch order,
/// the lanes' GJK steps and hull points read over 32 times the busiest lane's, and the points read per support
/// call; beside them the host's own ceiling.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct GpuWork {
    pub simt_gjk_steps: f64,
    pub simt_support_reads: f64,
    pub vertex_reads_per_support: f64,
    /// Pairs per second of the same batch through a kernel that does no work (best of the group's runs): what
    /// the host, the transfers and a dispatch allow. Distance and intersection groups only.
    pub host_ceiling_pairs_per_s: Option<f64>,
    /// Penetration groups: EPA's expansions over each 32 consecutive pairs through the EPA pass in dispatch
    /// order, as `simt_gjk_steps`, and the expansions a pair through it makes on average
    /// (`NarrowPhase::count_epa_steps`, an untimed batch).
    pub simt_epa_steps: Option<f64>,
    pub epa_steps_per_pair: Option<f64>,
}

impl Record {
    /// The row label in tables and the chart legend.
    pub fn label(&self) -> String {
        match (self.backend, self.threads) {
            ("cpu1", _) => "CPU 1 thread".into(),
            ("cpu_all", Some(n)) if n > 1 => format!("CPU {n} threads"),
            ("cpu_all", Some(n)) => format!("CPU all threads ({n})"),
            ("cpu_all", None) => "CPU all threads".into(),
            _ => match (self.epa_kernel, self.scan_kernel) {
                (Some(kernel), _) => format!("GPU (EPA {kernel})"),
                (None, Some(scan)) => format!("GPU (scan {scan})"),
                (None, None) => "GPU".into(),
            },
        }
    }
}
