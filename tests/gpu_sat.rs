//! The separating axis test on the GPU against the CPU's, on a real or software adapter (llvmpipe through wgpu's
//! GL backend works on a machine with no GPU). Without any adapter these tests say they were skipped, except
//! under `CI=true`, where a missing adapter fails the run.

mod common;

use common::gpu::{backend_contexts, exclusive};
use common::poses::{self, at, both_orders};
use glam::{DVec3, Vec3};
use gpu_gjk::gpu::sat::compare::{compare_with_cpu, GpuSatAgreement};
use gpu_gjk::gpu::sat::{GpuSat, GpuSatAnswer, GpuSatBatch};
use gpu_gjk::sat::compare::{polyhedral_pairs, polyhedron};
use gpu_gjk::sat::separating_axis;
use gpu_gjk::shape::ConvexShape;
use gpu_gjk::{DPose, PairInput};

/// The GPU's answers and their agreement with the CPU test on every backend there is (OpenGL and Vulkan: llvmpipe
/// and lavapipe without a GPU), after answering any loop-limit pair on the CPU; the last backend's, or `None`
/// when skipped.
fn run(pairs: &[PairInput]) -> Option<(GpuSatBatch, GpuSatAgreement)> {
    let mut last = None;
    for (name, ctx) in backend_contexts() {
        let _guard = exclusive();
        let sat = GpuSat::new(&ctx.device, &ctx.queue);
        let mut batch = sat.run(pairs).unwrap();
        assert_eq!(batch.answers.len(), pairs.len());
        let before = compare_with_cpu(pairs, &batch.answers);
        eprintln!("{name}, {} pairs: {}", pairs.len(), before.summary());
        assert!(before.is_clean(), "{name}: {}", before.summary());
        let resolved = batch.resolve_failures_on_cpu(pairs);
        assert_eq!(resolved, before.gpu_failures);
        let after = compare_with_cpu(pairs, &batch.answers);
        assert_eq!(after.gpu_failures, 0);
        assert!(after.is_clean(), "{name}: {}", after.summary());
        last = Some((batch, before));
    }
    last
}

/// Turned about one skew axis, the one the hand-built SAT pairs use.
fn turned(x: f64, y: f64, z: f64, angle: f64) -> DPose {
    poses::turned(x, y, z, DVec3::new(1.0, 2.0, 3.0), angle)
}

#[test]
fn hostile_pairs_agree_with_the_cpu_in_both_orders() {
    let cube = ConvexShape::cuboid(Vec3::splat(0.5)).unwrap();
    let slab = ConvexShape::cuboid(Vec3::new(2.0, 0.5, 2.0)).unwrap();
    let thin = ConvexShape::cuboid(Vec3::new(1.0, 1e-3, 1.0)).unwrap();
    let needle = ConvexShape::cuboid(Vec3::new(1e-3, 1e-3, 5.0)).unwrap();
    let tiny = ConvexShape::cuboid(Vec3::splat(1e-4)).unwrap();
    let huge = ConvexShape::cuboid(Vec3::splat(1e4)).unwrap();
    let hull = polyhedron(64, 1.0, 7);
    let flat = ConvexShape::hull(
        &[Vec3::ZERO, Vec3::X, Vec3::Z, Vec3::new(1.0, 0.0, 1.0)],
        0.0,
    )
    .unwrap();
    let sphere = ConvexShape::sphere(1.0).unwrap();
    // A random hull pressed to a thousandth of its width: faces nearly edge-on, normals from thin triangles.
    let pressed: Vec<Vec3> = hull
        .local_points()
        .map(|p| p * Vec3::new(1.0, 1e-3, 1.0))
        .collect();
    let wafer = ConvexShape::hull(&pressed, 0.0).unwrap();
    let far = 1e7;
    let pairs = both_orders(&[
        // Resting, sunk, apart, edge on edge, corner in.
        PairInput::new(&slab, at(0.0, 0.0, 0.0), &cube, at(0.0, 0.99, 0.0)),
        PairInput::new(&slab, at(0.0, 0.0, 0.0), &cube, at(0.0, 1.2, 0.0)),
        PairInput::new(&cube, at(0.0, 0.0, 0.0), &cube, turned(0.9, 0.9, 0.0, 0.7)),
        PairInput::new(&cube, at(0.0, 0.0, 0.0), &cube, turned(1.3, 0.2, 0.1, 2.0)),
        // Identical, nested, far away (positions 1e7 out, relative pose formed in float64).
        PairInput::new(&hull, at(0.0, 0.0, 0.0), &hull, at(0.0, 0.0, 0.0)),
        PairInput::new(&huge, at(0.0, 0.0, 0.0), &cube, turned(1.0, 2.0, 3.0, 0.3)),
        PairInput::new(
            &hull,
            at(far, far, far),
            &cube,
            turned(far + 0.9, far, far, 1.1),
        ),
        PairInput::new(
            &hull,
            at(far, -far, far),
            &hull,
            turned(far + 2.5, -far, far, 0.4),
        ),
        // Thin and needle-like, tiny and huge.
        PairInput::new(&thin, at(0.0, 0.0, 0.0), &cube, turned(0.0, 0.4, 0.0, 0.2)),
        PairInput::new(
            &thin,
            turned(0.0, 0.0, 0.0, 1.0),
            &thin,
            turned(0.1, 0.0, 0.0, 2.0),
        ),
        PairInput::new(
            &needle,
            at(0.0, 0.0, 0.0),
            &needle,
            turned(0.0, 0.0, 0.0, 1.5),
        ),
        PairInput::new(&needle, at(0.0, 0.0, 0.0), &hull, at(0.0, 1.2, 4.0)),
        PairInput::new(
            &tiny,
            at(0.0, 0.0, 0.0),
            &tiny,
            turned(1.5e-4, 0.0, 0.0, 0.5),
        ),
        PairInput::new(&huge, at(0.0, 0.0, 0.0), &tiny, at(1e4 + 1.0, 0.0, 0.0)),
        PairInput::new(
            &wafer,
            turned(0.0, 0.0, 0.0, 0.3),
            &wafer,
            turned(0.2, 0.0, 0.1, 1.3),
        ),
        PairInput::new(
            &wafer,
            at(0.0, 0.0, 0.0),
            &cube,
            turned(0.3, 0.45, 0.0, 0.8),
        ),
        // Not polyhedra: a flat hull, a sphere.
        PairInput::new(&flat, at(0.0, 0.0, 0.0), &cube, at(0.0, 0.0, 0.0)),
        PairInput::new(&sphere, at(0.0, 0.0, 0.0), &cube, at(0.0, 0.0, 0.0)),
    ]);
    let Some((batch, found)) = run(&pairs) else {
        return;
    };
    assert_eq!(found.gpu_failures, 0, "{}", found.summary());
    assert_eq!(found.not_polyhedra, 4);
    assert!(found.compared >= 20, "{}", found.summary());
    // The resting cube: its bottom face down into the slab, 0.01 deep, A's face chosen.
    let GpuSatAnswer::Answered(resting) = batch.answers[0] else {
        panic!("{:?}", batch.answers[0]);
    };
    let cpu = separating_axis(&pairs[0]).unwrap();
    assert!(resting.intersecting && (resting.separation + 0.01).abs() < 1e-6);
    assert!((resting.normal - DVec3::Y).length() < 1e-6);
    assert_eq!(resting.axis, cpu.axis);
    let GpuSatAnswer::Answered(apart) = batch.answers[2] else {
        panic!()
    };
    assert!(!apart.intersecting && (apart.separation - 0.2).abs() < 1e-6);
}

