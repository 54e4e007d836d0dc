//! Raw point sets on the GPU, scanned whole against searched as their hull, alternated in one run:
//! `cargo run --release --example gpu_raw_sets [POINTS [PAIRS [ROUNDS]]]` (defaults 5,000, 20,000 and 3).
//!
//! 64 clouds of POINTS points like the ones files hold (60% on an ellipsoid, 30% inside, 10% repeated), each
//! built as given (`ConvexShape::new`, uploaded with `RawSets::Scanned`: every point scanned every support
//! call) and as a batch reader now builds it (`ConvexShape::from_points`: its hull, climbed), queried against
//! each other and a box (distance). Prints each round's GPU throughput both ways, the ratio, and the counting
//! kernel's hull points read per support call and SIMT efficiency; the answers are compared with the CPU's each
//! time. Exits 1 on a disagreement, 2 without a GPU adapter.
use glam::Vec3;
use gpu_gjk::batch::{query_batch, Threads};
use gpu_gjk::gpu::{BackendChoice, GpuContext, NarrowPhase, RawSets, WorkSummary};
use gpu_gjk::scenario::{random_rotation, random_unit};
use gpu_gjk::validate::compare;
use gpu_gjk::{ConvexShape, GjkConfig, Instance, Pose, QueryKind};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

const CLOUDS: usize = 64;

fn cloud(rng: &mut Pcg64Mcg, n: usize) -> Vec<Vec3> {
    let axes = Vec3::new(1.0, 0.6, 0.4);
    let mut points: Vec<Vec3> = Vec::with_capacity(n);
    while points.len() < n {
        let roll: f32 = rng.random();
        let p = if roll < 0.1 && !points.is_empty() {
            points[rng.random_range(0..points.len())]
        } else if roll < 0.4 {
            random_unit(rng) * axes * rng.random_range(0.0..0.95)
        } else {
            random_unit(rng) * axes
        };
        points.push(p);
    }
    points
}

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
    let points = whole_number(args.next(), 5_000, "points").max(1);
    let pair_count = whole_number(args.next(), 20_000, "pairs").max(1);
    let rounds = whole_number(args.next(), 3, "rounds").max(1);
    let mut rng = Pcg64Mcg::seed_from_u64(points as u64);
    let clouds: Vec<Vec<Vec3>> = (0..CLOUDS).map(|_| cloud(&mut rng, points)).collect();
    let the_box = ConvexShape::cuboid(Vec3::new(0.5, 0.4, 0.3)).expect("a box");
    let build = |make: &dyn Fn(Vec<Vec3>) -> ConvexShape| -> Vec<ConvexShape> {
        clouds
            .iter()
            .map(|c| make(c.clone()))
            .chain([the_box.clone()])
            .collect()
    };
    let raw = build(&|c| ConvexShape::new(c, 0.0).expect("a valid cloud"));
    let read = build(&|c| ConvexShape::from_points(c, 0.0).expect("a valid cloud"));
    let mut instances = Vec::new();
    let mut pairs = Vec::new();
    for k in 0..pair_count {
        let a = (k % CLOUDS) as u32;
        let b = rng.random_range(0..=CLOUDS) as u32;
        let first = instances.len() as u32;
        instances.push(Instance {
            shape: a,
            pose: Pose::new(Vec3::ZERO, random_rotation(&mut rng)),
        });
        instances.push(Instance {
            shape: b,
            pose: Pose::new(
                random_unit(&mut rng) * rng.random_range(0.5..2.5),
                random_rotation(&mut rng),
            ),
        });
        pairs.push([first, first + 1]);
    }
    let ctx = match GpuContext::new(BackendChoice::Auto) {
        Ok(ctx) => ctx,
        Err(e) => {
            eprintln!("no GPU adapter: {e}");
            std::process::exit(2)
        }
    };
    println!(
        "{} clouds of {points} points ({} hull vertices on average), {pair_count} pairs, {}",
        CLOUDS,
        read[..CLOUDS].iter().map(ConvexShape::len).sum::<usize>() / CLOUDS,
        ctx.summary
    );
    let config = GjkConfig::default();
    let kind = QueryKind::Distance;
    let mut np = NarrowPhase::new(&ctx.device, &ctx.queue);
    let mut clean = true;
    for round in 1..=rounds {
        let mut rates = [0.0; 2];
        for (side, shapes) in [&raw, &read].into_iter().enumerate() {
            // The raw sets stay scanned: by default the upload would search them as their hulls too.
            np.set_raw_sets([RawSets::Scanned, RawSets::Hulled][side]);
            np.upload_hulls(shapes).expect("hulls fit");
            let start = Instant::now();
            let gpu = np
                .run(&instances, &pairs, kind, &config)
                .expect("a GPU batch");
            rates[side] = pair_count as f64 / start.elapsed().as_secs_f64();
            let cpu = query_batch(shapes, &instances, &pairs, kind, &config, Threads::All)
                .expect("valid pairs");
            let report = compare(shapes, &instances, &pairs, &gpu.results, &cpu, kind);
            clean &= report.is_clean();
            if round == 1 {
                let work = np
                    .count_work(&instances, &pairs, kind, &config)
                    .expect("a counting batch");
                let s = WorkSummary::of(&work);
                println!(
                    "{}: {:.1} hull points read a support call, SIMT efficiency {:.3} of GJK steps and {:.3} of \
                     support reads; {}",
                    ["raw, scanned", "read as hulls"][side],
                    s.vertex_reads_per_support,
                    s.simt_gjk_steps,
                    s.simt_support_reads,
                    if report.is_clean() { "clean" } else { "DISAGREEMENT" }
                );
            }
        }
        println!(
            "round {round}: GPU raw {:.0} pairs/s, read as hulls {:.0} pairs/s: {:.1}x",
            rates[0],
            rates[1],
            rates[1] / rates[0]
        );
    }
    if !clean {
        std::process::exit(1);
    }
}
