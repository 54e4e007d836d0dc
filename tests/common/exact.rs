//! Exact referees in float64 that share no code with the library's GJK or EPA, for the geometry fuzzer
//! (`tests/fuzz_geometry/`):
//!
//! - the signed distance from a point to a box, in closed form;
//! - the separating-axis test for two boxes (15 axes), which also gives their exact penetration depth;
//! - the minimum-norm point of an explicit point set by Wolfe's algorithm (1976), applied to the Minkowski
//!   difference `{b_j - a_i}` of two point sets: the exact core distance of any two convex hulls. Its answer
//!   carries its own certificate, an upper bound (the norm of a convex combination of the points) and a lower
//!   bound (the support of the set along the answer's direction), so a referee that went wrong cannot pass
//!   silently.
//!
//! "Exact" means float64 arithmetic on the float32 inputs with nothing iterative left unconverged: errors of a
//! few units of roundoff of the coordinates, 1e9 times finer than the tolerances the tests use.

use glam::{DQuat, DVec3};

/// Signed distance from `q` (in the box's frame) to the box `[-half, half]`: the length of `max(|q| - half, 0)`
/// outside, `-(min over axes of half_i - |q_i|)` inside, 0 on the boundary.
pub fn box_point_signed_distance(half: DVec3, q: DVec3) -> f64 {
    let d = q.abs() - half;
    if d.max_element() > 0.0 {
        d.max(DVec3::ZERO).length()
    } else {
        d.max_element()
    }
}

/// An oriented box: `rotation * [-half, half] + centre`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obb {
    pub centre: DVec3,
    pub rotation: DQuat,
    pub half: DVec3,
}

impl Obb {
    /// The box's axes in the outer frame.
    pub fn axes(&self) -> [DVec3; 3] {
        [
            self.rotation * DVec3::X,
            self.rotation * DVec3::Y,
            self.rotation * DVec3::Z,
        ]
    }

    /// Half the width of the box's projection on the unit direction `n`.
    pub fn extent_along(&self, n: DVec3) -> f64 {
        let [x, y, z] = self.axes();
        self.half.x * x.dot(n).abs() + self.half.y * y.dot(n).abs() + self.half.z * z.dot(n).abs()
    }
}

/// The separating-axis test's answer for two boxes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatAnswer {
    /// Some axis shows a gap (an overlap below zero).
    pub separated: bool,
    /// The smallest overlap of the two projections over the 15 axes. For overlapping boxes this is the exact
    /// penetration depth: the axes include every face normal of the Minkowski difference of two boxes (the
    /// face normals of each box and the cross products of their edges), and the depth of two convex polytopes
    /// is the least overlap over those normals. For separated boxes it is minus the widest gap along the 15
    /// axes, only a lower bound on the distance.
    pub min_overlap: f64,
    /// The unit axis of that overlap, pointing from A towards B.
    pub axis: DVec3,
}

/// The separating-axis test on 15 axes (3 face normals of each box, 9 edge cross products), in float64.
///
/// Cross products of nearly parallel edges (sine below 1e-6) are skipped: their direction is then mostly
/// rounding, and in the limit the face they stand for shrinks to an edge whose neighbouring faces (on the
/// list) give the same minimum, within 1e-6 of the boxes' size.
pub fn separating_axis_test(a: &Obb, b: &Obb) -> SatAnswer {
    let t = b.centre - a.centre;
    let (aa, ba) = (a.axes(), b.axes());
    let mut axes: Vec<DVec3> = aa.iter().chain(ba.iter()).copied().collect();
    for u in aa {
        for v in ba {
            let c = u.cross(v);
            if c.length() > 1e-6 {
                axes.push(c.normalize());
            }
        }
    }
    let mut best = SatAnswer {
        separated: false,
        min_overlap: f64::INFINITY,
        axis: DVec3::X,
    };
    for l in axes {
        let overlap = a.extent_along(l) + b.extent_along(l) - t.dot(l).abs();
        if overlap < best.min_overlap {
            best.min_overlap = overlap;
            best.axis = if t.dot(l) < 0.0 { -l } else { l };
        }
    }
    best.separated = best.min_overlap < 0.0;
    best
}

/// The minimum-norm point of a point set's convex hull, with the bounds that certify it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MinNorm {
    /// A convex combination of the points, the answer.
    pub point: DVec3,
    /// `|point|`: an upper bound on the hull's distance from the origin (the point is in the hull).
    pub upper: f64,
    /// `max(0, min_j point·p_j / |point|)`: a lower bound (every point, so the whole hull, lies beyond the
    /// plane through that support value normal to `point`). 0 when the origin is (numerically) inside.
    pub lower: f64,
    /// Major cycles of Wolfe's algorithm.
    pub iterations: u32,
}

impl MinNorm {
    /// Width of the certified interval for the distance.
    pub fn gap(&self) -> f64 {
        self.upper - self.lower
    }
}

