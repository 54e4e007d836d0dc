//! Query settings and the named outcome of a query.

/// Default bound on GJK iterations (support-point evaluations after the first). On the random mix of the
/// property tests (hulls of up to 512 points) the largest count seen is far below it; see README.
pub const DEFAULT_MAX_ITERATIONS: u32 = 64;

/// Default touching tolerance, as a fraction of the pair's scale ([`pair_scale`]): shapes whose surfaces
/// are closer than this are reported as intersecting. Float32 coordinates of that scale carry a rounding
/// error of about 1e-7 of it, so 1e-5 sits two orders above the noise and two below the 1e-3 gaps users
/// want separated. Because it is relative, scaling or translating a scene does not change any answer.
pub const DEFAULT_TOUCH_TOLERANCE: f64 = 1e-5;

/// The convergence test stops when the gap between the upper bound `|v|` and the lower bound
/// `v.w / |v|` on the core distance is below this many units of roundoff of the coordinates involved.
pub const CONVERGENCE_ULPS: f64 = 16.0;

/// What to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryKind {
    /// Intersection flag only: stops as soon as a support point proves a separating plane, or the simplex
    /// comes within the radii of the origin. Distance and witnesses are then estimates, not converged.
    Intersection,
    /// Distance, closest points and separating direction, converged.
    Distance,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkConfig {
    /// Upper bound on iterations; a query that reaches it without an answer has status
    /// [`GjkStatus::MaxIterations`].
    pub max_iterations: u32,
    /// Touching tolerance as a fraction of [`pair_scale`].
    pub touch_tolerance: f64,
}

impl Default for GjkConfig {
    fn default() -> Self {
        Self {
            max_iterations: DEFAULT_MAX_ITERATIONS,
            touch_tolerance: DEFAULT_TOUCH_TOLERANCE,
        }
    }
}

/// How a query ended. The numeric values are shared with the GPU result buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum GjkStatus {
    /// The shapes are apart by more than the touching tolerance; distance and witnesses are converged.
    Separated = 0,
    /// The shapes overlap or touch within the tolerance; distance is 0.
    Intersecting = 1,
    /// The iteration bound was reached before GJK could decide. `intersecting` is false and `distance`
    /// is only an upper bound: treat the pair as unknown, never as separated.
    MaxIterations = 2,
    /// Rounding stopped GJK before its bounds met: the last step made no progress, yet the lower bound on the
    /// distance is clearly below the upper bound (a point in a needle, a sliver simplex), or a claimed overlap
    /// is not backed by a point of A - B. Like `MaxIterations`, the answer is unknown. The float32 entry
    /// points repeat such a pair in float64, which resolves it; the GPU, which has no float64, reports it
    /// for the CPU to answer again.
    Unresolved = 3,
    /// The GPU adapter cut one of the kernel's loops short (llvmpipe and lavapipe allow 65,535 loop trips
    /// per group of invocations, shared by every loop of the group), so no answer from that group can be
    /// trusted; answer the pair on the CPU. Only the GPU reports it.
    GpuLoopLimit = 4,
}

impl GjkStatus {
    pub const ALL: [GjkStatus; 5] = [
        GjkStatus::Separated,
        GjkStatus::Intersecting,
        GjkStatus::MaxIterations,
        GjkStatus::Unresolved,
        GjkStatus::GpuLoopLimit,
    ];

    pub fn name(self) -> &'static str {
        match self {
            GjkStatus::Separated => "separated",
            GjkStatus::Intersecting => "intersecting",
            GjkStatus::MaxIterations => "max_iterations",
            GjkStatus::Unresolved => "unresolved",
            GjkStatus::GpuLoopLimit => "gpu_loop_limit",
        }
    }

    pub fn from_u32(v: u32) -> Option<Self> {
        Self::ALL.get(v as usize).copied()
    }

    /// True when the pair has no trustworthy answer (`MaxIterations`, `Unresolved`, `GpuLoopLimit`).
    pub fn is_failure(self) -> bool {
        !matches!(self, GjkStatus::Separated | GjkStatus::Intersecting)
    }
}

/// The length that sets the pair's tolerances: the larger of the two shapes' bounding radii about their own
/// local origins (radius included). It tracks both the size of the shapes and the magnitude of the
/// coordinates GJK works with, which is what float32 rounding scales with.
pub fn pair_scale(bounding_radius_a: f32, bounding_radius_b: f32) -> f32 {
    bounding_radius_a.max(bounding_radius_b)
}

/// The power of two that brings a pair to unit scale: every coordinate is multiplied by it before any GJK or
/// EPA arithmetic (see [`super::PairSupport`]) and the answer divided by it afterwards, which is exact.
///
/// `scale` is [`pair_scale`]; `offset` the largest coordinate of B's position relative to A. The unit brings the
/// scale into [1, 2), unless the shapes are more than 2^60 of their size apart, where it keeps the offset below
/// 2^60 so that its square cannot overflow float32 (the shapes are then points at that distance anyway). Both
/// the CPU and the WGSL twin read the exponent from the float32 bits, so they pick the same unit.
pub fn pair_unit(scale: f32, offset: f32) -> f32 {
    let exponent = |x: f32| ((x.to_bits() >> 23) & 0xff) as i32 - 127;
    let mut e = if scale > 0.0 {
        exponent(scale)
    } else if offset > 0.0 {
        exponent(offset)
    } else {
        0
    };
    if offset > 0.0 {
        e = e.max(exponent(offset) - 60);
    }
    let e = e.clamp(-126, 126);
    f32::from_bits(((127 - e) as u32) << 23)
}

#[cfg(test)]
mod unit_tests {
    use super::pair_unit;

    #[test]
    fn the_unit_brings_the_scale_to_one_or_two_and_is_a_power_of_two() {
        for scale in [1e-30f32, 1e-23, 3e-7, 0.7, 1.0, 1.5, 2.0, 1000.0, 1.7e9] {
            let unit = pair_unit(scale, scale);
            let normalised = scale * unit;
            assert!((1.0..2.0).contains(&normalised), "{scale} -> {normalised}");
            assert_eq!(unit.to_bits() & 0x7f_ffff, 0, "a power of two");
        }
        // Zero scale (two points): the offset sets the unit.
        assert_eq!(pair_unit(0.0, 0.0), 1.0);
        assert!((1.0..2.0).contains(&(8.0 * pair_unit(0.0, 8.0))));
        // Tiny shapes far apart: the offset stays below 2^60 in normalised units.
        let unit = pair_unit(1e-20, 1e9);
        assert!(1e9 * unit < 2f32.powi(61));
    }
}
