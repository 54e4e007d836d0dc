//! Two things timed in alternation, for the benches that compare them on a shared machine whose speed drifts
//! (by a third or more within a minute on this project's dev VMs): each round times both back to back, which
//! goes first alternating, so the two figures of a round see the same machine; the figure to quote is then a
//! quantile of the per-round figures.

/// `rounds` rounds of `first` and `second` (each returns the seconds it took), as `(first, second)` pairs.
pub fn alternate(
    rounds: usize,
    mut first: impl FnMut() -> f64,
    mut second: impl FnMut() -> f64,
) -> Vec<(f64, f64)> {
    (0..rounds)
        .map(|round| {
            if round % 2 == 0 {
                let a = first();
                (a, second())
            } else {
                let b = second();
                (first(), b)
            }
        })
        .collect()
}

/// `values` in increasing order.
pub fn sorted(mut values: Vec<f64>) -> Vec<f64> {
    values.sort_by(f64::total_cmp);
    values
}

/// The value at fraction `q` of `sorted` values (nearest rank).
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}
