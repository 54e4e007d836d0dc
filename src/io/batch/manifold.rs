//! `query --kind manifold` on a JSON Lines batch, on the CPU: each block of lines is parsed, each pair's contact
//! manifold found ([`crate::manifold`]) on the executor's threads, and the block's lines written in order
//! (a manifold line per pair, the error line per bad line, a blank line per blank line).

use super::exec::Executor;
use super::stream_cpu::Streamed;
use crate::io::answers::{push_error_with_id, push_manifold};
use crate::io::jsonl::parse::PairInput as LinePair;
use crate::io::jsonl::reader::{for_each_block, input_error, pairs_of, ParsedLine};
use crate::io::jsonl::ShapeCache;
use crate::io::sink::Destination;
use crate::manifold::{manifold, Manifold};
use crate::pose::{CentredPose, DPose};
use crate::query::{PairInput, QueryOptions};
use crate::shape::ConvexShape;
use anyhow::Context;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;
use std::time::Instant;

/// The manifold of one line's pair, in world coordinates.
pub fn manifold_of_line(pair: &LinePair) -> Manifold {
    manifold_placed((&pair.a.shape, &pair.a.pose), (&pair.b.shape, &pair.b.pose))
}

/// The manifold of two centred shapes at their world poses (centres kept apart), however they were read
/// (a JSON line, a pairs table row). Both poses are first moved by minus A's position, so the pair is formed
/// from exact differences of the written positions (as the other kinds are) and a small pair far from the
/// origin keeps its digits until the points are moved back.
pub fn manifold_placed(
    (a, a_pose): (&ConvexShape, &CentredPose),
    (b, b_pose): (&ConvexShape, &CentredPose),
) -> Manifold {
    let origin = a_pose.pose.position;
    let near = |placed: &CentredPose| DPose {
        position: (placed.pose.position - origin) + placed.pose.rotation * placed.centre,
        rotation: placed.pose.rotation,
    };
    let input = PairInput::new(a, near(a_pose), b, near(b_pose));
    let mut m = manifold(&input, QueryOptions::default());
    for p in &mut m.points {
        p.point_a += origin;
        p.point_b += origin;
    }
    m
}

/// Answers the JSON Lines batch at `path` (stdin for `-`) with contact manifolds, block by block.
pub fn stream_manifolds(
    path: &Path,
    exec: &Executor,
    cache: &ShapeCache,
    output: &Destination,
    max_line_bytes: usize,
) -> anyhow::Result<Streamed> {
    let on_cpu = |valid: &[&LinePair]| Ok(exec.map(valid, |pair| manifold_of_line(pair)));
    stream_manifolds_with(path, exec, cache, output, max_line_bytes, on_cpu)
}

/// [`stream_manifolds`] with each block's valid pairs answered by `answer`, one manifold per pair in order.
pub(super) fn stream_manifolds_with(
    path: &Path,
    exec: &Executor,
    cache: &ShapeCache,
    output: &Destination,
    max_line_bytes: usize,
    mut answer: impl FnMut(&[&LinePair]) -> anyhow::Result<Vec<Manifold>>,
) -> anyhow::Result<Streamed> {
    let input: Box<dyn Read + Send> = if path.as_os_str() == "-" {
        Box::new(io::stdin())
    } else {
        let file = File::open(path)
            .with_context(|| format!("cannot read input file {}", path.display()))?;
        Box::new(file)
    };
    let mut out = output.open()?;
    let mut run = Streamed::default();
    let mut write_failure = None;
    let mut answer_failure = None;
    let mut lines = Vec::new();
    let read = for_each_block(input, exec, cache, max_line_bytes, |parsed| {
        let start = Instant::now();
        let valid = pairs_of(parsed);
        let answers = match answer(&valid) {
            Ok(answers) => answers,
            Err(e) => {
                answer_failure = Some(e);
                return Err(io::Error::other("the manifolds could not be answered"));
            }
        };
        run.compute_s += start.elapsed().as_secs_f64();
        run.lines += parsed.len();
        run.pairs += valid.len();
        lines.clear();
        let mut answers = answers.iter();
        for line in parsed.iter() {
            match line {
                ParsedLine::Pair(pair) => push_manifold(
                    &mut lines,
                    pair.id.as_ref(),
                    answers.next().expect("one per pair"),
                ),
                ParsedLine::Blank => lines.push(b'\n'),
                ParsedLine::Error(message) => {
                    run.failed_lines += 1;
                    push_error_with_id(&mut lines, message.id.as_ref(), &message.message);
                    eprintln!("{message}");
                }
            }
        }
        out.write_all(&lines).map_err(|e| {
            write_failure = Some(e);
            io::Error::other("the answers could not be written")
        })
    });
    if let Some(e) = answer_failure {
        return Err(e);
    }
    let written = match write_failure {
        Some(e) => Err(e),
        None => out.flush(),
    };
    written.with_context(|| format!("cannot write to {}", output.describe()))?;
    read.map_err(|e| input_error(path, e))?;
    Ok(run)
}
