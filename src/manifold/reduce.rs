//! At most four contact points: the deepest, then the three that span the largest area with it (Bullet's and
//! Jolt's choice: a resting contact keeps its support polygon's corners).

use super::answer::{ContactPoint, MAX_POINTS};
use glam::DVec3;

/// Candidates whose score (a squared distance or a spanned area) is within this fraction of the polygon's reach
/// squared of the best one are tied, and the tie goes to the smallest feature id. A box's face clipped to a
/// polygon with two parallel edges has candidates spanning equal triangles; float32 and float64 round them apart
/// either way, so without the band the GPU twin picked another point than the CPU. 1e-4 is far above the rounding
/// of either (float32's scores are off by about 1e-7 of the reach squared times the coordinates' size over the
/// reach) and costs at most that fraction of the area the four points span.
pub(crate) const TIE_FRACTION: f64 = 1e-4;

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
    let first = 0;
    let a = flat[first];
    let reach_squared = flat
        .iter()
        .map(|p| (*p - a).length_squared())
        .fold(0.0, f64::max);
    let tie = TIE_FRACTION * reach_squared;
    let pick = |score: &dyn Fn(DVec3) -> f64, taken: &[usize]| {
        let free = || (0..flat.len()).filter(|k| !taken.contains(k));
        let best = free().map(|k| score(flat[k])).fold(f64::MIN, f64::max);
        // A NaN score counts as tied rather than leaving no candidate.
        free()
            .filter(|&k| {
                let s = score(flat[k]);
                s >= best - tie || s.is_nan()
            })
            .min_by_key(|&k| (kept[k].id.a, kept[k].id.b, k))
            .expect("more than four points")
    };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifold::FeatureId;

    /// A point on the plane y = 0 (the normal is +y), 0.01 deep, with `id` on A's side.
    fn point(x: f64, z: f64, id: u32) -> ContactPoint {
        let p = DVec3::new(x, 0.0, z);
        ContactPoint {
            point_a: p,
            point_b: p,
            depth: 0.01,
            id: FeatureId { a: id, b: 0 },
        }
    }

    fn chosen(points: Vec<ContactPoint>) -> Vec<u32> {
        let mut ids: Vec<u32> = reduce(points, DVec3::Y, 1e-9)
            .iter()
            .map(|p| p.id.a)
            .collect();
        ids.sort();
        ids
    }

    /// The first point at the origin, the farthest at (2, 0): two third points span exactly equal triangles with
    /// them, in either order the one of the smaller id is kept.
    #[test]
    fn an_exact_tie_goes_to_the_smaller_feature_id_in_either_order() {
        let (a, b, far) = (
            point(0.0, 0.0, 10),
            point(2.0, 0.0, 20),
            point(1.0, -0.75, 40),
        );
        let (left, right) = (point(0.5, 1.0, 30), point(1.5, 1.0, 31));
        assert_eq!(chosen(vec![a, b, left, right, far]), [10, 20, 30, 40]);
        assert_eq!(chosen(vec![a, b, right, left, far]), [10, 20, 30, 40]);
    }

    /// A candidate spanning a triangle a millionth of the reach squared smaller than the largest is tied with it
    /// and wins on its smaller id; one smaller by a thousandth is not.
    #[test]
    fn a_near_tie_within_the_band_goes_to_the_smaller_feature_id() {
        let (a, b, far) = (
            point(0.0, 0.0, 10),
            point(2.0, 0.0, 20),
            point(1.0, -0.75, 40),
        );
        let (left, right) = (point(0.5, 1.0, 30), point(1.5, 1.0, 31));
        let near = point(1.0, 1.0 - 1e-6, 5);
        assert_eq!(chosen(vec![a, b, left, right, near, far]), [5, 10, 20, 40]);
        let short = point(1.0, 1.0 - 1e-3, 5);
        assert_eq!(
            chosen(vec![a, b, left, right, short, far]),
            [10, 20, 30, 40]
        );
    }
}
