//! The headline cases of the CPU reference against parry3d 0.31 (f32), shared by the `criterion`, `paired` and
//! `classes` modes (and, for two builds of gpu-gjk, the harness of `scripts/old_new.sh`): the random mix, big
//! hulls (1,000, 5,000 and 20,000 vertices against a box and against each other), the cube against the
//! 482-vertex sphere asset, that sphere deep inside itself, and one pass of either library over a case's pairs.

use crate::one_pair as query;
use crate::pairs::{reduced_scene, to_parry, Pair};
use glam::Vec3;
use gpu_gjk::gjk::{GjkConfig, QueryKind};
use gpu_gjk::scenario::mesh_gen::fibonacci_sphere;
use gpu_gjk::scenario::{random_rotation, random_scene, random_unit, MixSpec, ShapeKind};
use gpu_gjk::{ConvexShape, Pose};
use parry3d::shape::Shape;
use rand::{Rng, SeedableRng};
use std::hint::black_box;
use std::path::Path;

const SEED: u64 = 20_240_611;
/// Pairs in the random mix, all distinct. Not fewer: passes repeated over a few thousand pairs are learnt by the
/// CPU's branch predictor (see [`CASE_PAIRS`]). On the 2-core AMD EPYC dev VM (2026-12-04), gpu-gjk's flag took
/// 158, 207, 222 and 222 ns a pair looped over 2,000, 5,000, 20,000 and 50,000 pairs of the mix, its distance 358
/// against 415 ns over 2,000 and 20,000 (parry3d's 6% slower at 20,000), its penetration query 1,025 against
/// 1,008 ns.
const MIX_PAIRS: usize = 20_000;
/// Pairs per geometric case, all distinct. Not fewer: a pass repeated over a few hundred or thousand pairs is
/// learnt by the CPU's branch predictor. gpu-gjk's walks, EPA and GJK's sub-simplex choices branch on the data,
/// parry3d's scans much less. On the AMD EPYC dev VM (2026-12-04), looped over 200, 1,000, 2,000, 5,000 and
/// 20,000 distinct pairs, in ns a pair: hull1000_box's penetration query 1,822, 2,483, 2,538, 2,602 and 2,540;
/// over 1,000, 2,000, 5,000 and 20,000, cube_sphere482's flag 246, 254, 332 and 314; over 2,000, 5,000 and
/// 20,000, hull1000_box's flag 341, 375 and 378.
/// parry3d's times moved by -3% to +6%. Past 5,000 the time moves little (cube_sphere482's distance 649, 650
/// and 673 at 5,000, 10,000 and 20,000), while the passes of parry3d over the 20,000-vertex hulls grow long.
const CASE_PAIRS: usize = 5_000;

pub struct Case {
    pub name: String,
    pub shapes: Vec<ConvexShape>,
    pub parry: Vec<Box<dyn Shape>>,
    pub pairs: Vec<Pair>,
}

impl Case {
    fn new(name: String, shapes: Vec<ConvexShape>, pairs: Vec<Pair>) -> Self {
        let parry = shapes.iter().map(to_parry).collect();
        Self {
            name,
            shapes,
            parry,
            pairs,
        }
    }
}

/// The random mix of `gpu-gjk query`'s scenes: every shape kind parry3d can take as it is (flat polygons are
/// left out: parry3d builds no 3D hull of coplanar points), sizes 1e-2 to 1e3, hull clouds of 8 to 512
/// points reduced to their vertices.
pub fn mix() -> Case {
    let spec = MixSpec {
        kinds: ShapeKind::ALL
            .into_iter()
            .filter(|k| *k != ShapeKind::FlatPolygon)
            .collect(),
        ..MixSpec::default()
    };
    let (shapes, pairs) = reduced_scene(&random_scene(SEED, MIX_PAIRS, &spec));
    Case::new("mix".into(), shapes, pairs)
}

