//! Raw point sets as a batch reads them (`ConvexShape::from_points`): up to `RAW_HULL_MIN_POINTS` points kept
//! as given, bit for bit; above, searched as their exact hull (climbed from `HILL_CLIMB_MIN_VERTICES` vertices)
//! and answering as the raw set does, degenerate sets included, on the CPU and on the GPU (OpenGL and Vulkan).
//! A raw set a library user builds with `ConvexShape::new` goes up to the GPU as its hull too
//! (`NarrowPhase::upload_hulls`).

mod common;

use common::gpu::{backend_contexts, exclusive, with_narrow_phase};
use glam::{Quat, Vec3};
use gpu_gjk::batch::{penetration_batch, query_batch, Threads};
use gpu_gjk::gpu::{NarrowPhase, RawSets, WorkSummary};
use gpu_gjk::scenario::{random_rotation, random_unit};
use gpu_gjk::shape::RAW_HULL_MIN_POINTS;
use gpu_gjk::validate::{compare, compare_penetration};
use gpu_gjk::{ConvexShape, GjkConfig, Instance, Pose, QueryKind};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A cloud like the ones files hold: points on an ellipsoid, inside it, and repeated.
fn cloud(rng: &mut Pcg64Mcg, n: usize) -> Vec<Vec3> {
    let axes = Vec3::new(1.0, 0.6, 0.3);
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
        points.push(p + Vec3::new(3.0, -2.0, 1.0));
    }
    points
}

/// Named raw sets of every kind the reader may meet, most of them above the crossover.
fn raw_sets() -> Vec<(&'static str, Vec<Vec3>)> {
    let mut rng = Pcg64Mcg::seed_from_u64(20261205);
    let in_box = |rng: &mut Pcg64Mcg, n: usize| -> Vec<Vec3> {
        (0..n)
            .map(|_| Vec3::new(rng.random(), rng.random(), rng.random()) * 2.0 - 1.0)
            .collect()
    };
    let flat: Vec<Vec3> = in_box(&mut rng, 3000)
        .into_iter()
        .map(|p| Vec3::new(p.x, p.y, 0.25))
        .collect();
    let tilted_flat: Vec<Vec3> = flat
        .iter()
        .map(|&p| Quat::from_rotation_x(0.7) * p)
        .collect();
    let collinear: Vec<Vec3> = (0..1000)
        .map(|_| Vec3::new(1.0, 2.0, -0.5) * rng.random_range(-1.0..1.0f32))
        .collect();
    let corners: Vec<Vec3> = (0..800)
        .map(|k| Vec3::new((k & 1) as f32, ((k >> 1) & 1) as f32, ((k >> 2) & 1) as f32))
        .collect();
    vec![
        ("cloud of 64", cloud(&mut rng, RAW_HULL_MIN_POINTS)),
        ("cloud of 65", cloud(&mut rng, RAW_HULL_MIN_POINTS + 1)),
        ("cloud of 1,000", cloud(&mut rng, 1000)),
        ("cloud of 5,000", cloud(&mut rng, 5000)),
        ("box volume of 5,000", in_box(&mut rng, 5000)),
        ("flat 3,000", flat),
        ("tilted flat 3,000", tilted_flat),
        ("collinear 1,000", collinear),
        ("cube corners 100 times over", corners),
        (
            "one point 1,000 times",
            vec![Vec3::new(0.5, -0.25, 2.0); 1000],
        ),
    ]
}

#[test]
fn sets_up_to_the_crossover_are_kept_as_given() {
    let mut rng = Pcg64Mcg::seed_from_u64(7);
    for n in [1, 2, 8, 40, RAW_HULL_MIN_POINTS] {
        let points = cloud(&mut rng, n);
        let read = ConvexShape::from_points(points.clone(), 0.1).unwrap();
        let given = ConvexShape::new(points, 0.1).unwrap();
        assert_eq!(read, given, "{n} points");
        assert!(read.adjacency().is_none());
    }
}

#[test]
fn bigger_sets_keep_their_points_frame_bounds_and_support_values() {
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    for (name, points) in raw_sets() {
        let given = ConvexShape::new(points.clone(), 0.05).unwrap();
        let read = ConvexShape::from_points(points, 0.05).unwrap();
        if given.len() <= RAW_HULL_MIN_POINTS {
            assert_eq!(read, given, "{name}");
            continue;
        }
        assert!(read.len() < given.len(), "{name}: {} points", read.len());
        // The kept points are some of the given ones, bit for bit, in their order.
        let mut given_points = given.core_points().iter();
        for p in read.core_points() {
            assert!(
                given_points.any(|q| q.to_array() == p.to_array()),
                "{name}: {p}"
            );
        }
        assert_eq!(read.centre(), given.centre(), "{name}");
        assert_eq!(read.bounding_radius(), given.bounding_radius(), "{name}");
        assert_eq!(read.local_aabb(), given.local_aabb(), "{name}");
        assert_eq!(read.radius(), given.radius(), "{name}");
        // Support values agree to the rounding of one dot product.
        for _ in 0..500 {
            let dir = random_unit(&mut rng);
            let (a, b) = (read.support(dir).dot(dir), given.support(dir).dot(dir));
            assert!(
                (a - b).abs() <= 1e-6 * given.bounding_radius(),
                "{name}: {dir}: {a} vs {b}"
            );
        }
    }
}

