//! Property-based fuzzer (proptest, with shrinking) for the shapes `ConvexShape::hull` makes from point clouds:
//! squashed spheres, balls and boxes of random points down to 1e-7 of their width thick, needles, nearly flat domes,
//! exactly flat grids and circles, points on a line, with repeats, turned at random and placed up to 9e8 from
//! the origin. Quickhull once dropped the points that gave a thin cloud its thickness (a disk 2e-3 thick came
//! back with 6% of it at its centre, so points inside were answered apart), and a surface it built for a
//! squashed sphere went three times round one vertex (a climb over it ended far from the highest point, found
//! by this fuzzer); every such cloud must now keep its very hull, and a climbing shape the cloud's support.
//!
//! What is required of every cloud:
//! - `reduce_to_hull_vertices` keeps only points of the cloud, and its support value along every direction
//!   tried is the cloud's own, within the float64 rounding of the dot products (1e-13 of the largest
//!   coordinate): no point the cloud reaches farther with is lost; a cloud that spans a solid (exactly) gets
//!   the triangles of its hull too (which only the fallback that keeps every point would fail to give);
//! - the shape's support function (hill climbing over its adjacency when it has one, else the scan, on the
//!   centred float32 points) reaches the cloud's support value within the float32 rounding of the centring and
//!   of the dot products (4 float32 ulps of the sizes involved);
//! - distance queries of a point against the reduced shape and against the whole cloud (`ConvexShape::new`)
//!   agree: the same flag outside the band around contact (1e-4 of the cloud's size) and distances within a
//!   tenth of it, for a point at the cloud's mean and points just beyond its support points.
//!
//! CI runs a short, fixed-seed budget. `FUZZ_SECONDS=600 cargo test --release --test fuzz_hulls --
//! --nocapture` loops over new seeds for 600 s (`FUZZ_SEED=n` fixes the first).

mod common;

use common::fuzz::{fuzz, log_uniform, uniform_rotation, Budget};
use glam::{DQuat, DVec3, Vec3};
use gpu_gjk::shape::reduce_to_hull;
use gpu_gjk::{ConvexShape, DPose};
use proptest::prelude::*;
use std::collections::{BTreeMap, HashSet};
use std::sync::Mutex;

/// Cases per CI run (fixed seed): each builds one or two hulls of up to 2,000 points.
const CI_CASES: u32 = 48;
/// Cases per seed in a timed run.
const ROUND_CASES: u32 = 200;
/// Largest coordinate written (the library's limit is 1e9).
const LIMIT: f64 = 9e8;

/// One generated cloud and the family it came from.
#[derive(Clone)]
struct Cloud {
    family: &'static str,
    points: Vec<Vec3>,
}

impl std::fmt::Debug for Cloud {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "// family: {}", self.family)?;
        writeln!(f, "let points = vec![")?;
        for p in &self.points {
            writeln!(f, "    Vec3::new({:?}, {:?}, {:?}),", p.x, p.y, p.z)?;
        }
        write!(f, "];")
    }
}

fn rotation() -> impl Strategy<Value = DQuat> + Clone {
    prop_oneof![1 => Just(DQuat::IDENTITY), 3 => uniform_rotation()]
}

/// Where the cloud is put: turned, scaled by `size`, moved by `offset` (each coordinate within [`LIMIT`]), then
/// rounded to float32 as a user's file would hold it.
#[derive(Clone, Debug)]
struct Placement {
    rotation: DQuat,
    size: f64,
    offset: DVec3,
}

fn placement() -> impl Strategy<Value = Placement> {
    (
        rotation(),
        log_uniform(-3.0, 6.0),
        prop_oneof![Just(0.0), log_uniform(-3.0, 8.9)],
        (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64),
    )
        .prop_map(|(rotation, size, distance, (x, y, z))| Placement {
            rotation,
            size,
            offset: DVec3::new(x, y, z).normalize_or_zero() * distance,
        })
}

impl Placement {
    fn place(&self, local: impl IntoIterator<Item = DVec3>) -> Vec<Vec3> {
        local
            .into_iter()
            .map(|p| {
                let q = self.rotation * (p * self.size) + self.offset;
                q.clamp(DVec3::splat(-LIMIT), DVec3::splat(LIMIT)).as_vec3()
            })
            .collect()
    }
}

fn sphere_points(n: usize) -> impl Iterator<Item = DVec3> {
    gpu_gjk::scenario::mesh_gen::fibonacci_sphere(n)
        .into_iter()
        .map(|p| p.as_dvec3())
}

