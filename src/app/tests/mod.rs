//! The demo's per-frame pipeline tested without a window: the program's own modules, so its tests live here
//! rather than under tests/.

mod broad;
mod device_feed;
mod gpu_scene;
mod inspector;
mod marks;
mod physics;
mod picked_pairs;
mod sim;

use crate::app::assets::ASSET_NAMES;
use crate::app::broad::{BroadPhaseChoice, FrameBroadPhase};
use crate::app::check::CheckPolicy;
use crate::app::sim::Simulation;
use crate::gjk::QueryKind;
use crate::gpu::{BackendChoice, GpuContext, NarrowPhase};
use crate::shape::ConvexShape;
use crate::stress::{StressScene, StressSpec};
use std::path::Path;
use std::sync::{Mutex, MutexGuard, OnceLock};

/// One GPU context for these tests (llvmpipe or lavapipe on a machine without a GPU). Without any adapter the
/// tests say they were skipped, except under `CI=true`, where a missing adapter fails the run.
fn context() -> Option<&'static GpuContext> {
    static CONTEXT: OnceLock<Option<GpuContext>> = OnceLock::new();
    CONTEXT
        .get_or_init(|| match GpuContext::new(BackendChoice::Auto) {
            Ok(ctx) => Some(ctx),
            Err(e) if std::env::var("CI").as_deref() == Ok("true") => {
                panic!("CI=true requires a GPU adapter (software is fine): {e}")
            }
            Err(e) => {
                eprintln!("SKIPPED: the demo's GPU tests need an adapter: {e}");
                None
            }
        })
        .as_ref()
}

/// The tests take turns on the context: wgpu's OpenGL backend panics when a thread waits more than 6 s for the
/// context that another thread's long llvmpipe dispatch holds.
fn exclusive() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// The demo's meshes (`assets/`), as the demo loads them.
fn asset_shapes() -> Vec<ConvexShape> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    ASSET_NAMES
        .iter()
        .map(|name| ConvexShape::from_obj(dir.join(format!("{name}.obj")), 0.0).unwrap())
        .collect()
}

/// The seeded stress scene of `bodies` over the demo's meshes, answering distances with `narrow` and the GPU
/// broad phase, checked every frame.
fn gpu_broad_simulation(
    ctx: &GpuContext,
    seed: u64,
    bodies: usize,
    narrow: NarrowPhase,
) -> Simulation {
    let spec = StressSpec {
        seed,
        bodies,
        ..StressSpec::default()
    };
    let scene = StressScene::new(asset_shapes(), spec).unwrap();
    let mut sim = Simulation::new(scene, narrow, QueryKind::Distance, CheckPolicy::EveryFrame);
    sim.broad = FrameBroadPhase::new(BroadPhaseChoice::Gpu, &ctx.device, &ctx.queue);
    sim
}
