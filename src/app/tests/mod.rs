//! The demo's per-frame pipeline tested without a window: the program's own modules, so its tests live here
//! rather than under tests/.

mod broad;
mod device_feed;
mod gpu_scene;
mod inspector;
mod marks;
mod physics;
mod sim;

use crate::gpu::{BackendChoice, GpuContext};
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
