//! The runner every fuzz test shares: proptest's `TestRunner` with shrinking, a short fixed-seed budget in
//! CI, rounds of new seeds for `FUZZ_SECONDS` (`FUZZ_SEED` fixes the first), a panic turned into a failure of
//! its case, and the triage of what may fail a run.
//!
//! The library bugs the fuzzer has found are pinned by regression tests ([`crate::reproducers`],
//! [`crate::long_runs`]), one minimal reproducer each. While a new bug is open it may be listed in
//! [`KNOWN_BUGS`] with its reproducer ignored: a problem that matches one is counted and printed (`KNOWN BUG
//! ...: hit by N case(s)`) instead of failing the test, so the fuzzer keeps looking for others. None is open.
//! In a long run a named failure status (an honest `unresolved` or `epa_degenerate`, not a wrong answer) is
//! counted by family and printed as a rate at the end (`NAMED FAILURE STATUS (n in N cases)`) instead of
//! ending the run; the CI budget fails on it. `FUZZ_STRICT=1` fails on known bugs and failure statuses too;
//! `FUZZ_ONLY=text` fails only on problems whose line contains `text` (to shrink one kind of failure at a
//! time).

use crate::checks::{check_case, excess_ratio};
use crate::model::Case;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestError, TestRunner};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// Cases per seed when looping for `FUZZ_SECONDS`.
const ROUND_CASES: u32 = 2000;

/// A library bug the fuzzer has found and an ignored test pins (named by `reproducer`): problem lines that
/// contain one of `patterns`, on a case whose label contains one of `families` (any family when empty), are
/// counted and printed at the end instead of failing the test. `FUZZ_STRICT=1` fails on them too. Delete the
/// entry when the bug is fixed.
struct KnownBug {
    reproducer: &'static str,
    families: &'static [&'static str],
    patterns: &'static [&'static str],
    /// For numeric problems: excused only up to this many times what is allowed (a gross error of the same
    /// kind still fails).
    max_excess: Option<f64>,
}

const KNOWN_BUGS: &[KnownBug] = &[];

/// Splits a failure report into what may fail the test: `None` when every problem is a known bug (counted
/// in `known`) or, with `FUZZ_ONLY=text`, does not contain that text (to shrink one kind of failure at a
/// time).
/// In a long run (`FUZZ_SECONDS`, not `FUZZ_STRICT`) a named failure status (`unresolved`, `epa_degenerate`,
/// ...) is an honest "no answer", not a wrong one: it is counted in `statuses` by family and printed as a rate
/// at the end, so the run goes on looking for wrong answers. The CI budget fails on it.
fn triage(
    report: &str,
    known: &Mutex<BTreeMap<&'static str, u64>>,
    statuses: &Mutex<BTreeMap<String, u64>>,
) -> Option<String> {
    let strict = std::env::var("FUZZ_STRICT").is_ok_and(|v| v == "1");
    let count_statuses = !strict && env_f64("FUZZ_SECONDS").is_some();
    let only = std::env::var("FUZZ_ONLY").ok().filter(|s| !s.is_empty());
    let (mut header, mut out, mut unexpected) = ("", String::new(), false);
    let mut hit: Vec<&'static str> = Vec::new();
    for line in report.lines() {
        if !line.starts_with("  ") {
            header = line;
            let _ = writeln!(out, "{line}");
            continue;
        }
        if only.as_deref().is_some_and(|o| !line.contains(o)) {
            continue;
        }
        if count_statuses && line.contains("failure status ") {
            let family = header.split(':').next().unwrap_or(header);
            let mut st = statuses.lock().unwrap_or_else(|e| e.into_inner());
            *st.entry(format!("{family} {}", line.trim())).or_default() += 1;
            let _ = writeln!(out, "{line}   [named failure status, counted]");
            continue;
        }
        let bug = KNOWN_BUGS.iter().find(|b| {
            (b.families.is_empty() || b.families.iter().any(|f| header.contains(f)))
                && b.patterns.iter().any(|p| line.contains(p))
                && b.max_excess
                    .is_none_or(|m| excess_ratio(line).is_some_and(|r| r <= m))
        });
        match bug {
            Some(b) if !strict => {
                if !hit.contains(&b.reproducer) {
                    hit.push(b.reproducer);
                }
                let _ = writeln!(out, "{line}   [known bug: {}]", b.reproducer);
            }
            _ => {
                unexpected = true;
                let _ = writeln!(out, "{line}");
            }
        }
    }
    let mut k = known.lock().unwrap_or_else(|e| e.into_inner());
    for r in hit {
        *k.entry(r).or_default() += 1;
    }
    unexpected.then_some(out)
}

