//! One support call, three searches: the scalar scan, the SIMD scan and the warm-started hill-climbing walk,
//! on hulls whose points all lie on a sphere (every point a vertex), for the crossover that sets
//! `gpu_gjk::shape::HILL_CLIMB_MIN_VERTICES`.
//!
//! `cargo bench --bench support` (add `-- --quick` for a short run). Ids are `support/{scalar,simd,climb}/N`;
//! one element is one support call. The directions turn by a few degrees from one call to the next, as GJK's
//! do within a query, and the walk starts where the previous call ended.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use glam::{Vec3, Vec3A};
use gpu_gjk::scenario::mesh_gen::fibonacci_sphere as sphere_points;
use gpu_gjk::shape::{support_index, HullAdjacency, HullView, PackedPoints};
use std::hint::black_box;
use std::time::Duration;

const SIZES: [usize; 9] = [8, 16, 24, 32, 48, 64, 128, 512, 4096];
const CALLS: usize = 256;

/// Directions turning a few degrees per call, with a jump to a new region every 8 calls (a new query).
fn directions() -> Vec<Vec3A> {
    (0..CALLS)
        .map(|i| {
            let query = (i / 8) as f32 * 2.399;
            let step = (i % 8) as f32 * 0.06;
            Vec3::new(
                (query + step).cos(),
                (query * 0.7).sin() + step,
                (query + step).sin(),
            )
            .normalize()
            .into()
        })
        .collect()
}

fn support(c: &mut Criterion) {
    let dirs = directions();
    let mut group = c.benchmark_group("support");
    group.throughput(Throughput::Elements(CALLS as u64));
    for n in SIZES {
        let points = sphere_points(n);
        let adjacency = HullAdjacency::of_hull_vertices(&points).expect("points on a sphere");
        // The float32 searches take glam's 16-byte vectors (`Real::V`).
        let points: Vec<Vec3A> = points.into_iter().map(Vec3A::from).collect();
        let packed = PackedPoints::<f32>::new(&points);
        group.bench_with_input(BenchmarkId::new("scalar", n), &n, |b, _| {
            b.iter(|| {
                dirs.iter()
                    .map(|&d| support_index::<f32>(black_box(&points), d))
                    .sum::<usize>()
            })
        });
        group.bench_with_input(BenchmarkId::new("simd", n), &n, |b, _| {
            b.iter(|| {
                dirs.iter()
                    .map(|&d| black_box(&packed).support_index(d))
                    .sum::<usize>()
            })
        });
        group.bench_with_input(BenchmarkId::new("climb", n), &n, |b, _| {
            b.iter(|| {
                let view = HullView::<f32>::new(black_box(&points), None, Some(&adjacency));
                dirs.iter()
                    .enumerate()
                    .map(|(i, &d)| {
                        // A new query starts cold, from the start table.
                        if i % 8 == 0 {
                            view.start_at_seeds();
                        }
                        view.support_index(d)
                    })
                    .sum::<usize>()
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .measurement_time(Duration::from_secs(1))
        .warm_up_time(Duration::from_millis(300));
    targets = support
}
criterion_main!(benches);
