//! The adversarial inputs that once got confident wrong answers (issue "The reference must be right"), each
//! checked against a closed form or a brute-force bound, in both orders of A and B, on the CPU and on the GPU
//! over every backend a test machine has (OpenGL and Vulkan; llvmpipe and lavapipe without a GPU).
//!
//! The GPU may answer a pair with a named failure status (`is_failure()`): that is not a wrong answer, and
//! `resolve_failures_on_cpu` answers it again. What it may never do is answer wrongly without saying so.

mod common;

use common::gpu::backend_contexts;
use common::one_pair::{penetration_relative, query_relative};
use common::referee::{depth_along, point_to_shape};
use glam::{DQuat, DVec3, Vec3};
use gpu_gjk::epa::PenetrationStatus;
use gpu_gjk::gpu::NarrowPhase;
use gpu_gjk::Instance;
use gpu_gjk::{ConvexShape, DPose, GjkConfig, GjkError, GjkStatus, Pose, QueryKind, RelativePose};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// What a case must answer. Distances and depths are checked within `band` (absolute).
#[derive(Clone, Copy, Debug)]
struct Expect {
    intersecting: bool,
    distance: Option<f64>,
    depth: Option<f64>,
    band: f64,
}

struct Case {
    name: String,
    a: ConvexShape,
    pose_a: DPose,
    b: ConvexShape,
    pose_b: DPose,
    expect: Expect,
}

impl Case {
    /// The same pair with A and B swapped: the flag, distance and depth do not change.
    fn swapped(&self) -> Case {
        Case {
            name: format!("{} (B, A)", self.name),
            a: self.b.clone(),
            pose_a: self.pose_b,
            b: self.a.clone(),
            pose_b: self.pose_a,
            expect: self.expect,
        }
    }

    fn scale(&self) -> f64 {
        self.a.bounding_radius().max(self.b.bounding_radius()) as f64
    }
}

fn boxed(half: DVec3) -> ConvexShape {
    ConvexShape::cuboid(half.as_vec3()).unwrap()
}

fn point() -> ConvexShape {
    ConvexShape::new(vec![Vec3::ZERO], 0.0).unwrap()
}

fn pose(position: DVec3, rotation: DQuat) -> DPose {
    DPose::checked(position, rotation).unwrap()
}

fn at(position: DVec3) -> DPose {
    pose(position, DQuat::IDENTITY)
}

/// Signed distance from a point to a box (half extents `h`, at `pose`): negative inside, by the depth.
fn box_point_signed_distance(h: DVec3, box_pose: &DPose, p: DVec3) -> f64 {
    let q = box_pose.rotation.conjugate() * (p - box_pose.position);
    let outside = (q.abs() - h).max(DVec3::ZERO);
    if outside.length() > 0.0 {
        outside.length()
    } else {
        -(h - q.abs()).min_element()
    }
}

/// The penetration depth of two boxes from the separating axis test: the least overlap over the 15 axes
/// (face normals of both boxes and the cross products of their edges), which is exact for boxes. Negative
/// when some axis separates them.
fn box_box_depth(ha: DVec3, pa: &DPose, hb: DVec3, pb: &DPose) -> f64 {
    let axes_a = [DVec3::X, DVec3::Y, DVec3::Z].map(|e| pa.rotation * e);
    let axes_b = [DVec3::X, DVec3::Y, DVec3::Z].map(|e| pb.rotation * e);
    let mut candidates: Vec<DVec3> = axes_a.iter().chain(&axes_b).copied().collect();
    for x in axes_a {
        for y in axes_b {
            let c = x.cross(y);
            if c.length() > 1e-9 {
                candidates.push(c.normalize());
            }
        }
    }
    let d = pb.position - pa.position;
    let radius = |axes: &[DVec3; 3], h: DVec3, l: DVec3| {
        h.x * axes[0].dot(l).abs() + h.y * axes[1].dot(l).abs() + h.z * axes[2].dot(l).abs()
    };
    candidates
        .iter()
        .map(|&l| radius(&axes_a, ha, l) + radius(&axes_b, hb, l) - d.dot(l).abs())
        .fold(f64::INFINITY, f64::min)
}

