//! The scalar abstraction that lets one GJK implementation run in `f32` (the production path, mirrored by the
//! WGSL shader) and in `f64` (a referee in tests).

use glam::{DMat3, DQuat, DVec3, Mat3A, Quat, Vec3, Vec3A};
use std::ops::{Add, Div, Mul, Neg, Sub};

/// What both 3-vector types of a [`Real`] `R` offer ([`Real::V`] and [`Real::Plain`]): copies, comparison, and
/// sums, differences and products with a scalar.
pub trait Vector<R>:
    Copy
    + std::fmt::Debug
    + PartialEq
    + Add<Output = Self>
    + Sub<Output = Self>
    + Neg<Output = Self>
    + Mul<R, Output = Self>
    + Send
    + Sync
{
}

impl<R, T> Vector<R> for T where
    T: Copy
        + std::fmt::Debug
        + PartialEq
        + Add<Output = T>
        + Sub<Output = T>
        + Neg<Output = T>
        + Mul<R, Output = T>
        + Send
        + Sync
{
}

/// A floating-point scalar with its matching 3-vector and quaternion types from glam.
pub trait Real:
    Copy
    + PartialOrd
    + std::fmt::Debug
    + Default
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + Send
    + Sync
    + 'static
{
    /// The 3-vector type the algorithms compute in: glam's 16-byte `Vec3A` for float32, `DVec3` for float64.
    /// `Vec3A` is one SIMD register (SSE2 on x86-64, NEON on ARM): a sum, product, matrix product or copy is one
    /// vector instruction or a few instead of three scalar ones. Each operation rounds as `Vec3`'s does, in the
    /// same order (the answers of `benches/vs_parry/cases.rs` are bit for bit the same), and a float32 query executes
    /// 7.5% to 12% fewer instructions (the time saved was within the VM's noise, 0 to 7%; see
    /// docs/benchmarks.md).
    type V: Vector<Self>;
    /// The plain 3-vector type (`Vec3` or `DVec3`) of what goes in and comes out: poses and answers
    /// ([`crate::gjk::GjkResult`], [`crate::epa::Penetration`], [`crate::pose::RelativePose`]), so callers never
    /// see `Vec3A`. [`Real::plain`] and [`Real::unplain`] convert, exactly.
    type Plain: Vector<Self>;
    /// The rotation type (`Quat` or `DQuat`).
    type Q: Copy + std::fmt::Debug + Send + Sync;
    /// The 3x3 matrix type (`Mat3A` or `DMat3`): rotations applied in the GJK loop, cheaper than quaternions.
    type M: Copy + std::fmt::Debug + Send + Sync;
    /// A SIMD vector of this scalar (`wide::f32x8` or `wide::f64x4`): the lanes of the structure-of-arrays
    /// support scan.
    type Lanes: Copy + std::fmt::Debug + PartialEq + Send + Sync;
    /// Scalars in one [`Real::Lanes`].
    const LANE_COUNT: usize;

    const ZERO: Self;
    const ONE: Self;
    /// Unit roundoff of the type, used to scale numerical tolerances.
    const EPSILON: Self;
    /// The smallest positive normal number and the largest finite one.
    const MIN_POSITIVE: Self;
    const MAX: Self;
    /// No wider type exists to repeat a query in: this precision's answer is the last word.
    const WIDEST: bool;

    fn from_f64(x: f64) -> Self;
    fn to_f64(self) -> f64;
    fn sqrt(self) -> Self;
    fn abs(self) -> Self {
        if self < Self::ZERO {
            -self
        } else {
            self
        }
    }
    fn is_finite(self) -> bool;
    /// The larger of two values (the first when they compare equal or either is NaN).
    fn max_of(self, other: Self) -> Self {
        if other > self {
            other
        } else {
            self
        }
    }

    fn vec(x: Self, y: Self, z: Self) -> Self::V;
    fn vzero() -> Self::V;
    fn dot(a: Self::V, b: Self::V) -> Self;
    fn cross(a: Self::V, b: Self::V) -> Self::V;
    fn comp(v: Self::V, axis: usize) -> Self;
    fn length_squared(v: Self::V) -> Self {
        Self::dot(v, v)
    }
    /// The sum of the absolute coordinates of `v`: the size that rounding bounds are taken of.
    fn l1_norm(v: Self::V) -> Self {
        Self::comp(v, 0).abs() + Self::comp(v, 1).abs() + Self::comp(v, 2).abs()
    }
    /// `v` divided by its largest absolute component (zero stays zero), so its square no longer underflows:
    /// the cross product of two edges 1e-24 long has a normal float32 length, but its square (1e-48) does not.
    /// The direction of a face normal is all that the plane projections need.
    fn balanced(v: Self::V) -> Self::V {
        let m = Self::comp(v, 0)
            .abs()
            .max_of(Self::comp(v, 1).abs())
            .max_of(Self::comp(v, 2).abs());
        if m > Self::ZERO {
            Self::vec(
                Self::comp(v, 0) / m,
                Self::comp(v, 1) / m,
                Self::comp(v, 2) / m,
            )
        } else {
            v
        }
    }
    /// `v` or a multiple of it whose squared length neither underflows nor overflows, with that squared length:
    /// `v` itself when its squared length is in range (every component whose square underflows is then below a
    /// unit of roundoff of the sum), [`Real::balanced`] otherwise. For the plane of a triangle (EPA's new faces,
    /// GJK's `s2d`), whose callers need only the direction: `balanced` always costs three divisions, which were
    /// most of `push_face`'s time and 2% to 4% of a penetration query, and 1% to 7% of a distance query in
    /// `s2d` (two runs of `scripts/old_new.sh`, docs/benchmarks.md). The two differ in the last bits of what is
    /// computed from the direction; the WGSL twin (`squarable` in `shaders/shared/signed_volumes.wgsl`) makes
    /// the same choice.
    fn squarable(v: Self::V) -> (Self::V, Self) {
        let len2 = Self::length_squared(v);
        if len2 >= Self::MIN_POSITIVE / Self::EPSILON && len2 <= Self::MAX {
            (v, len2)
        } else {
            let b = Self::balanced(v);
            (b, Self::length_squared(b))
        }
    }
    /// `v` scaled to unit length through [`Real::balanced`] (zero stays zero): `v / |v|` computed directly
    /// loses digits when `|v|²` is subnormal (a tiny shape against a huge one left a GJK normal of length
    /// 1.0001).
    fn unit_or_zero(v: Self::V) -> Self::V {
        let b = Self::balanced(v);
        let length = Self::length_squared(b).sqrt();
        if length > Self::ZERO {
            b * (Self::ONE / length)
        } else {
            b
        }
    }
    /// A computed vector as the plain type (the same three numbers).
    fn plain(v: Self::V) -> Self::Plain;
    /// A plain vector as the computed type (the same three numbers).
    fn unplain(v: Self::Plain) -> Self::V;
    fn vec_from_f64(v: DVec3) -> Self::V;
    /// A float32 vector in this precision (exact).
    fn vec_from_f32(v: Vec3) -> Self::V;
    /// A float32 vector held in `Vec3A` in this precision (exact; no conversion for float32).
    fn vec_from_f32_lanes(v: Vec3A) -> Self::V;
    fn vec_to_f64(v: Self::V) -> DVec3;

    fn quat_from_f64(q: DQuat) -> Self::Q;
    fn mat_from_quat(q: Self::Q) -> Self::M;
    /// `m * v`
    fn mat_mul(m: Self::M, v: Self::V) -> Self::V;
    /// `m^T * v`, the inverse rotation when `m` is a rotation.
    fn mat_mul_transposed(m: Self::M, v: Self::V) -> Self::V;

    /// Lanes holding `values` (exactly [`Real::LANE_COUNT`] of them).
    fn lanes(values: &[Self]) -> Self::Lanes;
    /// Index of the point with the largest dot product with `dir` among points stored as coordinate lanes
    /// (point `LANE_COUNT * block + lane` in lane `lane` of block `block`), the first one on ties: the same
    /// answer, bit for bit, as a scalar scan with [`Real::dot`], whose sum order it keeps.
    fn scan_lanes(x: &[Self::Lanes], y: &[Self::Lanes], z: &[Self::Lanes], dir: Self::V) -> usize;
    /// Bit `l` set when `x[l] * w.x + y[l] * w.y + z[l] * w.z - dist[l]` (the height of `w` above plane `l`,
    /// summed in [`Real::dot`]'s order, so the same bits) is not below `floor`, a height that is not a number
    /// included: eight planes of EPA's face slots in one step (see `crate::epa::planes`).
    fn heights_not_below(
        x: &[Self; 8],
        y: &[Self; 8],
        z: &[Self; 8],
        dist: &[Self; 8],
        w: Self::V,
        floor: Self,
    ) -> u32;
}

