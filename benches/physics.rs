//! Physics steps of the same pile on the CPU (`physics::World::step`, on all cores) and on the GPU
//! (`gpu::physics::GpuWorld::step`: boxes, grid broad phase, contact pass and solver on the device, the host
//! waiting for each step to finish), from the same start: boxes and 12-point hulls thrown into a walled square
//! (the pile of the physics tests). Prints one Markdown row per body count with the median milliseconds per
//! step of each and their ratio, after a first second of steps as the pile falls and meets (the timed steps).
//!
//! `cargo bench --bench physics` (body counts replace 200 1000 5000; `--steps N`, default 60, timed after 60
//! untimed). The GPU is `WGPU_BACKEND`'s adapter, or the best there is.

use gpu_gjk::gpu::physics::GpuWorld;
use gpu_gjk::gpu::{wait, BackendChoice, GpuContext};
use gpu_gjk::physics::scenes::pile;
use std::time::Instant;

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let mut counts = Vec::new();
    let mut steps = 60usize;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--steps" => steps = args.next().and_then(|n| n.parse().ok()).expect("--steps N"),
            "--bench" => {}
            other => counts.push(other.parse::<usize>().expect("a body count")),
        }
    }
    if counts.is_empty() {
        counts = vec![200, 1000, 5000];
    }
    let ctx = GpuContext::new(BackendChoice::Auto).expect("a GPU adapter (software is fine)");
    let warm_up = 60;
    println!(
        "the pile of physics::scenes, median ms per step over {steps} steps after {warm_up}; GPU: {}",
        ctx.summary
    );
    println!();
    println!("| bodies | CPU contacts | CPU ms/step | GPU contacts | GPU ms/step | CPU / GPU |");
    println!("|---:|---:|---:|---:|---:|---:|");
    for count in counts {
        let mut cpu = pile(count, 7);
        let mut gpu = GpuWorld::new(&ctx.device, &ctx.queue, &cpu).expect("the GPU world");
        let (mut cpu_ms, mut gpu_ms) = (Vec::new(), Vec::new());
        let (mut cpu_contacts, mut gpu_contacts) = (0, 0);
        for step in 0..warm_up + steps {
            let start = Instant::now();
            let stats = cpu.step();
            let cpu_step = start.elapsed().as_secs_f64() * 1e3;
            let start = Instant::now();
            gpu.step().expect("a GPU step");
            wait(&ctx.device).expect("the device");
            let gpu_step = start.elapsed().as_secs_f64() * 1e3;
            if step >= warm_up {
                cpu_ms.push(cpu_step);
                gpu_ms.push(gpu_step);
                cpu_contacts = stats.contacts;
                gpu_contacts = gpu.latest_stats().expect("the step's statistics").contacts;
            }
        }
        let (c, g) = (median(cpu_ms), median(gpu_ms));
        println!(
            "| {count} | {cpu_contacts} | {c:.2} | {gpu_contacts} | {g:.2} | {:.2} |",
            c / g
        );
    }
}
