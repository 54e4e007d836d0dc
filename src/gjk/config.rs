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
}

impl GjkStatus {
    pub fn name(self) -> &'static str {
        match self {
            GjkStatus::Separated => "separated",
            GjkStatus::Intersecting => "intersecting",
            GjkStatus::MaxIterations => "max_iterations",
        }
    }

    pub fn from_u32(v: u32) -> Option<Self> {
        match v {
            0 => Some(GjkStatus::Separated),
            1 => Some(GjkStatus::Intersecting),
            2 => Some(GjkStatus::MaxIterations),
            _ => None,
        }
    }
}

/// The length that sets the pair's tolerances: the larger of the two shapes' bounding radii about their own
/// local origins (radius included). It tracks both the size of the shapes and the magnitude of the
/// coordinates GJK works with, which is what float32 rounding scales with.
pub fn pair_scale(bounding_radius_a: f32, bounding_radius_b: f32) -> f32 {
    bounding_radius_a.max(bounding_radius_b)
}
