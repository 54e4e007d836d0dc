//! The two EPA kernels (`EpaKernel::Private`: the polytope in private memory; `EpaKernel::Scratch`: in a global
//! scratch buffer sized per chunk) give the same answers (bit for bit on OpenGL), on OpenGL and Vulkan (llvmpipe
//! and lavapipe without a GPU), one narrow phase alternating between them, and whatever the scratch buffer's
//! width.

mod common;

use common::gpu::{backend_contexts, exclusive};
use gpu_gjk::batch::{penetration_batch, Threads};
use gpu_gjk::epa::Penetration;
use gpu_gjk::gpu::{EpaKernel, GpuLimits, GpuTimings, NarrowPhase};
use gpu_gjk::scenario::{hostile_scene, random_scene, MixSpec, Scene};
use gpu_gjk::validate::compare_penetration;
use gpu_gjk::GjkConfig;

/// The penetration answers of `np` on `scene` with `kernel`, and the batch's figures.
fn answers(
    np: &mut NarrowPhase,
    scene: &Scene,
    kernel: EpaKernel,
) -> (Vec<Penetration<f32>>, GpuTimings) {
    np.set_epa_kernel(kernel);
    assert_eq!(np.epa_kernel(), kernel);
    let batch = np
        .run_penetration(&scene.instances, &scene.pairs, &GjkConfig::default())
        .unwrap();
    (batch.penetrations, batch.timings)
}

/// Pairs whose answers differ in any bit.
fn differing(a: &[Penetration<f32>], b: &[Penetration<f32>]) -> usize {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .filter(|(x, y)| x.to_bits() != y.to_bits())
        .count()
}

/// `answers` against the CPU's: clean (within the validation's tolerances), failure statuses aside.
fn assert_clean(name: &str, what: &str, scene: &Scene, answers: &[Penetration<f32>]) {
    let (_, cpu) = penetration_batch(
        &scene.shapes,
        &scene.instances,
        &scene.pairs,
        &GjkConfig::default(),
        Threads::All,
    )
    .unwrap();
    let report = compare_penetration(&scene.shapes, &scene.instances, &scene.pairs, answers, &cpu);
    assert!(report.is_clean(), "{name}: {what}: {}", report.summary());
}

fn scenes() -> Vec<(&'static str, Scene)> {
    vec![
        ("random", random_scene(20261205, 3000, &MixSpec::default())),
        ("hostile", hostile_scene(8)),
    ]
}

/// Private, scratch, private again on one narrow phase: the kernel switch works both ways and the scratch kernel
/// answers as the private one. On OpenGL (llvmpipe) every bit is the same. On Vulkan (lavapipe) a few pairs differ
/// by rounding: its compiler fuses a multiply and an add (an FMA) where a value computed in the same invocation is
/// read back from private memory, which it cannot do across a buffer's store and load; there both kernels must
/// agree with the CPU.
#[test]
fn the_private_and_scratch_kernels_give_the_same_answers() {
    let _turn = exclusive();
    for (name, ctx) in backend_contexts() {
        let mut np = NarrowPhase::new(&ctx.device, &ctx.queue);
        let software = ctx.summary.is_software();
        let default = if software {
            EpaKernel::Private
        } else {
            EpaKernel::Scratch
        };
        assert_eq!(np.epa_kernel(), default, "{name}: the default");
        for (scene_name, scene) in scenes() {
            np.upload_hulls(&scene.shapes).unwrap();
            let (private, _) = answers(&mut np, &scene, EpaKernel::Private);
            let (scratch, _) = answers(&mut np, &scene, EpaKernel::Scratch);
            let (private_again, _) = answers(&mut np, &scene, EpaKernel::Private);
            assert_eq!(
                differing(&private, &private_again),
                0,
                "{name}: private twice"
            );
            let differ = differing(&private, &scratch);
            if *name == "gl" {
                assert_eq!(differ, 0, "{name}: {scene_name}: private then scratch");
            } else {
                assert_clean(name, "private", &scene, &private);
                assert_clean(name, "scratch", &scene, &scratch);
            }
            eprintln!(
                "{name}: {scene_name}: {differ} of {} pairs differ in some bit",
                scene.pairs.len()
            );
        }
    }
}

/// A scratch buffer a few lanes wide (the chunk's outputs capped at 40 pairs' worth of scratch: less than one
/// workgroup's tile) splits the batch into chunks of 40 pairs, and each chunk's EPA finds its lanes in it: the
/// answers are those of one wide buffer (whose last tile, 1,000 pairs being no multiple of 64, is partial too).
#[test]
fn a_narrow_scratch_buffer_splits_the_batch_without_changing_an_answer() {
    let _turn = exclusive();
    let scene = random_scene(77, 1000, &MixSpec::default());
    for (name, ctx) in backend_contexts() {
        let wide = {
            let mut np = NarrowPhase::new(&ctx.device, &ctx.queue);
            np.upload_hulls(&scene.shapes).unwrap();
            answers(&mut np, &scene, EpaKernel::Scratch)
        };
        let narrow = {
            let mut limits = GpuLimits::from_device(&ctx.device.limits());
            limits.buffers.results = 40 * EpaKernel::Scratch.scratch_bytes_per_pair();
            let mut np = NarrowPhase::with_gpu_limits(&ctx.device, &ctx.queue, limits);
            np.upload_hulls(&scene.shapes).unwrap();
            answers(&mut np, &scene, EpaKernel::Scratch)
        };
        assert_eq!(
            narrow.1.chunks as usize,
            scene.pairs.len().div_ceil(40),
            "{name}"
        );
        assert_eq!(differing(&wide.0, &narrow.0), 0, "{name}: narrow scratch");
        eprintln!("{name}: {} chunks alike", narrow.1.chunks);
    }
}

/// A batch larger than a scratch chunk (30,784 pairs under a 128 MiB binding) first through the private kernel,
/// whose chunks the scratch buffer does not cap, then through the scratch kernel: the ring is remade for the
/// smaller chunks, so no binding exceeds the device's limit (wgpu would refuse the bind group).
#[test]
fn switching_to_scratch_after_a_large_private_batch_stays_within_the_binding_limit() {
    let _turn = exclusive();
    for (name, ctx) in backend_contexts() {
        let limits = GpuLimits::from_device(&ctx.device.limits());
        let per_chunk = limits.buffers.results / EpaKernel::Scratch.scratch_bytes_per_pair();
        let scene = random_scene(3, per_chunk as usize + 1000, &MixSpec::default());
        let mut np = NarrowPhase::with_gpu_limits(&ctx.device, &ctx.queue, limits);
        np.upload_hulls(&scene.shapes).unwrap();
        let (private, _) = answers(&mut np, &scene, EpaKernel::Private);
        let (scratch, timings) = answers(&mut np, &scene, EpaKernel::Scratch);
        assert!(timings.chunks >= 2, "{name}: {} chunks", timings.chunks);
        if *name == "gl" {
            assert_eq!(differing(&private, &scratch), 0, "{name}");
        }
        eprintln!(
            "{name}: {} pairs in {} chunks",
            scene.pairs.len(),
            timings.chunks
        );
    }
}

#[test]
fn the_kernels_are_named_on_the_command_line() {
    for kernel in EpaKernel::ALL {
        assert_eq!(EpaKernel::from_name(kernel.name()), Some(kernel));
    }
    assert_eq!(EpaKernel::from_name("shared"), None);
    assert_eq!(EpaKernel::Private.scratch_bytes_per_pair(), 0);
    assert_eq!(EpaKernel::Scratch.scratch_bytes_per_pair(), 4352);
}