/// `n` points on an ellipsoid with semi-axes 1, 0.8 and 0.6 (a Fibonacci lattice): every point a vertex, and
/// no symmetry that would make support ties common.
fn ellipsoid_hull(n: usize) -> ConvexShape {
    let semi_axes = Vec3::new(1.0, 0.8, 0.6);
    let points: Vec<Vec3> = fibonacci_sphere(n)
        .into_iter()
        .map(|p| p * semi_axes)
        .collect();
    ConvexShape::hull(&points, 0.0).expect("valid hull")
}

/// `CASE_PAIRS` pairs of shapes 0 and 1 at random orientations, their centres 0.4 to 2.4 apart in a random
/// direction: about half of them overlap for unit-size shapes.
fn random_pairs(seed: u64) -> Vec<Pair> {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    (0..CASE_PAIRS)
        .map(|_| {
            let pose_a = Pose::new(Vec3::ZERO, random_rotation(&mut rng));
            let gap = rng.random_range(0.4..2.4);
            let pose_b = Pose::new(random_unit(&mut rng) * gap, random_rotation(&mut rng));
            Pair::new(0, 1, pose_a, pose_b)
        })
        .collect()
}

pub fn big_hulls() -> Vec<Case> {
    let cube = || ConvexShape::cuboid(Vec3::splat(0.5)).expect("valid box");
    let mut cases = Vec::new();
    for n in [1000, 5000, 20_000] {
        let hull = ellipsoid_hull(n);
        assert_eq!(hull.len(), n, "every lattice point is a hull vertex");
        assert!(hull.adjacency().is_some(), "big hulls climb");
        cases.push(Case::new(
            format!("hull{n}_box"),
            vec![hull.clone(), cube()],
            random_pairs(SEED + n as u64),
        ));
        cases.push(Case::new(
            format!("hull{n}_hull{n}"),
            vec![hull.clone(), hull],
            random_pairs(SEED + 1 + n as u64),
        ));
    }
    cases
}

/// A shape of `assets/`, with no radius.
fn asset(name: &str) -> ConvexShape {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets")
        .join(name);
    ConvexShape::from_obj(path, 0.0).expect("asset loads")
}

/// [`random_pairs`] with B's centre moved `scale` times as far from A's.
fn scaled_pairs(seed: u64, scale: f32) -> Vec<Pair> {
    random_pairs(seed)
        .into_iter()
        .map(|p| {
            Pair::new(
                0,
                1,
                p.pose_a,
                Pose::new(p.pose_b.position * scale, p.pose_b.rotation),
            )
        })
        .collect()
}

/// The seed's case: `assets/cube.obj` (half-size 1) against `assets/sphere.obj` (482 vertices, radius 1).
pub fn cube_sphere() -> Case {
    let (cube, sphere) = (asset("cube.obj"), asset("sphere.obj"));
    assert_eq!(sphere.len(), 482);
    // Centres 0.8 to 4.8 apart: about half overlap.
    let pairs = scaled_pairs(SEED + 482, 2.0);
    Case::new("cube_sphere482".into(), vec![cube, sphere], pairs)
}

/// The sphere asset against itself, centres 0.025 to 0.15 apart (radius 1): deep overlaps of a finely
/// tessellated round hull, where EPA makes hundreds of expansions over a polytope of hundreds of faces
/// (measured: 216 a pair on average, at most 526). parry3d's EPA stops short there: its depth is below
/// gpu-gjk's by more than 1e-3 on 4,396 of the 5,000 pairs (1.851 against 1.899 on average).
pub fn deep_spheres() -> Case {
    let sphere = asset("sphere.obj");
    let pairs = scaled_pairs(SEED + 483, 0.0625);
    Case::new("sphere482_deep".into(), vec![sphere.clone(), sphere], pairs)
}

#[derive(Clone, Copy)]
pub enum Kind {
    Intersection,
    Distance,
    /// gpu-gjk's penetration query (distance, witnesses and normal when apart; depth, normal and contact points
    /// when overlapping) against parry3d's `contact` with an unlimited prediction distance, which answers the
    /// same for every pair: the same work on both sides.
    Penetration,
    /// The same penetration query against `contact` with prediction 0, what this bench timed before
    /// 2026-11-26: parry3d then stops at the first proof that a pair is apart and reports no contact,
    /// skipping the distance and closest points that gpu-gjk still computes for that pair.
    PenetrationVsContact0,
}

