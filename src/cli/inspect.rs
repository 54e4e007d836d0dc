//! `gpu-gjk inspect`: one pair of a `query` input file, answered with its trace: every GJK iteration (the
//! simplex as points of A, points of B and their differences, the search direction, the distance bounds) and
//! every EPA expansion (face count, closest face, support point), ending with the line `query` prints for it.
//!
//! The trace comes from the CPU reference's own loop (see [`crate::query::trace`]), so the answer at its end
//! is the one `query` gives, bit for bit. The picture (`--screenshot`) and the interactive inspector
//! (`--window`) are the demo's inspector; the command line hands it the parsed pair (see `src/main.rs`).
//!
//! Every point and vector, in the table, in `--trace` and in the picture, is in world coordinates, and the
//! three count steps and EPA expansions alike ([`steps`]).

pub mod steps;

use super::choices::LineLimitArg;
use crate::gjk::GjkConfig;
use crate::io::answers::write_result;
use crate::io::jsonl::{parse_line, PairInput};
use crate::io::jsonl::{read_input, split_lines};
use crate::io::same_file::refuse_same_file;
use crate::io::sink::{Destination, Format};
use crate::one_pair::trace_penetration;
use crate::pose::{DPose, RelativePose};
use crate::query::trace::{EpaIterationTrace, GjkIterationTrace, RunTrace, TracePoint};
use crate::query::{PairTrace, WorldPenetration, WorldResult};
use anyhow::{anyhow, Context, Result};
use glam::DVec3;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

#[derive(Clone, Debug, clap::Args)]
pub struct InspectArgs {
    /// JSON Lines input in the `query` format; `-` reads stdin.
    #[arg(value_name = "FILE.jsonl")]
    pub input: PathBuf,
    /// Which line to inspect (the first is 1).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub line: usize,
    /// Write the per-iteration trace as JSON to this file.
    #[arg(long, value_name = "out.json")]
    pub trace: Option<PathBuf>,
    /// Draw the inspector (Minkowski difference, simplex, bounds chart, GPU beside CPU) into this PNG,
    /// offscreen (needs a GPU adapter; a software one is fine); with --window, the window's last frame.
    #[arg(long, value_name = "out.png")]
    pub screenshot: Option<PathBuf>,
    /// Open the inspector in a window: step with , and . (P plays), drag to orbit, wheel to zoom about the
    /// origin and the simplex, F for the whole difference, Esc to quit.
    #[arg(long)]
    pub window: bool,
    /// The step the picture or the window shows (the table's `step` column; default: the last, the answer).
    #[arg(long, value_name = "K")]
    pub step: Option<usize>,
    /// With --window: draw this many frames, print a JSON summary and exit (for tests and scripts).
    #[arg(long, value_name = "N", requires = "window", value_parser = clap::value_parser!(u64).range(1..))]
    pub frames: Option<u64>,
    #[command(flatten)]
    pub line_limit: LineLimitArg,
}

/// The pair inspected, its trace and the answer line `query` prints for it.
pub struct Inspected {
    pub line: usize,
    pub pair: PairInput,
    pub trace: PairTrace,
    /// The `query` output line for this pair, without its newline.
    pub answer_line: String,
}

