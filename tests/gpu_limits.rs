//! Limits that scale: a batch larger than any one of the device's buffers (vertex pool, hull table,
//! instances, a chunk's pairs, a chunk's results) is split and answered exactly as it is whole, identical shapes
//! go up once, and a pair that cannot fit on its own is named. The limits are shrunk so that small batches
//! exceed them, on OpenGL and Vulkan (llvmpipe and lavapipe without a GPU).

mod common;

use common::gpu::{backend_contexts, exclusive};
use glam::Vec3;
use gpu_gjk::gpu::{BufferLimits, GpuLimits, GpuTimings, NarrowPhase};
use gpu_gjk::scenario::{random_scene, MixSpec, Scene};
use gpu_gjk::shape::ConvexShape;
use gpu_gjk::{GjkConfig, Instance, Pose, QueryKind};
use rand::SeedableRng;

fn scene() -> Scene {
    let spec = MixSpec {
        library_size: 40,
        ..MixSpec::default()
    };
    random_scene(31, 1500, &spec)
}

/// GJK's and EPA's answers for the scene under `limits`, and both batches' figures.
type Answers = (
    Vec<gpu_gjk::GjkResult<f32>>,
    Vec<gpu_gjk::epa::Penetration<f32>>,
    GpuTimings,
    GpuTimings,
);

fn answers(ctx: &gpu_gjk::gpu::GpuContext, scene: &Scene, limits: Option<GpuLimits>) -> Answers {
    let limits = limits.unwrap_or_else(|| GpuLimits::from_device(&ctx.device.limits()));
    let mut np = NarrowPhase::with_gpu_limits(&ctx.device, &ctx.queue, limits);
    np.upload_hulls(&scene.shapes).unwrap();
    let config = GjkConfig::default();
    let distance = np
        .run(&scene.instances, &scene.pairs, QueryKind::Distance, &config)
        .unwrap();
    let penetration = np
        .run_penetration(&scene.instances, &scene.pairs, &config)
        .unwrap();
    (
        distance.results,
        penetration.penetrations,
        distance.timings,
        penetration.timings,
    )
}

fn shrunk(ctx: &gpu_gjk::gpu::GpuContext, buffers: impl Fn(&mut BufferLimits)) -> GpuLimits {
    let mut limits = GpuLimits::from_device(&ctx.device.limits());
    buffers(&mut limits.buffers);
    limits
}

#[test]
fn each_buffer_limit_splits_a_batch_without_changing_an_answer() {
    let scene = scene();
    let _turn = exclusive();
    for (backend, ctx) in backend_contexts() {
        let (whole, whole_pen, t, _) = answers(ctx, &scene, None);
        assert_eq!((t.groups, t.chunks), (1, 1), "{backend}: {t:?}");
        // (what is shrunk, the limit, whether the scene goes up in groups rather than only more chunks)
        let cases: [(&str, GpuLimits, bool); 6] = [
            (
                "vertex pool",
                shrunk(ctx, |b| b.vertex_pool = 6 * 64 * 16),
                true,
            ),
            ("hull table", shrunk(ctx, |b| b.hull_table = 5 * 32), true),
            // Resident in one buffer, bound a window at a time.
            ("instances", shrunk(ctx, |b| b.instances = 300 * 32), true),
            // Not even one buffer holds them: gathered group by group.
            (
                "instance buffer",
                shrunk(ctx, |b| {
                    b.instances = 300 * 32;
                    b.max_buffer = 300 * 32;
                }),
                true,
            ),
            ("pairs", shrunk(ctx, |b| b.pairs = 200 * 8), false),
            (
                "results",
                shrunk(ctx, |b| b.results = 16 + 150 * 144),
                false,
            ),
        ];
        for (what, limits, grouped) in cases {
            let (split, split_pen, t, tp) = answers(ctx, &scene, Some(limits));
            eprintln!("{backend}, {what}: distance {t:?}\npenetration {tp:?}");
            assert_eq!(split, whole, "{backend}, {what}: GJK answers changed");
            assert_eq!(
                split_pen, whole_pen,
                "{backend}, {what}: EPA answers changed"
            );
            if grouped {
                assert!(t.groups > 1 && tp.groups > 1, "{backend}, {what}: {t:?}");
            } else {
                assert_eq!(t.groups, 1, "{backend}, {what}");
                assert!(t.chunks > 1 && tp.chunks > 1, "{backend}, {what}: {t:?}");
            }
            assert_eq!(t.submissions, t.chunks, "{backend}, {what}");
        }
    }
}