fn random_rotation(rng: &mut Pcg64Mcg) -> DQuat {
    gpu_gjk::scenario::random_rotation(rng)
        .as_dquat()
        .normalize()
}

/// Reproducer 1: points inside thin slabs and needles, and distances near needles.
/// A pose within the unit cube, turned at random.
fn random_pose(rng: &mut Pcg64Mcg) -> DPose {
    pose(
        DVec3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        ),
        random_rotation(rng),
    )
}

fn thin_shapes(rng: &mut Pcg64Mcg) -> Vec<Case> {
    let mut cases = Vec::new();
    let slab = |half: DVec3, slab_pose: DPose, p: DVec3, name: String| {
        let signed = box_point_signed_distance(half, &slab_pose, p);
        let scale = half.length();
        Case {
            name,
            a: boxed(half),
            pose_a: slab_pose,
            b: point(),
            pose_b: at(p),
            expect: Expect {
                intersecting: signed <= 0.0,
                distance: (signed > 0.0).then_some(signed),
                depth: (signed <= 0.0).then_some(-signed),
                band: 1e-5 * scale,
            },
        }
    };
    // The line: corners (+-1, +-1, +-1e-4) and the point at the origin; then the thicknesses that
    // failed (2e-5 to 1.5e-4 half-thickness).
    for t in [1e-4, 2e-5, 5e-5, 1.5e-4, 3e-4] {
        cases.push(slab(
            DVec3::new(1.0, 1.0, t),
            DPose::IDENTITY,
            DVec3::ZERO,
            format!("point at the centre of a slab 2 x 2 x {}", 2.0 * t),
        ));
    }
    cases.push(slab(
        DVec3::new(50.0, 50.0, 0.005),
        DPose::IDENTITY,
        DVec3::ZERO,
        "point at the centre of a 100 x 100 x 0.01 floor".into(),
    ));
    // A 20 x 20 x 0.0006 plate through a cube of half extent 0.01: the depth is the cube's half plus the
    // plate's half along z.
    let plate = DVec3::new(10.0, 10.0, 0.0003);
    let cube = DVec3::splat(0.01);
    cases.push(Case {
        name: "20 x 20 x 0.0006 plate through a 0.02 cube".into(),
        a: boxed(plate),
        pose_a: DPose::IDENTITY,
        b: boxed(cube),
        pose_b: DPose::IDENTITY,
        expect: Expect {
            intersecting: true,
            distance: None,
            depth: Some(box_box_depth(
                plate,
                &DPose::IDENTITY,
                cube,
                &DPose::IDENTITY,
            )),
            band: 1e-5 * plate.length(),
        },
    });
    // Needles 1e-4 to 1e-3 of their length thick, at random orientations, with points inside (1 in 10
    // used to be "separated") and just outside (distances used to be off by 1.4e-4 of the scale).
    for k in 0..160 {
        let t = 10f64.powf(rng.random_range(-4.0..-3.0));
        let half = DVec3::new(1.0, t, t * rng.random_range(0.5..2.0));
        let needle_pose = random_pose(rng);
        let local = if k % 2 == 0 {
            // Inside.
            DVec3::new(
                rng.random_range(-0.95..0.95),
                rng.random_range(-0.9..0.9) * half.y,
                rng.random_range(-0.9..0.9) * half.z,
            )
        } else {
            // Outside across the thin side, by 3 to 300 touching tolerances.
            let gap = 1e-5 * half.length() * 10f64.powf(rng.random_range(0.5..2.5));
            DVec3::new(rng.random_range(-0.9..0.9), half.y + gap, 0.0)
        };
        let p = needle_pose.transform_point(local);
        cases.push(slab(
            half,
            needle_pose,
            p,
            format!("needle {k} (thickness {t:.1e})"),
        ));
    }
    cases
}

