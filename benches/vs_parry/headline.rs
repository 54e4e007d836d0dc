//! The `criterion` mode, the default: the headline cases of [`crate::cases`] under criterion, in one run: the
//! whole random mix, big hulls (1,000, 5,000 and 20,000 vertices against a box and against each other), the cube
//! against the 482-vertex sphere asset and that sphere deep inside itself.
//!
//! `cargo bench --no-default-features --features scenario --bench vs_parry` (add criterion's arguments, such as
//! a filter: `-- distance/mix`, or `-- criterion distance/mix`). Ids are
//! `{intersection,distance,penetration}/{case}/{gpu_gjk,gpu_gjk_full,parry3d}`;
//! one element is one pair. Every kind runs on every pair of its case: `intersection` against
//! `intersection_test` (both give the flag alone: `query_bare`), `distance` against `distance` (both give the
//! distance alone: `query_bare`), `gpu_gjk_full` the whole `query` answer of those kinds (witnesses and
//! normal too), and `penetration` (distance when apart, depth, normal and contact points
//! when overlapping: what `gpu-gjk query` answers by default) against `contact` with an unlimited prediction
//! distance (which answers the same for every pair); `penetration_vs_contact0` times the same query against
//! `contact` with prediction 0, which skips the distance of a pair that is apart (see `cases::Kind`).
//!
//! Before timing, each case prints its pair count, how many overlap, the mean vertex count and each
//! library's largest distance error against gpu-gjk's float64 run, as a fraction of the pair's size.

use crate::cases::{all_cases, run_ours, run_parry, Case, Kind};
use crate::one_pair as query;
use criterion::{Criterion, Throughput};
use gpu_gjk::gjk::{GjkConfig, QueryKind};
use std::time::Duration;

/// Prints what the case is and how far each library's distances are from gpu-gjk's float64 run, so that a
/// speed comparison between different answers would be noticed.
fn report(case: &Case) {
    let config = GjkConfig::default();
    let (mut overlapping, mut ours_err, mut parry_err, mut points) = (0, 0.0f64, 0.0f64, 0.0);
    for q in &case.pairs {
        let (a, b) = (&case.shapes[q.a], &case.shapes[q.b]);
        let scale = a.bounding_radius().max(b.bounding_radius()) as f64;
        let (pose_a, pose_b) = (q.pose_a.to_f64(), q.pose_b.to_f64());
        let reference = query::query_f64(a, &pose_a, b, &pose_b, QueryKind::Distance, &config);
        let ours = query::query(a, &q.pose_a, b, &q.pose_b, QueryKind::Distance, &config);
        let (pa, pb) = (case.parry[q.a].as_ref(), case.parry[q.b].as_ref());
        let theirs = parry3d::query::distance(&q.parry_a, pa, &q.parry_b, pb).expect("supported");
        overlapping += usize::from(reference.intersecting);
        ours_err = ours_err.max((ours.distance as f64 - reference.distance).abs() / scale);
        parry_err = parry_err.max((theirs.distance as f64 - reference.distance).abs() / scale);
        points += (a.len() + b.len()) as f64 / 2.0;
    }
    eprintln!(
        "{}: {} pairs, {} overlapping, mean vertices per shape {:.0}; max |distance - f64| / scale: \
         gpu_gjk {:.1e}, parry3d {:.1e}",
        case.name,
        case.pairs.len(),
        overlapping,
        points / case.pairs.len() as f64,
        ours_err,
        parry_err
    );
}

fn vs_parry(c: &mut Criterion) {
    let config = GjkConfig::default();
    let cases = all_cases();
    check_filter(&cases);
    for case in &cases {
        report(case);
    }
    for (kind, kind_name) in Kind::ALL {
        for case in &cases {
            let mut group = c.benchmark_group(format!("{kind_name}/{}", case.name));
            group.throughput(Throughput::Elements(case.pairs.len() as u64));
            group.bench_function("gpu_gjk", |b| {
                b.iter(|| run_ours(case, kind, false, &config))
            });
            if has_full_answer(kind) {
                group.bench_function("gpu_gjk_full", |b| {
                    b.iter(|| run_ours(case, kind, true, &config))
                });
            }
            group.bench_function("parry3d", |b| b.iter(|| run_parry(case, kind)));
            group.finish();
        }
    }
}

/// Whether the kind times `gpu_gjk_full` too: the penetration query has one answer only.
fn has_full_answer(kind: Kind) -> bool {
    matches!(kind, Kind::Intersection | Kind::Distance)
}

/// Stops with the modes when the first argument is a plain word (no flag, no regular expression) that no id
/// contains: most likely a mistyped mode, for which criterion would run nothing and say nothing.
fn check_filter(cases: &[Case]) {
    let Some(filter) = std::env::args().nth(1) else {
        return;
    };
    let plain = |c: char| c.is_alphanumeric() || c == '_' || c == '/';
    if filter.starts_with('-') || !filter.chars().all(plain) {
        return;
    }
    let matches = Kind::ALL.iter().any(|&(kind, kind_name)| {
        let implementations = ["gpu_gjk", "gpu_gjk_full", "parry3d"]
            .into_iter()
            .filter(|&name| name != "gpu_gjk_full" || has_full_answer(kind));
        cases.iter().any(|case| {
            implementations
                .clone()
                .any(|name| format!("{kind_name}/{}/{name}", case.name).contains(&filter))
        })
    });
    if !matches {
        crate::usage_error(&format!(
            "{filter:?} is no mode, and no headline benchmark id contains it"
        ));
    }
}

/// Runs the mode (criterion reads the process's arguments).
pub fn run() {
    let mut criterion = Criterion::default()
        .sample_size(10)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500))
        .configure_from_args();
    vs_parry(&mut criterion);
    criterion.final_summary();
}