#[test]
fn solid_sets_of_many_vertices_climb() {
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    let read = ConvexShape::from_points(cloud(&mut rng, 5000), 0.0).unwrap();
    assert!(read.adjacency().is_some(), "{} vertices", read.len());
    // Reading twice gives the same shape, and a shape already climbing is kept as it is.
    assert_eq!(read.clone().searched_as_hull(), read);
}

/// Only raw sets above the crossover are hulled: a shape built as a hull, or already searched as one, is not
/// hulled again, whether it climbs or not.
#[test]
fn only_big_raw_sets_are_hulled() {
    let mut rng = Pcg64Mcg::seed_from_u64(12);
    let points = cloud(&mut rng, 300);
    let raw = ConvexShape::new(points.clone(), 0.0).unwrap();
    assert!(raw.is_big_raw_set());
    let hull = ConvexShape::hull(&points, 0.0).unwrap();
    assert!(
        hull.len() > RAW_HULL_MIN_POINTS && hull.adjacency().is_none(),
        "{} vertices",
        hull.len()
    );
    assert!(!hull.is_big_raw_set());
    let read = ConvexShape::from_points(points, 0.0).unwrap();
    assert!(!read.is_big_raw_set());
    assert!(!ConvexShape::new(cloud(&mut rng, RAW_HULL_MIN_POINTS), 0.0)
        .unwrap()
        .is_big_raw_set());
}

/// Every raw set against itself, a box and the others, at random poses around contact, both orders.
fn scene(shapes: &[ConvexShape], pairs_per_shape: usize) -> (Vec<Instance>, Vec<[u32; 2]>) {
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    let mut instances = Vec::new();
    let mut pairs = Vec::new();
    let count = shapes.len() as u32;
    for k in 0..pairs_per_shape as u32 * count {
        let (a, b) = (k % count, (k / count + k) % count);
        let reach = shapes[a as usize].bounding_radius() + shapes[b as usize].bounding_radius();
        let offset = random_unit(&mut rng) * reach * rng.random_range(0.05..1.2);
        let first = instances.len() as u32;
        instances.push(Instance {
            shape: a,
            pose: Pose::new(Vec3::ZERO, random_rotation(&mut rng)),
        });
        instances.push(Instance {
            shape: b,
            pose: Pose::new(offset, random_rotation(&mut rng)),
        });
        pairs.push([first, first + 1]);
    }
    (instances, pairs)
}

fn shape_lists() -> (Vec<ConvexShape>, Vec<ConvexShape>) {
    let mut given = vec![ConvexShape::cuboid(Vec3::new(0.5, 0.3, 0.2)).unwrap()];
    let mut read = given.clone();
    for (_, points) in raw_sets() {
        given.push(ConvexShape::new(points.clone(), 0.0).unwrap());
        read.push(ConvexShape::from_points(points, 0.0).unwrap());
    }
    // Tiny and huge clouds, rounded, far from their local origin.
    let mut rng = Pcg64Mcg::seed_from_u64(1e6 as u64);
    for (scale, offset, radius) in [(1e-3f32, 1e3f32, 1e-4f32), (1e3, -1e5, 10.0)] {
        let points: Vec<Vec3> = cloud(&mut rng, 2000)
            .into_iter()
            .map(|p| p * scale + Vec3::splat(offset))
            .collect();
        given.push(ConvexShape::new(points.clone(), radius).unwrap());
        read.push(ConvexShape::from_points(points, radius).unwrap());
    }
    (given, read)
}

