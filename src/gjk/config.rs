//! Query settings, the named outcome of a query, and every constant the GJK code and its WGSL twin share.
//!
//! The constants are emitted into the WGSL when the shaders are assembled (`src/gpu/shader/constants.rs`), so
//! each one is written once, here.

/// Default bound on GJK iterations (support-point evaluations after the first). On the random mix of the
/// property tests (hulls of up to 512 points) the largest count seen is far below it; see README.
pub(crate) const DEFAULT_MAX_ITERATIONS: u32 = 64;

/// Default touching tolerance, as a fraction of the pair's scale ([`pair_scale`]): shapes whose surfaces
/// are closer than this are reported as intersecting. Float32 coordinates of that scale carry a rounding
/// error of about 1e-7 of it, so 1e-5 sits two orders above the noise and two below the 1e-3 gaps users
/// want separated. Because it is relative, scaling or translating a scene does not change any answer.
pub(crate) const DEFAULT_TOUCH_TOLERANCE: f64 = 1e-5;

/// The convergence test stops when the gap between the upper bound `|v|` and the lower bound
/// `v.w / |v|` on the core distance is below this many units of roundoff of the coordinates involved.
pub(crate) const CONVERGENCE_ULPS: f64 = 16.0;

/// Consecutive iterations without a decrease of |v| that GJK tolerates before declaring convergence.
pub(crate) const MAX_STALLS: u32 = 3;

/// Units of roundoff in the allowance on |v|^2 when judging whether a step made progress.
pub(crate) const NOISE_ULPS: f64 = 8.0;

/// How far below GJK's lower bound (in units of [`NOISE_ULPS`]' allowance) a new |v|^2 may fall before it counts
/// as impossible: the projection and the bound each carry their own rounding, seen 1.2 allowances apart where
/// the bounds meet beside a thin slab; a sliver projection let out of its face falls 10% below.
pub(crate) const LOWER_BOUND_NOISE_FACTOR: f64 = 16.0;

/// Units of roundoff, of the pair's scale plus the distance, that the certified lower and upper bounds on the
/// core distance may differ by when GJK reports a separation. The convergence test allows 16
/// ([`CONVERGENCE_ULPS`]) between the current bounds; twice that leaves room for the rounding of the
/// recomputed upper bound, and is still 40 times finer than the touching tolerance, so a certified answer
/// cannot have the wrong flag.
pub(crate) const CERTIFICATE_ULPS: f64 = 32.0;

/// Units of roundoff of the largest simplex vertex by which the recomputed point of an overlap may lie beyond
/// the margin (the rounding of a weighted sum of four vertices).
pub(crate) const INTERSECTION_CERTIFICATE_ULPS: f64 = 8.0;

/// Units of roundoff of the largest simplex vertex L in the bounds themselves: `v.w` is good to a few ulps of
/// `L^2`, and the lower bound `v.w / |v|` to a few ulps of L.
pub(crate) const BOUND_ROUNDING_ULPS: f64 = 4.0;

/// Units of roundoff in the rounding of GJK's direction, `eps L^2 / |v|`: the gap it leaves between the bounds
/// of a converged separation. Measured up to 4.8 (float64, a sphere beside a turned 648 x 18 x 0.6 box); 16
/// leaves room.
pub(crate) const DIRECTION_ROUNDING_ULPS: f64 = 16.0;

/// The share of the touching tolerance that the rounding of GJK's direction may take in a certified
/// separation.
pub(crate) const DIRECTION_ROUNDING_CAP: f64 = 1.0 / 16.0;

/// Units of roundoff in the slack on a barycentric weight in `s2d_plane`: a sub-area is a difference of
/// products of coordinate differences, each good to a few ulps of the largest squared coordinate.
pub(crate) const WEIGHT_SLACK_ULPS: f64 = 16.0;

/// `s2d_plane` gives up on a triangle whose weights carry more slack than this: too thin for its weights to
/// mean anything.
pub(crate) const PLANE_SLACK_CAP: f64 = 1e-3;

/// What to compute. The values are shared with the GPU's parameter block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum QueryKind {
    /// Intersection flag only: stops as soon as a support point proves a separating plane, or the simplex
    /// comes within the radii of the origin. Distance and witnesses are then estimates, not converged.
    Intersection = 0,
    /// Distance, closest points and separating direction, converged.
    Distance = 1,
}

impl QueryKind {
    pub const ALL: [QueryKind; 2] = [QueryKind::Intersection, QueryKind::Distance];

    pub fn name(self) -> &'static str {
        match self {
            QueryKind::Intersection => "intersection",
            QueryKind::Distance => "distance",
        }
    }
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
