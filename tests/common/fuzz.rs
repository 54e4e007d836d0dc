//! The proptest runner that `parser_fuzz` and `fuzz_hulls` share: in CI a fixed seed and a short budget; with
//! `FUZZ_SECONDS` set, rounds of new seeds until that many seconds have passed (the first seed from the clock,
//! or `FUZZ_SEED=n`, round k using n + k). A failure, a panic included, is shrunk and reported with its seed and
//! the minimal input.

use glam::DQuat;
use proptest::strategy::Strategy;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestError, TestRunner};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// How many cases a fuzz target runs.
pub struct Budget {
    /// Cases in CI, from the fixed seed.
    pub ci_cases: u32,
    /// Cases per seed in a timed run.
    pub round_cases: u32,
    /// The fixed seed of CI runs.
    pub ci_seed: u64,
}

/// Runs `check` on cases of `strategy` within `budget`; panics with the seed and the shrunk input on the first
/// failure. Returns how many cases passed.
pub fn fuzz<S>(
    name: &str,
    strategy: S,
    budget: Budget,
    check: impl Fn(&S::Value) -> Result<(), String>,
) -> u64
where
    S: Strategy,
    S::Value: std::fmt::Debug,
{
    let seconds = std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok());
    let fixed = std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok());
    let first_seed = match (fixed, seconds) {
        (Some(s), _) => s,
        (None, Some(_)) => SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64),
        (None, None) => budget.ci_seed,
    };
    let start = Instant::now();
    let (mut total, mut rounds) = (0u64, 0u64);
    loop {
        let seed = first_seed.wrapping_add(rounds);
        let cases = if seconds.is_some() {
            budget.round_cases
        } else {
            budget.ci_cases
        };
        let mut runner = TestRunner::new(Config {
            cases,
            failure_persistence: None,
            rng_seed: RngSeed::Fixed(seed),
            ..Config::default()
        });
        let result = runner.run(&strategy, |value| {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(&value)));
            match outcome {
                Ok(Ok(())) => Ok(()),
                Ok(Err(problem)) => Err(TestCaseError::fail(problem)),
                Err(_) => Err(TestCaseError::fail("panicked")),
            }
        });
        match result {
            Ok(()) => {}
            Err(TestError::Fail(reason, minimal)) => panic!(
                "{name}: seed {seed} (FUZZ_SEED={seed} reproduces it) failed after {total} earlier cases: \
                 {reason}\nminimal failing input:\n{minimal:?}"
            ),
            Err(TestError::Abort(reason)) => panic!("{name}: seed {seed}: aborted: {reason}"),
        }
        total += u64::from(cases);
        rounds += 1;
        if seconds.is_none_or(|s| start.elapsed().as_secs_f64() >= s) {
            break;
        }
    }
    eprintln!(
        "fuzz {name}: {total} cases over {rounds} seed(s) from {first_seed} in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    total
}

/// `10^U(lo, hi)`.
pub fn log_uniform(lo: f64, hi: f64) -> impl Strategy<Value = f64> + Clone {
    (lo..hi).prop_map(|e| 10f64.powf(e))
}

/// A uniformly distributed random rotation (Shoemake's method, as `gpu_gjk::scenario::random_rotation`).
pub fn uniform_rotation() -> impl Strategy<Value = DQuat> + Clone {
    (0.0..1.0f64, 0.0..1.0f64, 0.0..1.0f64).prop_map(|(u1, u2, u3)| {
        let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
        let tau = std::f64::consts::TAU;
        DQuat::from_xyzw(
            a * (tau * u2).sin(),
            a * (tau * u2).cos(),
            b * (tau * u3).sin(),
            b * (tau * u3).cos(),
        )
        .normalize()
    })
}