#[test]
fn read_sets_answer_as_the_raw_sets_on_the_cpu() {
    let (given, read) = shape_lists();
    let (instances, pairs) = scene(&given, 30);
    let config = GjkConfig::default();
    for kind in [QueryKind::Intersection, QueryKind::Distance] {
        let raw = query_batch(&given, &instances, &pairs, kind, &config, Threads::All).unwrap();
        let hulled = query_batch(&read, &instances, &pairs, kind, &config, Threads::All).unwrap();
        let report = compare(&given, &instances, &pairs, &hulled, &raw, kind);
        assert!(
            report.is_clean() && report.gpu_failures == 0,
            "{kind:?}:\n{}",
            report.summary()
        );
    }
    let (_, raw) = penetration_batch(&given, &instances, &pairs, &config, Threads::All).unwrap();
    let (_, hulled) = penetration_batch(&read, &instances, &pairs, &config, Threads::All).unwrap();
    let report = compare_penetration(&given, &instances, &pairs, &hulled, &raw);
    assert!(report.is_clean(), "{}", report.summary());
}

/// Read sets up to 40,000 points on the GPU agree with the CPU on both software backends.
#[test]
fn read_sets_of_up_to_40000_points_answer_right_on_the_gpu() {
    let (_, mut read) = shape_lists();
    let mut rng = Pcg64Mcg::seed_from_u64(40_000);
    read.push(ConvexShape::from_points(cloud(&mut rng, 40_000), 0.0).unwrap());
    let (instances, pairs) = scene(&read, 12);
    let config = GjkConfig::default();
    for (backend, ctx) in backend_contexts() {
        let _guard = exclusive();
        let mut np = NarrowPhase::new(&ctx.device, &ctx.queue);
        np.upload_hulls(&read).unwrap();
        for kind in [QueryKind::Intersection, QueryKind::Distance] {
            let mut gpu = np.run(&instances, &pairs, kind, &config).unwrap();
            let cpu = query_batch(&read, &instances, &pairs, kind, &config, Threads::All).unwrap();
            let report = compare(&read, &instances, &pairs, &gpu.results, &cpu, kind);
            eprintln!("{backend}, {kind:?}:\n{}", report.summary());
            assert!(
                report.is_clean(),
                "{backend}, {kind:?}:\n{}",
                report.summary()
            );
            gpu.resolve_failures_on_cpu(&read, &instances, &pairs, kind, &config);
            let resolved = compare(&read, &instances, &pairs, &gpu.results, &cpu, kind);
            assert!(resolved.is_clean() && resolved.gpu_failures == 0);
        }
    }
}

/// `query`'s reader (and with it the columnar reader and Python, which build shapes the same way) gives a big
/// cloud as its climbing hull and a small one as written.
#[test]
fn the_line_reader_searches_big_clouds_as_their_hull() {
    let mut rng = Pcg64Mcg::seed_from_u64(1000);
    let text = |points: &[Vec3]| {
        let listed: Vec<String> = points
            .iter()
            .map(|p| format!("[{},{},{}]", p.x, p.y, p.z))
            .collect();
        listed.join(",")
    };
    let big = cloud(&mut rng, 1000);
    let small = cloud(&mut rng, 20);
    let line = format!(
        r#"{{"a":{{"points":[{}]}},"b":{{"points":[{}],"position":[5,0,0]}}}}"#,
        text(&big),
        text(&small)
    );
    let pair = gpu_gjk::io::jsonl::parse_line(line.as_bytes()).unwrap();
    assert!(pair.a.shape.len() < 1000 && pair.a.shape.adjacency().is_some());
    assert_eq!(pair.b.shape.len(), 20);
    assert!(pair.b.shape.adjacency().is_none());
}

/// Hull points one support call reads on `shapes` uploaded as `raw` says, each shape paired with itself
/// around contact: over the batch and in the worst pair.
fn reads_per_support_call(np: &mut NarrowPhase, shape: &ConvexShape, raw: RawSets) -> (f64, f64) {
    let shapes = vec![shape.clone()];
    let (instances, pairs) = scene(&shapes, 64);
    np.set_raw_sets(raw);
    np.upload_hulls(&shapes).unwrap();
    let work = np
        .count_work(
            &instances,
            &pairs,
            QueryKind::Distance,
            &GjkConfig::default(),
        )
        .unwrap();
    let worst = work
        .iter()
        .map(|w| f64::from(w.vertex_reads) / f64::from(w.support_calls))
        .fold(0.0, f64::max);
    (WorkSummary::of(&work).vertex_reads_per_support, worst)
}