/// Reproducer 2: point sets far from their local origin.
fn far_point_sets() -> Vec<Case> {
    let corners = |offset: DVec3| -> ConvexShape {
        let points = (0..8)
            .map(|i| {
                let s = |bit: i32| if i & bit == 0 { -1.0 } else { 1.0 };
                (offset + DVec3::new(s(1), s(2), s(4))).as_vec3()
            })
            .collect();
        ConvexShape::new(points, 0.0).unwrap()
    };
    // The library takes float32 points, so the expected gap is the one between the rounded coordinates
    // (at 1e6 the float32 spacing is 1/16: a gap of 1e-3 cannot be written there; the command line, which
    // reads float64, can, and tests/cli_query.rs checks it).
    let gap_after_rounding = |a: &ConvexShape, b: &ConvexShape| {
        let a_hi = a
            .local_points()
            .map(|p| p.x as f64)
            .fold(f64::MIN, f64::max);
        let b_lo = b
            .local_points()
            .map(|p| p.x as f64)
            .fold(f64::MAX, f64::min);
        b_lo - a_hi
    };
    let mut cases = Vec::new();
    for (base, gap) in [
        (1e3, 10.0),
        (1e3, 1e-3),
        (1e5, 10.0),
        (1e5, 0.5),
        (1e6, 10.0),
        (4e6, 2.0),
    ] {
        let offset = DVec3::splat(base);
        let (a, b) = (
            corners(offset),
            corners(offset + DVec3::new(2.0 + gap, 0.0, 0.0)),
        );
        let expected = gap_after_rounding(&a, &b);
        assert!(
            (expected - gap).abs() < 1e-4 * gap.max(1.0),
            "{base} {gap} {expected}"
        );
        cases.push(Case {
            name: format!("unit cubes written at {base:e}, {gap} apart"),
            a,
            pose_a: DPose::IDENTITY,
            b,
            pose_b: DPose::IDENTITY,
            expect: Expect {
                intersecting: false,
                distance: Some(expected),
                depth: None,
                band: 1e-5,
            },
        });
    }
    // The same cubes placed with poses.
    cases.push(Case {
        name: "unit cubes placed at 1e6, 10 apart".into(),
        a: corners(DVec3::ZERO),
        pose_a: at(DVec3::splat(1e6)),
        b: corners(DVec3::ZERO),
        pose_b: at(DVec3::splat(1e6) + DVec3::new(12.0, 0.0, 0.0)),
        expect: Expect {
            intersecting: false,
            distance: Some(10.0),
            depth: None,
            band: 1e-5,
        },
    });
    cases
}

/// Reproducer 3: boxes near the documented +-1e9 limit, one rotated.
fn near_the_limit(rng: &mut Pcg64Mcg) -> Vec<Case> {
    let mut cases = Vec::new();
    let quaternion = DQuat::from_xyzw(0.2, 0.3, -0.1, 0.927).normalize();
    let mut push = |name: String, ha: DVec3, pa: DPose, hb: DVec3, pb: DPose| {
        let depth = box_box_depth(ha, &pa, hb, &pb);
        let scale = ha.length().max(hb.length());
        cases.push(Case {
            name,
            a: boxed(ha),
            pose_a: pa,
            b: boxed(hb),
            pose_b: pb,
            expect: Expect {
                intersecting: depth >= 0.0,
                distance: None,
                depth: (depth >= 0.0).then_some(depth),
                band: 1e-4 * scale,
            },
        });
    };
    push(
        "boxes of half extent 1e9, one rotated".into(),
        DVec3::splat(1e9),
        DPose::IDENTITY,
        DVec3::splat(1e9),
        pose(DVec3::ZERO, quaternion),
    );
    for k in 0..40 {
        let h = DVec3::new(
            rng.random_range(1e8..9e8),
            rng.random_range(1e8..9e8),
            rng.random_range(1e8..9e8),
        );
        let p = DVec3::new(
            rng.random_range(-1e8..1e8),
            rng.random_range(-1e8..1e8),
            rng.random_range(-1e8..1e8),
        );
        push(
            format!("random boxes near the limit {k}"),
            DVec3::splat(9e8),
            DPose::IDENTITY,
            h,
            pose(p, random_rotation(rng)),
        );
    }
    cases
}

