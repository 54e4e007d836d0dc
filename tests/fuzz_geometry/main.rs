//! Property-based geometry fuzzer (proptest, with shrinking): thin slabs, needles, point sets written far from
//! their local origin, coordinates near the 1e9 limit, and identical, nested, tiny and huge shapes. Every pair
//! runs in both orders through `gjk::query` (float32 world poses, as the GPU forms them), `gjk::query_relative`
//! (the relative pose formed in float64; both query kinds), `gjk::query_f64` and `gjk::penetration_query`, and
//! is judged against the exact float64 referees of `common/exact.rs` (closed forms for boxes and points, the
//! separating-axis test for two boxes, Wolfe's minimum-norm point of the explicit Minkowski difference for
//! anything else). A separate test sends batches of generated pairs through the GPU (OpenGL and Vulkan).
//!
//! CI runs a short, fixed-seed budget (the whole target well under a minute). To fuzz for as long as wanted:
//!
//! ```text
//! FUZZ_SECONDS=600 cargo test --release --test fuzz_geometry -- --nocapture
//! ```
//!
//! Each fuzz test then loops over new seeds until 600 s have passed; without `FUZZ_SEED` the first seed is
//! drawn from the clock, `FUZZ_SEED=n` fixes it (round k uses n + k; with `FUZZ_SECONDS` unset it replaces the
//! CI seed). Each test prints its seeds and its case counts by family. A failure prints the seed and the
//! minimal (shrunk) pair as Rust source (shapes as points and radius, poses in float64) with every problem
//! found. One test alone: add its name, e.g. `-- needles --nocapture`. `FUZZ_STRICT=1` and `FUZZ_ONLY=text`
//! change what fails a run (see [`runner`]).
//!
//! How the modules fit, from the shapes up:
//! - [`model`]: the shapes and pairs the generators draw ([`model::Solid`], [`model::Case`]);
//! - [`truth`]: the exact answer for one ordered pair ([`truth::Truth`], from the referees), and the tests
//!   of those referees against closed forms;
//! - [`answers`]: every CPU entry point on one ordered pair, answers widened to float64;
//! - [`checks`]: the properties required of every answer, and of the two orders and the twin of a pair;
//! - [`runner`]: proptest's runner with shrinking, the CI budget, `FUZZ_SECONDS` and the triage of known bugs
//!   and named failure statuses;
//! - [`generators`]: the hostile families (generators 1 to 5) and their building blocks;
//! - [`cpu`]: one CPU fuzz test per family; [`gpu`]: the GPU fuzz test on every backend; [`manifolds`]: the
//!   contact manifold on every family;
//! - [`small_far`] and [`round_hulls`]: families with their own referees (small shapes far from the origin
//!   through `query`'s reader; round hulls at one centre against the support functions);
//! - [`reproducers`] and [`long_runs`]: the library bugs the fuzzer found, one minimal reproducer each (found
//!   by the CI budget and by long runs), now regression tests.

#[path = "../common/mod.rs"]
mod common;

mod answers;
mod checks;
mod cpu;
mod generators;
mod gpu;
mod long_runs;
mod manifolds;
mod model;
mod reproducers;
mod round_hulls;
mod runner;
mod small_far;
mod truth;

/// The library's default touching tolerance, as a fraction of the pair scale.
const TOUCH: f64 = 1e-5;
/// Agreement band and distance tolerance, as a fraction of the pair scale.
const BAND: f64 = 1e-4;
/// Penetration depth tolerance, as a fraction of the pair scale.
const DEPTH: f64 = 1e-3;
/// Largest position or box half extent the generators write: the library's limit is 1e9.
const LIMIT: f64 = 9e8;
const EPS32: f64 = f32::EPSILON as f64;
const EPS64: f64 = f64::EPSILON;