/// Reads the line, traces the pair, writes `--trace`, and prints a table of the iterations followed by the
/// answer line. A bad line is an error naming the line and the field, as `query` names it.
pub fn run_inspect(args: &InspectArgs) -> Result<Inspected> {
    check_outputs(args)?;
    let text = read_input(&args.input, args.line_limit.max_line_bytes)?;
    let lines = split_lines(&text);
    if args.line == 0 || args.line > lines.len() {
        return Err(anyhow!(
            "--line {}: {} has {} line{} (lines count from 1)",
            args.line,
            args.input.display(),
            lines.len(),
            if lines.len() == 1 { "" } else { "s" }
        ));
    }
    let pair = parse_line(lines[args.line - 1])
        .map_err(|message| anyhow!("{}: line {}: {message}", args.input.display(), args.line))?;
    let inspected = inspect_pair(args.line, pair);
    if let Some(step) = args.step {
        let count = step_count(&inspected.trace);
        if step >= count {
            return Err(anyhow!(
                "--step {step}: line {} has {count} step{} (0 to {})",
                args.line,
                if count == 1 { "" } else { "s" },
                count.saturating_sub(1)
            ));
        }
    }
    if let Some(path) = &args.trace {
        let json = serde_json::to_string_pretty(&trace_json(&inspected)?)?;
        std::fs::write(path, json + "\n")
            .with_context(|| format!("cannot write the trace to {}", path.display()))?;
    }
    // Not `print!`, which panics when stdout's reader has gone (`| head -1`): the broken pipe ends the
    // command with exit code 141.
    let mut out = std::io::stdout().lock();
    write!(out, "{}", inspect_table(&inspected))
        .and_then(|()| writeln!(out, "{}", inspected.answer_line))
        .and_then(|()| out.flush())
        .context("cannot write to standard output")?;
    Ok(inspected)
}

/// Before any work: refuses a `--trace` or `--screenshot` that names the input (it would be overwritten) or
/// each other, and checks that each can be written (its folder exists, the name ends in .json or .png).
fn check_outputs(args: &InspectArgs) -> Result<()> {
    let input = ("the input", args.input.as_path());
    if let Some(trace) = &args.trace {
        refuse_same_file("--trace", trace, &[input])?;
        let json = Format {
            extension: "json",
            name: "JSON",
        };
        Destination::File(trace.clone()).check("--trace", Some(json))?;
    }
    if let Some(screenshot) = &args.screenshot {
        let mut others = vec![input];
        others.extend(args.trace.as_deref().map(|t| ("--trace", t)));
        refuse_same_file("--screenshot", screenshot, &others)?;
        let png = Format {
            extension: "png",
            name: "PNG",
        };
        Destination::File(screenshot.clone()).check("--screenshot", Some(png))?;
    }
    Ok(())
}

/// The inspector's steps for a trace: the answering run's GJK iterations, then its EPA records.
pub fn step_count(trace: &PairTrace) -> usize {
    let run = trace.answering_run();
    run.gjk.len() + run.epa.len()
}

/// Traces one parsed pair the way `query` answers it: the pair-local frame formed in float64 from the world
/// poses and the shapes' centres (positions subtracted first), then GJK and EPA in float32 (and float64 where float32 cannot finish).
pub fn inspect_pair(line: usize, pair: PairInput) -> Inspected {
    let relative = RelativePose::<f32>::between_centred(&pair.a.pose, &pair.b.pose);
    let frame = pair.a.pose.folded();
    let trace = trace_penetration(
        &pair.a.shape,
        &pair.b.shape,
        &relative,
        &GjkConfig::default(),
    );
    let world = WorldResult::from_local(&trace.result, &frame);
    let hit = trace
        .penetration
        .as_ref()
        .expect("a penetration trace has a penetration answer");
    let world_hit = WorldPenetration::from_local(hit, &frame);
    let mut out = Vec::new();
    write_result(&mut out, &world, Some(&world_hit)).expect("writing to memory");
    let answer_line = String::from_utf8(out)
        .expect("JSON is UTF-8")
        .trim_end()
        .to_owned();
    Inspected {
        line,
        pair,
        trace,
        answer_line,
    }
}

#[derive(Serialize)]
struct PointJson {
    a: [f64; 3],
    b: [f64; 3],
    w: [f64; 3],
}

#[derive(Serialize)]
struct VertexJson {
    #[serde(flatten)]
    point: PointJson,
    weight: f64,
}