/// Climbing hulls (their adjacency follows their points in the vertex pool) in a pool too small for all of them:
/// gathered group by group, each hull's whole footprint copied, and answered exactly as when resident.
#[test]
fn climbing_hulls_gathered_by_groups_answer_as_when_resident() {
    use gpu_gjk::scenario::ShapeKind;
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(256);
    let mut shapes: Vec<ConvexShape> = [300, 420, 610]
        .iter()
        .map(|&n| {
            ConvexShape::hull(&gpu_gjk::scenario::mesh_gen::fibonacci_sphere(n), 0.0).unwrap()
        })
        .collect();
    assert!(shapes.iter().all(|s| s.adjacency().is_some()));
    shapes.push(ConvexShape::cuboid(Vec3::new(0.5, 0.4, 0.3)).unwrap());
    let mut instances = Vec::new();
    let mut pairs = Vec::new();
    for k in 0..400u32 {
        let (a, b) = (k % 3, (k / 3) % 4);
        for (shape, at) in [
            (a, Vec3::ZERO),
            (b, gpu_gjk::scenario::random_unit(&mut rng) * 1.8),
        ] {
            instances.push(Instance {
                shape,
                pose: Pose::new(at, gpu_gjk::scenario::random_rotation(&mut rng)),
            });
        }
        pairs.push([2 * k, 2 * k + 1]);
    }
    let scene = Scene {
        kinds: vec![ShapeKind::Hull; shapes.len()],
        shapes,
        instances,
        pairs,
    };
    let _turn = exclusive();
    for (backend, ctx) in backend_contexts() {
        let (whole, whole_pen, t, _) = answers(ctx, &scene, None);
        assert_eq!(t.groups, 1, "{backend}: {t:?}");
        // Footprints of about 1,200, 1,540 and 2,060 pool entries (points, the 384 entries of the start table,
        // the neighbour lists): room for the largest pair, not for every hull.
        let limits = shrunk(ctx, |b| b.vertex_pool = 4_000 * 16);
        let (split, split_pen, t, tp) = answers(ctx, &scene, Some(limits));
        assert!(t.groups > 1 && tp.groups > 1, "{backend}: {t:?}");
        assert_eq!(split, whole, "{backend}: GJK answers changed");
        assert_eq!(split_pen, whole_pen, "{backend}: EPA answers changed");
    }
}

/// Pairs whose instances lie further apart than one binding cannot use a window of the resident instances:
/// they are gathered, and the resident instances stay intact for the next batch.
#[test]
fn pairs_spanning_more_than_a_binding_are_gathered() {
    let scene = scene();
    let n = scene.pairs.len() as u32;
    // Pair k joins the first instance of pair k with the second of pair n - 1 - k.
    let far: Vec<[u32; 2]> = (0..n).map(|k| [2 * k, 2 * (n - 1 - k) + 1]).collect();
    let config = GjkConfig::default();
    let _turn = exclusive();
    for (backend, ctx) in backend_contexts() {
        let mut whole = NarrowPhase::new(&ctx.device, &ctx.queue);
        whole.upload_hulls(&scene.shapes).unwrap();
        let expected = whole
            .run(&scene.instances, &far, QueryKind::Distance, &config)
            .unwrap()
            .results;
        let near = whole
            .run(&scene.instances, &scene.pairs, QueryKind::Distance, &config)
            .unwrap()
            .results;
        let limits = shrunk(ctx, |b| b.instances = 300 * 32);
        let mut np = NarrowPhase::with_gpu_limits(&ctx.device, &ctx.queue, limits);
        np.upload_hulls(&scene.shapes).unwrap();
        let split = np
            .run(&scene.instances, &far, QueryKind::Distance, &config)
            .unwrap();
        assert!(split.timings.groups > 1, "{backend}: {:?}", split.timings);
        assert_eq!(split.results, expected, "{backend}");
        let full = np
            .full_results(&scene.pairs, QueryKind::Distance, &config)
            .unwrap();
        let after: Vec<_> = full.records.iter().map(|r| r.to_result()).collect();
        assert_eq!(
            after, near,
            "{backend}: the resident instances were overwritten"
        );
        assert_eq!(
            full.timings.bytes_up,
            // 8 bytes a pair and a chunk's settings (`GpuParams`, 48 bytes).
            8 * u64::from(n) + 48 * u64::from(full.timings.chunks),
            "{backend}: {:?} {:?}",
            full.timings,
            split.timings
        );
    }
}