thread_local! {
    /// Set while this thread runs a check: a panic is then recorded here (message and place) instead of
    /// printed, and reported as a problem of the case (proptest re-runs failing cases many times while
    /// shrinking; printing every panic would bury the minimal case).
    static CAPTURE: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Runs `check`, turning a panic (the library's or a referee's) into an `Err` that names it.
fn catching(check: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let captured = CAPTURE.with(|c| {
                let mut c = c.borrow_mut();
                c.as_mut().map(|slot| {
                    *slot = format!("{info}");
                })
            });
            if captured.is_none() {
                default(info);
            }
        }));
    });
    CAPTURE.with(|c| *c.borrow_mut() = Some(String::new()));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(check));
    let message = CAPTURE.with(|c| c.borrow_mut().take()).unwrap_or_default();
    match result {
        Ok(r) => r,
        Err(_) => Err(format!(
            "a panic while checking the case\n  panicked: {}",
            message.replace('\n', " ")
        )),
    }
}

fn env_f64(name: &str) -> Option<f64> {
    std::env::var(name).ok().and_then(|s| s.trim().parse().ok())
}

/// Runs `check` on cases from `strategy`: `ci_cases` with a fixed seed, or rounds of new seeds until
/// `FUZZ_SECONDS` elapse. Panics with the seed and the shrunk input on the first failure. `family` names the
/// counter a case is tallied under.
pub(crate) fn fuzz<S>(
    name: &str,
    strategy: S,
    ci_cases: u32,
    round_cases: u32,
    family: impl Fn(&S::Value) -> Vec<String>,
    check: impl Fn(&S::Value) -> Result<(), String>,
) where
    S: Strategy,
    S::Value: std::fmt::Debug,
{
    let seconds = env_f64("FUZZ_SECONDS");
    let fixed = std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok());
    let name_hash = name.bytes().fold(0xcbf29ce484222325u64, |h, c| {
        (h ^ c as u64).wrapping_mul(0x100000001b3)
    });
    let first_seed = match (fixed, seconds) {
        (Some(s), _) => s,
        (None, Some(_)) => SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1),
        (None, None) => 20260514 ^ name_hash,
    };
    let counts: Mutex<BTreeMap<String, u64>> = Mutex::new(BTreeMap::new());
    let known: Mutex<BTreeMap<&'static str, u64>> = Mutex::new(BTreeMap::new());
    let statuses: Mutex<BTreeMap<String, u64>> = Mutex::new(BTreeMap::new());
    let start = Instant::now();
    let (mut total, mut rounds) = (0u64, 0u64);
    loop {
        let seed = first_seed.wrapping_add(rounds);
        let cases = if seconds.is_some() {
            round_cases
        } else {
            ci_cases
        };
        let config = Config {
            cases,
            failure_persistence: None,
            rng_seed: RngSeed::Fixed(seed),
            max_shrink_time: 120_000,
            max_shrink_iters: 20_000,
            ..Config::default()
        };
        let mut runner = TestRunner::new(config);
        let result = runner.run(&strategy, |value| {
            let mut c = counts.lock().unwrap_or_else(|e| e.into_inner());
            for f in family(&value) {
                *c.entry(f).or_default() += 1;
            }
            drop(c);
            match catching(|| check(&value)) {
                Ok(()) => Ok(()),
                Err(report) => match triage(&report, &known, &statuses) {
                    None => Ok(()),
                    Some(report) => Err(TestCaseError::fail(report)),
                },
            }
        });
        match result {
            Ok(()) => {}
            Err(TestError::Fail(reason, minimal)) => panic!(
                "{name}: seed {seed} (FUZZ_SEED={seed} reproduces it) failed after {total} earlier cases.\n\
                 {reason}\nminimal failing input (after shrinking):\n{minimal:?}"
            ),
            Err(TestError::Abort(reason)) => panic!("{name}: seed {seed}: aborted: {reason}"),
        }
        total += cases as u64;
        rounds += 1;
        if seconds.is_none_or(|s| start.elapsed().as_secs_f64() >= s) {
            break;
        }
    }
    let mut summary = String::new();
    for (family, n) in counts.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        let _ = write!(summary, "\n    {family}: {n}");
    }
    for (bug, n) in known.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        let _ = write!(summary, "\n    KNOWN BUG {bug}: hit by {n} case(s)");
    }
    for (line, n) in statuses.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        let _ = write!(
            summary,
            "\n    NAMED FAILURE STATUS ({n} in {total} cases, shrink runs included): {line}"
        );
    }
    eprintln!(
        "fuzz {name}: {total} cases passed over {rounds} seed(s) from {first_seed} in {:.1} s; \
         cases drawn by family (shrink runs included):{summary}",
        start.elapsed().as_secs_f64()
    );
}

pub(crate) fn fuzz_cases<S: Strategy<Value = Case>>(name: &str, strategy: S, ci_cases: u32) {
    fuzz(
        name,
        strategy,
        ci_cases,
        ROUND_CASES,
        |c: &Case| vec![c.label.clone()],
        check_case,
    );
}
