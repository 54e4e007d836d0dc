//! The `manifolds` mode: gpu-gjk's contact manifolds (`gpu_gjk::manifold`, float32 as the front door answers by
//! default) against parry3d-f64's (`contact_manifold_convex_convex` on two `ConvexPolyhedron`s, prediction 0),
//! timed in alternation on the seeded polyhedral pairs of `gpu-gjk bench --algorithm` (`sat::compare`): boxes
//! and hulls of 8, 64 and 512 random points, nested to apart, sizes 1e-3 to 1e3.
//!
//! `cargo bench --no-default-features --features scenario --bench vs_parry -- manifolds [FILTER...]
//! [--rounds N] [--pairs N]` (default 200 pairs a family, 21 rounds: a few seconds). Prints a Markdown table:
//! the median per-pair time of each library and the median per-round ratio, parry's time over gpu-gjk's (above
//! 1: gpu-gjk is faster), between its quartiles.

use crate::options::Options;
use crate::timed_passes::alternated;
use gpu_gjk::sat::compare::{polyhedral_pairs, PolyhedralPair};
use gpu_gjk::{manifold, ConvexShape, QueryOptions};
use parry3d_f64::math::Pose;
use parry3d_f64::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
use parry3d_f64::shape::ConvexPolyhedron;

/// Rounds when `--rounds` is not given.
pub const DEFAULT_ROUNDS: usize = 21;

/// Pairs a family when `--pairs` is not given.
const DEFAULT_PAIRS: usize = 200;

/// The families: 0 vertices is a box.
const FAMILIES: [(usize, &str); 4] = [
    (0, "box"),
    (8, "hull 8"),
    (64, "hull 64"),
    (512, "hull 512"),
];

/// The same hull for parry, from the shape's points in its local frame.
fn to_parry(shape: &ConvexShape) -> ConvexPolyhedron {
    let points: Vec<glam::DVec3> = shape.local_points().map(|p| p.as_dvec3()).collect();
    ConvexPolyhedron::from_convex_hull(&points).expect("a solid hull")
}

/// B's pose in A's frame, as parry takes it.
fn pose_12(pair: &PolyhedralPair) -> Pose {
    let inverse = pair.pose_a.rotation.inverse();
    Pose::from_parts(
        inverse * (pair.pose_b.position - pair.pose_a.position),
        inverse * pair.pose_b.rotation,
    )
}

/// Runs the mode.
pub fn run(options: &Options) {
    let count = options.pairs.unwrap_or(DEFAULT_PAIRS);
    println!(
        "contact manifolds, gpu-gjk (float32) against parry3d-f64 0.31, single thread, timed in alternation: \
         {count} pairs a family, {} rounds",
        options.rounds
    );
    println!();
    println!(
        "| family | gpu-gjk µs per pair | parry3d-f64 µs per pair | ratio (median) | quartiles | points (gpu-gjk, parry) |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    for (vertices, name) in FAMILIES {
        if !options.wants(name) {
            continue;
        }
        let pairs = polyhedral_pairs(count, &[vertices], 1);
        for pair in &pairs {
            std::hint::black_box((pair.a.faces(), pair.b.faces()));
        }
        let theirs: Vec<(ConvexPolyhedron, ConvexPolyhedron, Pose)> = pairs
            .iter()
            .map(|p| (to_parry(&p.a), to_parry(&p.b), pose_12(p)))
            .collect();
        let ours_pass = || {
            pairs
                .iter()
                .map(|p| manifold(&p.input(), QueryOptions::default()).points.len())
                .sum::<usize>() as f32
        };
        let dispatcher = DefaultQueryDispatcher;
        let theirs_pass = || {
            let mut found: ContactManifold<(), ()> = ContactManifold::new();
            let mut points = 0;
            for (a, b, pose) in &theirs {
                found.clear();
                dispatcher
                    .contact_manifold_convex_convex(pose, a, b, None, None, 0.0, &mut found)
                    .expect("convex polyhedra are supported");
                points += found.points.len();
            }
            points as f32
        };
        let row = alternated(pairs.len(), options.rounds, ours_pass, theirs_pass);
        println!(
            "| {name} | {:.3} | {:.3} | {:.2}x | {:.2}x-{:.2}x | {}, {} |",
            row.ours_us,
            row.parry_us,
            row.ratio[1],
            row.ratio[0],
            row.ratio[2],
            ours_pass(),
            theirs_pass()
        );
    }
}
