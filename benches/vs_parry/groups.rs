//! The `groups` mode: single-thread throughput of the CPU reference GJK against parry3d (f32) on the same seeded
//! pairs, one group of scenes per mix of shape kinds, under criterion.
//!
//! `cargo bench --no-default-features --features scenario --bench vs_parry -- groups` (add criterion's
//! arguments: `groups --quick` for a short run, or a filter such as `groups distance/hull64`). Ids are
//! `{intersection,distance,penetration}/{group}/{implementation}`; criterion
//! reports elements/s, one element being one pair. `penetration` runs depth, normal and contact points (our
//! GJK + EPA against parry3d's `contact`) on the group's overlapping pairs only.
//!
//! Each group is a seeded `random_scene` restricted to one mix of shape kinds, with hull clouds of a fixed
//! point count. Both implementations see the same geometry: the scene's shapes are reduced to their hull
//! vertices (`ConvexShape::hull`) for `gpu_gjk`, and parry3d gets `ConvexPolyhedron::from_convex_hull` of
//! the same points (wrapped in `RoundShape` when there is a radius), `Ball` for spheres and `Capsule` for
//! capsules. For the hull groups, `gpu_gjk_raw` also runs the scene's unreduced clouds (interior points and
//! duplicates included), which is what the batch and the GPU receive. All shapes are built once, outside the
//! timed loops.

use crate::one_pair as query;
use crate::pairs::{reduced_scene, to_parry, Pair};
use criterion::{Criterion, Throughput};
use gpu_gjk::gjk::{GjkConfig, QueryKind};
use gpu_gjk::scenario::{random_scene, MixSpec, ShapeKind};
use gpu_gjk::ConvexShape;
use parry3d::shape::Shape;
use std::hint::black_box;
use std::time::Duration;

const PAIRS: usize = 1000;
const SEED: u64 = 20_240_611;
/// Shape sizes (bounding radii) drawn in this range. About unit size: parry3d's float32 GJK uses absolute
/// tolerances, and on the default mix's small shapes (down to 1e-2) it stops early with distances off by
/// several percent, which would not be a like-for-like comparison.
const SCALE: (f32, f32) = (0.5, 2.0);

struct GroupSpec {
    name: &'static str,
    kinds: &'static [ShapeKind],
    hull_points: usize,
}

const GROUPS: [GroupSpec; 8] = [
    GroupSpec {
        name: "box",
        kinds: &[ShapeKind::Box],
        hull_points: 8,
    },
    GroupSpec {
        name: "sphere",
        kinds: &[ShapeKind::Sphere],
        hull_points: 8,
    },
    GroupSpec {
        name: "capsule",
        kinds: &[ShapeKind::Capsule],
        hull_points: 8,
    },
    GroupSpec {
        name: "cylinder_cone",
        kinds: &[ShapeKind::Cylinder, ShapeKind::Cone],
        hull_points: 8,
    },
    GroupSpec {
        name: "hull16",
        kinds: &[ShapeKind::Hull],
        hull_points: 16,
    },
    GroupSpec {
        name: "hull64",
        kinds: &[ShapeKind::Hull],
        hull_points: 64,
    },
    GroupSpec {
        name: "hull256",
        kinds: &[ShapeKind::Hull],
        hull_points: 256,
    },
    GroupSpec {
        name: "hull512",
        kinds: &[ShapeKind::Hull],
        hull_points: 512,
    },
];

struct Prepared {
    name: &'static str,
    is_hull: bool,
    /// The scene's shapes as drawn (unreduced clouds for hulls).
    raw: Vec<ConvexShape>,
    /// The same shapes reduced to their hull vertices: what parry3d gets too.
    reduced: Vec<ConvexShape>,
    parry: Vec<Box<dyn Shape>>,
    pairs: Vec<Pair>,
}

