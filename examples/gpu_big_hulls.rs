//! Big hulls on the GPU, climbed against scanned: `cargo run --release --example gpu_big_hulls [PAIRS [ROUNDS]]`
//! (defaults 20,000 and 3).
//!
//! Round hulls of 482, 1,000, 5,000 and 20,000 vertices made by `ConvexShape::hull` (so they carry the vertex
//! adjacency that the CPU and the GPU climb) against each other and against a box, distance queries. The same
//! points are also given as plain point sets (`ConvexShape::new` of the hulls' points: no adjacency, uploaded
//! with `RawSets::Scanned`, so the GPU scans every vertex, as it did for every hull before it climbed), and the
//! two are timed in alternation on one device with the CPU reference (one thread, climbing) beside them. The
//! GPU's answers are compared with the CPU's each time; exits 1 on a disagreement, 2 without a GPU adapter.
use glam::Vec3;
use gpu_gjk::batch::{query_batch, Threads};
use gpu_gjk::gpu::{BackendChoice, GpuContext, NarrowPhase, RawSets};
use gpu_gjk::scenario::mesh_gen::fibonacci_sphere;
use gpu_gjk::scenario::{random_rotation, random_unit};
use gpu_gjk::validate::compare;
use gpu_gjk::{ConvexShape, GjkConfig, Instance, Pose, QueryKind};
use rand::{Rng, SeedableRng};
use std::time::Instant;

fn whole_number(text: Option<String>, default: usize, what: &str) -> usize {
    match text {
        None => default,
        Some(text) => text.parse().unwrap_or_else(|_| {
            eprintln!("{what} must be a whole number, got {text:?}");
            std::process::exit(2)
        }),
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let pair_count = whole_number(args.next(), 20_000, "pairs").max(1);
    let rounds = whole_number(args.next(), 3, "rounds").max(1);
    let sizes = [482, 1_000, 5_000, 20_000];
    let mut climbed: Vec<ConvexShape> = sizes
        .iter()
        .map(|&n| ConvexShape::hull(&fibonacci_sphere(n), 0.0).expect("a round hull"))
        .collect();
    climbed.push(ConvexShape::cuboid(Vec3::new(0.5, 0.4, 0.3)).expect("a box"));
    let scanned: Vec<ConvexShape> = climbed
        .iter()
        .map(|s| ConvexShape::new(s.local_points().collect(), s.radius()).expect("the same points"))
        .collect();
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(482);
    let mut instances = Vec::new();
    let mut pairs = Vec::new();
    for k in 0..pair_count {
        let a = (k % sizes.len()) as u32;
        let b = ((k / sizes.len()) % climbed.len()) as u32;
        let first = instances.len() as u32;
        instances.push(Instance {
            shape: a,
            pose: Pose::new(Vec3::ZERO, random_rotation(&mut rng)),
        });
        instances.push(Instance {
            shape: b,
            pose: Pose::new(
                random_unit(&mut rng) * rng.random_range(0.5..3.0),
                random_rotation(&mut rng),
            ),
        });
        pairs.push([first, first + 1]);
    }
    let config = GjkConfig::default();
    let context = GpuContext::new(BackendChoice::Auto).unwrap_or_else(|error| {
        eprintln!("no GPU adapter: {error}");
        std::process::exit(2)
    });
    println!("adapter: {}", context.summary);
    println!(
        "{pair_count} distance pairs: round hulls of {sizes:?} vertices against each other and a box"
    );
    let start = Instant::now();
    let cpu = query_batch(
        &climbed,
        &instances,
        &pairs,
        QueryKind::Distance,
        &config,
        Threads::Single,
    )
    .expect("CPU batch");
    let cpu_s = start.elapsed().as_secs_f64();
    println!(
        "CPU, 1 thread (climbing): {cpu_s:.4} s, {:.0} pairs/s",
        pair_count as f64 / cpu_s
    );
    let mut narrow_phase = NarrowPhase::new(&context.device, &context.queue);
    let mut disagreements = 0;
    for round in 1..=rounds {
        for (name, shapes) in [("scanned", &scanned), ("climbed", &climbed)] {
            // The plain point sets stay scanned: by default the upload would hull them (they are raw sets).
            narrow_phase.set_raw_sets(if name == "scanned" {
                RawSets::Scanned
            } else {
                RawSets::Hulled
            });
            narrow_phase.upload_hulls(shapes).expect("upload hulls");
            // One untimed batch first: the clocks of a hardware GPU rise only under sustained work.
            narrow_phase
                .run(&instances, &pairs, QueryKind::Distance, &config)
                .expect("GPU batch");
            let gpu = narrow_phase
                .run(&instances, &pairs, QueryKind::Distance, &config)
                .expect("GPU batch");
            let report = compare(
                &climbed,
                &instances,
                &pairs,
                &gpu.results,
                &cpu,
                QueryKind::Distance,
            );
            let kernel = gpu
                .timings
                .kernel_s
                .map_or("-".to_owned(), |s| format!("{:.4} s", s));
            println!(
                "round {round}, GPU {name}: {:.4} s end to end ({:.0} pairs/s), kernels {kernel}, {} named failures, clean {}",
                gpu.timings.total_s,
                pair_count as f64 / gpu.timings.total_s,
                report.gpu_failures,
                report.is_clean()
            );
            if !report.is_clean() {
                println!("{}", report.summary());
                disagreements += 1;
            }
        }
    }
    if disagreements > 0 {
        std::process::exit(1);
    }
}
