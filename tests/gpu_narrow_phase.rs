//! The GPU narrow phase against the CPU reference, on a real or software adapter (llvmpipe through wgpu's GL
//! backend works on a machine with no GPU). Without any adapter these tests say they were skipped, except
//! under `CI=true`, where a missing adapter fails the run.

mod common;

use common::gpu::with_narrow_phase;
use gpu_gjk::batch::{query_batch, Threads};
use gpu_gjk::gpu::{ChunkLimits, DEFAULT_MAX_WORK_PER_CHUNK};
use gpu_gjk::scenario::{random_scene, MixSpec};
use gpu_gjk::validate::compare as compare_results;
use gpu_gjk::{GjkConfig, GjkStatus, QueryKind};

/// Compares GPU and CPU pair by pair with `gpu_gjk::validate`; returns the number of pairs checked.
fn compare(seed: u64, pairs: usize, limits: Option<ChunkLimits>) -> usize {
    let scene = random_scene(seed, pairs, &MixSpec::default());
    let config = GjkConfig::default();
    let mut checked = 0;
    with_narrow_phase(limits, |np| {
        np.upload_hulls(&scene.shapes).unwrap();
        for kind in [QueryKind::Intersection, QueryKind::Distance] {
            let gpu = np
                .run(&scene.instances, &scene.pairs, kind, &config)
                .unwrap();
            let cpu = query_batch(
                &scene.shapes,
                &scene.instances,
                &scene.pairs,
                kind,
                &config,
                Threads::All,
            )
            .unwrap();
            assert_eq!(gpu.results.len(), cpu.len());
            let report = compare_results(
                &scene.shapes,
                &scene.instances,
                &scene.pairs,
                &gpu.results,
                &cpu,
                kind,
            );
            eprintln!(
                "{kind:?}, {} pairs, {} chunks:\n{}",
                scene.pairs.len(),
                gpu.timings.chunks,
                report.summary()
            );
            assert!(report.is_clean(), "{kind:?}:\n{}", report.summary());
            assert_eq!(report.gpu_status[GjkStatus::MaxIterations as usize], 0);
            checked += scene.pairs.len();
            if let Some(limits) = limits {
                assert_eq!(
                    gpu.timings.chunks as usize,
                    scene
                        .pairs
                        .len()
                        .div_ceil(limits.max_pairs_per_chunk as usize)
                );
            }
        }
    });
    checked
}

#[test]
fn gpu_agrees_with_cpu_on_random_mixed_pairs() {
    compare(20261122, 100_000, None);
}

#[test]
fn batches_larger_than_a_chunk_are_split() {
    compare(
        7,
        1_000,
        Some(ChunkLimits {
            max_pairs_per_chunk: 128,
            max_work_per_chunk: DEFAULT_MAX_WORK_PER_CHUNK,
        }),
    );
}

/// A dispatch is also bounded by its estimated work (points scanned), so that no dispatch runs long enough to
/// trip a driver watchdog: a small bound splits a batch of big hulls into many chunks with the same answers.
#[test]
fn batches_over_the_work_bound_are_split_with_the_same_answers() {
    let spec = MixSpec {
        kinds: vec![gpu_gjk::scenario::ShapeKind::Hull],
        hull_points: (200, 512),
        ..MixSpec::default()
    };
    let scene = random_scene(9, 400, &spec);
    let config = GjkConfig::default();
    let whole = gpu_gjk::gpu::chunk_ranges(
        &scene.pairs,
        &scene.instances,
        &scene
            .shapes
            .iter()
            .map(|s| s.len() as u32)
            .collect::<Vec<_>>(),
        ChunkLimits {
            max_pairs_per_chunk: 1 << 20,
            max_work_per_chunk: 20 * gpu_gjk::gpu::pair_work(512, 512),
        },
    );
    assert!(whole.len() >= 8, "{} ranges", whole.len());
    assert!(whole.windows(2).all(|w| w[0].end == w[1].start));
    let mut unsplit = None;
    with_narrow_phase(None, |np| {
        np.upload_hulls(&scene.shapes).unwrap();
        unsplit = Some(
            np.run(&scene.instances, &scene.pairs, QueryKind::Distance, &config)
                .unwrap(),
        );
    });
    let Some(unsplit) = unsplit else { return };
    let limits = ChunkLimits {
        max_pairs_per_chunk: 1 << 20,
        max_work_per_chunk: 20 * gpu_gjk::gpu::pair_work(512, 512),
    };
    with_narrow_phase(Some(limits), |np| {
        np.upload_hulls(&scene.shapes).unwrap();
        let split = np
            .run(&scene.instances, &scene.pairs, QueryKind::Distance, &config)
            .unwrap();
        assert_eq!(split.timings.chunks as usize, whole.len());
        assert_eq!(split.results, unsplit.results);
    });
}

#[test]
fn empty_batches_and_bad_indices() {
    let scene = random_scene(3, 4, &MixSpec::default());
    with_narrow_phase(None, |np| {
        np.upload_hulls(&scene.shapes).unwrap();
        let empty = np
            .run(
                &scene.instances,
                &[],
                QueryKind::Distance,
                &GjkConfig::default(),
            )
            .unwrap();
        assert!(empty.results.is_empty());
        let err = np
            .run(
                &scene.instances,
                &[[0, 99]],
                QueryKind::Distance,
                &GjkConfig::default(),
            )
            .err()
            .expect("bad index must fail");
        assert!(err.to_string().contains("pair 0"), "{err}");
    });
}