/// [`Real::scan_lanes`] for one lane type. The usual path: the largest dot product first (running maxima only,
/// two of them for even and odd blocks to halve the chain of dependent maxima), then the first point whose dot
/// product equals it, which is the scalar scan's first-on-ties answer (the dot products are recomputed with the
/// same operations, so the same bits). It needs every dot product finite, which a running sum beside the maxima
/// proves (a NaN or an infinity makes the sum one, on every target): a running maximum may let a NaN through
/// and then forget the larger value before it. Measured in one binary against the per-lane scan below alone,
/// timed in alternation on `benches/vs_parry/cases.rs`' mix: 3% to 5% less time per distance query, about 2% per
/// intersection and penetration query, every answer identical (measured before the sum was added).
///
/// The exact path for the rest (a direction that is not finite, dot products that overflow): each lane keeps
/// the first block with its maximum (strict `>`), the two chains are merged lane by lane (lower block first on
/// ties), then the largest value and the lowest index holding it, without a branch on the data.
macro_rules! scan_lanes_body {
    ($t:ty, $lanes:ty, $n:expr, $x:expr, $y:expr, $z:expr, $dir:expr) => {{
        let (x, y, z, dir) = ($x, $y, $z, $dir);
        let blocks = x.len().min(y.len()).min(z.len());
        let (dx, dy, dz) = (
            <$lanes>::splat(dir.x),
            <$lanes>::splat(dir.y),
            <$lanes>::splat(dir.z),
        );
        let dot = |b: usize| x[b] * dx + y[b] * dy + z[b] * dz;
        match largest_then_first!($lanes, $n, blocks, dot) {
            Some(found) => found,
            None => {
                let (mut best0, mut block0) = (dot(0), <$lanes>::splat(0.0));
                let (mut best1, mut block1) = (<$lanes>::splat(<$t>::NEG_INFINITY), block0);
                let mut b = 1;
                while b + 1 < blocks {
                    let (d0, d1) = (dot(b), dot(b + 1));
                    let (m0, m1) = (d0.simd_gt(best0), d1.simd_gt(best1));
                    best0 = m0.select(d0, best0);
                    block0 = m0.select(<$lanes>::splat(b as $t), block0);
                    best1 = m1.select(d1, best1);
                    block1 = m1.select(<$lanes>::splat((b + 1) as $t), block1);
                    b += 2;
                }
                if b < blocks {
                    let d = dot(b);
                    let m = d.simd_gt(best0);
                    best0 = m.select(d, best0);
                    block0 = m.select(<$lanes>::splat(b as $t), block0);
                }
                let take1 =
                    best1.simd_gt(best0) | (best1.simd_eq(best0) & block1.simd_lt(block0));
                let (values, blocks_of) = (
                    take1.select(best1, best0).to_array(),
                    take1.select(block1, block0).to_array(),
                );
                // `max` passes over lanes that are not numbers, which the scalar scan never takes.
                let mut best = values[0];
                for &v in &values[1..] {
                    best = best.max(v);
                }
                let mut answer = usize::MAX;
                for lane in 0..$n {
                    let index = blocks_of[lane] as usize * $n + lane;
                    let candidate = if values[lane] == best { index } else { usize::MAX };
                    answer = answer.min(candidate);
                }
                // Lane 0 not a number (a direction that is not a number): the first point, like the scalar
                // scan.
                if values[0] == values[0] {
                    answer
                } else {
                    0
                }
            }
        }
    }};
}

