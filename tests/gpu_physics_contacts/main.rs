//! The GPU physics' contact pass against hand-computed manifolds and the CPU's, on every backend there is
//! (OpenGL and Vulkan: llvmpipe and lavapipe without a GPU). The host uploads bodies, a pair list and a count
//! buffer as the broad phase leaves them. Without any adapter these tests say they were skipped, except under
//! `CI=true`, where a missing adapter fails the run.
//!
//! - `scene`: the harness (bodies, pairs, the count and the capacity up; every slot back, checked on the CPU);
//! - `hand`: a box resting on a slab, hand-computed, and the hostile pairs in both orders;
//! - `slots`: pairs with no contact, slots the pass must leave alone, named failures, refused shapes;
//! - `seeded`: seeded pairs in both orders, and a pile through the GPU broad phase's own buffers.

#[path = "../common/mod.rs"]
mod common;
mod hand;
mod scene;
mod seeded;
mod slots;
