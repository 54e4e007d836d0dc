//! EPA on the CPU reference: hand-computed overlaps (boxes, spheres, capsules, flat shapes, exact touching)
//! and random pairs against parry3d-f64's EPA, with a brute-force certificate where the two pick different
//! but equally deep directions.

mod common;

use common::one_pair::{penetration_f64, penetration_query};
use common::referee::{depth_along, referee_penetration};
use glam::{DQuat, DVec3, Quat, Vec3};
use gpu_gjk::epa::PenetrationStatus;
use gpu_gjk::query::advanced::{answer_relative, AnswerKind};
use gpu_gjk::scenario::{random_rotation, random_scene, MixSpec};
use gpu_gjk::QueryOptions;
use gpu_gjk::{ConvexShape, DPose, GjkConfig, Pose};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn pen(a: &ConvexShape, pa: Pose, b: &ConvexShape, pb: Pose) -> gpu_gjk::epa::Penetration<f32> {
    penetration_query(a, &pa, b, &pb, &GjkConfig::default()).1
}

fn assert_consistent(p: &gpu_gjk::epa::Penetration<f32>, tol: f32) {
    assert!(p.depth.is_finite() && p.normal.is_finite());
    assert!(p.contact_a.is_finite() && p.contact_b.is_finite());
    assert!((p.normal.length() - 1.0).abs() < 1e-5, "{p:?}");
    let gap = p.contact_a - p.contact_b - p.normal * p.depth;
    assert!(
        gap.length() < tol,
        "contact_a - contact_b != normal * depth: {p:?}"
    );
}

#[test]
fn boxes_with_known_overlap() {
    let cube = ConvexShape::cuboid(Vec3::ONE).unwrap();
    for (offset, depth) in [(1.5, 0.5), (0.2, 1.8)] {
        let p = pen(
            &cube,
            Pose::IDENTITY,
            &cube,
            Pose::from_position(Vec3::new(offset, 0.0, 0.0)),
        );
        assert_eq!(p.status, PenetrationStatus::Penetrating);
        assert!((p.depth - depth).abs() < 1e-5, "{p:?}");
        assert!((p.normal - Vec3::X).length() < 1e-5, "{p:?}");
        assert_consistent(&p, 1e-5);
        // The contact points are on the two boxes' facing sides.
        assert!(
            (p.contact_a.x - 1.0).abs() < 1e-5 && (p.contact_b.x - (offset - 1.0)).abs() < 1e-5
        );
    }
    // Along Y, rotated about Y (which does not change the overlap along Y), and with rounded corners.
    let rounded = ConvexShape::rounded_box(Vec3::splat(0.8), 0.2).unwrap();
    let p = pen(
        &rounded,
        Pose::IDENTITY,
        &rounded,
        Pose::new(Vec3::new(0.0, -1.3, 0.0), Quat::from_rotation_y(0.4)),
    );
    assert!((p.depth - 0.7).abs() < 1e-5, "{p:?}");
    assert!((p.normal + Vec3::Y).length() < 1e-5, "{p:?}");
    assert_consistent(&p, 1e-5);
}

#[test]
fn exactly_touching_and_flat_shapes_have_zero_depth_and_a_sensible_normal() {
    let cube = ConvexShape::cuboid(Vec3::ONE).unwrap();
    let p = pen(
        &cube,
        Pose::IDENTITY,
        &cube,
        Pose::from_position(Vec3::new(0.0, 0.0, 2.0)),
    );
    assert_eq!(p.status, PenetrationStatus::Penetrating);
    assert!(p.depth.abs() < 1e-5, "{p:?}");
    assert!((p.normal - Vec3::Z).length() < 1e-4, "{p:?}");
    assert_consistent(&p, 1e-5);

    // Two squares at z = 0, overlapping in their plane: no thickness, so depth 0 along the plane normal;
    // with radii, the radii.
    let square = |r: f32| {
        ConvexShape::new(
            vec![
                Vec3::new(-1.0, -1.0, 0.0),
                Vec3::new(1.0, -1.0, 0.0),
                Vec3::new(1.0, 1.0, 0.0),
                Vec3::new(-1.0, 1.0, 0.0),
            ],
            r,
        )
        .unwrap()
    };
    for r in [0.0, 0.1] {
        let p = pen(
            &square(r),
            Pose::IDENTITY,
            &square(r),
            Pose::new(Vec3::new(0.5, 0.3, 0.0), Quat::from_rotation_z(0.3)),
        );
        assert_eq!(p.status, PenetrationStatus::Penetrating);
        assert!((p.depth - 2.0 * r).abs() < 1e-5, "r {r}: {p:?}");
        assert!(p.normal.z.abs() > 0.9999, "r {r}: {p:?}");
        assert_consistent(&p, 1e-5);
    }

    // Concentric spheres and coincident points: any direction will do, but it must be a unit vector.
    let ball = ConvexShape::sphere(0.5).unwrap();
    let p = pen(&ball, Pose::IDENTITY, &ball, Pose::IDENTITY);
    assert!((p.depth - 1.0).abs() < 1e-6, "{p:?}");
    assert_consistent(&p, 1e-5);
    let point = ConvexShape::new(vec![Vec3::ZERO], 0.0).unwrap();
    let p = pen(&point, Pose::IDENTITY, &point, Pose::IDENTITY);
    assert_eq!(p.depth, 0.0);
    assert_consistent(&p, 1e-6);
}

