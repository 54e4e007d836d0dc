//! `gpu-gjk bench`: maps the arguments onto [`crate::bench`], drives the progress bar, prints the tables and
//! writes the files asked for. Returns whether every comparison was clean (exit code 0) or not (2).

use super::bench_io::{run_io_bench, IoBenchSpec};
use super::choices::BackendArg;
use crate::bench::{
    self, kind_name, parse_epa_kernels, parse_hull_points, parse_pairs, parse_repeat,
    parse_scan_kernels, parse_shapes, render_chart, render_group, step_count, sweep_sizes,
    AlgorithmChoice, BenchSpec, EpaKernels, FitWriter, GpuBench, Group, KindChoice, Progress,
    ScanKernels, ShapeList, GPU_WARMUP_BATCH_PAIRS, GPU_WARMUP_PAIRS, GPU_WARMUP_SECONDS,
    REPORT_COLUMNS,
};
use crate::gpu::ShaderChecks;
use crate::io::batch::{select_backend, Selected, SoftwareAdapters};
use crate::io::same_file::refuse_same_file;
use crate::io::sink::{require_stdout, Destination, Format};
use crate::text::count_len;
use anyhow::{bail, Context};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, clap::Args)]
pub struct BenchArgs {
    /// Pairs in the seeded scene (at most 100,000,000; with --io, 1,000,000).
    #[arg(long, value_name = "N", default_value = "100000", value_parser = parse_pairs, conflicts_with = "sweep")]
    pub pairs: usize,
    /// Seed of the random scene; one seed gives the same scene everywhere.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Shape kinds to draw from: a comma-separated list of hull, box, cylinder, cone, sphere, capsule,
    /// rounded_box, flat_polygon, segment, or `all`.
    #[arg(long, value_name = "LIST", default_value = "all", value_parser = parse_shapes)]
    pub shapes: ShapeList,
    /// Largest point count of a random hull (hulls have 8 to N points, so N is 8 to 1,000,000).
    #[arg(long, value_name = "N", default_value = "64", value_parser = parse_hull_points)]
    pub max_hull_points: usize,
    /// Keep the random hull clouds as raw point sets, scanned every support call, as they were before a set of
    /// more than 64 points was searched as its hull: the old path, to compare against.
    #[arg(long, conflicts_with = "io")]
    pub raw_scan: bool,
    /// Dispatch the GPU row's pairs in the order given rather than binned by work (shape kinds and hull sizes):
    /// the old order, to compare against.
    #[arg(long, conflicts_with = "io")]
    pub no_binning: bool,
    /// Where the GPU's EPA pass keeps each pair's polytope: `scratch` (a global scratch buffer), `private`
    /// (private memory per invocation), or `private,scratch`: one GPU penetration row each, alternating on the
    /// same scene. By default the adapter's own choice (private on a software adapter, scratch elsewhere).
    #[arg(long, value_name = "LIST", value_parser = parse_epa_kernels, conflicts_with = "io")]
    pub epa_kernel: Option<EpaKernels>,
    /// How the GPU's distance and intersection kernels scan hulls of 65 points or more that have no adjacency
    /// (`--raw-scan` clouds, hulls of fewer than 256 vertices): `per-thread` (one invocation per pair),
    /// `subgroup` (one subgroup per pair, the lanes sharing each scan; needs an adapter with subgroups), or
    /// `per-thread,subgroup`: one GPU row each, alternating on the same scene. By default `subgroup` where the
    /// adapter has subgroups, but on a software adapter.
    #[arg(long, value_name = "LIST", value_parser = parse_scan_kernels, conflicts_with = "io")]
    pub scan: Option<ScanKernels>,
    /// wgpu's runtime checks in the GPU kernels (bounds checks, loop bounds): `off` builds them as trusted
    /// modules without the checks, `auto` does so on hardware adapters only (software ones keep them).
    #[arg(
        long,
        value_name = "on|off|auto",
        default_value = "auto",
        conflicts_with = "io"
    )]
    pub shader_checks: ShaderChecks,
    /// Where the GPU row runs. Unlike `query`, `auto` uses a software rasteriser too (as a correctness check);
    /// `cpu` measures the CPU rows only.
    #[arg(long, value_enum, default_value_t = BackendArg::Auto)]
    pub backend: BackendArg,
    /// Measure 1e3, 1e4, 1e5 and 1e6 pairs (and 1e7 when --sweep-max allows) instead of --pairs.
    #[arg(long)]
    pub sweep: bool,
    /// Largest size of the sweep (at most 100,000,000, like --pairs; the sweep's sizes stop at 1e7).
    #[arg(long, value_name = "N", default_value = "1000000", value_parser = parse_pairs, requires = "sweep")]
    pub sweep_max: usize,
    /// Timed runs per backend (1 to 1000); the best (shortest) is reported.
    #[arg(long, value_name = "R", default_value = "3", value_parser = parse_repeat)]
    pub repeat: usize,
    /// Query kinds to measure.
    #[arg(long, value_enum, default_value_t = KindChoice::Both)]
    pub kind: KindChoice,
    /// Write every measured figure as JSON (`-`: stdout, and the report goes to stderr).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write every measured figure as CSV (`-`: stdout, and the report goes to stderr).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write an SVG chart of throughput against pair count, log-log (`-`: stdout, and the report goes to
    /// stderr). Another extension than .svg is refused.
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,
    /// Measure batch I/O instead: write the scene as a JSON Lines file, then time reading, parsing,
    /// answering (CPU) and writing it, next to the compute-only figure (table, and --json).
    #[arg(long, conflicts_with_all = ["sweep", "csv", "chart", "backend", "kind"])]
    pub io: bool,
    /// Compare the separating axis test with GJK and EPA instead (`gjk`, `sat` or `both`, which also counts
    /// their agreement): --pairs seeded pairs per family (boxes, hulls of 8, 64 and 512 points), one CPU
    /// thread, and the GPU's separating axis test on the same pairs unless --backend cpu.
    #[arg(long, value_enum, conflicts_with_all = ["sweep", "csv", "chart", "json", "kind", "io"])]
    pub algorithm: Option<AlgorithmChoice>,
    /// With --io: write the generated input file here and keep it (by default it goes to a temporary
    /// folder and is removed), e.g. to time `gpu-gjk query` on it.
    #[arg(long, value_name = "FILE.jsonl", requires = "io")]
    pub io_input: Option<PathBuf>,
    /// Print the full table (upload, readback, chunks, host time, bytes and submits per pair as well) and
    /// every line whole; by default the report fits 100 columns.
    #[arg(long)]
    pub wide: bool,
}

