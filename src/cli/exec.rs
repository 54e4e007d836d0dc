//! Runs an order-preserving map over a slice in one of the [`Threads`] modes, so that parsing and the GJK
//! batch honour `--threads` the same way.

use crate::batch::Threads;
use anyhow::Context;
use rayon::prelude::*;

/// Items per rayon task: one GJK query or one parsed line is a few microseconds, too little to hand out
/// one at a time.
const MIN_CHUNK: usize = 64;

pub enum Executor {
    Single,
    Global,
    Pool(rayon::ThreadPool),
}

impl Executor {
    /// Builds the dedicated pool for [`Threads::Count`] once, to be reused by every map.
    pub fn new(threads: Threads) -> anyhow::Result<Self> {
        Ok(match threads {
            Threads::Single => Executor::Single,
            Threads::All => Executor::Global,
            Threads::Count(n) => Executor::Pool(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n.max(1))
                    .build()
                    .with_context(|| format!("cannot start a pool of {n} threads"))?,
            ),
        })
    }

    /// `items.iter().map(f).collect()`, in parallel unless single-threaded; the order is kept.
    pub fn map<T, U, F>(&self, items: &[T], f: F) -> Vec<U>
    where
        T: Sync,
        U: Send,
        F: Fn(&T) -> U + Sync + Send,
    {
        let parallel = || items.par_iter().with_min_len(MIN_CHUNK).map(&f).collect();
        match self {
            Executor::Single => items.iter().map(&f).collect(),
            Executor::Global => parallel(),
            Executor::Pool(pool) => pool.install(parallel),
        }
    }
}

/// `--threads N`: 0 means all cores, 1 one thread without rayon, more a dedicated pool.
pub fn threads_from_count(n: usize) -> Threads {
    match n {
        0 => Threads::All,
        1 => Threads::Single,
        n => Threads::Count(n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mode_keeps_order() {
        let items: Vec<u32> = (0..1000).collect();
        for n in [0, 1, 3] {
            let exec = Executor::new(threads_from_count(n)).unwrap();
            assert_eq!(
                exec.map(&items, |x| x * 2),
                (0..2000).step_by(2).collect::<Vec<_>>()
            );
        }
    }
}