/// A sphere of `n` points squashed along two axes by factors down to 1e-7: disks, needles, and everything
/// between.
fn squashed_sphere() -> impl Strategy<Value = Cloud> {
    (
        4usize..1500,
        log_uniform(-7.0, 0.0),
        prop_oneof![Just(1.0), log_uniform(-7.0, 0.0)],
        placement(),
    )
        .prop_map(|(n, thin, second, place)| {
            let scale = DVec3::new(1.0, thin, second);
            Cloud {
                family: "squashed sphere",
                points: place.place(sphere_points(n).map(|p| p * scale)),
            }
        })
}

/// Random points in a box of half extents 1 x `thin` x `second`.
fn thin_box_cloud() -> impl Strategy<Value = Cloud> {
    (
        proptest::collection::vec((-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64), 4..800),
        log_uniform(-7.0, 0.0),
        prop_oneof![Just(1.0), log_uniform(-7.0, 0.0)],
        placement(),
    )
        .prop_map(|(raw, thin, second, place)| {
            let scale = DVec3::new(1.0, thin, second);
            Cloud {
                family: "points in a thin box",
                points: place.place(raw.into_iter().map(|(x, y, z)| DVec3::new(x, y, z) * scale)),
            }
        })
}

/// Random points in a ball squashed along two axes by factors down to 1e-7: hulls of hundreds of triangles
/// with most points inside, which are tested one plane each (walked to the triangle their ray from the centre
/// leaves through) rather than against every plane.
fn squashed_ball() -> impl Strategy<Value = Cloud> {
    (
        300usize..4000,
        any::<u64>(),
        log_uniform(-7.0, 0.0),
        prop_oneof![Just(1.0), log_uniform(-7.0, 0.0)],
        placement(),
    )
        .prop_map(|(n, seed, thin, second, place)| {
            let mut state = seed | 1;
            let mut next = move || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
            };
            let mut ball = Vec::with_capacity(n);
            while ball.len() < n {
                let p = DVec3::new(next(), next(), next());
                if p.length_squared() <= 1.0 {
                    ball.push(p * DVec3::new(1.0, thin, second));
                }
            }
            Cloud {
                family: "points in a squashed ball",
                points: place.place(ball),
            }
        })
}

/// A `g` x `g` grid on the paraboloid `z = -k (x^2 + y^2)` over [-1, 1]^2 (nearly flat for small `k`) and
/// one point below it.
fn dome() -> impl Strategy<Value = Cloud> {
    (
        3usize..45,
        log_uniform(-9.0, -1.0),
        log_uniform(-4.0, 0.0),
        placement(),
    )
        .prop_map(|(g, k, below, place)| {
            let step = |i: usize| -1.0 + 2.0 * i as f64 / (g - 1) as f64;
            let grid = (0..g * g).map(|i| {
                let (x, y) = (step(i % g), step(i / g));
                DVec3::new(x, y, -k * (x * x + y * y))
            });
            Cloud {
                family: "nearly flat dome",
                points: place.place(grid.chain([DVec3::new(0.0, 0.0, -below)])),
            }
        })
}

/// Exactly coplanar points (a grid and a circle at z = 0, exact in float32), moved only by swapping and
/// negating axes and by a whole-number offset, which keep them exactly coplanar; or the same on a line.
fn flat_or_collinear() -> impl Strategy<Value = Cloud> {
    (
        proptest::collection::vec((0i32..64, 0i32..64), 1..300),
        0usize..80,
        0usize..6,
        // No offset at all half the time, so that coordinates of 0 stay.
        prop_oneof![
            Just((0, 0, 0)),
            (-1000i32..1000, -1000i32..1000, -1000i32..1000)
        ],
        proptest::bool::ANY,
    )
        .prop_map(|(grid, circle, axes, (ox, oy, oz), collinear)| {
            let mut local: Vec<[f32; 3]> = grid
                .iter()
                .map(|&(i, j)| [i as f32, if collinear { 0.0 } else { j as f32 }, 0.0])
                .collect();
            if !collinear {
                local.extend((0..circle).map(|k| {
                    let a = k as f32 / circle.max(1) as f32 * std::f32::consts::TAU;
                    [32.0 + 20.0 * a.cos(), 32.0 + 20.0 * a.sin(), 0.0]
                }));
            }
            let order = [
                [0, 1, 2],
                [0, 2, 1],
                [1, 0, 2],
                [1, 2, 0],
                [2, 0, 1],
                [2, 1, 0],
            ][axes];
            let offset = Vec3::new(ox as f32, oy as f32, oz as f32);
            let points = local
                .iter()
                .enumerate()
                .map(|(k, p)| {
                    let turned = Vec3::new(p[order[0]], -p[order[1]], p[order[2]]);
                    let placed = if offset == Vec3::ZERO {
                        turned
                    } else {
                        turned + offset
                    };
                    // Every third point writes its zeros as -0.0, the others as 0.0: one coordinate, two bit
                    // patterns, which a sort by bits alone would put in the wrong order.
                    let sign = if k % 3 == 0 { -1.0 } else { 1.0 };
                    Vec3::from_array(
                        placed
                            .to_array()
                            .map(|c| if c == 0.0 { sign * 0.0 } else { c }),
                    )
                })
                .collect();
            Cloud {
                family: if collinear {
                    "collinear"
                } else {
                    "exactly flat"
                },
                points,
            }
        })
}

