//! Frame coherence on the demo's own pairs: the stress scene `gpu-gjk demo` runs by default (2,000 bodies made
//! from the OBJ assets, seed 1, moving in their box at 60 frames per second), each frame's candidate pairs from
//! sweep and prune, answered on one thread with and without the per-pair warm cache (`batch::query_batch_warm`,
//! one cache carried through the frames, against `batch::query_batch`), distance queries as the demo's default.
//!
//! `cargo bench --bench warm_start_demo` (the stress scene is part of the `app` feature; add `-- --frames N`
//! and `--rounds N`). The frames are stepped and their pairs found once, before timing; then each round
//! answers every frame cold and every frame warm (from an empty cache), back to back, which goes first
//! alternating, and the figures are the medians over the rounds (the two passes of a round see the same
//! machine: see `benches/alternation/mod.rs`). Prints the GJK iterations of both, the time per frame
//! and the warm/cold ratio with its quartiles.

mod alternation;

use alternation::{alternate, quantile, sorted};
use gpu_gjk::batch::{query_batch, query_batch_warm, Threads, WarmCache};
use gpu_gjk::broad_phase::{sweep_and_prune, world_aabbs};
use gpu_gjk::gjk::{GjkConfig, QueryKind};
use gpu_gjk::scenario::stress::ASSET_NAMES;
use gpu_gjk::scenario::stress::{StressScene, StressSpec};
use gpu_gjk::{ConvexShape, GjkResult, Instance};
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

struct Options {
    frames: usize,
    rounds: usize,
}

/// `--frames N` (default 60: one second of the demo) and `--rounds N` (default 15); other arguments (cargo
/// passes `--bench`) are ignored.
fn options() -> Options {
    let mut options = Options {
        frames: 60,
        rounds: 15,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let slot = match arg.as_str() {
            "--frames" => &mut options.frames,
            "--rounds" => &mut options.rounds,
            _ => continue,
        };
        *slot = args
            .next()
            .and_then(|n| n.parse().ok())
            .filter(|&n| n > 0)
            .unwrap_or_else(|| {
                eprintln!("{arg} takes a positive number");
                std::process::exit(2)
            });
    }
    options
}

/// One frame: the bodies as instances and the candidate pairs of the broad phase.
struct Frame {
    instances: Vec<Instance>,
    pairs: Vec<[u32; 2]>,
}

/// The demo's scene stepped `frames` times at 60 frames per second, with each frame's candidate pairs.
fn demo_frames(frames: usize) -> (Vec<ConvexShape>, Vec<Frame>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let templates = ASSET_NAMES
        .iter()
        .map(|name| {
            ConvexShape::from_obj(dir.join(format!("{name}.obj")), 0.0).expect("asset loads")
        })
        .collect();
    let mut scene = StressScene::new(templates, StressSpec::default()).expect("the demo's scene");
    let frames = (0..frames)
        .map(|_| {
            scene.step(1.0 / 60.0);
            let instances = scene.instances();
            let pairs = sweep_and_prune(&world_aabbs(&scene.shapes, &instances));
            Frame { instances, pairs }
        })
        .collect();
    (scene.shapes.clone(), frames)
}

/// Every frame's answers: cold without a cache, else warm from `cache` (carried from one frame to the next).
fn answer(
    shapes: &[ConvexShape],
    frames: &[Frame],
    config: &GjkConfig,
    mut cache: Option<&mut WarmCache>,
) -> Vec<Vec<GjkResult<f32>>> {
    let kind = QueryKind::Distance;
    frames
        .iter()
        .map(|f| {
            let (instances, pairs, single) = (&f.instances, &f.pairs, Threads::Single);
            match cache.as_deref_mut() {
                None => query_batch(shapes, instances, pairs, kind, config, single),
                Some(cache) => {
                    query_batch_warm(shapes, instances, pairs, kind, config, single, cache)
                }
            }
            .expect("valid")
        })
        .collect()
}

fn iterations(answers: &[Vec<GjkResult<f32>>]) -> u64 {
    answers
        .iter()
        .flatten()
        .map(|r| u64::from(r.iterations))
        .sum()
}

fn main() {
    let options = options();
    let config = GjkConfig::default();
    let (shapes, frames) = demo_frames(options.frames);
    let pairs: usize = frames.iter().map(|f| f.pairs.len()).sum();
    let cold = || answer(&shapes, &frames, &config, None);
    let warm = || answer(&shapes, &frames, &config, Some(&mut WarmCache::default()));
    let (cold_answers, warm_answers) = (cold(), warm());
    let (cold_iterations, warm_iterations) = (iterations(&cold_answers), iterations(&warm_answers));
    let flags_differ = cold_answers
        .iter()
        .flatten()
        .zip(warm_answers.iter().flatten())
        .filter(|(c, w)| c.intersecting != w.intersecting)
        .count();
    let timed = |run: &dyn Fn() -> Vec<Vec<GjkResult<f32>>>| {
        let start = Instant::now();
        black_box(run());
        start.elapsed().as_secs_f64()
    };
    let rounds = alternate(options.rounds, || timed(&cold), || timed(&warm));
    let cold_s = rounds.iter().map(|r| r.0).collect();
    let warm_s = rounds.iter().map(|r| r.1).collect();
    let ratios: Vec<f64> = rounds.iter().map(|(c, w)| w / c).collect();
    let per_frame_ms = |s: Vec<f64>| quantile(&sorted(s), 0.5) * 1e3 / frames.len() as f64;
    let ratios = sorted(ratios);
    println!(
        "warm_start_demo: the demo's default scene ({} bodies, {} shapes), {} frames at 60/s, {} candidate \
         pairs in all ({:.0} a frame), distance queries, one thread, {} rounds",
        StressSpec::default().bodies,
        ASSET_NAMES.len(),
        frames.len(),
        pairs,
        pairs as f64 / frames.len() as f64,
        options.rounds
    );
    println!(
        "GJK iterations: cold {cold_iterations}, warm {warm_iterations} ({:.1}% fewer); intersection flags \
         that differ: {flags_differ}",
        100.0 * (1.0 - warm_iterations as f64 / cold_iterations as f64)
    );
    println!(
        "time per frame (median): cold {:.3} ms, warm {:.3} ms; warm/cold {:.3} (quartiles {:.3}-{:.3})",
        per_frame_ms(cold_s),
        per_frame_ms(warm_s),
        quantile(&ratios, 0.5),
        quantile(&ratios, 0.25),
        quantile(&ratios, 0.75)
    );
}
