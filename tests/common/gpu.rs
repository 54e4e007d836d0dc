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