/// Reproducer 6: deep overlaps of finely tessellated round hulls (the shipped sphere against itself, and
/// identical random 256-point hulls at one pose). The depth is checked by brute force in `check_cpu`.
fn deep_round_overlaps(rng: &mut Pcg64Mcg) -> Vec<Case> {
    let sphere = ConvexShape::from_obj("assets/sphere.obj", 0.0).unwrap();
    let mut cases = Vec::new();
    for k in 0..12 {
        let offset = 0.3 * k as f64 / 11.0;
        let direction = gpu_gjk::scenario::random_unit(rng).as_dvec3();
        cases.push(Case {
            name: format!("sphere asset against itself, centres {offset:.3} apart"),
            a: sphere.clone(),
            pose_a: DPose::IDENTITY,
            b: sphere.clone(),
            pose_b: pose(direction * offset, random_rotation(rng)),
            expect: Expect {
                intersecting: true,
                distance: None,
                depth: None,
                band: 1e-4,
            },
        });
    }
    for k in 0..4 {
        let points: Vec<Vec3> = (0..256)
            .map(|_| gpu_gjk::scenario::random_unit(rng))
            .collect();
        let hull = ConvexShape::hull(&points, 0.0).unwrap();
        cases.push(Case {
            name: format!("identical random 256-point hulls at one pose {k}"),
            a: hull.clone(),
            pose_a: DPose::IDENTITY,
            b: hull,
            pose_b: DPose::IDENTITY,
            expect: Expect {
                intersecting: true,
                distance: None,
                depth: None,
                band: 1e-4,
            },
        });
    }
    cases
}

/// Shapes made by `ConvexShape::hull` from clouds that are thin but not flat: 1,500 points on a sphere
/// flattened to a disk `2 f` thick. Quickhull called the points that gave the disk its thickness "on" a face
/// and dropped them, so a point on the axis at half the half-thickness was answered apart, by 0.44 `f` (for
/// `f` = 1e-4, 3e-4 and 1e-3). The kept points must have the cloud's very hull: a point on
/// the disk's axis at half its thickness is inside, and one at twice its thickness outside (every point of the
/// cloud is within `f` of the disk's plane; the hull's surface above the centre is within 1% of it).
fn hulls_of_thin_clouds(rng: &mut Pcg64Mcg) -> Vec<Case> {
    let mut cases = Vec::new();
    for f in [1e-4, 3e-4, 1e-3] {
        let cloud: Vec<Vec3> = gpu_gjk::scenario::mesh_gen::fibonacci_sphere(1500)
            .into_iter()
            .map(|p| Vec3::new(p.x, p.z * f as f32, p.y))
            .collect();
        let disk = ConvexShape::hull(&cloud, 0.0).unwrap();
        for (height, inside) in [(0.5, true), (-0.5, true), (2.0, false), (-2.0, false)] {
            let disk_pose = random_pose(rng);
            let p = disk_pose.transform_point(DVec3::new(0.0, height * f, 0.0));
            cases.push(Case {
                name: format!(
                    "point at {height} x the half-thickness of a hull of a disk cloud {f:e} thick"
                ),
                a: disk.clone(),
                pose_a: disk_pose,
                b: point(),
                pose_b: at(p),
                expect: Expect {
                    intersecting: inside,
                    distance: None,
                    depth: None,
                    band: 1e-4,
                },
            });
        }
    }
    cases
}

fn all_cases() -> Vec<Case> {
    let mut rng = Pcg64Mcg::seed_from_u64(12);
    let mut cases = thin_shapes(&mut rng);
    cases.extend(hulls_of_thin_clouds(&mut rng));
    cases.extend(far_point_sets());
    cases.extend(near_the_limit(&mut rng));
    cases.extend(deep_round_overlaps(&mut rng));
    let swapped: Vec<Case> = cases.iter().map(Case::swapped).collect();
    cases.extend(swapped);
    cases
}

/// The answer of one backend for one case, in A's local frame.
struct Answer {
    result: gpu_gjk::GjkResult<f32>,
    penetration: gpu_gjk::epa::Penetration<f32>,
}

