//! The subgroup scan (`ScanKernel::Subgroup`: one subgroup per pair, its lanes sharing each support scan) gives
//! the per-thread kernel's answers bit for bit, on Vulkan where the adapter has subgroups (lavapipe's are 8 wide),
//! and the CPU's within the validation's tolerances: raw point sets scanned as given (`RawSets::Scanned`) of 65
//! to 5,000 points, sets full of ties (repeated points, where the first index must win), flat, needle-like,
//! tiny, huge and far-away ones, both orders of every pair, batches cut into chunks that split the subgroup
//! pairs anywhere. Where the device has no subgroups (wgpu's OpenGL backend) the switch is refused and the
//! per-thread kernel answers.

mod common;

use common::gpu::{backend_contexts, exclusive};
use glam::{Quat, Vec3};
use gpu_gjk::batch::{query_batch, Threads};
use gpu_gjk::gpu::layout::GpuResult;
use gpu_gjk::gpu::{
    ChunkLimits, GpuContext, NarrowPhase, RawSets, ScanKernel, DEFAULT_MAX_WORK_PER_CHUNK,
    SUBGROUP_SCAN_MIN_POINTS,
};
use gpu_gjk::scenario::{random_rotation, random_unit};
use gpu_gjk::validate::compare;
use gpu_gjk::{ConvexShape, GjkConfig, Instance, Pose, QueryKind};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// `n` points on and in an ellipsoid around `centre`, some repeated.
fn cloud(rng: &mut Pcg64Mcg, n: usize, centre: Vec3) -> Vec<Vec3> {
    let axes = Vec3::new(1.0, 0.6, 0.3);
    let mut points: Vec<Vec3> = Vec::with_capacity(n);
    while points.len() < n {
        let roll: f32 = rng.random();
        let p = if roll < 0.1 && !points.is_empty() {
            points[rng.random_range(0..points.len())] - centre
        } else if roll < 0.4 {
            random_unit(rng) * axes * rng.random_range(0.0..0.95)
        } else {
            random_unit(rng) * axes
        };
        points.push(p + centre);
    }
    points
}

/// The shapes: small ones the per-thread kernel keeps (a box, a sphere, 64 points), then raw sets the subgroup
/// kernel scans, hostile ones among them.
fn shapes() -> Vec<ConvexShape> {
    let mut rng = Pcg64Mcg::seed_from_u64(20261205);
    let centre = Vec3::new(3.0, -2.0, 1.0);
    let mut sets: Vec<(Vec<Vec3>, f32)> = [64, 65, 97, 255, 1000, 5000]
        .iter()
        .map(|&n| (cloud(&mut rng, n, centre), 0.0))
        .collect();
    // Ties: every point a cube corner, 100 times over, and one point 1,000 times.
    let corners: Vec<Vec3> = (0..800)
        .map(|k| Vec3::new((k & 1) as f32, ((k >> 1) & 1) as f32, ((k >> 2) & 1) as f32))
        .collect();
    sets.push((corners, 0.0));
    sets.push((vec![Vec3::new(0.5, -0.25, 2.0); 1000], 0.1));
    // Flat and tilted, a needle, tiny and huge clouds a hundred of their sizes from their local origin (placed
    // in the world by their centres, as far as float32 keeps a tiny one's digits).
    let flat: Vec<Vec3> = (0..1500)
        .map(|_| {
            let p = Vec3::new(rng.random(), rng.random(), 0.0) * 2.0 - Vec3::new(1.0, 1.0, 0.0);
            Quat::from_rotation_x(0.7) * p
        })
        .collect();
    sets.push((flat, 0.0));
    let needle: Vec<Vec3> = (0..700)
        .map(|_| Vec3::new(1.0, 2.0, -0.5) * rng.random_range(-1.0..1.0f32))
        .collect();
    sets.push((needle, 0.05));
    for (scale, offset) in [(1e-3f32, 0.1f32), (1e3, -1e5)] {
        let points = cloud(&mut rng, 333, Vec3::ZERO)
            .into_iter()
            .map(|p| p * scale + Vec3::splat(offset))
            .collect();
        sets.push((points, 0.0));
    }
    let mut shapes = vec![
        ConvexShape::cuboid(Vec3::new(0.5, 0.3, 0.2)).unwrap(),
        ConvexShape::sphere(0.4).unwrap(),
    ];
    shapes.extend(
        sets.into_iter()
            .map(|(points, radius)| ConvexShape::new(points, radius).unwrap()),
    );
    shapes
}

