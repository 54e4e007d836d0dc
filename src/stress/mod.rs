//! The stress-test scene behind the desktop app: seeded convex bodies moving and spinning inside a box,
//! and the per-frame collision pipeline (broad phase, narrow phase, per-body state) it runs. Kept free of
//! windows and rendering so it can be tested and benchmarked on any machine.

mod frame;
mod response;
mod scene;

pub use frame::{classify_bodies, BodyState, FrameCollisions};
pub use response::{separate, ResponseStats};
pub use scene::{check_template, Body, SceneError, StressScene, StressSpec};