/// Checks one answer; returns a description of what is wrong.
fn check(case: &Case, answer: &Answer) -> Result<(), String> {
    let (r, p) = (&answer.result, &answer.penetration);
    let e = case.expect;
    if r.status.is_failure() || p.status.is_failure() {
        return Err(format!(
            "no answer: {} / {}",
            r.status.name(),
            p.status.name()
        ));
    }
    let finite = [r.distance, p.depth].iter().all(|x| x.is_finite())
        && [
            r.witness_a,
            r.witness_b,
            r.normal,
            p.normal,
            p.contact_a,
            p.contact_b,
        ]
        .iter()
        .all(|v| v.is_finite());
    if !finite {
        return Err("a non-finite field".into());
    }
    if r.intersecting != e.intersecting {
        return Err(format!(
            "intersecting = {}, expected {} (distance {})",
            r.intersecting, e.intersecting, r.distance
        ));
    }
    if let Some(d) = e.distance {
        if (r.distance as f64 - d).abs() > e.band {
            return Err(format!(
                "distance {} expected {d} +- {:e}",
                r.distance, e.band
            ));
        }
    }
    let rel = common::referee::relative(&case.pose_a, &case.pose_b);
    // Witnesses lie on (or, when intersecting, in) both shapes.
    let tol = 1e-4 * case.scale();
    let off_a = point_to_shape(&case.a, r.witness_a.as_dvec3());
    let off_b = point_to_shape(
        &case.b,
        rel.0.conjugate() * (r.witness_b.as_dvec3() - rel.1),
    );
    if off_a > tol || off_b > tol {
        return Err(format!(
            "witnesses outside the shapes by {off_a:e} and {off_b:e}"
        ));
    }
    if e.intersecting {
        if p.status != PenetrationStatus::Penetrating {
            return Err(format!("penetration status {}", p.status.name()));
        }
        if (p.normal.length() - 1.0).abs() > 1e-3 {
            return Err(format!("normal {} is not unit length", p.normal));
        }
        // B moved by the depth along the normal just separates the shapes (brute force over every point).
        let needed = depth_along(
            &case.a,
            &case.pose_a,
            &case.b,
            &case.pose_b,
            p.normal.as_dvec3(),
        );
        if (needed - p.depth as f64).abs() > e.band.max(1e-4 * case.scale()) {
            return Err(format!(
                "depth {} but B needs {needed} along the normal",
                p.depth
            ));
        }
        if let Some(d) = e.depth {
            if (p.depth as f64 - d).abs() > e.band {
                return Err(format!("depth {} expected {d} +- {:e}", p.depth, e.band));
            }
        }
    }
    Ok(())
}

/// The true depth is the least that B needs over every direction: no sampled direction may need less than
/// the answer (brute force over the points).
fn check_minimal_depth(case: &Case, depth: f32, rng: &mut Pcg64Mcg) -> Result<(), String> {
    let slack = 1e-4 * case.scale();
    for _ in 0..200 {
        let dir = gpu_gjk::scenario::random_unit(rng).as_dvec3();
        let needed = depth_along(&case.a, &case.pose_a, &case.b, &case.pose_b, dir);
        if needed < depth as f64 - slack {
            return Err(format!(
                "direction {dir} needs only {needed} < depth {depth}"
            ));
        }
    }
    Ok(())
}

fn cpu_answer(case: &Case) -> Answer {
    let relative = RelativePose::<f32>::between(&case.pose_a, &case.pose_b);
    let config = GjkConfig::default();
    let result = query_relative(&case.a, &case.b, &relative, QueryKind::Distance, &config);
    let (_, penetration) = penetration_relative(&case.a, &case.b, &relative, &config);
    Answer {
        result,
        penetration,
    }
}

