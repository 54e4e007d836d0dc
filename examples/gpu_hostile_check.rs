//! The hostile penetration set on whatever GPU `GpuContext` picks, against the CPU reference:
//! `cargo run --release --example gpu_hostile_check [POSES_PER_PAIR [RUNS]]` (defaults 300 and 3).
//!
//! Eight shapes that broke collision libraries (a 20 x 20 x 0.002 slab, a 2 x 0.002 x 0.002 needle, boxes of
//! half-size 1e5 and 1e-3, a rounded cube, a cube, a tetrahedron, a 1,000-vertex ellipsoid hull), every ordered
//! pair, half of the poses 1e5 from the origin (`gpu_gjk::scenario::hostile_scene`). `tests/gpu_penetration.rs`
//! runs a third of it on the software adapter; this is the whole set in one batch, for a hardware GPU whose
//! shader compiler the tests have not met. The batch then runs RUNS - 1 more times, its pairs in the opposite
//! order, and every answer must come back bit for bit the same: a pair's answer depends on that pair alone, not
//! on its neighbours in a workgroup or its place in the EPA queue's atomic append. (Software adapters cut loops
//! once a group of invocations has spent a budget, so there the pairs answered `gpu_loop_limit` vary with the
//! groups' make-up; they are counted apart.)
//! Exits 1 when the answers disagree with the CPU or between runs, 2 without a GPU adapter.
use gpu_gjk::batch::{penetration_batch, Threads};
use gpu_gjk::epa::{Penetration, PenetrationStatus};
use gpu_gjk::gpu::{BackendChoice, GpuContext, NarrowPhase};
use gpu_gjk::scenario::hostile_scene;
use gpu_gjk::validate::compare_penetration;
use gpu_gjk::GjkConfig;

fn whole_number(text: Option<String>, default: u32, what: &str) -> u32 {
    match text {
        None => default,
        Some(text) => text.parse().unwrap_or_else(|_| {
            eprintln!("{what} must be a whole number, got {text:?}");
            std::process::exit(2)
        }),
    }
}

/// Pairs whose answers differ in any bit between two runs, and how many of those a loop cut explains.
fn differences(first: &[Penetration<f32>], again: &[Penetration<f32>]) -> (usize, usize) {
    let differing: Vec<_> = first
        .iter()
        .zip(again)
        .filter(|(a, b)| a.to_bits() != b.to_bits())
        .collect();
    let loop_cut = differing
        .iter()
        .filter(|(a, b)| {
            a.status == PenetrationStatus::GpuLoopLimit
                || b.status == PenetrationStatus::GpuLoopLimit
        })
        .count();
    (differing.len(), loop_cut)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let poses_per_pair = whole_number(args.next(), 300, "poses per ordered pair");
    let runs = whole_number(args.next(), 3, "runs").max(1);
    let scene = hostile_scene(poses_per_pair);
    let context = GpuContext::new(BackendChoice::Auto).unwrap_or_else(|error| {
        eprintln!("no GPU adapter: {error}");
        std::process::exit(2)
    });
    println!("adapter: {}", context.summary);
    println!("{} pairs", scene.pairs.len());
    let mut narrow_phase = NarrowPhase::new(&context.device, &context.queue);
    narrow_phase
        .upload_hulls(&scene.shapes)
        .expect("upload hulls");
    let config = GjkConfig::default();
    let mut gpu = narrow_phase
        .run_penetration(&scene.instances, &scene.pairs, &config)
        .expect("GPU penetration batch");
    let (_, cpu) = penetration_batch(
        &scene.shapes,
        &scene.instances,
        &scene.pairs,
        &config,
        Threads::All,
    )
    .expect("CPU penetration batch");
    let compare = |answers: &[_]| {
        compare_penetration(&scene.shapes, &scene.instances, &scene.pairs, answers, &cpu)
    };
    let report = compare(&gpu.penetrations);
    println!(
        "GPU answers as computed: {} named failures\n{}",
        report.gpu_failures(),
        report.summary()
    );
    let mut unexplained = 0;
    let reversed: Vec<[u32; 2]> = scene.pairs.iter().rev().copied().collect();
    for repeat in 2..=runs {
        let mut again = narrow_phase
            .run_penetration(&scene.instances, &reversed, &config)
            .expect("GPU penetration batch")
            .penetrations;
        again.reverse();
        let (differing, loop_cut) = differences(&gpu.penetrations, &again);
        println!(
            "run {repeat} (pairs in the opposite order) against run 1: {differing} pairs differ in some bit, {loop_cut} of them cut by a loop budget"
        );
        unexplained += differing - loop_cut;
    }
    gpu.resolve_failures_on_cpu(&scene.shapes, &scene.instances, &scene.pairs, &config);
    let report = compare(&gpu.penetrations);
    println!(
        "after the named failures are answered on the CPU: clean {}, largest depth error {:e}, largest normal angle {:e} rad\n{}",
        report.is_clean(),
        report.max_depth_error,
        report.max_normal_angle,
        report.summary()
    );
    if unexplained > 0 {
        println!(
            "{unexplained} answers changed with the batch's order with no loop cut to explain it"
        );
    }
    if !report.is_clean() || unexplained > 0 {
        std::process::exit(1);
    }
}