/// [`scan_lanes_body`]'s usual path over `blocks` blocks of `dot` products: `None` unless every dot product is
/// finite.
macro_rules! largest_then_first {
    ($lanes:ty, $n:expr, $blocks:expr, $dot:expr) => {{
        let (blocks, dot) = ($blocks, $dot);
        let first = dot(0);
        let (mut best0, mut best1) = (first, first);
        let (mut sum0, mut sum1) = (first, first - first);
        let mut b = 1;
        while b + 1 < blocks {
            let (d0, d1) = (dot(b), dot(b + 1));
            best0 = best0.fast_max(d0);
            best1 = best1.fast_max(d1);
            sum0 += d0;
            sum1 += d1;
            b += 2;
        }
        if b < blocks {
            let d = dot(b);
            best0 = best0.fast_max(d);
            sum0 += d;
        }
        // A finite sum: no dot product was a NaN or an infinity, and `fast_max` was the exact maximum.
        if (sum0 + sum1).to_array().iter().all(|s| s.is_finite()) {
            let lanes = best0.fast_max(best1).to_array();
            let mut top = lanes[0];
            for &v in &lanes[1..] {
                top = if v > top { v } else { top };
            }
            let target = <$lanes>::splat(top);
            (0..blocks).find_map(|b| {
                let mask = dot(b).simd_eq(target).to_bitmask();
                (mask != 0).then(|| b * $n + mask.trailing_zeros() as usize)
            })
        } else {
            None
        }
    }};
}