#[test]
fn every_reproducer_is_answered_correctly_on_the_cpu_in_both_orders() {
    let cases = all_cases();
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    let mut failures = Vec::new();
    for case in &cases {
        let answer = cpu_answer(case);
        let mut outcome = check(case, &answer);
        if outcome.is_ok() && case.expect.intersecting {
            outcome = check_minimal_depth(case, answer.penetration.depth, &mut rng);
        }
        if let Err(why) = outcome {
            failures.push(format!("{}: {why}", case.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn a_radius_beyond_the_coordinate_limit_is_an_error_not_a_null_depth() {
    let err = ConvexShape::new(vec![Vec3::ZERO], 3e38).unwrap_err();
    assert!(matches!(err, GjkError::InvalidRadius { .. }), "{err:?}");
    assert!(ConvexShape::new(vec![Vec3::ZERO], 1e9).is_ok());
}

#[test]
fn a_point_against_a_needle_through_it_has_its_witness_at_the_point() {
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    for _ in 0..500 {
        let t = 10f64.powf(rng.random_range(-4.0..-3.0));
        let needle = boxed(DVec3::new(1.0, t, t));
        let local = DVec3::new(rng.random_range(-0.9..0.9), 0.5 * t, -0.5 * t);
        let rotation = random_rotation(&mut rng);
        // The needle placed so that the point at the origin is `local` in its frame.
        let needle_pose = pose(-(rotation * local), rotation);
        let relative = RelativePose::<f32>::between(&DPose::IDENTITY, &needle_pose);
        let r = query_relative(
            &point(),
            &needle,
            &relative,
            QueryKind::Distance,
            &GjkConfig::default(),
        );
        assert_eq!(r.status, GjkStatus::Intersecting);
        assert!(
            r.witness_a.length() <= 1e-5,
            "witness {} is not the point",
            r.witness_a
        );
    }
}

/// Runs the cases through the GPU (A at the origin, B at its relative pose formed in float64, as `query
/// --backend gpu` does), resolving named failures on the CPU. Returns the raw and the resolved answers.
fn gpu_answers(narrow: &mut NarrowPhase, cases: &[Case]) -> (Vec<Answer>, Vec<Answer>, usize) {
    let mut shapes = Vec::new();
    let mut instances = Vec::new();
    for (k, case) in cases.iter().enumerate() {
        let relative = RelativePose::<f32>::between(&case.pose_a, &case.pose_b);
        shapes.push(case.a.clone());
        shapes.push(case.b.clone());
        instances.push(Instance {
            shape: 2 * k as u32,
            pose: Pose::IDENTITY,
        });
        instances.push(Instance {
            shape: 2 * k as u32 + 1,
            pose: Pose::new(relative.position, relative.rotation),
        });
    }
    let pairs: Vec<[u32; 2]> = (0..cases.len() as u32)
        .map(|k| [2 * k, 2 * k + 1])
        .collect();
    let config = GjkConfig::default();
    narrow.upload_hulls(&shapes).unwrap();
    let distance = narrow
        .run(&instances, &pairs, QueryKind::Distance, &config)
        .unwrap();
    let penetration = narrow.run_penetration(&instances, &pairs, &config).unwrap();
    let raw: Vec<Answer> = distance
        .results
        .iter()
        .zip(&penetration.penetrations)
        .map(|(r, p)| Answer {
            result: *r,
            penetration: *p,
        })
        .collect();
    let mut distance = distance;
    let mut penetration = penetration;
    let resolved =
        distance.resolve_failures_on_cpu(&shapes, &instances, &pairs, QueryKind::Distance, &config)
            + penetration.resolve_failures_on_cpu(&shapes, &instances, &pairs, &config);
    let answers = distance
        .results
        .iter()
        .zip(&penetration.penetrations)
        .map(|(r, p)| Answer {
            result: *r,
            penetration: *p,
        })
        .collect();
    (raw, answers, resolved)
}

#[test]
fn every_reproducer_is_answered_correctly_on_the_gpu_on_every_backend() {
    let cases = all_cases();
    let _turn = common::gpu::exclusive();
    for (backend, ctx) in backend_contexts() {
        let mut narrow = NarrowPhase::new(&ctx.device, &ctx.queue);
        let (raw, answers, resolved) = gpu_answers(&mut narrow, &cases);
        let mut failures = Vec::new();
        let mut named = 0;
        for ((case, raw), answer) in cases.iter().zip(&raw).zip(&answers) {
            // A raw answer is either a named failure or right.
            if raw.result.status.is_failure() || raw.penetration.status.is_failure() {
                named += 1;
            } else if let Err(why) = check(case, raw) {
                failures.push(format!("{backend}, raw GPU answer, {}: {why}", case.name));
            }
            if let Err(why) = check(case, answer) {
                failures.push(format!("{backend}, after resolving, {}: {why}", case.name));
            }
        }
        eprintln!(
            "{backend}: {} cases, {named} raw answers with a named failure status, {resolved} answered again on the CPU",
            cases.len()
        );
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}

/// A round hull of `n` points on the unit sphere (a Fibonacci lattice, so every point is a vertex).
fn round_hull(n: usize) -> ConvexShape {
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let points = (0..n)
        .map(|i| {
            let y = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let r = (1.0 - y * y).sqrt();
            let t = golden * i as f64;
            Vec3::new((r * t.cos()) as f32, y as f32, (r * t.sin()) as f32)
        })
        .collect();
    ConvexShape::new(points, 0.0).unwrap()
}

/// Reproducer 7: big hulls on the GPU. Software adapters cap loop trips per group of invocations; the
/// kernel must say so (`gpu_loop_limit`) instead of answering from a scan cut short, and small-hull pairs that
/// share a group with a big one must not be answered wrongly either.
#[test]
fn the_gpu_never_answers_big_hulls_wrongly_without_saying_so() {
    let mut rng = Pcg64Mcg::seed_from_u64(77);
    let small = ConvexShape::cuboid(Vec3::splat(0.5)).unwrap();
    let mut shapes = vec![small];
    for n in [1_000, 4_000, 8_000, 20_000] {
        shapes.push(round_hull(n));
    }
    let mut instances = Vec::new();
    let mut pairs = Vec::new();
    for k in 0..300u32 {
        // Mostly small pairs, with a big hull every few pairs so they share groups of invocations.
        let big = if k % 5 == 0 { 1 + (k / 5) % 4 } else { 0 };
        let place = |rng: &mut Pcg64Mcg| {
            Pose::new(
                Vec3::new(
                    rng.random_range(-2.5..2.5),
                    rng.random_range(-2.5..2.5),
                    rng.random_range(-2.5..2.5),
                ),
                gpu_gjk::scenario::random_rotation(rng),
            )
        };
        instances.push(Instance {
            shape: big,
            pose: place(&mut rng),
        });
        instances.push(Instance {
            shape: 0,
            pose: place(&mut rng),
        });
        pairs.push([2 * k, 2 * k + 1]);
    }
    let config = GjkConfig::default();
    let cpu = gpu_gjk::batch::query_batch(
        &shapes,
        &instances,
        &pairs,
        QueryKind::Distance,
        &config,
        gpu_gjk::batch::Threads::All,
    )
    .unwrap();
    let _turn = common::gpu::exclusive();
    for (backend, ctx) in backend_contexts() {
        let mut narrow = NarrowPhase::new(&ctx.device, &ctx.queue);
        narrow.upload_hulls(&shapes).unwrap();
        let mut gpu = narrow
            .run(&instances, &pairs, QueryKind::Distance, &config)
            .unwrap();
        let mut named = 0;
        for (k, (g, c)) in gpu.results.iter().zip(&cpu).enumerate() {
            if g.status.is_failure() {
                named += 1;
                continue;
            }
            assert_eq!(
                g.intersecting, c.intersecting,
                "{backend}: pair {k} {g:?} vs {c:?}"
            );
            assert!(
                (g.distance - c.distance).abs() <= 1e-4 * 1.0,
                "{backend}: pair {k} {g:?} vs {c:?}"
            );
        }
        let resolved =
            gpu.resolve_failures_on_cpu(&shapes, &instances, &pairs, QueryKind::Distance, &config);
        assert_eq!(resolved, named);
        for (g, c) in gpu.results.iter().zip(&cpu) {
            assert!(!g.status.is_failure());
            assert_eq!(g.intersecting, c.intersecting);
        }
        eprintln!("{backend}: {named} of {} big-hull pairs came back gpu_loop_limit (or another named failure)", pairs.len());
    }
}