/// Wolfe's algorithm stops when the gap between its bounds falls below this fraction of the largest point's
/// norm (the roundoff of the points themselves is a few 1e-16 of it).
const WOLFE_RELATIVE_GAP: f64 = 1e-14;

/// A bound on Wolfe's major cycles; it converges finitely (typically within 20 on these sets).
const WOLFE_MAX_MAJOR: u32 = 500;

/// Minimum-norm point of the convex hull of `points` by Wolfe's algorithm ("Finding the nearest point in a
/// polytope", Mathematical Programming 11, 1976).
///
/// The corral `S` holds up to 4 affinely independent points with positive weights whose combination is the
/// current point `x`. Each major cycle adds the point with the least `x·p` (the most negative support along
/// `x`), unless `x·x - x·p` already shows that `x` is optimal. Each minor cycle moves `x` towards the point
/// of least norm in the affine hull of `S`; if that point lies outside `S`'s convex hull, `x` stops where the
/// segment leaves it and the point whose weight reached zero leaves the corral.
///
/// Coordinates are divided by the largest point's norm first, so sets of size 1e-20 or 1e9 look the same.
/// The affine minimiser is solved by Gram-Schmidt (done twice) on the edge vectors, not by the normal
/// equations, so thin sets (slabs 1e-6 thick) keep their precision.
pub fn min_norm_point(points: &[DVec3]) -> MinNorm {
    assert!(!points.is_empty(), "min_norm_point of an empty set");
    let m = points.iter().map(|p| p.length()).fold(0.0f64, f64::max);
    if m == 0.0 {
        return MinNorm {
            point: DVec3::ZERO,
            upper: 0.0,
            lower: 0.0,
            iterations: 0,
        };
    }
    let q: Vec<DVec3> = points.iter().map(|p| *p / m).collect();
    let first = (0..q.len())
        .min_by(|&i, &j| q[i].length_squared().total_cmp(&q[j].length_squared()))
        .unwrap();
    // The corral: (index, weight).
    let mut corral: Vec<(usize, f64)> = vec![(first, 1.0)];
    let mut x = q[first];
    let mut iterations = 0;
    'major: while iterations < WOLFE_MAX_MAJOR {
        iterations += 1;
        let xx = x.length_squared();
        if xx.sqrt() <= WOLFE_RELATIVE_GAP {
            break;
        }
        let (j, xq) = (0..q.len())
            .map(|j| (j, x.dot(q[j])))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap();
        if xx - xq <= WOLFE_RELATIVE_GAP * xx.sqrt() || corral.iter().any(|&(i, _)| i == j) {
            break;
        }
        if corral.len() == 4 {
            // Four affinely independent points with the origin outside... cannot happen in exact arithmetic
            // (the affine minimiser of 4 points in 3D is the origin itself); rounding left the corral full.
            break;
        }
        corral.push((j, 0.0));
        loop {
            let Some(mu) = affine_minimiser(&corral.iter().map(|&(i, _)| q[i]).collect::<Vec<_>>())
            else {
                // The new point is (numerically) in the affine hull of the corral: no progress possible.
                corral.retain(|&(i, _)| i != j);
                break 'major;
            };
            if mu.iter().all(|&w| w > 0.0) {
                for (c, w) in corral.iter_mut().zip(&mu) {
                    c.1 = *w;
                }
                x = combination(&q, &corral);
                break;
            }
            // Move from the current weights towards mu until the first weight reaches zero.
            let theta = corral
                .iter()
                .zip(&mu)
                .filter(|(_, &w)| w <= 0.0)
                .map(|(&(_, l), &w)| if l - w > 0.0 { l / (l - w) } else { 0.0 })
                .fold(1.0f64, f64::min);
            let mut zeroed = None;
            for (k, (c, w)) in corral.iter_mut().zip(&mu).enumerate() {
                c.1 = (1.0 - theta) * c.1 + theta * w;
                if c.1 <= 0.0 && zeroed.is_none() {
                    zeroed = Some(k);
                }
            }
            // At least the point that set theta leaves; rounding may leave its weight a hair above zero.
            let leave = zeroed.unwrap_or_else(|| {
                (0..corral.len())
                    .min_by(|&a, &b| corral[a].1.total_cmp(&corral[b].1))
                    .unwrap()
            });
            let stalled = theta == 0.0 && corral[leave].0 == j;
            corral.remove(leave);
            corral.retain(|c| c.1 > 0.0);
            let total: f64 = corral.iter().map(|c| c.1).sum();
            for c in corral.iter_mut() {
                c.1 /= total;
            }
            if stalled {
                // The new point left at once: rounding disagrees with the major cycle's test. Stop here; the
                // bounds below say how good x is.
                break 'major;
            }
        }
    }
    let x = combination(&q, &corral);
    let upper = x.length();
    let lower = if upper > 0.0 {
        let n = x / upper;
        q.iter()
            .map(|p| n.dot(*p))
            .fold(f64::INFINITY, f64::min)
            .max(0.0)
    } else {
        0.0
    };
    MinNorm {
        point: x * m,
        upper: upper * m,
        lower: (lower * m).min(upper * m),
        iterations,
    }
}