/// The most pairs `--io` takes: its input file holds every pair's shapes written out (about 1 to 4 KB a
/// pair, 80 MB for the 21,000 pairs of docs/benchmarks.md), is read whole by the field-by-field reader and is
/// converted to two columnar batches besides.
pub const MAX_IO_PAIRS: usize = 1_000_000;

impl BenchArgs {
    fn spec(&self) -> anyhow::Result<BenchSpec> {
        if self.io && self.pairs > MAX_IO_PAIRS {
            bail!(
                "--pairs {} with --io: more than the limit of {MAX_IO_PAIRS} pairs (the input file takes about \
                 1 to 4 KB a pair, read whole)",
                self.pairs
            );
        }
        let sizes = if self.sweep {
            sweep_sizes(self.sweep_max).map_err(anyhow::Error::msg)?
        } else {
            vec![self.pairs]
        };
        Ok(BenchSpec {
            sizes,
            seed: self.seed,
            shapes: self.shapes.clone(),
            max_hull_points: self.max_hull_points,
            raw_scan: self.raw_scan,
            binning: !self.no_binning,
            epa_kernels: self.epa_kernel.clone().map(|k| k.0).unwrap_or_default(),
            scan_kernels: self.scan.clone().map(|k| k.0).unwrap_or_default(),
            shader_checks: self.shader_checks,
            repeat: self.repeat,
            kinds: self.kind.kinds(),
        })
    }

    /// The files to write (`-` for stdout), checked before anything runs; at most one may be stdout.
    fn exports(&self) -> anyhow::Result<Exports> {
        let destination = |path: &Option<PathBuf>| path.as_deref().map(Destination::from_arg);
        let exports = Exports {
            json: destination(&self.json),
            csv: destination(&self.csv),
            chart: destination(&self.chart),
        };
        let to_stdout = [&exports.json, &exports.csv, &exports.chart]
            .iter()
            .filter(|d| d.as_ref().is_some_and(Destination::is_stdout))
            .count();
        if to_stdout > 1 {
            bail!("only one of --json, --csv and --chart can be - (standard output)");
        }
        let checks = [
            ("--json", &exports.json, None),
            ("--csv", &exports.csv, None),
            ("--chart", &exports.chart, Some(SVG)),
        ];
        for (flag, destination, format) in checks {
            if let Some(destination) = destination {
                destination.check(flag, format)?;
            }
        }
        self.refuse_shared_files()?;
        Ok(exports)
    }

    /// Two flags naming one file would leave only the last file written: an export named as `--io-input`
    /// would replace the input file kept for timing `query` on it.
    fn refuse_shared_files(&self) -> anyhow::Result<()> {
        let named: Vec<(&str, &Path)> = [
            ("--io-input", &self.io_input),
            ("--json", &self.json),
            ("--csv", &self.csv),
            ("--chart", &self.chart),
        ]
        .into_iter()
        .filter_map(|(flag, path)| path.as_deref().map(|p| (flag, p)))
        .filter(|(_, path)| path.as_os_str() != "-")
        .collect();
        for (i, &(flag, path)) in named.iter().enumerate() {
            refuse_same_file(flag, path, &named[..i])?;
        }
        Ok(())
    }
}