/// A library user's raw sets (`ConvexShape::new`, every point kept) of 1,000 to 5,000 points go up to the GPU
/// as their hulls: a support call reads a few dozen pool entries (or a hull of fewer than 256 vertices), not
/// every point, unless the upload is told to keep raw sets scanned.
#[test]
fn uploaded_raw_sets_read_few_points_a_support_call() {
    let mut rng = Pcg64Mcg::seed_from_u64(64);
    let mut sets: Vec<(String, Vec<Vec3>)> = [1000, 2000, 5000]
        .into_iter()
        .map(|n| (format!("cloud of {n}"), cloud(&mut rng, n)))
        .collect();
    sets.extend(
        raw_sets()
            .into_iter()
            .filter(|(_, points)| (1000..=5000).contains(&points.len()))
            .map(|(name, points)| (name.to_string(), points)),
    );
    with_narrow_phase(None, |np| {
        for (name, points) in &sets {
            let shape = ConvexShape::new(points.clone(), 0.0).unwrap();
            let (mean, worst) = reads_per_support_call(np, &shape, RawSets::Hulled);
            let hull = shape.clone().searched_as_hull();
            eprintln!(
                "{name}: hull of {} vertices (climbs: {}), {mean:.1} reads a support call, {worst:.1} in the \
                 worst pair",
                hull.len(),
                hull.adjacency().is_some()
            );
            // A hull big enough to climb (HILL_CLIMB_MIN_VERTICES) is read a few dozen entries a call; a
            // smaller one is scanned whole, which is at most 64 points when the set's hull is that small.
            if hull.adjacency().is_some() || hull.len() <= RAW_HULL_MIN_POINTS {
                assert!(mean <= 64.0, "{name}: {mean} reads a support call");
            } else {
                assert_eq!(mean, hull.len().next_multiple_of(4) as f64, "{name}");
            }
            let (scanned, _) = reads_per_support_call(np, &shape, RawSets::Scanned);
            assert_eq!(
                scanned,
                shape.len().next_multiple_of(4) as f64,
                "{name}: kept scanned"
            );
        }
        np.set_raw_sets(RawSets::default());
    });
}

/// A raw set hulled at upload is the very shape a batch reader builds (`ConvexShape::from_points`): the GPU
/// answers the two alike, bit for bit.
#[test]
fn a_raw_set_hulled_at_upload_answers_as_the_read_set() {
    let (given, read) = shape_lists();
    let (instances, pairs) = scene(&given, 6);
    let config = GjkConfig::default();
    with_narrow_phase(None, |np| {
        for kind in [QueryKind::Intersection, QueryKind::Distance] {
            let mut answers = Vec::new();
            for shapes in [&given, &read] {
                np.upload_hulls(shapes).unwrap();
                let gpu = np.run(&instances, &pairs, kind, &config).unwrap();
                answers.push(format!("{:?}", gpu.results));
            }
            assert_eq!(answers[0], answers[1], "{kind:?}");
        }
    });
}

/// Raw sets as a library user builds them (`ConvexShape::new`), up to 40,000 points and degenerate ones
/// included, uploaded as their hulls, answer as the CPU's scans of the raw sets on both software backends.
#[test]
fn uploaded_raw_sets_of_up_to_40000_points_answer_right_on_the_gpu() {
    let (mut given, _) = shape_lists();
    let mut rng = Pcg64Mcg::seed_from_u64(40_001);
    given.push(ConvexShape::new(cloud(&mut rng, 40_000), 0.0).unwrap());
    given.push(ConvexShape::new(cloud(&mut rng, 20_000), 0.5).unwrap());
    let (instances, pairs) = scene(&given, 12);
    let config = GjkConfig::default();
    for (backend, ctx) in backend_contexts() {
        let _guard = exclusive();
        let mut np = NarrowPhase::new(&ctx.device, &ctx.queue);
        np.upload_hulls(&given).unwrap();
        assert_eq!(np.kernels_climb(), Some(true), "{backend}");
        for kind in [QueryKind::Intersection, QueryKind::Distance] {
            let mut gpu = np.run(&instances, &pairs, kind, &config).unwrap();
            let cpu = query_batch(&given, &instances, &pairs, kind, &config, Threads::All).unwrap();
            let report = compare(&given, &instances, &pairs, &gpu.results, &cpu, kind);
            eprintln!("{backend}, {kind:?}:\n{}", report.summary());
            assert!(
                report.is_clean(),
                "{backend}, {kind:?}:\n{}",
                report.summary()
            );
            gpu.resolve_failures_on_cpu(&given, &instances, &pairs, kind, &config);
            let resolved = compare(&given, &instances, &pairs, &gpu.results, &cpu, kind);
            assert!(resolved.is_clean() && resolved.gpu_failures == 0);
        }
        let gpu = np.run_penetration(&instances, &pairs, &config).unwrap();
        let (_, cpu) =
            penetration_batch(&given, &instances, &pairs, &config, Threads::All).unwrap();
        let report = compare_penetration(&given, &instances, &pairs, &gpu.penetrations, &cpu);
        eprintln!("{backend}, penetration:\n{}", report.summary());
        assert!(
            report.is_clean(),
            "{backend}, penetration:\n{}",
            report.summary()
        );
    }
}
