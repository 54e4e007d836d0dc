//! The demo's per-frame pipeline tested without a window: the program's own modules, so its tests live here
//! rather than under tests/.

/// The test helpers' shared GPU context (one per test binary, tests taking turns on it).
#[path = "../../../tests/common/gpu.rs"]
mod gpu_common;

mod marks;
mod sim;