/// gpu-gjk on every pair of `case`: the flag or the distance alone (`query_bare`, what parry3d's
/// `intersection_test` and `distance` return), or with `full` the whole `query` answer (witnesses and normal
/// too, as `gpu-gjk query --kind` prints them).
pub fn run_ours(case: &Case, kind: Kind, full: bool, config: &GjkConfig) -> f32 {
    case.pairs
        .iter()
        .map(|q| ours_on_pair(case, q, kind, full, config))
        .sum()
}

/// [`run_ours`] on one pair of `case`.
#[inline]
pub fn ours_on_pair(case: &Case, q: &Pair, kind: Kind, full: bool, config: &GjkConfig) -> f32 {
    let (a, b) = (black_box(&case.shapes[q.a]), &case.shapes[q.b]);
    let (pa, pb) = (&q.pose_a, &q.pose_b);
    match kind {
        Kind::Intersection if full => {
            let r = query::query(a, pa, b, pb, QueryKind::Intersection, config);
            f32::from(u8::from(r.intersecting))
        }
        Kind::Intersection => {
            let r = query::query_bare(a, pa, b, pb, QueryKind::Intersection, config);
            f32::from(u8::from(r.intersecting))
        }
        Kind::Distance if full => query::query(a, pa, b, pb, QueryKind::Distance, config).distance,
        Kind::Distance => query::query_bare(a, pa, b, pb, QueryKind::Distance, config).distance,
        Kind::Penetration | Kind::PenetrationVsContact0 => {
            let (result, hit) = query::penetration_query(a, &q.pose_a, b, &q.pose_b, config);
            result.distance + hit.depth
        }
    }
}

/// parry3d on every pair of `case`, the same query as [`run_ours`].
pub fn run_parry(case: &Case, kind: Kind) -> f32 {
    case.pairs
        .iter()
        .map(|q| parry_on_pair(case, q, kind))
        .sum()
}

/// [`run_parry`] on one pair of `case`.
#[inline]
pub fn parry_on_pair(case: &Case, q: &Pair, kind: Kind) -> f32 {
    let (a, b) = (
        black_box(case.parry[q.a].as_ref()),
        case.parry[q.b].as_ref(),
    );
    let (pa, pb) = (&q.parry_a, &q.parry_b);
    match kind {
        Kind::Intersection => {
            let hit = parry3d::query::intersection_test(pa, a, pb, b).expect("supported");
            f32::from(u8::from(hit.intersecting))
        }
        Kind::Distance => {
            parry3d::query::distance(pa, a, pb, b)
                .expect("supported")
                .distance
        }
        // No prediction limit: parry3d then answers every pair, with the distance and closest points when
        // apart, as gpu-gjk's penetration query does. All but 3 of the mix's 20,000: on three pairs of bare
        // segments (half-lengths 4e-3 to 1.4e-2) that are 9.2e-5, 2.2e-4 and 4.2e-4 apart (gpu-gjk in float32
        // and float64, and a 4,000 x 4,000 grid over both segments, agree to 1e-9), parry3d's distance says 0
        // and its contact none. Those are timed as parry3d answers them.
        Kind::Penetration => parry3d::query::contact(pa, a, pb, b, f32::INFINITY)
            .expect("supported")
            .map_or(0.0, |c| c.dist),
        Kind::PenetrationVsContact0 => parry3d::query::contact(pa, a, pb, b, 0.0)
            .expect("supported")
            .map_or(0.0, |c| c.dist),
    }
}

impl Kind {
    pub const ALL: [(Kind, &'static str); 4] = [
        (Kind::Intersection, "intersection"),
        (Kind::Distance, "distance"),
        (Kind::Penetration, "penetration"),
        (Kind::PenetrationVsContact0, "penetration_vs_contact0"),
    ];
}

/// Every case: the mix, the cube against the sphere asset, the sphere asset deep inside itself, then the big
/// hulls.
pub fn all_cases() -> Vec<Case> {
    let mut cases = vec![mix(), cube_sphere(), deep_spheres()];
    cases.extend(big_hulls());
    cases
}
