//! At most four contact points: the deepest, then the three that span the largest area with it (Bullet's and
//! Jolt's choice: a resting contact keeps its support polygon's corners).

use super::answer::{ContactPoint, MAX_POINTS};
use glam::DVec3;

/// `points` deepest first, with near-duplicates (closer than `merge` on B) dropped, cut to [`MAX_POINTS`].
pub(super) fn reduce(
    mut points: Vec<ContactPoint>,
    normal: DVec3,
    merge: f64,
) -> Vec<ContactPoint> {
    // Stable: equal depths keep the clipping's order, so the choice below is the same frame after frame.
    points.sort_by(|p, q| q.depth.total_cmp(&p.depth));
    let mut kept: Vec<ContactPoint> = Vec::with_capacity(points.len());
    for p in points {
        if kept.iter().all(|k| k.point_b.distance(p.point_b) > merge) {
            kept.push(p);
        }
    }
    if kept.len() <= MAX_POINTS {
        return kept;
    }
    let flat: Vec<DVec3> = kept
        .iter()
        .map(|p| p.point_b - normal * p.point_b.dot(normal))
        .collect();
    let pick = |score: &dyn Fn(DVec3) -> f64, taken: &[usize]| {
        (0..flat.len())
            .filter(|k| !taken.contains(k))
            .max_by(|&i, &j| score(flat[i]).total_cmp(&score(flat[j])).then(j.cmp(&i)))
            .expect("more than four points")
    };
    let first = 0;
    let a = flat[first];
    let second = pick(&|p| (p - a).length_squared(), &[first]);
    let b = flat[second];
    let third = pick(
        &|p| (b - a).cross(p - a).dot(normal).abs(),
        &[first, second],
    );
    let c = flat[third];
    // The area a fourth point adds beyond the triangle's edge it lies outside of.
    let turn = (b - a).cross(c - a).dot(normal).signum();
    let outside = |p: DVec3| {
        [(a, b), (b, c), (c, a)]
            .iter()
            .map(|&(u, v)| -turn * (v - u).cross(p - u).dot(normal))
            .fold(f64::MIN, f64::max)
    };
    let fourth = pick(&outside, &[first, second, third]);
    [first, second, third, fourth]
        .iter()
        .map(|&k| kept[k])
        .collect()
}