/// Pairs of every shape with every shape, in both orders, their centres placed around contact (some of them
/// far from the origin) at random rotations: `rounds` pairs per ordered couple.
fn scene(shapes: &[ConvexShape], rounds: usize) -> (Vec<Instance>, Vec<[u32; 2]>) {
    let mut rng = Pcg64Mcg::seed_from_u64(97);
    let mut instances = Vec::new();
    let mut pairs = Vec::new();
    let mut place = |shape: u32, centre: Vec3, rng: &mut Pcg64Mcg| {
        let rotation = random_rotation(rng);
        let local = shapes[shape as usize].centre();
        instances.push(Instance {
            shape,
            pose: Pose::new(centre - rotation * local, rotation),
        });
        instances.len() as u32 - 1
    };
    for _ in 0..rounds {
        for a in 0..shapes.len() as u32 {
            for b in 0..shapes.len() as u32 {
                let reach =
                    shapes[a as usize].bounding_radius() + shapes[b as usize].bounding_radius();
                // World coordinates far from the origin cost float32 digits before the kernel sees the pair
                // (`RelativePose::between_centred` keeps them where it matters, docs/gpu.md), so "far" here is
                // a few hundred of the pair's own sizes.
                let far = if rng.random_bool(0.2) {
                    Vec3::new(300.0, -200.0, 100.0) * reach
                } else {
                    Vec3::ZERO
                };
                let offset = random_unit(&mut rng) * reach * rng.random_range(0.05..1.2);
                let first = place(a, far, &mut rng);
                let second = place(b, far + offset, &mut rng);
                pairs.push([first, second]);
            }
        }
    }
    (instances, pairs)
}

/// Every record of `pairs` answered with `scan`, as words. The same pairs go through the null kernel first, which
/// writes empty records into the same buffers: a record a kernel failed to write cannot pass for an answer left
/// there by the batch before.
fn bits(np: &mut NarrowPhase, pairs: &[[u32; 2]], kind: QueryKind, scan: ScanKernel) -> Vec<u32> {
    let config = GjkConfig::default();
    np.set_null_kernel(true);
    np.full_results(pairs, kind, &config).unwrap();
    np.set_null_kernel(false);
    np.set_scan_kernel(scan).unwrap();
    let records: &[GpuResult] = np.full_results(pairs, kind, &config).unwrap().records;
    bytemuck::cast_slice(records).to_vec()
}

/// The pairs of `pairs` with a shape of at least `SUBGROUP_SCAN_MIN_POINTS` points: every shape is scanned, as
/// raw sets go up as given (`RawSets::Scanned`) and the box and sphere have no adjacency.
fn big_scan_pairs(shapes: &[ConvexShape], instances: &[Instance], pairs: &[[u32; 2]]) -> usize {
    let big = |i: u32| {
        shapes[instances[i as usize].shape as usize].len() as u32 >= SUBGROUP_SCAN_MIN_POINTS
    };
    pairs.iter().filter(|[a, b]| big(*a) || big(*b)).count()
}

/// The Vulkan context, when its adapter has subgroups.
fn subgroup_context() -> Option<&'static GpuContext> {
    let found = backend_contexts()
        .iter()
        .find(|(_, ctx)| ScanKernel::available_on(&ctx.device))
        .map(|(_, ctx)| ctx);
    if found.is_none() {
        eprintln!("SKIPPED: no adapter with subgroups");
    }
    found
}