fn prepare(spec: &GroupSpec) -> Prepared {
    let mix = MixSpec {
        kinds: spec.kinds.to_vec(),
        hull_points: (spec.hull_points, spec.hull_points),
        scale: SCALE,
        ..MixSpec::default()
    };
    let scene = random_scene(SEED, PAIRS, &mix);
    let (reduced, pairs) = reduced_scene(&scene);
    let parry = reduced.iter().map(to_parry).collect();
    Prepared {
        name: spec.name,
        is_hull: spec.kinds == [ShapeKind::Hull],
        raw: scene.shapes,
        reduced,
        parry,
        pairs,
    }
}

/// Runs every pair once with both libraries and prints how far they agree (intersection flags, and
/// distances against the float64 reference `query::query_f64`), so that a speed comparison between different
/// answers would be noticed.
fn report_agreement(p: &Prepared) {
    let config = GjkConfig::default();
    let mean_points = |shapes: &[ConvexShape]| {
        p.pairs
            .iter()
            .map(|q| (shapes[q.a].len() + shapes[q.b].len()) as f64 / 2.0)
            .sum::<f64>()
            / p.pairs.len() as f64
    };
    let (mut flag_diff, mut overlapping) = (0, 0);
    let (mut ours_err, mut parry_err) = (0.0f64, 0.0f64);
    for q in &p.pairs {
        let (a, b) = (&p.reduced[q.a], &p.reduced[q.b]);
        let (pa, pb) = (p.parry[q.a].as_ref(), p.parry[q.b].as_ref());
        let scale = a.bounding_radius().max(b.bounding_radius()) as f64;
        let reference = query::query_f64(
            a,
            &q.pose_a.to_f64(),
            b,
            &q.pose_b.to_f64(),
            QueryKind::Distance,
            &config,
        )
        .distance;
        let ours = query::query(a, &q.pose_a, b, &q.pose_b, QueryKind::Distance, &config);
        let theirs = parry3d::query::distance(&q.parry_a, pa, &q.parry_b, pb)
            .expect("supported pair")
            .distance;
        ours_err = ours_err.max((ours.distance as f64 - reference).abs() / scale);
        parry_err = parry_err.max((theirs as f64 - reference).abs() / scale);
        let ours_hit = query::query(a, &q.pose_a, b, &q.pose_b, QueryKind::Intersection, &config);
        let parry_hit = parry3d::query::intersection_test(&q.parry_a, pa, &q.parry_b, pb)
            .expect("supported pair")
            .intersecting;
        overlapping += usize::from(ours_hit.intersecting);
        // Pairs within the touching tolerance may legitimately differ.
        if ours_hit.intersecting != parry_hit && reference > 1e-4 * scale {
            flag_diff += 1;
        }
    }
    eprintln!(
        "{}: {} pairs, {} intersecting; mean points per shape {:.1}{}; intersection flags differing \
         away from contact: {}; max |distance - f64 reference| / scale: gpu_gjk {:.1e}, parry3d {:.1e}",
        p.name,
        p.pairs.len(),
        overlapping,
        mean_points(&p.reduced),
        if p.is_hull {
            format!(" ({:.1} raw)", mean_points(&p.raw))
        } else {
            String::new()
        },
        flag_diff,
        ours_err,
        parry_err
    );
}

fn run_ours(shapes: &[ConvexShape], pairs: &[Pair], kind: QueryKind, config: &GjkConfig) -> f32 {
    let mut acc = 0.0f32;
    for q in pairs {
        let r = query::query(
            black_box(&shapes[q.a]),
            &q.pose_a,
            &shapes[q.b],
            &q.pose_b,
            kind,
            config,
        );
        acc += match kind {
            QueryKind::Intersection => f32::from(u8::from(r.intersecting)),
            QueryKind::Distance => r.distance,
        };
    }
    acc
}