#[derive(Serialize)]
struct GjkJson {
    /// The inspector's step (`--step`) showing this iteration; absent for a run that did not answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    step: Option<usize>,
    iteration: u32,
    /// `searching` until the last iteration, which carries the answer's status.
    status: &'static str,
    direction: Option<[f64; 3]>,
    support: PointJson,
    simplex: Vec<VertexJson>,
    closest: [f64; 3],
    lower_bound: f64,
    upper_bound: f64,
    /// The upper bound, and on the last iteration the answer's distance (0 when intersecting).
    distance: f64,
}

#[derive(Serialize)]
struct EpaJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    step: Option<usize>,
    attempt: u32,
    /// Expansions made so far in this try: 0 is the starting polytope.
    iteration: u32,
    face_count: usize,
    normal: [f64; 3],
    /// The closest face's distance from the origin plus the radii: the depth it stands for.
    distance: f64,
    support: PointJson,
}

#[derive(Serialize)]
struct RunJson {
    precision: &'static str,
    /// Expansions EPA made, per try (`Penetration::iterations` of each try).
    epa_expansions: Vec<u32>,
    gjk: Vec<GjkJson>,
    epa: Vec<EpaJson>,
}

#[derive(Serialize)]
struct TraceJson {
    line: usize,
    /// The frame of every point and vector below.
    frame: &'static str,
    /// Every run in order: float32, then the float64 repeat when float32 could not finish (its answer counts).
    runs: Vec<RunJson>,
    /// The answering run's iterations again, for readers that want one list.
    gjk: Vec<GjkJson>,
    epa: Vec<EpaJson>,
    /// Exactly the object `query` prints for this line.
    answer: serde_json::Value,
}

/// The trace in world coordinates, as `--trace` writes it.
#[cfg(test)]
pub fn trace_value(inspected: &Inspected) -> Result<serde_json::Value> {
    Ok(serde_json::to_value(trace_json(inspected)?)?)
}

fn trace_json(inspected: &Inspected) -> Result<TraceJson> {
    let pose = &inspected.pair.a.pose.folded();
    let last = inspected.trace.runs.len().saturating_sub(1);
    let runs: Vec<RunJson> = inspected
        .trace
        .runs
        .iter()
        .enumerate()
        .map(|(i, run)| run_json(run, pose, i == last))
        .collect();
    let answering = run_json(inspected.trace.answering_run(), pose, true);
    Ok(TraceJson {
        line: inspected.line,
        frame: steps::FRAME_NOTE,
        runs,
        gjk: answering.gjk,
        epa: answering.epa,
        answer: serde_json::from_str(&inspected.answer_line)?,
    })
}

/// One run; `answering` numbers its iterations with the inspector's steps.
fn run_json(run: &RunTrace, pose: &DPose, answering: bool) -> RunJson {
    let count = run.gjk.len();
    RunJson {
        precision: if run.float64 { "float64" } else { "float32" },
        epa_expansions: (0..run.epa_tries)
            .map(|attempt| steps::epa_expansions(run, attempt))
            .collect(),
        gjk: run
            .gjk
            .iter()
            .enumerate()
            .map(|(i, it)| {
                let step = answering.then_some(i);
                gjk_json(it, pose, step, (i + 1 == count).then_some(run))
            })
            .collect(),
        epa: run
            .epa
            .iter()
            .enumerate()
            .map(|(i, it)| epa_json(it, pose, answering.then_some(count + i)))
            .collect(),
    }
}

fn gjk_json(
    it: &GjkIterationTrace,
    pose: &DPose,
    step: Option<usize>,
    last_of: Option<&RunTrace>,
) -> GjkJson {
    let answer = last_of.and_then(|run| run.gjk_answer);
    GjkJson {
        step,
        iteration: it.iteration,
        status: answer.map_or("searching", |a| a.status.name()),
        direction: it.direction.map(|d| vector(pose, d)),
        support: point_json(pose, &it.support),
        simplex: it
            .simplex
            .iter()
            .map(|(p, weight)| VertexJson {
                point: point_json(pose, p),
                weight: *weight,
            })
            .collect(),
        closest: vector(pose, it.closest),
        lower_bound: it.lower_bound,
        upper_bound: it.upper_bound,
        distance: answer.map_or(it.upper_bound, |a| a.distance),
    }
}

