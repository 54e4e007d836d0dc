//! An answer EPA did not converge on carries an upper bound on the depth (`depth_upper`), and a converged one
//! none: the front door's answer and `gpu-gjk query`'s line on the CPU and OpenGL backends (llvmpipe where there
//! is no GPU; skipped without an adapter, except under `CI=true`; the GPU's failures are answered again on the
//! CPU). The pair that stays non-converged: two round hulls of 30,000 points each at one centre, beyond even
//! the CPU's grown EPA bounds (two of 10,000 need 16,225 expansions). Each answer must bracket the exact depth:
//! its depth at most the least depth over a lattice of directions (an upper bound on the exact depth), its
//! `depth_upper` the depth along its own normal by brute force (so at least the exact depth), radii included.

mod common;

use common::query_cli::query_lines;

use common::round::{depth_along, sphere_points};
use glam::{DQuat, DVec3, Vec3};
use gpu_gjk::query::{penetration, PairInput, QueryOptions};
use gpu_gjk::{ConvexShape, DPose, PenetrationStatus};
use serde_json::Value;

const POINTS: usize = 30_000;
const RADII: [f32; 2] = [0.25, 0.125];
/// Where both centres are: away from the origin, so that the world frame is tested too.
const CENTRE: DVec3 = DVec3::new(0.5, -2.0, 1.0);
/// Agreement of a bound with its brute-force value, as a fraction of the pair scale (about 1.25).
const ROUNDING: f64 = 1e-5;

/// The two hulls' points: radius 1, and radius 1 turned.
fn sides() -> [Vec<Vec3>; 2] {
    let turn = DQuat::from_euler(glam::EulerRot::XYZ, 0.3, 1.1, -0.7);
    [
        sphere_points(POINTS, 1.0, DQuat::IDENTITY),
        sphere_points(POINTS, 1.0, turn),
    ]
}

/// How far B must move along the unit `n` to leave A, radii included.
fn depth_along_n(sides: &[Vec<Vec3>; 2], n: DVec3) -> f64 {
    depth_along(&sides[0], CENTRE, &sides[1], CENTRE, n) + (RADII[0] + RADII[1]) as f64
}

/// The least depth over a lattice of directions: at least the exact depth.
fn lattice_least(sides: &[Vec<Vec3>; 2]) -> f64 {
    gpu_gjk::scenario::mesh_gen::fibonacci_sphere(2048)
        .iter()
        .map(|n| depth_along_n(sides, n.as_dvec3().normalize()))
        .fold(f64::INFINITY, f64::min)
}

/// Checks that `depth` and `upper` along `normal` bracket the exact depth of `sides`.
fn check_bracket(
    what: &str,
    sides: &[Vec<Vec3>; 2],
    least: f64,
    depth: f64,
    normal: DVec3,
    upper: f64,
) {
    assert!(
        (normal.length() - 1.0).abs() < 1e-5,
        "{what}: normal {normal}"
    );
    let along = depth_along_n(sides, normal);
    assert!(
        depth <= least + ROUNDING,
        "{what}: depth {depth} above the lattice's {least}"
    );
    assert!(
        (upper - along).abs() <= ROUNDING,
        "{what}: depth_upper {upper}, but B must move {along} along {normal}"
    );
    assert!(depth < upper, "{what}: depth {depth}, depth_upper {upper}");
    println!("{what}: depth {depth:.7} <= exact <= {least:.7} (lattice), depth_upper {upper:.7}");
}

fn pose() -> DPose {
    DPose {
        position: CENTRE,
        rotation: DQuat::IDENTITY,
    }
}

#[test]
fn the_front_door_bounds_a_depth_it_did_not_converge_on() {
    let sides = sides();
    let least = lattice_least(&sides);
    let a = ConvexShape::new(sides[0].clone(), RADII[0]).unwrap();
    let b = ConvexShape::new(sides[1].clone(), RADII[1]).unwrap();
    let (_, hit) = penetration(
        &PairInput::new(&a, pose(), &b, pose()),
        QueryOptions::default(),
    );
    assert!(
        matches!(
            hit.status,
            PenetrationStatus::MaxIterations | PenetrationStatus::Overflow
        ),
        "{:?}",
        hit.status
    );
    let upper = hit
        .depth_upper
        .expect("a non-converged answer has its bound");
    check_bracket("front door", &sides, least, hit.depth, hit.normal, upper);

    // A converged answer has none: two 800-point hulls at one centre.
    let small = ConvexShape::new(sphere_points(800, 1.0, DQuat::IDENTITY), 0.0).unwrap();
    let (_, hit) = penetration(
        &PairInput::new(&small, pose(), &small, pose()),
        QueryOptions::default(),
    );
    assert_eq!(hit.status, PenetrationStatus::Penetrating);
    assert_eq!(hit.depth_upper, None);
}

/// One side as `query` reads it: raw points, float32 written exactly, a radius and a position.
fn json_side(points: &[Vec3], radius: f32) -> String {
    let points: Vec<String> = points
        .iter()
        .map(|p| format!("[{:?},{:?},{:?}]", p.x, p.y, p.z))
        .collect();
    format!(
        "{{\"points\": [{}], \"radius\": {radius:?}, \"position\": [{:?}, {:?}, {:?}]}}",
        points.join(","),
        CENTRE.x,
        CENTRE.y,
        CENTRE.z
    )
}

/// `query --backend BACKEND` on the non-converging pair and a converged one; `None` (after printing
/// `SKIPPED`) when the backend has no adapter.
fn run_query(backend: &str, sides: &[Vec<Vec3>; 2]) -> Option<Vec<Value>> {
    let small = sphere_points(800, 1.0, DQuat::IDENTITY);
    let lines = format!(
        "{{\"a\": {}, \"b\": {}}}\n{{\"a\": {}, \"b\": {}}}\n",
        json_side(&sides[0], RADII[0]),
        json_side(&sides[1], RADII[1]),
        json_side(&small, 0.0),
        json_side(&small, 0.0),
    );
    query_lines(&["--backend", backend], lines)
}

fn vec3(v: &Value) -> DVec3 {
    let a: Vec<f64> = serde_json::from_value(v.clone()).unwrap();
    DVec3::new(a[0], a[1], a[2])
}

fn check_backend(backend: &str) {
    let sides = sides();
    let Some(lines) = run_query(backend, &sides) else {
        return;
    };
    assert_eq!(lines.len(), 2);
    let (deep, converged) = (&lines[0], &lines[1]);
    let what = format!("--backend {backend}");
    let status = deep["penetration_status"].as_str().unwrap();
    assert!(
        ["epa_max_iterations", "epa_overflow"].contains(&status),
        "{what}: {deep}"
    );
    let upper = deep["depth_upper"].as_f64().expect("depth_upper");
    let least = lattice_least(&sides);
    let depth = deep["depth"].as_f64().unwrap();
    check_bracket(&what, &sides, least, depth, vec3(&deep["normal"]), upper);
    assert_eq!(
        converged["penetration_status"], "penetrating",
        "{converged}"
    );
    assert!(converged.get("depth_upper").is_none(), "{converged}");
}

#[test]
fn query_bounds_a_depth_it_did_not_converge_on_on_the_cpu() {
    check_backend("cpu");
}

#[test]
fn query_bounds_a_depth_it_did_not_converge_on_on_opengl() {
    check_backend("gl");
}
