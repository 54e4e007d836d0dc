//! The GPU solver (`gpu::physics::GpuSolver`) through the CPU solver's checks (src/physics/tests.rs), on every
//! backend there is (OpenGL and Vulkan: llvmpipe and lavapipe without a GPU), fed by contacts computed on the
//! CPU ([`harness`]). Without any adapter these tests say they were skipped, except under `CI=true`, where a
//! missing adapter fails the run.

#[path = "../common/mod.rs"]
mod common;
mod harness;
mod hostile;
mod inputs;
mod motion;
mod resting;
mod runs;

use common::gpu::{backend_contexts, exclusive};
use gpu_gjk::gpu::GpuContext;

/// Runs `check` on every backend's context, one test at a time.
fn on_every_backend(check: impl Fn(&str, &GpuContext)) {
    let _guard = exclusive();
    for (name, ctx) in backend_contexts() {
        check(name, ctx);
    }
}
