//! A GPU context shared by a test binary's tests: a real or software adapter (llvmpipe through wgpu's GL
//! backend works on a machine with no GPU). Without any adapter the tests say they were skipped, except under
//! `CI=true`, where a missing adapter fails the run.

use gpu_gjk::gpu::{BackendChoice, ChunkLimits, GpuContext, NarrowPhase};
use std::sync::{Mutex, OnceLock};

pub fn context() -> Option<&'static GpuContext> {
    static CONTEXT: OnceLock<Option<GpuContext>> = OnceLock::new();
    CONTEXT
        .get_or_init(|| match GpuContext::new(BackendChoice::Auto) {
            Ok(ctx) => {
                eprintln!("GPU tests on {}", ctx.summary);
                Some(ctx)
            }
            Err(e) if std::env::var("CI").as_deref() == Ok("true") => {
                panic!("CI=true requires a GPU adapter (software is fine): {e}")
            }
            Err(e) => {
                eprintln!("SKIPPED: GPU tests need an adapter: {e}");
                None
            }
        })
        .as_ref()
}

/// One narrow phase per test binary: tests take turns on it.
pub fn with_narrow_phase(limits: Option<ChunkLimits>, f: impl FnOnce(&mut NarrowPhase)) {
    static LOCK: Mutex<()> = Mutex::new(());
    let Some(ctx) = context() else { return };
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let mut np = match limits {
        Some(l) => NarrowPhase::with_limits(&ctx.device, &ctx.queue, l),
        None => NarrowPhase::new(&ctx.device, &ctx.queue),
    };
    f(&mut np);
}

/// The software-or-hardware contexts of the backends a correctness test must cover: OpenGL and Vulkan
/// (llvmpipe and lavapipe on a machine without a GPU; `.ci/run` installs both). A backend that is missing is
/// skipped with a message, except under `CI=true`, where it fails the run.
pub fn backend_contexts() -> &'static [(&'static str, GpuContext)] {
    static CONTEXTS: OnceLock<Vec<(&'static str, GpuContext)>> = OnceLock::new();
    CONTEXTS.get_or_init(|| {
        let mut found = Vec::new();
        for (name, choice) in [("gl", BackendChoice::Gl), ("vulkan", BackendChoice::Vulkan)] {
            match GpuContext::new(choice) {
                Ok(ctx) => {
                    eprintln!("GPU tests on {name}: {}", ctx.summary);
                    found.push((name, ctx));
                }
                Err(e) if std::env::var("CI").as_deref() == Ok("true") => {
                    panic!("CI=true requires the {name} backend (software is fine): {e}")
                }
                Err(e) => eprintln!("SKIPPED on {name}: {e}"),
            }
        }
        found
    })
}

/// Tests of one binary that share [`backend_contexts`] take turns: a GL context is current on one thread at a
/// time, and llvmpipe and lavapipe share the machine's cores anyway.
pub fn serial() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}