macro_rules! impl_real {
    ($t:ty, $widest:expr, $v:ty, $plain:ty, $q:ty, $m:ty, $lanes:ty, $n:expr, $from_f32:expr, $from_f32_lanes:expr, $conv_v:expr, $back_v:expr, $conv_q:expr) => {
        impl Real for $t {
            type V = $v;
            type Plain = $plain;
            type Q = $q;
            type M = $m;
            type Lanes = $lanes;
            const LANE_COUNT: usize = $n;
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const EPSILON: Self = <$t>::EPSILON;
            const MIN_POSITIVE: Self = <$t>::MIN_POSITIVE;
            const MAX: Self = <$t>::MAX;
            const WIDEST: bool = $widest;

            #[inline(always)]
            fn from_f64(x: f64) -> Self {
                x as $t
            }
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            #[inline(always)]
            fn is_finite(self) -> bool {
                <$t>::is_finite(self)
            }
            #[inline(always)]
            fn vec(x: Self, y: Self, z: Self) -> Self::V {
                <$v>::new(x, y, z)
            }
            #[inline(always)]
            fn vzero() -> Self::V {
                <$v>::ZERO
            }
            #[inline(always)]
            fn dot(a: Self::V, b: Self::V) -> Self {
                a.dot(b)
            }
            #[inline(always)]
            fn cross(a: Self::V, b: Self::V) -> Self::V {
                a.cross(b)
            }
            #[inline(always)]
            fn comp(v: Self::V, axis: usize) -> Self {
                v[axis]
            }
            #[inline(always)]
            fn plain(v: Self::V) -> Self::Plain {
                v.into()
            }
            #[inline(always)]
            fn unplain(v: Self::Plain) -> Self::V {
                v.into()
            }
            #[inline(always)]
            fn vec_from_f64(v: DVec3) -> Self::V {
                $conv_v(v)
            }
            #[inline(always)]
            fn vec_from_f32(v: Vec3) -> Self::V {
                $from_f32(v)
            }
            #[inline(always)]
            fn vec_from_f32_lanes(v: Vec3A) -> Self::V {
                $from_f32_lanes(v)
            }
            #[inline(always)]
            fn vec_to_f64(v: Self::V) -> DVec3 {
                $back_v(v)
            }
            #[inline(always)]
            fn quat_from_f64(q: DQuat) -> Self::Q {
                $conv_q(q)
            }
            #[inline(always)]
            fn mat_from_quat(q: Self::Q) -> Self::M {
                <$m>::from_quat(q)
            }
            #[inline(always)]
            fn mat_mul(m: Self::M, v: Self::V) -> Self::V {
                m * v
            }
            #[inline(always)]
            fn mat_mul_transposed(m: Self::M, v: Self::V) -> Self::V {
                <$v>::new(m.x_axis.dot(v), m.y_axis.dot(v), m.z_axis.dot(v))
            }
            #[inline]
            fn lanes(values: &[Self]) -> Self::Lanes {
                let mut a = [0.0; $n];
                a.copy_from_slice(values);
                <$lanes>::new(a)
            }
            #[inline(always)]
            fn heights_not_below(
                x: &[Self; 8],
                y: &[Self; 8],
                z: &[Self; 8],
                dist: &[Self; 8],
                w: Self::V,
                floor: Self,
            ) -> u32 {
                let (wx, wy, wz, floor) = (
                    <$lanes>::splat(w.x),
                    <$lanes>::splat(w.y),
                    <$lanes>::splat(w.z),
                    <$lanes>::splat(floor),
                );
                let mut below = 0u32;
                for part in 0..8 / $n {
                    let at = |a: &[Self; 8]| Self::lanes(&a[part * $n..(part + 1) * $n]);
                    let h = at(x) * wx + at(y) * wy + at(z) * wz - at(dist);
                    below |= (h.simd_lt(floor).to_bitmask() as u32) << (part * $n);
                }
                !below & 0xFF
            }
            #[inline]
            fn scan_lanes(
                x: &[Self::Lanes],
                y: &[Self::Lanes],
                z: &[Self::Lanes],
                dir: Self::V,
            ) -> usize {
                scan_lanes_body!($t, $lanes, $n, x, y, z, dir)
            }
        }
    };
}

