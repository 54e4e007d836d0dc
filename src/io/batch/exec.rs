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

    /// How many threads a map runs on.
    pub fn threads(&self) -> usize {
        match self {
            Executor::Single => 1,
            Executor::Global => rayon::current_num_threads(),
            Executor::Pool(pool) => pool.current_num_threads(),
        }
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

    /// `(0..n).map(f).collect()`, in parallel unless single-threaded; the order is kept. For a map over
    /// rows of columns, where there is no slice of items to hand out.
    pub fn map_range<U, F>(&self, n: usize, f: F) -> Vec<U>
    where
        U: Send,
        F: Fn(usize) -> U + Sync + Send,
    {
        let parallel = || {
            (0..n)
                .into_par_iter()
                .with_min_len(MIN_CHUNK)
                .map(&f)
                .collect()
        };
        match self {
            Executor::Single => (0..n).map(&f).collect(),
            Executor::Global => parallel(),
            Executor::Pool(pool) => pool.install(parallel),
        }
    }

    /// Runs `f` on every item, in parallel unless single-threaded (one item at a time per thread): for
    /// work split into blocks that each write their own slices of shared outputs.
    pub fn for_each<T, F>(&self, items: Vec<T>, f: F)
    where
        T: Send,
        F: Fn(T) + Sync + Send,
    {
        let parallel = |items: Vec<T>| items.into_par_iter().for_each(&f);
        match self {
            Executor::Single => items.into_iter().for_each(&f),
            Executor::Global => parallel(items),
            Executor::Pool(pool) => pool.install(|| parallel(items)),
        }
    }

    /// [`Executor::map`] appended to `out`: written in place (rayon's indexed extend keeps the order), so
    /// a caller that gathers many maps does not allocate, fill, copy and free a vector for each.
    pub fn map_into<T, U, F>(&self, items: &[T], f: F, out: &mut Vec<U>)
    where
        T: Sync,
        U: Send,
        F: Fn(&T) -> U + Sync + Send,
    {
        let parallel = |out: &mut Vec<U>| {
            out.par_extend(items.par_iter().with_min_len(MIN_CHUNK).map(&f));
        };
        match self {
            Executor::Single => out.extend(items.iter().map(&f)),
            Executor::Global => parallel(out),
            Executor::Pool(pool) => pool.install(|| parallel(out)),
        }
    }
}

/// Most threads `--threads` may ask for per core: beyond the cores a pool only adds switching, and a
/// mistyped count (`--threads 1000000000`) would otherwise spend minutes starting threads.
const MAX_THREADS_PER_CORE: usize = 8;

/// The cores rayon would use for `--threads 0`.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Parses `--threads`: a whole number from 0 (all cores) to `MAX_THREADS_PER_CORE` times the cores.
pub fn parse_threads(text: &str) -> Result<usize, String> {
    let digits = text.trim();
    let max = MAX_THREADS_PER_CORE * cores();
    let too_many = || {
        format!(
            "{digits} threads is more than {MAX_THREADS_PER_CORE} per core ({max} on this machine's {} cores); \
             0 uses every core",
            cores()
        )
    };
    let n: usize = match digits.parse() {
        Ok(n) => n,
        // Digits too many for the type are over the cap too, not "not a number".
        Err(_) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            return Err(too_many())
        }
        Err(_) => return Err(format!("'{text}' is not a whole number")),
    };
    if n > max {
        return Err(too_many());
    }
    Ok(n)
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
    fn thread_counts_are_capped_per_core() {
        assert_eq!(parse_threads("0"), Ok(0));
        assert_eq!(parse_threads("3"), Ok(3));
        let max = MAX_THREADS_PER_CORE * cores();
        assert_eq!(parse_threads(&max.to_string()), Ok(max));
        let refused = parse_threads(&(max + 1).to_string()).unwrap_err();
        assert!(refused.contains("per core"), "{refused}");
        assert!(parse_threads("1000000000").is_err());
        assert!(parse_threads("-1").is_err());
        let beyond_the_type = parse_threads("18446744073709551616").unwrap_err();
        assert!(beyond_the_type.contains("per core"), "{beyond_the_type}");
        let not_a_number = parse_threads("three").unwrap_err();
        assert!(
            not_a_number.contains("not a whole number"),
            "{not_a_number}"
        );
    }

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