/// `--chart` writes SVG only (no font or system library needed).
const SVG: Format = Format {
    extension: "svg",
    name: "SVG",
};

struct Exports {
    json: Option<Destination>,
    csv: Option<Destination>,
    chart: Option<Destination>,
}

impl Exports {
    /// Whether a file goes to stdout, which then holds that file alone (the report goes to stderr).
    fn uses_stdout(&self) -> bool {
        [&self.json, &self.csv, &self.chart]
            .iter()
            .any(|d| d.as_ref().is_some_and(Destination::is_stdout))
    }
}

/// The progress bar: what runs on the first line (never cut: labels are at most [`MAX_STEP_LABEL`]
/// characters), the bar on the second.
pub const PROGRESS_TEMPLATE: &str = "{msg}\n{bar:40} {pos}/{len} [{elapsed}]";

/// Where the human-readable report goes: stdout, or stderr when stdout carries an exported file; fitted to
/// [`REPORT_COLUMNS`] unless `wide`.
fn report_writer(to_stderr: bool, wide: bool) -> Box<dyn Write> {
    let width = (!wide).then_some(REPORT_COLUMNS);
    if to_stderr {
        Box::new(FitWriter::new(std::io::stderr(), width))
    } else {
        Box::new(FitWriter::new(std::io::stdout(), width))
    }
}

/// Prints each group as it completes, above the progress bar (which is hidden when stderr is not a
/// terminal). The bar counts finished steps: each `step` call finishes the one before. A failed write
/// (a closed pipe) is kept and returned once the run ends.
struct Bar {
    bar: ProgressBar,
    started: bool,
    report: Box<dyn Write>,
    error: Option<std::io::Error>,
    wide: bool,
}

impl Progress for Bar {
    fn step(&mut self, what: &str) {
        if self.started {
            self.bar.inc(1);
        }
        self.started = true;
        self.bar.set_message(what.to_string());
    }

    fn group_done(&mut self, group: &Group) {
        if self.error.is_some() {
            return;
        }
        let report = &mut self.report;
        let written = self.bar.suspend(|| {
            report
                .write_all(render_group(group, self.wide).as_bytes())
                .and_then(|()| report.flush())
        });
        self.error = written.err();
    }
}