fn combination(q: &[DVec3], corral: &[(usize, f64)]) -> DVec3 {
    corral.iter().map(|&(i, w)| q[i] * w).sum()
}

/// Weights `mu` (summing to 1) of the point of least norm in the affine hull of `s` (1 to 4 points), or `None`
/// when the points are (numerically) affinely dependent.
///
/// With `s_0` as base and `D = [s_1 - s_0, ...]`, the minimiser is `s_0 + D alpha` with `alpha` the least
/// squares solution of `D alpha = -s_0`, found from `D = Q R` by Gram-Schmidt done twice.
fn affine_minimiser(s: &[DVec3]) -> Option<Vec<f64>> {
    let k = s.len();
    if k == 1 {
        return Some(vec![1.0]);
    }
    let d: Vec<DVec3> = s[1..].iter().map(|p| *p - s[0]).collect();
    let n = d.len();
    let mut qs: Vec<DVec3> = Vec::with_capacity(n);
    let mut r = [[0.0f64; 3]; 3];
    for (c, col) in d.iter().enumerate() {
        let mut v = *col;
        for _ in 0..2 {
            for (i, qi) in qs.iter().enumerate() {
                let proj = qi.dot(v);
                r[i][c] += proj;
                v -= *qi * proj;
            }
        }
        let norm = v.length();
        if norm.is_nan() || norm <= 1e-13 * col.length().max(1e-300) {
            return None;
        }
        r[c][c] = norm;
        qs.push(v / norm);
    }
    // R alpha = Q^T (-s_0), back substitution.
    let rhs: Vec<f64> = qs.iter().map(|qi| -qi.dot(s[0])).collect();
    let mut alpha = vec![0.0f64; n];
    for i in (0..n).rev() {
        let mut acc = rhs[i];
        for (j, a) in alpha.iter().enumerate().skip(i + 1) {
            acc -= r[i][j] * a;
        }
        alpha[i] = acc / r[i][i];
    }
    let mut mu = Vec::with_capacity(k);
    mu.push(1.0 - alpha.iter().sum::<f64>());
    mu.extend(alpha);
    Some(mu)
}

/// The Minkowski difference `{b_j - a_i}` of two point sets given in one frame: its least-norm point is the
/// vector from A's closest core point to B's.
pub fn minkowski_difference(a: &[DVec3], b: &[DVec3]) -> Vec<DVec3> {
    let mut out = Vec::with_capacity(a.len() * b.len());
    for pa in a {
        for pb in b {
            out.push(*pb - *pa);
        }
    }
    out
}

/// Exact distance between the convex hulls of two point sets (in one frame), certified; see [`MinNorm`].
pub fn hull_hull(a: &[DVec3], b: &[DVec3]) -> MinNorm {
    min_norm_point(&minkowski_difference(a, b))
}

/// Exact distance from a point to the convex hull of a point set (in one frame), certified.
pub fn point_hull(points: &[DVec3], q: DVec3) -> MinNorm {
    min_norm_point(&points.iter().map(|p| *p - q).collect::<Vec<_>>())
}

/// Bits below the unit of [`exact_sum`]'s fixed point: every float64 from 2^-90 (finer than any coordinate the
/// far-from-origin tests write: their shapes are at least 1e-6 across) up to the 1e9 coordinate limit is a
/// whole number of 2^-90, and a sum of a few of them fits in an i128 (1e9 is below 2^30).
const FIXED_FRACTION_BITS: i32 = 90;

/// `x` as a whole number of 2^-90, exactly; panics when `x` has bits below 2^-90 or is beyond 2^36.
fn fixed(x: f64) -> i128 {
    let scaled = x * 2f64.powi(FIXED_FRACTION_BITS);
    assert!(
        scaled.fract() == 0.0 && scaled.abs() < 2f64.powi(126),
        "{x:e} is not a whole number of 2^-{FIXED_FRACTION_BITS} within range"
    );
    scaled as i128
}

/// The sum of float64 numbers computed exactly (in fixed point) and rounded once to float64: the referee's
/// way to place points written far from the origin relative to each other without the rounding of
/// `position + point` that the library is tested for.
pub fn exact_sum(terms: &[f64]) -> f64 {
    let total: i128 = terms.iter().map(|&x| fixed(x)).sum();
    // `i128 as f64` rounds to nearest; the power of two is exact.
    total as f64 * 2f64.powi(-FIXED_FRACTION_BITS)
}

/// [`exact_sum`] of vectors, coordinate by coordinate: `plus` summed minus `minus` summed.
pub fn exact_offset(plus: &[DVec3], minus: &[DVec3]) -> DVec3 {
    let axis = |k: usize| {
        let terms: Vec<f64> = plus
            .iter()
            .map(|v| v[k])
            .chain(minus.iter().map(|v| -v[k]))
            .collect();
        exact_sum(&terms)
    };
    DVec3::new(axis(0), axis(1), axis(2))
}
