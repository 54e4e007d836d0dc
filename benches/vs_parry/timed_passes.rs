//! Timing passes over pairs in alternation, for the `paired` and `classes` modes (and the harness of
//! `scripts/old_new.sh`): a pass repeated until it lasts long enough to time, both sides' passes alternated.

use crate::alternation::{alternate, quantile, sorted};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// A pass shorter than this is repeated within the round (a pass over 200 pairs of big hulls takes a few
/// hundred microseconds for gpu-gjk, where the timer's and the scheduler's noise shows).
pub const MIN_PASS: Duration = Duration::from_millis(3);

/// Seconds per pass of `run`, repeated `reps` times.
fn timed(reps: usize, mut run: impl FnMut() -> f32) -> f64 {
    let start = Instant::now();
    for _ in 0..reps {
        black_box(run());
    }
    start.elapsed().as_secs_f64() / reps as f64
}

/// How many passes of `run` make a timing at least [`MIN_PASS`] long (each library gets its own count, so
/// the faster one's timing is not a single short pass).
fn reps_for(run: impl FnMut() -> f32) -> usize {
    ((MIN_PASS.as_secs_f64() / timed(1, run)).ceil() as usize).max(1)
}

/// Two libraries' passes over the same `pairs` pairs, timed in alternation: per-pair medians (µs) over the
/// rounds and the median per-round ratio (their time over ours) with its quartiles.
pub struct Alternated {
    pub ours_us: f64,
    pub parry_us: f64,
    /// Lower quartile, median and upper quartile.
    pub ratio: [f64; 3],
}

/// `rounds` rounds of one pass of `ours` and one of `theirs` over `pairs` pairs, each repeated to last
/// [`MIN_PASS`].
pub fn alternated(
    pairs: usize,
    rounds: usize,
    ours: impl FnMut() -> f32 + Copy,
    theirs: impl FnMut() -> f32 + Copy,
) -> Alternated {
    let (ours_reps, theirs_reps) = (reps_for(ours), reps_for(theirs));
    let rounds = alternate(
        rounds,
        || timed(ours_reps, ours),
        || timed(theirs_reps, theirs),
    );
    let median =
        |side: fn(&(f64, f64)) -> f64| quantile(&sorted(rounds.iter().map(side).collect()), 0.5);
    let ratios = sorted(rounds.iter().map(|(o, p)| p / o).collect());
    let per_pair_us = 1e6 / pairs as f64;
    Alternated {
        ours_us: median(|r| r.0) * per_pair_us,
        parry_us: median(|r| r.1) * per_pair_us,
        ratio: [0.25, 0.5, 0.75].map(|q| quantile(&ratios, q)),
    }
}
