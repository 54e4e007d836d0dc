//! A pair of shapes as the algorithms see it: two centred point sets in the pair-local frame (A as given, B
//! through its pose relative to A), in normalised units, with the radii and the tolerance scale.

use super::config::GjkConfig;
use crate::pose::RelativePose;
use crate::real::Real;
use crate::shape::HullView;

/// Two core point sets in the pair-local frame: A as given, B through the relative pose, both multiplied by
/// `unit`, a power of two that brings the pair's scale near 1 (see `pair_unit`). `shaders/shared/
/// support.wgsl` holds its twin.
///
/// Radii are not part of the support mapping: GJK runs on the cores and the radii are applied as a margin
/// at the end, which keeps spheres and capsules exact and makes them converge in a few iterations.
///
/// Multiplying by a power of two is exact, so in normalised units the algorithms compute the very same bits
/// as they would in the user's units, except that no product of coordinates can overflow or underflow:
/// shapes a billion units wide and shapes 1e-23 units wide are answered alike.
///
/// Each shape's support search is its [`HullView`]'s: a hill-climbing walk over the hull's adjacency or a SIMD
/// scan on the CPU (the GPU twin scans), both with the scan's support value.
#[derive(Clone)]
pub(crate) struct PairSupport<'a, R: Real> {
    pub a: HullView<'a, R>,
    pub b: HullView<'a, R>,
    /// Rotation of B into A's frame, as a matrix (cheaper per support call than a quaternion).
    pub rotation_b: R::M,
    /// B's position in A's frame, in normalised units.
    pub position_b: R::V,
    /// The factor from the user's units to normalised units.
    pub unit: R,
    /// GJK's first search direction, from A towards B: B's position, or a direction carried over from an
    /// earlier query of the same pair (see `crate::query::WarmStart`).
    pub start: R::V,
}

impl<'a, R: Real> PairSupport<'a, R> {
    pub fn new(
        a: HullView<'a, R>,
        b: HullView<'a, R>,
        relative: &RelativePose<R>,
        unit: R,
    ) -> Self {
        Self {
            a,
            b,
            rotation_b: R::mat_from_quat(relative.rotation),
            position_b: R::unplain(relative.position) * unit,
            unit,
            start: R::unplain(relative.position) * unit,
        }
    }

    /// Support point of A along `dir`, in A's frame.
    #[inline(always)]
    pub fn support_a(&self, dir: R::V) -> R::V {
        self.a.support_point(dir) * self.unit
    }

    /// Support point of B along `dir` (given in A's frame), returned in A's frame.
    #[inline(always)]
    pub fn support_b(&self, dir: R::V) -> R::V {
        let local_dir = R::mat_mul_transposed(self.rotation_b, dir);
        let local = self.b.support_point(local_dir);
        R::mat_mul(self.rotation_b, local) * self.unit + self.position_b
    }
}

/// One pair ready for GJK and EPA, in the spirit of Box2D's `b2DistanceInput`: the support mappings, the radii
/// and the tolerance scale, all in normalised units, and the settings. `PairQuery` in
/// `shaders/shared/support.wgsl` is its twin.
#[derive(Clone)]
pub(crate) struct PairQuery<'a, R: Real> {
    pub support: PairSupport<'a, R>,
    /// Radius of A, normalised.
    pub radius_a: R,
    /// Radius of B, normalised.
    pub radius_b: R,
    /// [`super::pair_scale`], normalised: sets every relative tolerance.
    pub scale: R,
    pub config: &'a GjkConfig,
}

impl<R: Real> PairQuery<'_, R> {
    /// The sum of the radii: GJK runs on the cores and applies it as a margin.
    pub fn margin(&self) -> R {
        self.radius_a + self.radius_b
    }

    /// The touching tolerance in normalised units: surfaces closer than this intersect.
    pub fn touch_tolerance(&self) -> R {
        R::from_f64(self.config.touch_tolerance) * self.scale
    }
}