/// Any family, with some points repeated.
fn any_cloud() -> impl Strategy<Value = Cloud> {
    (
        prop_oneof![
            3 => squashed_sphere(),
            2 => thin_box_cloud(),
            2 => squashed_ball(),
            2 => dome(),
            1 => flat_or_collinear(),
        ],
        0usize..20,
    )
        .prop_map(|(mut cloud, repeats)| {
            let n = cloud.points.len();
            for k in 0..repeats.min(n) {
                let p = cloud.points[(k * 7919) % n];
                cloud.points.push(p);
            }
            cloud
        })
}

/// Directions to compare support values along: the axes, the 20 other cube lattice directions, and 100
/// spread over the sphere.
fn directions() -> Vec<DVec3> {
    let mut dirs = Vec::new();
    for x in -1..=1 {
        for y in -1..=1 {
            for z in -1..=1 {
                if (x, y, z) != (0, 0, 0) {
                    dirs.push(DVec3::new(x as f64, y as f64, z as f64).normalize());
                }
            }
        }
    }
    dirs.extend(sphere_points(100).map(|d| (d + DVec3::new(0.0123, -0.0071, 0.0029)).normalize()));
    dirs
}

fn bits(p: Vec3) -> [u32; 3] {
    (p + Vec3::ZERO).to_array().map(f32::to_bits)
}

fn support_value(points: impl IntoIterator<Item = DVec3>, d: DVec3) -> f64 {
    points
        .into_iter()
        .map(|p| p.dot(d))
        .fold(f64::MIN, f64::max)
}

/// The cloud kept whole (`ConvexShape::new`, scanned) and reduced (`ConvexShape::hull`, climbed when it has an
/// adjacency) are one shape: a point at the cloud's mean and points just beyond its support point along some
/// directions get the same flag (outside the band around contact) and distances within a tenth of the band.
/// Both shapes have the same bounding box, so they are centred alike and see the same float32 relative pose:
/// only the points searched differ.
fn check_queries(points: &[Vec3], reduced: &ConvexShape) -> Result<(), String> {
    let whole = ConvexShape::new(points.to_vec(), 0.0).map_err(|e| format!("new refused: {e}"))?;
    let point = ConvexShape::new(vec![Vec3::ZERO], 0.0).expect("a point");
    let scale = whole.bounding_radius() as f64;
    let band = 1e-4 * scale;
    let wide: Vec<DVec3> = points.iter().map(|p| p.as_dvec3()).collect();
    let mean = wide.iter().sum::<DVec3>() / wide.len() as f64;
    let mut probes = vec![mean];
    for d in directions().into_iter().step_by(9) {
        let top = wide
            .iter()
            .copied()
            .max_by(|a, b| a.dot(d).total_cmp(&b.dot(d)))
            .expect("a point");
        probes.push(top + d * 2.0 * band);
    }
    for at in probes {
        let pose = DPose::checked(at, DQuat::IDENTITY).map_err(|e| format!("{e}"))?;
        let a = gpu_gjk::distance(
            &gpu_gjk::PairInput::new(&whole, DPose::IDENTITY, &point, pose),
            Default::default(),
        );
        let b = gpu_gjk::distance(
            &gpu_gjk::PairInput::new(reduced, DPose::IDENTITY, &point, pose),
            Default::default(),
        );
        let flags_differ = a.intersecting != b.intersecting && a.distance.max(b.distance) > band;
        if flags_differ || (a.distance - b.distance).abs() > 0.1 * band {
            return Err(format!(
                "a point at {at}: the whole cloud answers intersecting {} at {:e}, the reduced hull ({} points) \
                 {} at {:e}",
                a.intersecting,
                a.distance,
                reduced.len(),
                b.intersecting,
                b.distance
            ));
        }
    }
    Ok(())
}

