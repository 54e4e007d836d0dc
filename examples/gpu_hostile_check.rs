//! The hostile penetration set on whatever GPU `GpuContext` picks, against the CPU reference:
//! `cargo run --release --example gpu_hostile_check [poses per ordered pair, default 300]`.
//!
//! Eight shapes that broke collision libraries (a 20 x 20 x 0.002 slab, a 1e-3 needle, boxes of half-size 1e5 and
//! 1e-3, a rounded box, a cube, a tetrahedron, a 1,000-vertex ellipsoid hull), every ordered pair, half of the poses
//! 1e5 from the origin. The software adapters run it in the test suite's pieces; this is the whole set in one batch,
//! for a hardware GPU whose shader compiler the tests have not met. Exits 1 when the answers disagree.
use glam::{Quat, Vec3};
use gpu_gjk::batch::{penetration_batch, Threads};
use gpu_gjk::gpu::{BackendChoice, GpuContext, NarrowPhase};
use gpu_gjk::mesh_gen::fibonacci_sphere;
use gpu_gjk::validate::compare_penetration;
use gpu_gjk::{ConvexShape, GjkConfig, Instance, Pose};

/// xorshift64: the same poses on every machine, with no dependency on a generator crate's stream.
fn next_unit(state: &mut u64) -> f32 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    ((*state >> 40) as f32) / (1u64 << 24) as f32
}

fn random_rotation(state: &mut u64) -> Quat {
    let mut c = || next_unit(state) - 0.5;
    Quat::from_xyzw(c(), c(), c(), c()).normalize()
}

fn hostile_shapes() -> Vec<ConvexShape> {
    let semi_axes = Vec3::new(1.0, 0.8, 0.6);
    let ellipsoid: Vec<Vec3> = fibonacci_sphere(1000)
        .into_iter()
        .map(|p| p * semi_axes)
        .collect();
    let cube = ConvexShape::cuboid(Vec3::splat(0.5)).expect("cube");
    vec![
        ConvexShape::cuboid(Vec3::new(10.0, 10.0, 0.001)).expect("slab"),
        ConvexShape::cuboid(Vec3::new(1.0, 1e-3, 1e-3)).expect("needle"),
        ConvexShape::cuboid(Vec3::splat(1e5)).expect("huge box"),
        ConvexShape::cuboid(Vec3::splat(1e-3)).expect("tiny box"),
        ConvexShape::new(cube.local_points().collect(), 0.2).expect("rounded box"),
        cube,
        ConvexShape::new(vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z], 0.0).expect("tetrahedron"),
        ConvexShape::hull(&ellipsoid, 0.0).expect("ellipsoid hull"),
    ]
}

fn main() {
    let poses_per_pair: u32 = match std::env::args().nth(1) {
        None => 300,
        Some(text) => text.parse().unwrap_or_else(|_| {
            eprintln!("poses per ordered pair must be a whole number, got {text:?}");
            std::process::exit(2)
        }),
    };
    let shapes = hostile_shapes();
    let mut instances = Vec::new();
    let mut pairs = Vec::new();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for a in 0..shapes.len() as u32 {
        for b in 0..shapes.len() as u32 {
            let reach = shapes[a as usize].bounding_radius() + shapes[b as usize].bounding_radius();
            for k in 0..poses_per_pair {
                let base = Vec3::splat(if k % 2 == 0 { 0.0 } else { 1e5 });
                let pose_a = Pose::new(base, random_rotation(&mut state));
                let direction = Vec3::new(
                    next_unit(&mut state) - 0.5,
                    next_unit(&mut state) - 0.5,
                    next_unit(&mut state) - 0.5,
                );
                let gap = next_unit(&mut state) * 1.5 * reach;
                let pose_b = Pose::new(
                    base + direction.normalize_or_zero() * gap,
                    random_rotation(&mut state),
                );
                let first = instances.len() as u32;
                instances.push(Instance {
                    shape: a,
                    pose: pose_a,
                });
                instances.push(Instance {
                    shape: b,
                    pose: pose_b,
                });
                pairs.push([first, first + 1]);
            }
        }
    }
    let context = GpuContext::new(BackendChoice::Auto).unwrap_or_else(|error| {
        eprintln!("no GPU adapter: {error}");
        std::process::exit(2)
    });
    println!("adapter: {}", context.summary);
    println!("{} pairs", pairs.len());
    let mut narrow_phase = NarrowPhase::new(&context.device, &context.queue);
    narrow_phase.upload_hulls(&shapes).expect("upload hulls");
    let config = GjkConfig::default();
    let mut gpu = narrow_phase
        .run_penetration(&instances, &pairs, &config)
        .expect("GPU penetration batch");
    let (_, cpu) = penetration_batch(&shapes, &instances, &pairs, &config, Threads::All)
        .expect("CPU penetration batch");
    let report = compare_penetration(&shapes, &instances, &pairs, &gpu.penetrations, &cpu);
    println!(
        "GPU answers as computed: {} named failures\n{}",
        report.gpu_failures(),
        report.summary()
    );
    gpu.resolve_failures_on_cpu(&shapes, &instances, &pairs, &config);
    let report = compare_penetration(&shapes, &instances, &pairs, &gpu.penetrations, &cpu);
    println!(
        "after the named failures are answered on the CPU: clean {}, largest depth error {:e}, largest normal angle {:e} rad\n{}",
        report.is_clean(),
        report.max_depth_error,
        report.max_normal_angle,
        report.summary()
    );
    if !report.is_clean() {
        std::process::exit(1);
    }
}