/// Runs the benchmark; `Ok(false)` when any comparison disagrees.
pub fn run_bench(args: &BenchArgs) -> anyhow::Result<bool> {
    let spec = args.spec()?;
    let exports = args.exports()?;
    let to_stderr = exports.uses_stdout();
    if !to_stderr {
        require_stdout("the benchmark report")?;
    }
    let mut report = report_writer(to_stderr, args.wide);
    if args.io {
        return run_io(args, &spec, &exports, &mut report);
    }
    if let Some(choice) = args.algorithm {
        let selected = select_backend(args.backend.into(), SoftwareAdapters::Accept)?;
        let (table, clean) = bench::run_algorithms(
            choice,
            spec.sizes[0],
            spec.seed,
            spec.repeat,
            selected.gpu(),
        )?;
        report.write_all(table.as_bytes())?;
        report.flush()?;
        return Ok(clean);
    }
    let selected = select_backend(args.backend.into(), SoftwareAdapters::Accept)?;
    let kinds: Vec<&str> = spec.kinds.iter().map(|&k| kind_name(k)).collect();
    writeln!(
        report,
        "gpu-gjk bench: seed {}, shapes {}, hull points {}..{}, {} queries, best of {} per backend",
        spec.seed,
        spec.shapes.names(),
        spec.mix().hull_points.0,
        spec.mix().hull_points.1,
        kinds.join(" + "),
        count_len(spec.repeat, "run"),
    )?;
    writeln!(
        report,
        "CPU: 1 thread (the reference) and all threads = {} (rayon)",
        rayon::current_num_threads()
    )?;
    let mut gpu = selected
        .gpu()
        .map(|ctx| GpuBench::with_shader_checks(ctx, spec.shader_checks));
    match (&selected, &gpu) {
        (Selected::Gpu(ctx), Some(g)) => {
            let software = if ctx.summary.is_software() {
                " [software rasteriser: a correctness vehicle, not a speed claim]"
            } else {
                ""
            };
            writeln!(report, "GPU: {}{software}", ctx.summary)?;
            writeln!(
                report,
                "GPU shader checks: {} (--shader-checks {})",
                if g.shader_checks_on() { "on" } else { "off, trusted modules" },
                spec.shader_checks
            )?;
            writeln!(
                report,
                "GPU timing: hulls and instances uploaded once per scene, outside the timing; untimed warm-up: \
                 a batch of up to {GPU_WARMUP_PAIRS} pairs, then batches of up to {GPU_WARMUP_BATCH_PAIRS} for at \
                 least {GPU_WARMUP_SECONDS} s and until their speed settles (a GPU leaves its idle clocks only under \
                 sustained work); each timed batch streams its pairs up, computes and reads back, \
                 at most {} per dispatch; kernel time from timestamp queries: {}",
                crate::text::count(g.max_pairs_per_chunk(), "pair"),
                if g.has_timestamps() { "yes" } else { "not supported by this adapter" }
            )?;
        }
        _ if args.backend == BackendArg::Cpu => writeln!(report, "GPU: skipped (--backend cpu)")?,
        _ => writeln!(
            report,
            "GPU: skipped (no GPU adapter; see the notice on stderr and `gpu-gjk adapters`), CPU rows only"
        )?,
    }
    report.flush()?;

    let bar = ProgressBar::with_draw_target(
        Some(step_count(&spec, gpu.is_some())),
        ProgressDrawTarget::stderr(),
    );
    bar.set_style(
        ProgressStyle::with_template(PROGRESS_TEMPLATE)
            .expect("static template")
            .progress_chars("=> "),
    );
    let mut progress = Bar {
        bar,
        started: false,
        report,
        error: None,
        wide: args.wide,
    };
    let outcome = bench::run_bench(&spec, gpu.as_mut(), &mut progress);
    progress.bar.finish_and_clear();
    let outcome = outcome?;
    if let Some(error) = progress.error {
        return Err(error).context("cannot write the benchmark report");
    }
    let mut report = progress.report;

    let mut wrote = |flag: &str, destination: &Destination, bytes: &[u8]| -> anyhow::Result<()> {
        destination
            .write_all(bytes)
            .with_context(|| flag.to_string())?;
        if !destination.is_stdout() {
            writeln!(report, "wrote {}", destination.describe())?;
        }
        Ok(())
    };
    if let Some(destination) = &exports.json {
        wrote(
            "--json",
            destination,
            bench::to_json(&spec, &outcome).as_bytes(),
        )?;
    }
    if let Some(destination) = &exports.csv {
        wrote("--csv", destination, bench::to_csv(&outcome).as_bytes())?;
    }
    if let Some(destination) = &exports.chart {
        let gpu_name = selected.gpu().map_or_else(
            || "none".to_string(),
            |c| {
                let software = if c.summary.is_software() {
                    " (software rasteriser)"
                } else {
                    ""
                };
                format!("{}{software}", c.summary.name)
            },
        );
        let title = format!(
            "gpu-gjk bench (seed {}): throughput, GPU = {gpu_name}",
            spec.seed
        );
        wrote(
            "--chart",
            destination,
            render_chart(&outcome, &title)?.as_bytes(),
        )?;
    }
    let clean = outcome.is_clean();
    if clean {
        writeln!(
            report,
            "\nresult: clean (every comparison with CPU 1 thread within the agreement band)"
        )?;
    } else {
        writeln!(
            report,
            "\nresult: DISAGREEMENT with CPU 1 thread (see above); exit code 2"
        )?;
    }
    report.flush()?;
    Ok(clean)
}

/// `bench --io`: the table, and the figures to `--json`.
fn run_io(
    args: &BenchArgs,
    spec: &BenchSpec,
    exports: &Exports,
    report: &mut dyn Write,
) -> anyhow::Result<bool> {
    if let Some(path) = &args.io_input {
        if path.as_os_str() == "-" {
            bail!("--io-input needs a file name (the input is read back from it)");
        }
        Destination::File(path.clone()).check("--io-input", None)?;
    }
    let (table, document) = run_io_bench(&IoBenchSpec {
        seed: spec.seed,
        pairs: spec.sizes[0],
        mix: spec.mix(),
        repeat: spec.repeat,
        keep_input: args.io_input.clone(),
    })?;
    report.write_all(table.as_bytes())?;
    if let Some(destination) = &exports.json {
        destination
            .write_all(document.as_bytes())
            .context("--json")?;
        if !destination.is_stdout() {
            writeln!(report, "wrote {}", destination.describe())?;
        }
    }
    report.flush()?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::MAX_STEP_LABEL;

    #[test]
    fn the_progress_label_fits_an_80_column_terminal_whole() {
        // The label has a line of its own and is printed whole (`{msg}`, not the truncating `{wide_msg}`).
        let lines: Vec<&str> = PROGRESS_TEMPLATE.lines().collect();
        assert_eq!(lines[0], "{msg}");
        const { assert!(MAX_STEP_LABEL <= 80) };
        // The bar line: 40 + " 999/999 [59m]".
        assert!(lines[1].starts_with("{bar:40} ") && 40 + " 999/999 [59m]".len() <= 80);
    }
}