/// Whether `points` span a solid, exactly: four of them are not in one plane (Shewchuk's `orient3d`).
fn spans_a_solid(points: &[Vec3]) -> bool {
    let c = |p: Vec3| robust::Coord3D {
        x: p.x as f64,
        y: p.y as f64,
        z: p.z as f64,
    };
    let Some(&a) = points.first() else {
        return false;
    };
    let Some(&b) = points.iter().find(|&&p| p != a) else {
        return false;
    };
    // Any point off the line ab makes a plane with it, and a solid has a point off that plane.
    let Some(&p) = points.iter().find(|&&p| !collinear(a, b, p)) else {
        return false;
    };
    points
        .iter()
        .any(|&q| robust::orient3d(c(a), c(b), c(p), c(q)) != 0.0)
}

/// Whether three points lie on one line, exactly (their projections on the coordinate planes have no area).
fn collinear(a: Vec3, b: Vec3, p: Vec3) -> bool {
    let area = |i: usize, j: usize| {
        let c = |v: Vec3| robust::Coord {
            x: v[i] as f64,
            y: v[j] as f64,
        };
        robust::orient2d(c(a), c(b), c(p))
    };
    area(0, 1) == 0.0 && area(1, 2) == 0.0 && area(2, 0) == 0.0
}

fn check(cloud: &Cloud) -> Result<(), String> {
    let points = &cloud.points;
    let reduced = reduce_to_hull(points);
    if reduced.triangles.is_none() && spans_a_solid(points) {
        return Err(format!(
            "a solid cloud kept {} of {} points without triangles (the exact quickhull did not answer)",
            reduced.vertices.len(),
            points.len()
        ));
    }
    let kept = reduced.vertices;
    let members: HashSet<[u32; 3]> = points.iter().map(|p| bits(*p)).collect();
    if let Some(p) = kept.iter().find(|p| !members.contains(&bits(**p))) {
        return Err(format!("kept {p}, which is not a point of the cloud"));
    }
    let largest = points
        .iter()
        .map(|p| p.abs().max_element() as f64)
        .fold(0.0, f64::max);
    let shape = ConvexShape::hull(points, 0.0).map_err(|e| format!("hull refused: {e}"))?;
    let centre = shape.centre().as_dvec3();
    let shape_room = 4.0
        * f32::EPSILON as f64
        * (centre.abs().element_sum() + 3.0 * shape.bounding_radius() as f64);
    for d in directions() {
        let truth = support_value(points.iter().map(|p| p.as_dvec3()), d);
        let reduced = support_value(kept.iter().map(|p| p.as_dvec3()), d);
        if truth - reduced > 1e-13 * largest {
            return Err(format!(
                "the reduced hull ({} of {} points) reaches {reduced} along {d}, the cloud {truth}: {:e} short",
                kept.len(),
                points.len(),
                truth - reduced
            ));
        }
        let found = shape.support(d.as_vec3()).as_dvec3().dot(d);
        if (truth - found).abs() > shape_room {
            return Err(format!(
                "the shape's support ({}) reaches {found} along {d}, the cloud {truth}: {:e} off, {:e} allowed",
                if shape.adjacency().is_some() { "climbing" } else { "scan" },
                truth - found,
                shape_room
            ));
        }
    }
    check_queries(points, &shape)
}

#[test]
fn hulls_of_thin_flat_and_far_clouds_keep_the_clouds_support_in_every_direction() {
    let families = Mutex::new(BTreeMap::<&'static str, u64>::new());
    let budget = Budget {
        ci_cases: CI_CASES,
        round_cases: ROUND_CASES,
        ci_seed: 20261128,
    };
    fuzz("hulls", any_cloud(), budget, |cloud| {
        *families
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(cloud.family)
            .or_default() += 1;
        check(cloud)
    });
    eprintln!(
        "clouds drawn by family (shrink runs included): {:?}",
        families.lock().unwrap_or_else(|e| e.into_inner())
    );
}