#[test]
fn spheres_against_the_analytic_answer() {
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    for _ in 0..2000 {
        let (ra, rb) = (rng.random_range(0.1..3.0f32), rng.random_range(0.1..3.0f32));
        let dir = gpu_gjk::scenario::random_unit(&mut rng);
        let d = rng.random_range(0.0..0.999) * (ra + rb);
        let centre_a = Vec3::new(rng.random_range(-5.0..5.0), 0.0, 1.0);
        let a = ConvexShape::sphere(ra).unwrap();
        let b = ConvexShape::sphere(rb).unwrap();
        let p = pen(
            &a,
            Pose::from_position(centre_a),
            &b,
            Pose::from_position(centre_a + dir * d),
        );
        let scale = ra.max(rb);
        assert_eq!(p.status, PenetrationStatus::Penetrating);
        assert!(
            (p.depth - (ra + rb - d)).abs() < 1e-5 * scale,
            "{p:?} vs {}",
            ra + rb - d
        );
        if d > 1e-3 * scale {
            assert!((p.normal - dir).length() < 1e-3, "{p:?} vs {dir}");
        }
        assert_consistent(&p, 1e-5 * scale);
    }
}

#[test]
fn capsules_against_the_analytic_answer() {
    let mut rng = Pcg64Mcg::seed_from_u64(8);
    let mut checked = 0;
    for _ in 0..3000 {
        let (ha, hb) = (rng.random_range(0.1..2.0f32), rng.random_range(0.1..2.0f32));
        let (ra, rb) = (
            rng.random_range(0.05..1.0f32),
            rng.random_range(0.05..1.0f32),
        );
        let a = ConvexShape::capsule(ha, ra).unwrap();
        let b = ConvexShape::capsule(hb, rb).unwrap();
        let pose_a = Pose::new(Vec3::ZERO, random_rotation(&mut rng));
        let pose_b = Pose::new(
            gpu_gjk::scenario::random_unit(&mut rng) * rng.random_range(0.0..(ra + rb + ha + hb)),
            random_rotation(&mut rng),
        );
        let seg = |pose: &Pose, h: f32| {
            (
                pose.transform_point(Vec3::new(0.0, -h, 0.0)).as_dvec3(),
                pose.transform_point(Vec3::new(0.0, h, 0.0)).as_dvec3(),
            )
        };
        let ((p0, p1), (q0, q1)) = (seg(&pose_a, ha), seg(&pose_b, hb));
        let core = common::analytic::segment_segment_distance(p0, p1, q0, q1);
        let expected = (ra + rb) as f64 - core;
        if expected <= 0.0 {
            continue;
        }
        checked += 1;
        let p = pen(&a, pose_a, &b, pose_b);
        let scale = (ha + ra).max(hb + rb);
        assert_eq!(p.status, PenetrationStatus::Penetrating);
        assert!(
            (p.depth as f64 - expected).abs() < 1e-4 * scale as f64,
            "depth {} vs {expected} (core distance {core})",
            p.depth
        );
        assert_consistent(&p, 1e-4 * scale);
    }
    assert!(checked > 500, "{checked} overlapping capsule pairs");
}

/// Angle between two unit vectors, robust near zero.
fn angle(a: DVec3, b: DVec3) -> f64 {
    (a - b).length().atan2((a + b).length()) * 2.0
}

