//! The GPU narrow phase against the CPU reference, on a real or software adapter (llvmpipe through wgpu's GL
//! backend works on a machine with no GPU). Without any adapter these tests say they were skipped, except
//! under `CI=true`, where a missing adapter fails the run.

mod common;

use common::gpu::with_narrow_phase;
use glam::{Quat, Vec3};
use gpu_gjk::batch::{penetration_batch, query_batch, Threads};
use gpu_gjk::epa::PenetrationStatus;
use gpu_gjk::gpu::{ChunkLimits, RawSets, DEFAULT_MAX_WORK_PER_CHUNK};
use gpu_gjk::scenario::mesh_gen::fibonacci_sphere;
use gpu_gjk::scenario::{random_scene, MixSpec};
use gpu_gjk::validate::{compare as compare_results, compare_penetration};
use gpu_gjk::{ConvexShape, GjkConfig, GjkStatus, Instance, Pose, QueryKind};
use rand::{Rng, SeedableRng};

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

/// Hulls of `HILL_CLIMB_MIN_VERTICES` vertices and more are climbed on the GPU over the adjacency stored in the
/// vertex pool, as on the CPU: round hulls of 1,001 and 4,000 vertices (one rounded by 0.1), of 500 vertices 2e-3
/// across and of 700 vertices 50 across, and a 300-sided prism whose flat caps tie along its axis, against each
/// other, a box, a sphere and a tetrahedron, in both
/// orders, half of the pairs unrotated and lined up along an axis (so that GJK asks for directions along the
/// caps' normals, where every cap vertex ties). Flags, distances and penetration depths must agree with the
/// CPU; the GPU may stop on another vertex of a tied face than the CPU's walk, with the same support value.
#[test]
fn climbing_hulls_agree_with_the_cpu() {
    let ring = |z: f32| {
        (0..300).map(move |k| {
            let t = k as f32 * std::f32::consts::TAU / 300.0;
            Vec3::new(t.cos(), t.sin(), z)
        })
    };
    let prism: Vec<Vec3> = ring(-0.5).chain(ring(0.5)).collect();
    // Round hulls of a tiny and a huge size beside the unit ones.
    let scaled = |n: usize, size: f32| {
        let points: Vec<Vec3> = fibonacci_sphere(n).into_iter().map(|p| p * size).collect();
        ConvexShape::hull(&points, 0.0).unwrap()
    };
    let ellipsoid: Vec<Vec3> = fibonacci_sphere(4000)
        .into_iter()
        .map(|p| p * Vec3::new(1.0, 0.7, 0.4))
        .collect();
    let shapes = vec![
        ConvexShape::hull(&fibonacci_sphere(1001), 0.0).unwrap(),
        ConvexShape::hull(&ellipsoid, 0.1).unwrap(),
        ConvexShape::hull(&prism, 0.0).unwrap(),
        ConvexShape::cuboid(Vec3::new(0.5, 0.3, 0.2)).unwrap(),
        ConvexShape::sphere(0.4).unwrap(),
        ConvexShape::new(vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z], 0.0).unwrap(),
        scaled(500, 2e-3),
        scaled(700, 50.0),
    ];
    let climbing = [0u32, 1, 2, 6, 7];
    for &k in &climbing {
        let shape = &shapes[k as usize];
        assert!(shape.adjacency().is_some(), "{} vertices", shape.len());
    }
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(20261127);
    let mut instances = Vec::new();
    let mut pairs = Vec::new();
    for k in 0..1200u32 {
        let big = climbing[k as usize % climbing.len()];
        let other = (k / 3) % shapes.len() as u32;
        let (a, b) = if k % 2 == 0 {
            (big, other)
        } else {
            (other, big)
        };
        // Centres up to 1.5 times the two bounding radii apart: about half the pairs overlap, whatever the sizes.
        let reach = shapes[a as usize].bounding_radius() + shapes[b as usize].bounding_radius();
        let (rotation_a, rotation_b, offset) = if k % 4 < 2 {
            let axis = [Vec3::X, Vec3::Y, Vec3::Z][(k as usize / 4) % 3];
            (
                Quat::IDENTITY,
                Quat::IDENTITY,
                axis * reach * rng.random_range(0.3..1.5),
            )
        } else {
            (
                gpu_gjk::scenario::random_rotation(&mut rng),
                gpu_gjk::scenario::random_rotation(&mut rng),
                gpu_gjk::scenario::random_unit(&mut rng) * reach * rng.random_range(0.1..1.5),
            )
        };
        let at = Vec3::new(rng.random_range(-5.0..5.0), 0.0, 0.0);
        let first = instances.len() as u32;
        instances.push(Instance {
            shape: a,
            pose: Pose::new(at, rotation_a),
        });
        instances.push(Instance {
            shape: b,
            pose: Pose::new(at + offset, rotation_b),
        });
        pairs.push([first, first + 1]);
    }
    let config = GjkConfig::default();
    with_narrow_phase(None, |np| {
        np.upload_hulls(&shapes).unwrap();
        for kind in [QueryKind::Intersection, QueryKind::Distance] {
            let mut gpu = np.run(&instances, &pairs, kind, &config).unwrap();
            let cpu =
                query_batch(&shapes, &instances, &pairs, kind, &config, Threads::All).unwrap();
            let raw = compare_results(&shapes, &instances, &pairs, &gpu.results, &cpu, kind);
            eprintln!("{kind:?}, climbing hulls:\n{}", raw.summary());
            assert!(raw.is_clean(), "{kind:?}:\n{}", raw.summary());
            assert!(raw.gpu_failures * 20 <= pairs.len(), "{}", raw.summary());
            gpu.resolve_failures_on_cpu(&shapes, &instances, &pairs, kind, &config);
            let resolved = compare_results(&shapes, &instances, &pairs, &gpu.results, &cpu, kind);
            assert!(
                resolved.is_clean() && resolved.gpu_failures == 0,
                "{}",
                resolved.summary()
            );
        }
        let mut gpu = np.run_penetration(&instances, &pairs, &config).unwrap();
        let (_, cpu) =
            penetration_batch(&shapes, &instances, &pairs, &config, Threads::All).unwrap();
        let raw = compare_penetration(&shapes, &instances, &pairs, &gpu.penetrations, &cpu);
        eprintln!("penetration, climbing hulls:\n{}", raw.summary());
        assert!(raw.is_clean(), "{}", raw.summary());
        assert!(raw.deep > 200, "{}", raw.summary());
        // A software adapter's loop budget cuts some EPA runs (128 of 1,200 on llvmpipe, which says so:
        // `gpu_loop_limit`); no other failure may be common.
        let cut = raw.gpu_status[PenetrationStatus::GpuLoopLimit as usize];
        assert!(
            (raw.gpu_failures() - cut) * 100 <= pairs.len(),
            "{}",
            raw.summary()
        );
        gpu.resolve_failures_on_cpu(&shapes, &instances, &pairs, &config);
        let resolved = compare_penetration(&shapes, &instances, &pairs, &gpu.penetrations, &cpu);
        assert!(
            resolved.is_clean() && resolved.gpu_failures() == 0,
            "{}",
            resolved.summary()
        );
    });
}

