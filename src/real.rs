//! The scalar abstraction that lets one GJK implementation run in `f32` (the production path, mirrored by the
//! WGSL shader) and in `f64` (a referee in tests).

use glam::{DMat3, DQuat, DVec3, Mat3, Quat, Vec3};
use std::ops::{Add, Div, Mul, Neg, Sub};

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
    /// The 3-vector type (`Vec3` or `DVec3`).
    type V: Copy
        + std::fmt::Debug
        + PartialEq
        + Add<Output = Self::V>
        + Sub<Output = Self::V>
        + Neg<Output = Self::V>
        + Mul<Self, Output = Self::V>
        + Send
        + Sync;
    /// The rotation type (`Quat` or `DQuat`).
    type Q: Copy + std::fmt::Debug + Send + Sync;
    /// The 3x3 matrix type (`Mat3` or `DMat3`): rotations applied in the GJK loop, cheaper than quaternions.
    type M: Copy + std::fmt::Debug + Send + Sync;

    const ZERO: Self;
    const ONE: Self;
    /// Unit roundoff of the type, used to scale numerical tolerances.
    const EPSILON: Self;
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
    fn vec_from_f64(v: DVec3) -> Self::V;
    fn vec_to_f64(v: Self::V) -> DVec3;

    fn quat_from_f64(q: DQuat) -> Self::Q;
    fn mat_from_quat(q: Self::Q) -> Self::M;
    /// `m * v`
    fn mat_mul(m: Self::M, v: Self::V) -> Self::V;
    /// `m^T * v`, the inverse rotation when `m` is a rotation.
    fn mat_mul_transposed(m: Self::M, v: Self::V) -> Self::V;
}

macro_rules! impl_real {
    ($t:ty, $widest:expr, $v:ty, $q:ty, $m:ty, $conv_v:expr, $back_v:expr, $conv_q:expr) => {
        impl Real for $t {
            type V = $v;
            type Q = $q;
            type M = $m;
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const EPSILON: Self = <$t>::EPSILON;
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
            fn vec_from_f64(v: DVec3) -> Self::V {
                $conv_v(v)
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
        }
    };
}

impl_real!(
    f32,
    false,
    Vec3,
    Quat,
    Mat3,
    |v: DVec3| v.as_vec3(),
    |v: Vec3| v.as_dvec3(),
    |q: DQuat| q.as_quat()
);
impl_real!(
    f64,
    true,
    DVec3,
    DQuat,
    DMat3,
    |v: DVec3| v,
    |v: DVec3| v,
    |q: DQuat| q
);