#[test]
fn random_overlapping_pairs_agree_with_the_referee() {
    let seed = std::env::var("GJK_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(17);
    let scene = random_scene(seed, 30_000, &MixSpec::default());
    let config = GjkConfig::default();
    let (mut deep, mut certified, mut referee_gave_up) = (0, 0, 0);
    let mut statuses = std::collections::BTreeMap::new();
    let mut float32_fallbacks = std::collections::BTreeMap::new();
    let mut failures = Vec::new();
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let sample_directions: Vec<DVec3> = (0..96)
        .map(|_| gpu_gjk::scenario::random_unit(&mut rng).as_dvec3())
        .collect();
    for &[i, j] in &scene.pairs {
        let (ia, ib) = (&scene.instances[i as usize], &scene.instances[j as usize]);
        let (a, b) = (
            &scene.shapes[ia.shape as usize],
            &scene.shapes[ib.shape as usize],
        );
        let (gjk, p) = penetration_query(a, &ia.pose, b, &ib.pose, &config);
        *statuses.entry(p.status.name()).or_insert(0) += 1;
        // How often float32 alone could not finish: the trace then holds the float64 repeat as a second run.
        let mut runs = Vec::new();
        let options = QueryOptions {
            config,
            trace: Some(&mut runs),
            ..QueryOptions::default()
        };
        let relative = gpu_gjk::RelativePose::between_f32(&ia.pose, &ib.pose);
        let (_, traced) = answer_relative(a, b, &relative, AnswerKind::Penetration, options);
        assert_eq!(
            traced.map(|t| t.to_bits()),
            Some(p.to_bits()),
            "a trace changes no answer"
        );
        if runs.len() > 1 {
            *float32_fallbacks.entry(p.status.name()).or_insert(0) += 1;
        }
        if !gjk.intersecting {
            assert_eq!(p.status, PenetrationStatus::Separated);
            continue;
        }
        assert!(
            p.status == PenetrationStatus::Penetrating,
            "EPA did not finish: {p:?}"
        );
        assert_consistent(&p, 1e-4 * a.bounding_radius().max(b.bounding_radius()));
        let (pose_a, pose_b) = (ia.pose.to_f64(), ib.pose.to_f64());
        let scale = gpu_gjk::gjk::pair_scale(a.bounding_radius(), b.bounding_radius()) as f64;
        if (p.depth as f64) < 1e-3 * scale {
            continue;
        }
        deep += 1;
        let normal = p.normal.as_dvec3();
        let tol = 1e-3 * scale;
        let along = depth_along(a, &pose_a, b, &pose_b, normal);
        let Some((ref_depth, ref_normal)) = referee_penetration(a, &pose_a, b, &pose_b) else {
            // parry's EPA gives up on flat shapes: check by brute force instead that B must move exactly
            // our depth along our normal, and that no sampled direction needs less.
            referee_gave_up += 1;
            let beaten = sample_directions
                .iter()
                .find(|&&n| depth_along(a, &pose_a, b, &pose_b, n) < p.depth as f64 - tol);
            if (along - p.depth as f64).abs() > tol || beaten.is_some() {
                failures.push(format!(
                    "{:?} & {:?} (no referee): depth {} normal {normal}, along it {along}, beaten by {beaten:?}",
                    scene.kinds[ia.shape as usize], scene.kinds[ib.shape as usize], p.depth
                ));
            }
            continue;
        };
        let depth_ok = (p.depth as f64 - ref_depth).abs() <= tol;
        let normal_ok = angle(normal, ref_normal) <= 0.01;
        // The referee is not always right, nor is the minimal direction always unique: accept our answer
        // when brute force confirms that B must move exactly our depth along our normal, and no more than
        // it must move along the referee's normal.
        let along_referee = depth_along(a, &pose_a, b, &pose_b, ref_normal);
        let certificate = (along - p.depth as f64).abs() <= tol && along <= along_referee + tol;
        if depth_ok && normal_ok {
            continue;
        }
        if certificate {
            certified += 1;
            continue;
        }
        failures.push(format!(
            "{:?} & {:?}: ours depth {} normal {normal} (along it {along}); referee {ref_depth} {ref_normal} (along it {along_referee}), scale {scale}",
            scene.kinds[ia.shape as usize], scene.kinds[ib.shape as usize], p.depth
        ));
    }
    eprintln!(
        "seed {seed}: {deep} pairs deeper than 1e-3 of their size; {certified} accepted by certificate; \
         referee gave up on {referee_gave_up} (checked by brute force); statuses {statuses:?}; \
         float32 alone did not finish (repeated in float64): {float32_fallbacks:?}"
    );
    assert!(deep > 1000, "too few deep pairs: {deep}");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}

#[test]
fn float32_agrees_with_float64() {
    let scene = random_scene(23, 5000, &MixSpec::default());
    let config = GjkConfig::default();
    let mut compared = 0;
    for &[i, j] in &scene.pairs {
        let (ia, ib) = (&scene.instances[i as usize], &scene.instances[j as usize]);
        let (a, b) = (
            &scene.shapes[ia.shape as usize],
            &scene.shapes[ib.shape as usize],
        );
        let (_, p32) = penetration_query(a, &ia.pose, b, &ib.pose, &config);
        let (_, p64) = penetration_f64(a, &ia.pose.to_f64(), b, &ib.pose.to_f64(), &config);
        if p32.status != PenetrationStatus::Penetrating
            || p64.status != PenetrationStatus::Penetrating
        {
            continue;
        }
        let scale = gpu_gjk::gjk::pair_scale(a.bounding_radius(), b.bounding_radius()) as f64;
        assert!(
            (p32.depth as f64 - p64.depth).abs() < 1e-3 * scale,
            "f32 {p32:?} vs f64 {p64:?}"
        );
        compared += 1;
    }
    assert!(compared > 100, "{compared}");
    // Far from the origin, the pair-local frame keeps the precision.
    let cube = ConvexShape::cuboid(Vec3::ONE).unwrap();
    let far = DVec3::new(1e4, -2e4, 5e3);
    let (_, p) = penetration_f64(
        &cube,
        &DPose {
            position: far,
            rotation: DQuat::IDENTITY,
        },
        &cube,
        &DPose {
            position: far + DVec3::new(0.0, 1.25, 0.0),
            rotation: DQuat::IDENTITY,
        },
        &config,
    );
    assert!((p.depth - 0.75).abs() < 1e-9, "{p:?}");
}

/// EPA reuses each thread's polytope storage from one pair to the next (`Polytope::with_spare`) and grows it
/// as a pair needs: whatever the pairs before it left there, a pair's answer must be bit for bit what a
/// fresh thread gives. The pairs overlap deeply (many expansions), and a finely tessellated sphere against
/// itself at one centre outgrows the first try's bounds (the grown second try).
#[test]
fn reused_polytope_storage_gives_the_answers_of_fresh_storage() {
    let scene = random_scene(41, 4000, &MixSpec::default());
    let sphere =
        ConvexShape::hull(&gpu_gjk::scenario::mesh_gen::fibonacci_sphere(482), 0.0).unwrap();
    let config = GjkConfig::default();
    let mut pairs: Vec<(&ConvexShape, Pose, &ConvexShape, Pose)> = scene
        .pairs
        .iter()
        .map(|&[i, j]| {
            let (ia, ib) = (&scene.instances[i as usize], &scene.instances[j as usize]);
            let shape = |k: u32| &scene.shapes[k as usize];
            (shape(ia.shape), ia.pose, shape(ib.shape), ib.pose)
        })
        .collect();
    let turned = Pose::new(Vec3::new(0.01, -0.02, 0.015), Quat::from_rotation_y(0.3));
    pairs.insert(pairs.len() / 2, (&sphere, Pose::IDENTITY, &sphere, turned));
    let answer = |(a, pa, b, pb): &(&ConvexShape, Pose, &ConvexShape, Pose)| {
        penetration_query(a, pa, b, pb, &config).1.to_bits()
    };
    // In order on this thread, then in reverse order on a new thread (each pair after other pairs).
    let forward: Vec<_> = pairs.iter().map(answer).collect();
    let backward: Vec<_> = std::thread::scope(|s| {
        s.spawn(|| pairs.iter().rev().map(answer).collect::<Vec<_>>())
            .join()
            .unwrap()
    });
    let deep = forward
        .iter()
        .filter(|f| f.0 == PenetrationStatus::Penetrating && f.5 > 4)
        .count();
    assert!(
        deep > 300,
        "only {deep} pairs ran EPA for more than 4 expansions"
    );
    assert!(
        forward.iter().any(|f| f.5 > 60),
        "no pair outgrew the first try's 60 expansions"
    );
    for (k, (f, b)) in forward.iter().zip(backward.iter().rev()).enumerate() {
        assert_eq!(f, b, "pair {k} answered differently after other pairs");
    }
}