/// Seeded boxes and hulls of 8 and 64 points (sizes 1e-3 to 1e3, origin and 1e6 sizes away, nested to apart):
/// every flag, separation and normal within the band; hulls of 512 points run apart below.
#[test]
fn seeded_polyhedral_pairs_agree_with_the_cpu() {
    let owned = polyhedral_pairs(20_000, &[0, 8, 64], 20261205);
    let pairs: Vec<PairInput> = owned.iter().map(|p| p.input()).collect();
    let Some((_, found)) = run(&pairs) else {
        return;
    };
    assert!(found.overlapping > 2_000, "{}", found.summary());
    assert!(found.compared > 19_000, "{}", found.summary());
    assert!(found.max_separation_error <= 1e-5, "{}", found.summary());
}

/// Hulls of 512 points: answered within the band, or named loop-limit pairs on a software adapter (whose loop
/// budget their edge pairs exceed), which the CPU then answers.
#[test]
fn big_hulls_agree_or_are_named_and_answered_on_the_cpu() {
    let owned = polyhedral_pairs(64, &[512], 5);
    let pairs: Vec<PairInput> = owned.iter().map(|p| p.input()).collect();
    let Some((batch, found)) = run(&pairs) else {
        return;
    };
    assert_eq!(
        found.compared + found.touching_band + found.gpu_failures,
        64
    );
    assert!(batch
        .answers
        .iter()
        .all(|a| matches!(a, GpuSatAnswer::Answered(_))));
}

/// Chunks of a few pairs and a few hulls answer every pair with the same bits as one chunk, and a pair whose
/// two hulls alone exceed a chunk fails the run with the pair named.
#[test]
fn chunked_runs_answer_the_same_bits_and_an_oversized_pair_is_named() {
    let owned = polyhedral_pairs(300, &[0, 8, 64], 11);
    let pairs: Vec<PairInput> = owned.iter().map(|p| p.input()).collect();
    for (name, ctx) in backend_contexts() {
        let _guard = exclusive();
        let whole = GpuSat::new(&ctx.device, &ctx.queue).run(&pairs).unwrap();
        assert_eq!(whole.chunks, 1);
        // At most 7 pairs, or 20 KB of hull words (a 64-point hull takes about 8 KB).
        let small = GpuSat::with_chunks(&ctx.device, &ctx.queue, 7, 20_000);
        let chunked = small.run(&pairs).unwrap();
        assert!(
            chunked.chunks > 300 / 7,
            "{name}: {} chunks",
            chunked.chunks
        );
        assert_eq!(
            format!("{:?}", chunked.answers),
            format!("{:?}", whole.answers),
            "{name}"
        );
        let tight = GpuSat::with_chunks(&ctx.device, &ctx.queue, 7, 1_000);
        let big = polyhedron(64, 1.0, 3);
        let cube = ConvexShape::cuboid(Vec3::splat(0.5)).unwrap();
        let mixed = [
            PairInput::new(&cube, at(0.0, 0.0, 0.0), &cube, at(0.5, 0.0, 0.0)),
            PairInput::new(&big, at(0.0, 0.0, 0.0), &cube, at(0.5, 0.0, 0.0)),
        ];
        let error = tight.run(&mixed).unwrap_err().to_string();
        assert!(
            error.starts_with("pair 1: its two polyhedra need"),
            "{name}: {error}"
        );
    }
}
