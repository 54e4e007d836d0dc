//! The demo's broad phase on its own scene, frame after frame: the world boxes, then the candidate pairs by the
//! uniform grid (`grid_pairs`, what the demo uses) and by sweep and prune, timed in alternation in each frame
//! and checked equal. Prints one Markdown row per body count.
//!
//! `cargo bench --bench broad_phase` (add body counts to replace 2000 10000 50000, and `--frames N`, default 30).

use gpu_gjk::broad_phase::{grid_pairs, sweep_and_prune, world_aabbs};
use gpu_gjk::scenario::stress::asset_shapes;
use gpu_gjk::scenario::stress::{StressScene, StressSpec};
use std::time::Instant;

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let mut counts = Vec::new();
    let mut frames = 30usize;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--frames" => {
                frames = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--frames N")
            }
            "--bench" => {}
            other => counts.push(other.parse::<usize>().expect("a body count")),
        }
    }
    if counts.is_empty() {
        counts = vec![2000, 10_000, 50_000];
    }
    let shapes = asset_shapes().expect("the demo's assets");
    println!("the demo's scene, {frames} frames of 1/60 s, median ms per frame (one thread)");
    println!();
    println!("| bodies | candidate pairs | world boxes | grid | sweep and prune | sweep / grid |");
    println!("|---:|---:|---:|---:|---:|---:|");
    for count in counts {
        let spec = StressSpec {
            bodies: count,
            ..StressSpec::default()
        };
        let mut scene = StressScene::new(shapes.clone(), spec).expect("the scene");
        let (mut boxes_ms, mut grid_ms, mut sweep_ms) = (Vec::new(), Vec::new(), Vec::new());
        let mut pairs = 0;
        for frame in 0..frames {
            scene.step(1.0 / 60.0);
            let start = Instant::now();
            let boxes = world_aabbs(&scene.shapes, &scene.instances());
            boxes_ms.push(start.elapsed().as_secs_f64() * 1e3);
            let time = |f: &dyn Fn() -> Vec<[u32; 2]>, into: &mut Vec<f64>| {
                let start = Instant::now();
                let found = f();
                into.push(start.elapsed().as_secs_f64() * 1e3);
                found
            };
            let (grid, sweep) = if frame % 2 == 0 {
                let g = time(&|| grid_pairs(&boxes), &mut grid_ms);
                (g, time(&|| sweep_and_prune(&boxes), &mut sweep_ms))
            } else {
                let s = time(&|| sweep_and_prune(&boxes), &mut sweep_ms);
                (time(&|| grid_pairs(&boxes), &mut grid_ms), s)
            };
            assert_eq!(grid, sweep, "frame {frame}: the two broad phases disagree");
            pairs = grid.len();
        }
        let (grid, sweep) = (median(grid_ms), median(sweep_ms));
        println!(
            "| {count} | {pairs} | {:.3} | {grid:.3} | {sweep:.3} | {:.1}x |",
            median(boxes_ms),
            sweep / grid
        );
    }
}
