//! Where a raw point set pays to be searched as its hull: `cargo run --release --example raw_crossover [SHAPES]`
//! (default 64 clouds per size).
//!
//! For each point count, SHAPES clouds like the ones files hold (points on an ellipsoid, inside it, repeated)
//! are built as given (`ConvexShape::new`, scanned) and as their hull (`ConvexShape::hull`, the hull
//! `ConvexShape::from_points` searches above `RAW_HULL_MIN_POINTS`), then each is queried against a box at 32
//! random poses (distance, one CPU thread, best of 5). Prints the build time per shape, the query time per pair
//! both ways, and how many queries of a shape pay for its hull. The figures are in docs/benchmarks.md.
use glam::Vec3;
use gpu_gjk::batch::{query_batch, Threads};
use gpu_gjk::scenario::{random_rotation, random_unit};
use gpu_gjk::{ConvexShape, GjkConfig, Instance, Pose, QueryKind};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::time::Instant;

const POSES: usize = 32;
const ROUNDS: usize = 5;

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

/// Seconds per pair, best of ROUNDS, of distance queries of every shape against the box (the last shape).
fn query_seconds(shapes: &[ConvexShape], instances: &[Instance], pairs: &[[u32; 2]]) -> f64 {
    let config = GjkConfig::default();
    (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            let answers = query_batch(
                shapes,
                instances,
                pairs,
                QueryKind::Distance,
                &config,
                Threads::Single,
            )
            .expect("valid indices");
            std::hint::black_box(answers);
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
        / pairs.len() as f64
}

fn main() {
    let shape_count: usize = std::env::args()
        .nth(1)
        .map(|t| t.parse().expect("SHAPES is a whole number"))
        .unwrap_or(64)
        .max(1);
    println!(
        "points  hull vertices  build raw us  build hull us  query raw ns  query hull ns  queries to pay"
    );
    for n in [16, 32, 48, 64, 96, 128, 256, 1_000, 5_000, 20_000, 40_000] {
        let mut rng = Pcg64Mcg::seed_from_u64(n as u64);
        let clouds: Vec<Vec<Vec3>> = (0..shape_count).map(|_| cloud(&mut rng, n)).collect();
        let start = Instant::now();
        let mut raw: Vec<ConvexShape> = clouds
            .iter()
            .map(|c| ConvexShape::new(c.clone(), 0.0).expect("a valid cloud"))
            .collect();
        let build_raw = start.elapsed().as_secs_f64() / shape_count as f64;
        let start = Instant::now();
        let mut hulls: Vec<ConvexShape> = clouds
            .iter()
            .map(|c| ConvexShape::hull(c, 0.0).expect("a valid cloud"))
            .collect();
        let build_hull = start.elapsed().as_secs_f64() / shape_count as f64;
        let vertices = hulls.iter().map(ConvexShape::len).sum::<usize>() / shape_count;
        let probe = ConvexShape::cuboid(Vec3::new(0.5, 0.3, 0.2)).expect("a box");
        raw.push(probe.clone());
        hulls.push(probe);
        let mut instances = Vec::new();
        let mut pairs = Vec::new();
        for s in 0..shape_count {
            for _ in 0..POSES {
                let first = instances.len() as u32;
                instances.push(Instance {
                    shape: s as u32,
                    pose: Pose::new(Vec3::ZERO, random_rotation(&mut rng)),
                });
                instances.push(Instance {
                    shape: shape_count as u32,
                    pose: Pose::new(
                        random_unit(&mut rng) * rng.random_range(0.8..2.5),
                        random_rotation(&mut rng),
                    ),
                });
                pairs.push([first, first + 1]);
            }
        }
        let query_raw = query_seconds(&raw, &instances, &pairs);
        let query_hull = query_seconds(&hulls, &instances, &pairs);
        let saved = query_raw - query_hull;
        let pay = if saved > 0.0 {
            format!("{:.1}", (build_hull - build_raw) / saved)
        } else {
            "never".to_string()
        };
        println!(
            "{n:>6}  {vertices:>13}  {:>12.2}  {:>13.2}  {:>12.0}  {:>13.0}  {pay:>14}",
            build_raw * 1e6,
            build_hull * 1e6,
            query_raw * 1e9,
            query_hull * 1e9,
        );
    }
}