#[test]
fn identical_shapes_go_up_once() {
    let cube = ConvexShape::cuboid(Vec3::splat(0.5)).unwrap();
    let slab = ConvexShape::cuboid(Vec3::new(1.0, 0.1, 1.0)).unwrap();
    // One line per pair, each with its own copy of the same two shapes, as `query` builds them.
    let lines = 5000u32;
    let shapes: Vec<ConvexShape> = (0..lines)
        .flat_map(|_| [cube.clone(), slab.clone()])
        .collect();
    let instances: Vec<Instance> = (0..2 * lines)
        .map(|k| Instance {
            shape: k,
            pose: Pose::from_position(Vec3::new(0.0, 0.3 * (k % 7) as f32, 0.0)),
        })
        .collect();
    let pairs: Vec<[u32; 2]> = (0..lines).map(|k| [2 * k, 2 * k + 1]).collect();
    let _turn = exclusive();
    for (backend, ctx) in backend_contexts() {
        // A vertex pool of four boxes: the batch fits only because the 10,000 shapes are two hulls.
        let limits = shrunk(ctx, |b| b.vertex_pool = 4 * 8 * 16);
        let mut np = NarrowPhase::with_gpu_limits(&ctx.device, &ctx.queue, limits);
        np.upload_hulls(&shapes).unwrap();
        assert_eq!(np.hull_counts(), (10_000, 2), "{backend}");
        let batch = np
            .run(
                &instances,
                &pairs,
                QueryKind::Distance,
                &GjkConfig::default(),
            )
            .unwrap();
        assert_eq!(batch.timings.groups, 1, "{backend}");
        for (k, r) in batch.results.iter().enumerate() {
            // The slab (half height 0.1) at height 0.3 (k % 7) against the cube (half extent 0.5).
            let gap = 0.3 * (((2 * k + 1) % 7) as f32) - 0.3 * (((2 * k) % 7) as f32);
            let expected = (gap.abs() - 0.6).max(0.0);
            assert!(
                (r.distance - expected).abs() < 1e-5,
                "{backend}: pair {k}: {r:?}, expected {expected}"
            );
        }
    }
}

#[test]
fn a_pair_too_large_for_the_device_is_named() {
    let small = ConvexShape::cuboid(Vec3::ONE).unwrap();
    let round: Vec<Vec3> = (0..200)
        .map(|i| {
            let t = i as f32 * 0.1;
            Vec3::new(t.cos(), t.sin(), (i as f32 / 100.0) - 1.0)
        })
        .collect();
    let big = ConvexShape::new(round, 0.0).unwrap();
    let shapes = vec![small, big];
    let instances = vec![
        Instance {
            shape: 0,
            pose: Pose::IDENTITY,
        },
        Instance {
            shape: 1,
            pose: Pose::IDENTITY,
        },
    ];
    let _turn = exclusive();
    for (backend, ctx) in backend_contexts() {
        let limits = shrunk(ctx, |b| b.vertex_pool = 100 * 16);
        let mut np = NarrowPhase::with_gpu_limits(&ctx.device, &ctx.queue, limits);
        np.upload_hulls(&shapes).unwrap();
        let config = GjkConfig::default();
        let ok = np
            .run(&instances, &[[0, 0]], QueryKind::Distance, &config)
            .unwrap();
        assert_eq!(ok.results.len(), 1, "{backend}");
        let err = np
            .run(&instances, &[[0, 0], [0, 1]], QueryKind::Distance, &config)
            .err()
            .expect("a 200-point hull cannot fit a 100-point pool");
        let text = err.to_string();
        assert!(
            text.contains("pair 1") && text.contains("vertex pool"),
            "{backend}: {text}"
        );
    }
}
