//! Round hulls (points on spheres) placed at one centre or nearly, and an independent referee for their
//! penetration depth from the support functions alone.
//!
//! The depth of two overlapping convex sets with the origin inside their Minkowski difference D = A - B is
//! `d = min over unit n of h_D(n)`, `h_D(n) = h_A(n) + h_B(-n)`, and every direction's `h_D(n)` is an upper bound
//! on it. The referee takes the least over a Fibonacci lattice of directions, then walks down from the best
//! ones by a compass search on the sphere with shrinking steps: an upper bound that approaches `d` (a walk that
//! stalls on a ridge only leaves it higher). An answer's depth must agree with `h_D` along its own normal (so
//! it is at least `d`) and must not exceed the referee's bound (so it is at most that).

use glam::{DQuat, DVec3, Vec3};

/// Directions of the lattice the search starts from.
const LATTICE: usize = 4096;
/// Tangent directions each step of the compass search tries.
const TANGENTS: usize = 8;
/// The best lattice directions the compass search starts from. With 16 the bound stayed 1.8e-4 of the radius
/// above the depth of two 800-point spheres at one centre; with 256, 3e-7.
const STARTS: usize = 256;

/// `n` points of a Fibonacci lattice on the sphere of `radius` about the origin, turned by `rotation`, as
/// float32 (what a shape holds), with their float64 values for the referee.
pub fn sphere_points(n: usize, radius: f64, rotation: DQuat) -> Vec<Vec3> {
    gpu_gjk::scenario::mesh_gen::fibonacci_sphere(n)
        .into_iter()
        .map(|p| (rotation * (p.as_dvec3() * radius)).as_vec3())
        .collect()
}

/// The support value of `points` placed at `position` along `n`.
pub fn support(points: &[Vec3], position: DVec3, n: DVec3) -> f64 {
    points
        .iter()
        .map(|p| p.as_dvec3().dot(n))
        .fold(f64::NEG_INFINITY, f64::max)
        + position.dot(n)
}

/// How far B must move along the unit `n` (from A towards B) to leave A: `h_A(n) + h_B(-n)`.
pub fn depth_along(a: &[Vec3], pa: DVec3, b: &[Vec3], pb: DVec3, n: DVec3) -> f64 {
    support(a, pa, n) + support(b, pb, -n)
}

/// An upper bound on the penetration depth of A (points `a` at `pa`) and B (`b` at `pb`), approaching it, and
/// the direction that gives it.
pub fn depth_upper_bound(a: &[Vec3], pa: DVec3, b: &[Vec3], pb: DVec3) -> (f64, DVec3) {
    let h = |n: DVec3| depth_along(a, pa, b, pb, n);
    let mut lattice: Vec<(f64, DVec3)> = gpu_gjk::scenario::mesh_gen::fibonacci_sphere(LATTICE)
        .into_iter()
        .map(|n| {
            let n = n.as_dvec3().normalize();
            (h(n), n)
        })
        .collect();
    lattice.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut best = lattice[0];
    for &(value, n) in &lattice[..STARTS] {
        let found = compass_search(&h, value, n);
        if found.0 < best.0 {
            best = found;
        }
    }
    best
}

/// Walks down `h` on the unit sphere from `n` (where it is `value`): steps along [`TANGENTS`] tangents evenly
/// spread, halved when no step helps, until they are below 1e-9 rad. Each facet normal of A - B is a local
/// minimum of `h` on the sphere, and round hulls have thousands of them within a hair of each other: the walk
/// finds the one below its start, and the many starts find the deepest.
fn compass_search(h: &impl Fn(DVec3) -> f64, value: f64, n: DVec3) -> (f64, DVec3) {
    let (mut best, mut n) = (value, n);
    let mut step = 0.05;
    while step > 1e-9 {
        let (t1, t2) = n.any_orthonormal_pair();
        let mut moved = false;
        for k in 0..TANGENTS {
            let angle = std::f64::consts::TAU * k as f64 / TANGENTS as f64;
            let t = t1 * angle.cos() + t2 * angle.sin();
            let m = (n + t * step).normalize();
            let v = h(m);
            if v < best {
                (best, n, moved) = (v, m, true);
                break;
            }
        }
        if !moved {
            step *= 0.5;
        }
    }
    (best, n)
}
