//! `gpu-gjk bench`: maps the arguments onto [`crate::bench`], drives the progress bar, prints the tables and
//! writes the files asked for. Returns whether every comparison was clean (exit code 0) or not (2).

use super::backend::{select_backend, Backend, Selected, SoftwareAdapters};
use crate::bench::{
    self, kind_name, parse_count, parse_shapes, render_group, step_count, sweep_sizes, BenchSpec,
    GpuBench, Group, KindChoice, Progress, ShapeList, GPU_WARMUP_PAIRS,
};
use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::Write;
use std::path::PathBuf;

#[derive(Clone, Debug, clap::Args)]
pub struct BenchArgs {
    /// Pairs in the seeded scene.
    #[arg(long, value_name = "N", default_value = "100000", value_parser = parse_count, conflicts_with = "sweep")]
    pub pairs: usize,
    /// Seed of the random scene; one seed gives the same scene everywhere.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Shape kinds to draw from: a comma-separated list of hull, box, cylinder, cone, sphere, capsule,
    /// rounded_box, flat_polygon, segment, or `all`.
    #[arg(long, value_name = "LIST", default_value = "all", value_parser = parse_shapes)]
    pub shapes: ShapeList,
    /// Largest point count of a random hull (hulls have 8 to N points).
    #[arg(long, value_name = "N", default_value = "64", value_parser = parse_count)]
    pub max_hull_points: usize,
    /// Where the GPU row runs. Unlike `query`, `auto` uses a software rasteriser too (as a correctness check);
    /// `cpu` measures the CPU rows only.
    #[arg(long, value_enum, default_value_t = Backend::Auto)]
    pub backend: Backend,
    /// Measure 1e3, 1e4, 1e5 and 1e6 pairs (up to --sweep-max) instead of --pairs.
    #[arg(long)]
    pub sweep: bool,
    /// Largest size of the sweep.
    #[arg(long, value_name = "N", default_value = "1000000", value_parser = parse_count, requires = "sweep")]
    pub sweep_max: usize,
    /// Timed runs per backend; the best (shortest) is reported.
    #[arg(long, value_name = "R", default_value = "3", value_parser = parse_count)]
    pub repeat: usize,
    /// Query kinds to measure.
    #[arg(long, value_enum, default_value_t = KindChoice::Both)]
    pub kind: KindChoice,
    /// Write every measured figure as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write every measured figure as CSV.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write an SVG chart of throughput against pair count (log-log).
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,
}

impl BenchArgs {
    fn spec(&self) -> anyhow::Result<BenchSpec> {
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
            repeat: self.repeat,
            kinds: self.kind.kinds(),
        })
    }
}

/// Prints each group as it completes, above the progress bar (which is hidden when stderr is not a
/// terminal). The bar counts finished steps: each `step` call finishes the one before.
struct Bar {
    bar: ProgressBar,
    started: bool,
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
        self.bar.suspend(|| {
            print!("{}", render_group(group));
            let _ = std::io::stdout().flush();
        });
    }
}

/// Runs the benchmark; `Ok(false)` when any comparison disagrees.
pub fn run_bench(args: &BenchArgs) -> anyhow::Result<bool> {
    let spec = args.spec()?;
    let selected = select_backend(args.backend, SoftwareAdapters::Accept)?;
    let kinds: Vec<&str> = spec.kinds.iter().map(|&k| kind_name(k)).collect();
    println!(
        "gpu-gjk bench: seed {}, shapes {}, hull points {}..{}, {} queries, best of {} run{} per backend",
        spec.seed,
        spec.shapes.names(),
        spec.mix().hull_points.0,
        spec.mix().hull_points.1,
        kinds.join(" + "),
        spec.repeat,
        if spec.repeat == 1 { "" } else { "s" }
    );
    println!(
        "CPU: 1 thread (the reference) and all threads = {} (rayon)",
        rayon::current_num_threads()
    );
    let mut gpu = selected.gpu().map(GpuBench::new);
    match (&selected, &gpu) {
        (Selected::Gpu(ctx), Some(g)) => {
            let software = if ctx.summary.is_software() {
                " [software rasteriser: a correctness vehicle, not a speed claim]"
            } else {
                ""
            };
            println!("GPU: {}{software}", ctx.summary);
            println!(
                "GPU timing: hulls and instances uploaded once per scene, outside the timing; one untimed warm-up \
                 batch of up to {GPU_WARMUP_PAIRS} pairs; each timed batch streams its pairs up, computes and reads back, \
                 at most {} pairs per dispatch; kernel time from timestamp queries: {}",
                g.max_pairs_per_chunk(),
                if g.has_timestamps() { "yes" } else { "not supported by this adapter" }
            );
        }
        _ if args.backend == Backend::Cpu => println!("GPU: skipped (--backend cpu)"),
        _ => println!(
            "GPU: skipped (no GPU adapter; see the notice on stderr and `gpu-gjk adapters`), CPU rows only"
        ),
    }
    let _ = std::io::stdout().flush();

    let bar = ProgressBar::with_draw_target(
        Some(step_count(&spec, gpu.is_some())),
        ProgressDrawTarget::stderr(),
    );
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} [{elapsed}] {wide_msg}")
            .expect("static template")
            .progress_chars("=> "),
    );
    let mut progress = Bar {
        bar,
        started: false,
    };
    let outcome = bench::run_bench(&spec, gpu.as_mut(), &mut progress);
    progress.bar.finish_and_clear();
    let outcome = outcome?;

    if let Some(path) = &args.json {
        std::fs::write(path, bench::to_json(&spec, &outcome))
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!("wrote {}", path.display());
    }
    if let Some(path) = &args.csv {
        std::fs::write(path, bench::to_csv(&outcome))
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!("wrote {}", path.display());
    }
    if let Some(path) = &args.chart {
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
        bench::write_chart(path, &outcome, &title)?;
        println!("wrote {}", path.display());
    }
    let clean = outcome.is_clean();
    if clean {
        println!("\nresult: clean (every comparison with CPU 1 thread within the agreement band)");
    } else {
        println!("\nresult: DISAGREEMENT with CPU 1 thread (see above); exit code 2");
    }
    Ok(clean)
}