fn run_parry(p: &Prepared, kind: QueryKind) -> f32 {
    let mut acc = 0.0f32;
    for q in &p.pairs {
        let (a, b) = (black_box(p.parry[q.a].as_ref()), p.parry[q.b].as_ref());
        acc += match kind {
            QueryKind::Intersection => {
                let hit = parry3d::query::intersection_test(&q.parry_a, a, &q.parry_b, b)
                    .expect("supported pair")
                    .intersecting;
                f32::from(u8::from(hit))
            }
            QueryKind::Distance => {
                parry3d::query::distance(&q.parry_a, a, &q.parry_b, b)
                    .expect("supported pair")
                    .distance
            }
        };
    }
    acc
}

/// Indices of the pairs that overlap (by our GJK): the penetration groups run on these.
fn overlapping(p: &Prepared, config: &GjkConfig) -> Vec<usize> {
    (0..p.pairs.len())
        .filter(|&k| {
            let q = &p.pairs[k];
            let (a, b) = (&p.reduced[q.a], &p.reduced[q.b]);
            query::query(a, &q.pose_a, b, &q.pose_b, QueryKind::Intersection, config).intersecting
        })
        .collect()
}

fn run_ours_penetration(p: &Prepared, which: &[usize], config: &GjkConfig) -> f32 {
    let mut acc = 0.0f32;
    for &k in which {
        let q = &p.pairs[k];
        let (_, hit) = query::penetration_query(
            black_box(&p.reduced[q.a]),
            &q.pose_a,
            &p.reduced[q.b],
            &q.pose_b,
            config,
        );
        acc += hit.depth;
    }
    acc
}

fn run_parry_penetration(p: &Prepared, which: &[usize]) -> f32 {
    let mut acc = 0.0f32;
    for &k in which {
        let q = &p.pairs[k];
        let (a, b) = (black_box(p.parry[q.a].as_ref()), p.parry[q.b].as_ref());
        let contact =
            parry3d::query::contact(&q.parry_a, a, &q.parry_b, b, 0.0).expect("supported pair");
        acc += contact.map_or(0.0, |c| -c.dist);
    }
    acc
}

fn penetration(c: &mut Criterion, prepared: &[Prepared], config: &GjkConfig) {
    for p in prepared {
        let which = overlapping(p, config);
        if which.is_empty() {
            continue;
        }
        let mut group = c.benchmark_group(format!("penetration/{}", p.name));
        group.throughput(Throughput::Elements(which.len() as u64));
        group.bench_function("gpu_gjk", |b| {
            b.iter(|| run_ours_penetration(p, &which, config))
        });
        group.bench_function("parry3d", |b| b.iter(|| run_parry_penetration(p, &which)));
        group.finish();
    }
}

fn groups(c: &mut Criterion) {
    let config = GjkConfig::default();
    let prepared: Vec<Prepared> = GROUPS.iter().map(prepare).collect();
    for p in &prepared {
        report_agreement(p);
    }
    for (kind, kind_name) in [
        (QueryKind::Intersection, "intersection"),
        (QueryKind::Distance, "distance"),
    ] {
        for p in &prepared {
            let mut group = c.benchmark_group(format!("{kind_name}/{}", p.name));
            group.throughput(Throughput::Elements(p.pairs.len() as u64));
            group.bench_function("gpu_gjk", |b| {
                b.iter(|| run_ours(&p.reduced, &p.pairs, kind, &config))
            });
            if p.is_hull {
                group.bench_function("gpu_gjk_raw", |b| {
                    b.iter(|| run_ours(&p.raw, &p.pairs, kind, &config))
                });
            }
            group.bench_function("parry3d", |b| b.iter(|| run_parry(p, kind)));
            group.finish();
        }
    }
    penetration(c, &prepared, &config);
}

/// Runs the mode (criterion reads the process's arguments).
pub fn run() {
    let mut criterion = Criterion::default()
        .sample_size(20)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500))
        .configure_from_args();
    groups(&mut criterion);
    criterion.final_summary();
}
