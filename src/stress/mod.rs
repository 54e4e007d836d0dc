//! The stress test's per-frame collision pipeline on the seeded scene ([`crate::scenario::stress`]): each
//! body's state from the frame's answers, and the push-apart response. Kept free of windows and rendering so it
//! can be tested on any machine.

mod frame;
mod response;

pub use crate::scenario::stress::{check_template, StressScene, StressSpec};
pub use frame::{classify_bodies, BodyState};
pub use response::{separate, ResponseStats};
