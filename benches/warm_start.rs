//! Frame coherence: the same pairs frame after frame, each body drifting and turning a little per frame, with
//! and without the per-pair warm cache (`batch::query_batch_warm` against `batch::query_batch`), single
//! thread, distance queries.
//!
//! `cargo bench --no-default-features --features scenario --bench warm_start`. Ids are `warm_start/{cold,warm}`;
//! one element is one pair in one frame. Before timing it prints the GJK iterations of both over all frames.
//! The shapes are a random mix reduced to their hull vertices, so hulls of 256+ vertices walk their adjacency
//! (and a warm walk starts at last frame's vertex).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use glam::{Quat, Vec3};
use gpu_gjk::batch::{query_batch, query_batch_warm, Threads, WarmCache};
use gpu_gjk::gjk::{GjkConfig, QueryKind};
use gpu_gjk::scenario::{random_scene, MixSpec};
use gpu_gjk::{ConvexShape, Instance};
use std::time::Duration;

const SEED: u64 = 20_240_611;
const PAIRS: usize = 1000;
const FRAMES: usize = 30;

/// The instances after `frame` steps of 1/60 s: each drifts at 0.35 to 0.5 units/s and turns at 1 rad/s.
fn advance(instances: &[Instance], frame: usize) -> Vec<Instance> {
    let t = frame as f32 / 60.0;
    instances
        .iter()
        .enumerate()
        .map(|(k, instance)| {
            let phase = k as f32 * 2.399;
            let velocity = Vec3::new(phase.cos(), (phase * 0.7).sin(), phase.sin()) * 0.35;
            let axis = Vec3::new(1.0, phase.sin(), phase.cos()).normalize();
            let mut moved = *instance;
            moved.pose.position += velocity * t;
            moved.pose.rotation =
                (Quat::from_axis_angle(axis, t) * instance.pose.rotation).normalize();
            moved
        })
        .collect()
}

fn warm_start(c: &mut Criterion) {
    let spec = MixSpec {
        scale: (0.5, 2.0),
        hull_points: (8, 1000),
        ..MixSpec::default()
    };
    let scene = random_scene(SEED, PAIRS, &spec);
    let shapes: Vec<ConvexShape> = scene
        .shapes
        .iter()
        .map(|s| {
            let points: Vec<Vec3> = s.local_points().collect();
            ConvexShape::hull(&points, s.radius()).expect("valid shape")
        })
        .collect();
    let frames: Vec<Vec<Instance>> = (0..FRAMES).map(|f| advance(&scene.instances, f)).collect();
    let config = GjkConfig::default();
    let (kind, single) = (QueryKind::Distance, Threads::Single);
    let cold = || {
        frames
            .iter()
            .map(|instances| {
                query_batch(&shapes, instances, &scene.pairs, kind, &config, single).expect("valid")
            })
            .collect::<Vec<_>>()
    };
    let warm = || {
        let mut cache = WarmCache::default();
        frames
            .iter()
            .map(|instances| {
                query_batch_warm(
                    &shapes,
                    instances,
                    &scene.pairs,
                    kind,
                    &config,
                    single,
                    &mut cache,
                )
                .expect("valid")
            })
            .collect::<Vec<_>>()
    };
    let iterations = |answers: Vec<Vec<gpu_gjk::GjkResult<f32>>>| -> u64 {
        answers
            .iter()
            .flatten()
            .map(|r| u64::from(r.iterations))
            .sum()
    };
    let (cold_iterations, warm_iterations) = (iterations(cold()), iterations(warm()));
    eprintln!(
        "warm_start: {PAIRS} pairs x {FRAMES} frames, GJK iterations cold {cold_iterations}, warm \
         {warm_iterations} ({:.1}% fewer)",
        100.0 * (1.0 - warm_iterations as f64 / cold_iterations as f64)
    );
    let mut group = c.benchmark_group("warm_start");
    group.throughput(Throughput::Elements((PAIRS * FRAMES) as u64));
    group.bench_function("cold", |b| b.iter(cold));
    group.bench_function("warm", |b| b.iter(warm));
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_millis(500));
    targets = warm_start
}
criterion_main!(benches);
