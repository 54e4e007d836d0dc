//! A GPU context shared by a test binary's tests: a real or software adapter (llvmpipe through wgpu's GL
//! backend works on a machine with no GPU). Without any adapter the tests say they were skipped, except under
//! `CI=true`, where a missing adapter fails the run.

use gpu_gjk::gpu::{BackendChoice, ChunkLimits, GpuContext, NarrowPhase};
use std::sync::{Mutex, MutexGuard, OnceLock};

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

/// The GPU tests of one binary take turns: wgpu's OpenGL backend panics ("Could not lock adapter context")
/// when a thread waits more than 6 s for the context that another thread's long llvmpipe dispatch holds, which
/// happens on a loaded 2-core machine. Hold the guard for the whole test.
pub fn exclusive() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// One narrow phase per test binary: tests take turns on it.
pub fn with_narrow_phase(limits: Option<ChunkLimits>, f: impl FnOnce(&mut NarrowPhase)) {
    let Some(ctx) = context() else { return };
    let _guard = exclusive();
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