fn epa_json(it: &EpaIterationTrace, pose: &DPose, step: Option<usize>) -> EpaJson {
    EpaJson {
        step,
        attempt: it.attempt,
        iteration: it.iteration,
        face_count: it.face_count,
        normal: vector(pose, it.normal),
        distance: it.depth,
        support: point_json(pose, &it.support),
    }
}

/// A point of A's local frame in world coordinates.
fn point(pose: &DPose, p: DVec3) -> [f64; 3] {
    clean(pose.transform_point(p))
}

/// A direction (or a point of A - B, which moves with A's rotation only) in world coordinates.
fn vector(pose: &DPose, v: DVec3) -> [f64; 3] {
    clean(pose.rotation * v)
}

fn point_json(pose: &DPose, p: &TracePoint) -> PointJson {
    PointJson {
        a: point(pose, p.a),
        b: point(pose, p.b),
        w: vector(pose, p.w),
    }
}

fn clean(v: DVec3) -> [f64; 3] {
    [v.x + 0.0, v.y + 0.0, v.z + 0.0]
}

/// The iterations as a table for the terminal, in world coordinates like `--trace` and the picture; the
/// `step` column is the inspector's step (`--step`), the same numbers the picture's slider shows.
pub fn inspect_table(inspected: &Inspected) -> String {
    use std::fmt::Write;
    let pose = &inspected.pair.a.pose.folded();
    let mut out = String::new();
    let _ = writeln!(out, "line {}: {}", inspected.line, steps::FRAME_NOTE);
    let last = inspected.trace.runs.len().saturating_sub(1);
    for (r, run) in inspected.trace.runs.iter().enumerate() {
        let answering = r == last;
        let step = |i: usize| {
            if answering {
                i.to_string()
            } else {
                "-".into()
            }
        };
        let precision = if run.float64 { "float64" } else { "float32" };
        let answer = run.gjk_answer.map_or_else(String::new, |a| {
            format!(
                ": {} after {}",
                a.status.name(),
                crate::text::count(a.iterations, "iteration")
            )
        });
        let _ = writeln!(out, "line {} GJK ({precision}){answer}", inspected.line);
        let _ = writeln!(
            out,
            "{:>4} {:>4} {:>7} {:>13} {:>13}  support w",
            "step", "it", "simplex", "lower", "upper"
        );
        for (i, it) in run.gjk.iter().enumerate() {
            let w = vector(pose, it.support.w);
            let _ = writeln!(
                out,
                "{:>4} {:>4} {:>7} {:>13.6e} {:>13.6e}  [{:.4}, {:.4}, {:.4}]",
                step(i),
                it.iteration,
                it.simplex.len(),
                it.lower_bound,
                it.upper_bound,
                w[0],
                w[1],
                w[2]
            );
        }
        let tries = run.epa_tries;
        for attempt in 0..tries {
            let expansions = steps::epa_expansions(run, attempt);
            let _ = writeln!(
                out,
                "EPA ({precision}), try {} of {tries}: {} (it 0 is the starting polytope)",
                attempt + 1,
                steps::expansions_text(expansions)
            );
            let _ = writeln!(
                out,
                "{:>4} {:>4} {:>5} {:>13}  normal",
                "step", "it", "faces", "depth"
            );
            for (j, it) in run.epa.iter().enumerate() {
                if it.attempt != attempt {
                    continue;
                }
                let n = vector(pose, it.normal);
                let _ = writeln!(
                    out,
                    "{:>4} {:>4} {:>5} {:>13.6e}  [{:.4}, {:.4}, {:.4}]",
                    step(run.gjk.len() + j),
                    it.iteration,
                    it.face_count,
                    it.depth,
                    n[0],
                    n[1],
                    n[2]
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