#[test]
fn the_subgroup_scan_answers_the_per_thread_bits_and_the_cpus() {
    let _turn = exclusive();
    let Some(ctx) = subgroup_context() else {
        return;
    };
    let info = ctx.adapter.get_info();
    eprintln!(
        "subgroups of {} to {} lanes",
        info.subgroup_min_size, info.subgroup_max_size
    );
    let shapes = shapes();
    let (instances, pairs) = scene(&shapes, 2);
    let expected = big_scan_pairs(&shapes, &instances, &pairs);
    assert!(expected > 0 && expected < pairs.len());
    let config = GjkConfig::default();
    // Whole batches, and chunks of 64 pairs so that chunks start and end inside the subgroup pairs.
    for max_pairs in [u32::MAX, 64] {
        let limits = ChunkLimits {
            max_pairs_per_chunk: max_pairs,
            max_work_per_chunk: DEFAULT_MAX_WORK_PER_CHUNK,
        };
        let mut np = NarrowPhase::with_limits(&ctx.device, &ctx.queue, limits);
        // lavapipe runs a subgroup as one SIMD vector, which the per-thread scan fills as well.
        let default = if ctx.summary.is_software() {
            ScanKernel::PerThread
        } else {
            ScanKernel::Subgroup
        };
        assert_eq!(np.scan_kernel(), default);
        np.set_raw_sets(RawSets::Scanned);
        np.upload_hulls(&shapes).unwrap();
        assert_eq!(np.kernels_climb(), Some(false));
        np.set_instances(&instances).unwrap();
        for kind in [QueryKind::Intersection, QueryKind::Distance] {
            let per_thread = bits(&mut np, &pairs, kind, ScanKernel::PerThread);
            assert_eq!(np.subgroup_pairs(), 0);
            let subgroup = bits(&mut np, &pairs, kind, ScanKernel::Subgroup);
            assert_eq!(np.subgroup_pairs(), expected, "{kind:?}");
            let records: &[GpuResult] = bytemuck::cast_slice(&subgroup);
            let results: Vec<_> = records.iter().map(GpuResult::to_result).collect();
            let words = size_of::<GpuResult>() / 4;
            let differing: Vec<usize> = (0..pairs.len())
                .filter(|&k| per_thread[k * words..][..words] != subgroup[k * words..][..words])
                .collect();
            assert!(
                differing.is_empty(),
                "{kind:?}, chunks of {max_pairs}: pairs {differing:?} differ"
            );
            let cpu =
                query_batch(&shapes, &instances, &pairs, kind, &config, Threads::All).unwrap();
            let report = compare(&shapes, &instances, &pairs, &results, &cpu, kind);
            eprintln!("{kind:?}, chunks of {max_pairs}:\n{}", report.summary());
            assert!(
                report.is_clean() && report.disagreements.is_empty(),
                "{}",
                report.summary()
            );
        }
    }
}

/// Pair counts around the workgroup's share of subgroup pairs (8 at lavapipe's 8 lanes, 2 at NVIDIA's 32), so
/// that the last workgroup is part full, and a batch of one pair.
#[test]
fn any_number_of_subgroup_pairs_is_answered() {
    let _turn = exclusive();
    let Some(ctx) = subgroup_context() else {
        return;
    };
    let shapes = shapes();
    let (instances, pairs) = scene(&shapes, 1);
    let mut np = NarrowPhase::new(&ctx.device, &ctx.queue);
    np.set_raw_sets(RawSets::Scanned);
    np.upload_hulls(&shapes).unwrap();
    np.set_instances(&instances).unwrap();
    // The pairs of the 97-point cloud (shape 4) with every shape, both orders.
    let big: Vec<[u32; 2]> = pairs
        .iter()
        .copied()
        .filter(|[a, b]| [a, b].iter().any(|&&i| instances[i as usize].shape == 4))
        .collect();
    for n in [1, 7, 9, 17, 63, 65] {
        let some: Vec<[u32; 2]> = big.iter().copied().cycle().take(n).collect();
        let per_thread = bits(&mut np, &some, QueryKind::Distance, ScanKernel::PerThread);
        let subgroup = bits(&mut np, &some, QueryKind::Distance, ScanKernel::Subgroup);
        assert_eq!(np.subgroup_pairs(), n);
        assert!(per_thread == subgroup, "{n} pairs");
    }
}

