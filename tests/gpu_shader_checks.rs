//! The one switch for wgpu's runtime checks in the kernels (`ShaderChecks`): software adapters keep the checks
//! by default, and the kernels built as trusted modules without them give the same answers, bit for bit, on
//! OpenGL and Vulkan (llvmpipe and lavapipe without a GPU). Every kind is compared: distance, intersection,
//! penetration, and the compact records.

mod common;

use common::gpu::{backend_contexts, exclusive};
use gpu_gjk::gpu::{GpuContext, GpuLimits, NarrowPhase, ShaderChecks, SHADER_CHECKS_ENV};
use gpu_gjk::scenario::{random_scene, MixSpec, Scene};
use gpu_gjk::{GjkConfig, QueryKind};

fn narrow(ctx: &GpuContext, scene: &Scene, checks: ShaderChecks) -> NarrowPhase {
    let limits = GpuLimits::from_device(&ctx.device.limits());
    let mut np = NarrowPhase::with_shader_checks(&ctx.device, &ctx.queue, limits, checks);
    np.upload_hulls(&scene.shapes).unwrap();
    np.set_instances(&scene.instances).unwrap();
    np
}

/// Every answer of every kind, as bytes (`{:?}` of f32 prints every bit that matters, signed zeros included).
fn answers(np: &mut NarrowPhase, scene: &Scene) -> Vec<String> {
    let config = GjkConfig::default();
    let mut out = Vec::new();
    for kind in [QueryKind::Distance, QueryKind::Intersection] {
        let batch = np
            .run(&scene.instances, &scene.pairs, kind, &config)
            .unwrap();
        out.extend(batch.results.iter().map(|r| format!("{kind:?} {r:?}")));
    }
    let pen = np
        .run_penetration(&scene.instances, &scene.pairs, &config)
        .unwrap();
    out.extend(pen.penetrations.iter().map(|p| format!("pen {p:?}")));
    out.extend(pen.results.iter().map(|r| format!("pen gjk {r:?}")));
    let distances = np
        .distances(&scene.pairs, &config)
        .unwrap()
        .records
        .to_vec();
    out.extend(distances.iter().map(|d| format!("packed {d:?}")));
    let hits = np.hits(&scene.pairs, &config).unwrap().records.to_vec();
    out.extend(hits.iter().map(|h| format!("hit {h:?}")));
    out
}

#[test]
fn kernels_without_the_checks_answer_as_with_them() {
    let scene = random_scene(31, 3_000, &MixSpec::default());
    let _turn = exclusive();
    for (backend, ctx) in backend_contexts() {
        let mut on = narrow(ctx, &scene, ShaderChecks::On);
        let mut off = narrow(ctx, &scene, ShaderChecks::Off);
        assert!(on.shader_checks_on(), "{backend}");
        assert!(!off.shader_checks_on(), "{backend}");
        let (checked, trusted) = (answers(&mut on, &scene), answers(&mut off, &scene));
        assert_eq!(checked.len(), trusted.len());
        let differ: Vec<(&String, &String)> = checked
            .iter()
            .zip(&trusted)
            .filter(|(a, b)| a != b)
            .collect();
        assert!(
            differ.is_empty(),
            "{backend}: {} answers differ, first {:?}",
            differ.len(),
            differ.first()
        );
    }
}

/// `Auto` (what `NarrowPhase::new` takes) keeps the checks on a software adapter and drops them on a hardware
/// one, unless the environment variable says otherwise.
#[test]
fn auto_keeps_the_checks_on_software_adapters() {
    let _turn = exclusive();
    let env = std::env::var(SHADER_CHECKS_ENV).ok();
    for (backend, ctx) in backend_contexts() {
        let np = NarrowPhase::new(&ctx.device, &ctx.queue);
        let expected = match env.as_deref() {
            Some("on") => true,
            Some("off") => false,
            _ => ctx.summary.is_software(),
        };
        assert_eq!(
            np.shader_checks_on(),
            expected,
            "{backend}: {}",
            ctx.summary
        );
    }
}