/// The kernels carry the hull climb only while an uploaded hull climbs (its code alone slowed the intersection
/// kernel by about 8% on an H200), and follow the hulls both ways; answers agree with the CPU in each state.
#[test]
fn kernels_carry_the_climb_only_while_a_hull_climbs() {
    let small = vec![
        ConvexShape::cuboid(Vec3::new(0.5, 0.4, 0.3)).unwrap(),
        ConvexShape::sphere(0.5).unwrap(),
    ];
    let big = vec![
        ConvexShape::hull(&fibonacci_sphere(600), 0.0).unwrap(),
        ConvexShape::cuboid(Vec3::new(0.5, 0.4, 0.3)).unwrap(),
    ];
    let instances: Vec<Instance> = [(0, Vec3::ZERO), (1, Vec3::new(0.8, 0.3, 0.1))]
        .into_iter()
        .chain([(0, Vec3::new(5.0, 0.0, 0.0)), (1, Vec3::new(7.5, 0.0, 0.0))])
        .map(|(shape, at)| Instance {
            shape,
            pose: Pose::new(at, Quat::from_rotation_y(0.3)),
        })
        .collect();
    let pairs = [[0, 1], [2, 3]];
    let config = GjkConfig::default();
    with_narrow_phase(None, |np| {
        assert_eq!(np.kernels_climb(), Some(false), "no hull uploaded yet");
        for (shapes, climbs) in [(&small, false), (&big, true), (&small, false)] {
            np.upload_hulls(shapes).unwrap();
            assert_eq!(np.kernels_climb(), Some(climbs));
            let gpu = np
                .run(&instances, &pairs, QueryKind::Distance, &config)
                .unwrap();
            let cpu = query_batch(
                shapes,
                &instances,
                &pairs,
                QueryKind::Distance,
                &config,
                Threads::All,
            )
            .unwrap();
            let report = compare_results(
                shapes,
                &instances,
                &pairs,
                &gpu.results,
                &cpu,
                QueryKind::Distance,
            );
            assert!(
                report.is_clean() && report.gpu_failures == 0,
                "{}",
                report.summary()
            );
            let gpu = np.run_penetration(&instances, &pairs, &config).unwrap();
            let (_, cpu) =
                penetration_batch(shapes, &instances, &pairs, &config, Threads::All).unwrap();
            let report = compare_penetration(shapes, &instances, &pairs, &gpu.penetrations, &cpu);
            assert!(
                report.is_clean() && report.gpu_failures() == 0,
                "{}",
                report.summary()
            );
            assert_eq!(report.deep, 1, "{}", report.summary());
            assert_eq!(
                np.kernels_climb(),
                Some(climbs),
                "the penetration kernels too"
            );
        }
    });
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
    // The raw clouds go up as given, so that the work estimate below (every point scanned) is the uploads'.
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
        np.set_raw_sets(RawSets::Scanned);
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
        np.set_raw_sets(RawSets::Scanned);
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