impl_real!(
    f32,
    false,
    Vec3A,
    Vec3,
    Quat,
    Mat3A,
    wide::f32x8,
    8,
    |v: Vec3| Vec3A::from(v),
    |v: Vec3A| v,
    |v: DVec3| Vec3A::from(v.as_vec3()),
    |v: Vec3A| v.as_dvec3(),
    |q: DQuat| q.as_quat()
);
impl_real!(
    f64,
    true,
    DVec3,
    DVec3,
    DQuat,
    DMat3,
    wide::f64x4,
    4,
    |v: Vec3| v.as_dvec3(),
    |v: Vec3A| v.as_dvec3(),
    |v: DVec3| v,
    |v: DVec3| v,
    |q: DQuat| q
);

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Real::heights_not_below`] against the scalar height of each plane, in both precisions: random planes
    /// and points, a floor at one of the heights (equal is not below), and NaN heights (not below).
    fn check<R: Real>(to_r: impl Fn(f64) -> R) {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            to_r((state >> 11) as f64 / (1u64 << 52) as f64 - 1.0)
        };
        for round in 0..500 {
            let mut planes = [[R::ZERO; 8]; 4];
            for plane in &mut planes {
                for x in plane.iter_mut() {
                    *x = next();
                }
            }
            if round % 5 == 0 {
                planes[3][round % 8] = to_r(f64::NAN);
            }
            let w = R::vec(next(), next(), next());
            let [x, y, z, dist] = planes;
            let height = |l: usize| R::dot(R::vec(x[l], y[l], z[l]), w) - dist[l];
            let floor = if round % 2 == 0 {
                height(round % 8)
            } else {
                next()
            };
            // A NaN height compares as unordered: not below.
            let not_below =
                |l: usize| height(l).partial_cmp(&floor) != Some(std::cmp::Ordering::Less);
            let expected = (0..8).fold(0u32, |m, l| m | (u32::from(not_below(l)) << l));
            assert_eq!(
                R::heights_not_below(&x, &y, &z, &dist, w, floor),
                expected,
                "round {round}"
            );
        }
    }

    #[test]
    fn eight_heights_at_once_are_the_scalar_heights() {
        check::<f32>(|x| x as f32);
        check::<f64>(|x| x);
    }

    /// A cross product is taken as it is while its square is in range, and balanced where the square would
    /// underflow or overflow: the direction is kept either way and the squared length returned is that of the
    /// vector returned.
    #[test]
    fn squarable_keeps_vectors_in_range_and_balances_the_rest() {
        use glam::Vec3A;
        let in_range = Vec3A::new(3.0, -4.0, 12.0);
        assert_eq!(f32::squarable(in_range), (in_range, 169.0));
        // A square below float32's smallest normal number over its unit of roundoff (about 5e-40 here), and
        // one that overflows: both balanced, largest component +-1, same direction.
        for (v, largest) in [
            (Vec3A::new(1e-20, -2e-20, 4e-21), -2e-20),
            (Vec3A::new(3e19, 1e19, -3e19), 3e19),
            (Vec3A::new(0.0, 0.0, f32::MAX), f32::MAX),
        ] {
            let (b, len2) = f32::squarable(v);
            assert_eq!(b, v / largest.abs(), "{v}");
            assert_eq!(len2, b.length_squared(), "{v}");
            assert!(
                len2.is_normal() && (1.0..=3.0).contains(&len2),
                "{v}: {len2}"
            );
        }
        // Zero stays zero; no number stays no number (`balanced` leaves both as they are).
        assert_eq!(f32::squarable(Vec3A::ZERO), (Vec3A::ZERO, 0.0));
        assert!(f32::squarable(Vec3A::NAN).1.is_nan());
        // Either side of the lower bound, 2^-103: squares 2^-102 (taken as it is) and 2^-104 (balanced).
        let inside = Vec3A::new(2f32.powi(-51), 0.0, 0.0);
        assert_eq!(f32::squarable(inside).0, inside);
        let outside = Vec3A::new(0.0, 2f32.powi(-52), 0.0);
        assert_eq!(f32::squarable(outside).0, Vec3A::Y);
    }
}