/// Without subgroups (wgpu's OpenGL backend on llvmpipe) the subgroup scan is refused, naming the feature, and
/// the per-thread kernel answers every pair.
#[test]
fn without_subgroups_the_per_thread_kernel_answers() {
    let _turn = exclusive();
    for (name, ctx) in backend_contexts() {
        if ScanKernel::available_on(&ctx.device) {
            continue;
        }
        let mut np = NarrowPhase::new(&ctx.device, &ctx.queue);
        assert_eq!(np.scan_kernel(), ScanKernel::PerThread, "{name}");
        let err = np
            .set_scan_kernel(ScanKernel::Subgroup)
            .unwrap_err()
            .to_string();
        assert!(err.contains("SUBGROUP"), "{name}: {err}");
        assert_eq!(np.scan_kernel(), ScanKernel::PerThread, "{name}");
        let shapes = shapes();
        let (instances, pairs) = scene(&shapes[..5], 1);
        np.set_raw_sets(RawSets::Scanned);
        np.upload_hulls(&shapes[..5]).unwrap();
        let gpu = np
            .run(
                &instances,
                &pairs,
                QueryKind::Distance,
                &GjkConfig::default(),
            )
            .unwrap();
        assert_eq!(np.subgroup_pairs(), 0, "{name}");
        let cpu = query_batch(
            &shapes[..5],
            &instances,
            &pairs,
            QueryKind::Distance,
            &GjkConfig::default(),
            Threads::All,
        )
        .unwrap();
        let report = compare(
            &shapes[..5],
            &instances,
            &pairs,
            &gpu.results,
            &cpu,
            QueryKind::Distance,
        );
        assert!(report.is_clean(), "{name}: {}", report.summary());
    }
}

/// Exact ties between distinct points: a flat grid and a cube's corners repeated, unrotated, their partners
/// straight above, below and beside them, so GJK's first directions are axis-aligned and whole faces of points
/// have the same dot product. The per-thread scan takes the first of them; so must the subgroup's, or the
/// support points, and with them witnesses and iterations, differ.
#[test]
fn ties_between_distinct_points_go_to_the_first() {
    let _turn = exclusive();
    let Some(ctx) = subgroup_context() else {
        return;
    };
    let grid: Vec<Vec3> = (0..21 * 21)
        .map(|k| Vec3::new((k % 21) as f32, (k / 21) as f32, 0.0) * 0.1 - Vec3::new(1.0, 1.0, 0.0))
        .collect();
    let corners: Vec<Vec3> = (0..800)
        .map(|k| Vec3::new((k & 1) as f32, ((k >> 1) & 1) as f32, ((k >> 2) & 1) as f32) - 0.5)
        .collect();
    let shapes = vec![
        ConvexShape::new(grid, 0.0).unwrap(),
        ConvexShape::new(corners, 0.0).unwrap(),
        ConvexShape::cuboid(Vec3::splat(0.25)).unwrap(),
    ];
    let mut instances = Vec::new();
    let mut pairs = Vec::new();
    for a in 0..3u32 {
        for b in 0..3u32 {
            for offset in [
                Vec3::Z * 0.6,
                -Vec3::Z * 0.6,
                Vec3::X * 1.6,
                Vec3::new(0.2, -0.3, 0.55),
                Vec3::Z * 0.2,
            ] {
                let first = instances.len() as u32;
                instances.push(Instance {
                    shape: a,
                    pose: Pose::new(Vec3::ZERO, Quat::IDENTITY),
                });
                instances.push(Instance {
                    shape: b,
                    pose: Pose::new(offset, Quat::IDENTITY),
                });
                pairs.push([first, first + 1]);
            }
        }
    }
    let mut np = NarrowPhase::new(&ctx.device, &ctx.queue);
    np.set_raw_sets(RawSets::Scanned);
    np.upload_hulls(&shapes).unwrap();
    np.set_instances(&instances).unwrap();
    for kind in [QueryKind::Intersection, QueryKind::Distance] {
        let per_thread = bits(&mut np, &pairs, kind, ScanKernel::PerThread);
        let subgroup = bits(&mut np, &pairs, kind, ScanKernel::Subgroup);
        assert_eq!(np.subgroup_pairs(), 40, "{kind:?}");
        assert!(per_thread == subgroup, "{kind:?}");
    }
}
