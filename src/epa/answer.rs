//! What EPA answers and within which bounds: the penetration answer and its named statuses, the polytope's
//! bounds, and the tolerances EPA and its WGSL twin share (emitted into the WGSL by
//! `src/gpu/shader/constants.rs`).

use crate::real::Real;

/// Most polytope vertices (the start tetrahedron included) in the first try, the GPU's bound.
pub(crate) const EPA_MAX_VERTICES: usize = 64;
/// Most polytope faces, live and dead slots together (dead slots are reused).
pub(crate) const EPA_MAX_FACES: usize = 128;
/// Most horizon edges in one expansion.
pub(crate) const EPA_MAX_HORIZON: usize = 64;
/// Most expansions (each adds one vertex, so this stays below the vertex bound).
pub(crate) const EPA_MAX_ITERATIONS: u32 = (EPA_MAX_VERTICES - 4) as u32;
/// Most polytope vertices in the CPU's second try ([`EpaLimits::grown`]): two round hulls of 10,000 points
/// each at one centre need 16,225 expansions.
pub(crate) const GROWN_MAX_VERTICES: usize = 32768;
/// The bounds of one EPA run: how many vertices, faces and horizon edges its polytope may hold. It makes at
/// most `vertices - 4` expansions (each adds a vertex).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EpaLimits {
    pub vertices: usize,
    pub faces: usize,
    pub horizon: usize,
}

impl EpaLimits {
    /// The first try's bounds, which the GPU's fixed private arrays share.
    pub const FIRST: EpaLimits = EpaLimits {
        vertices: EPA_MAX_VERTICES,
        faces: EPA_MAX_FACES,
        horizon: EPA_MAX_HORIZON,
    };

    /// Bounds that grow with the hulls, for the CPU's second try when the first one runs out: deep overlaps of
    /// finely tessellated round hulls need a polytope with many small faces, down to the size of the Minkowski
    /// difference's own facets where its depth is least. Measured on Fibonacci spheres at one centre (radii 1
    /// and 1, 1 and 0.5, either order, B turned or not): 1,458 expansions for two of 800 points, 3,337 for two
    /// of 2,000, 16,225 for two of 10,000, 3,915 for 10,000 against 800: under 0.92 of the points of both
    /// hulls. The points of both hulls plus 512, at least 1,024 and at most 32,768 vertices; a closed
    /// triangulation has fewer than twice as many faces as vertices.
    pub fn grown(points_a: usize, points_b: usize) -> EpaLimits {
        let vertices = (points_a + points_b + 512).clamp(1024, GROWN_MAX_VERTICES);
        EpaLimits {
            vertices,
            faces: 2 * vertices,
            horizon: vertices,
        }
    }

    /// Most expansions.
    pub fn iterations(&self) -> u32 {
        (self.vertices - 4) as u32
    }
}

/// Convergence: the support point along the closest face's normal lies within this fraction of the pair's
/// size beyond the face.
pub(crate) const EPA_TOLERANCE: f64 = 1e-6;

/// How far (relative to the pair's size) the origin may lie outside the final polytope, or its projection
/// outside the final face: GJK declares overlap within the touching tolerance (1e-5 by default), and EPA's
/// start simplex inherits that.
pub(crate) const EPA_TOUCH_SLACK: f64 = 1e-4;
/// How far (relative to the pair's size) the support functions along a penetrating answer's normal may add up
/// to something else than its depth. The answers this check exists for are off by a large part of the size.
/// (The normal and depth come from EPA's closest face; the coplanar neighbour that rebuilds the contact points,
/// whose normal may be turned by up to 1.4e-3 rad, no longer sets them: on a slab far wider than thick that
/// turn made B move three times the depth along the normal, within this slack.)
pub(crate) const EPA_CERTIFICATE_SLACK: f64 = 1e-3;
/// Faces whose normals agree to within this much of a unit cosine (and whose distances to within the EPA
/// tolerance) are coplanar neighbours: one flat facet of A - B split into triangles.
pub(crate) const EPA_COPLANAR_COSINE_SLACK: f64 = 1e-6;
/// Units of roundoff, of the distance from a face's corner to a new point, within which the new point counts
/// as in the face's plane and so as seeing it: a box's A - B has whole facets of coplanar points, and a point
/// exactly in a facet that is kept would close the hole with a face folded over its neighbour (pointing
/// inwards, at a large negative distance that EPA would then pick as closest).
pub(crate) const EPA_COPLANAR_ULPS: f64 = 16.0;
/// Units of roundoff, of the sizes involved (the two support points, the contact points, the depth and the
/// radii, as sums of absolute coordinates), that the certificate takes off [`EPA_CERTIFICATE_SLACK`] before
/// comparing: its own sums are rounded too, and without this room an answer just outside the slack could
/// pass by the check's rounding (a normal along which B had to move 1.00014e-3 of the size, at coordinates
/// near 9e8, where an ulp is 64). 16 covers the dot product, the differences and B's placement with room.
pub(crate) const EPA_CERTIFICATE_ROUNDING_ULPS: f64 = 16.0;
/// How far from 1 the squared length of a certified normal may be: an overflowed or vanished cross product
/// certifies nothing.
pub(crate) const EPA_UNIT_NORMAL_SLACK: f64 = 1e-3;

// Face corners are packed into 8 bits each on the GPU.
const _: () = assert!(EPA_MAX_VERTICES <= 256);

/// How a penetration query ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum PenetrationStatus {
    /// The shapes are apart: no depth.
    Separated = 0,
    /// Depth, normal and contacts found.
    Penetrating = 1,
    /// GJK hit its iteration bound, so whether the shapes overlap is unknown.
    GjkMaxIterations = 2,
    /// EPA hit its iteration bound; the fields hold the best face found, a lower bound on the depth, and
    /// `depth_upper` the shapes' support functions along its normal, an upper bound.
    MaxIterations = 3,
    /// The polytope outgrew `EPA_MAX_VERTICES`, `EPA_MAX_FACES` or `EPA_MAX_HORIZON`; best face so far.
    Overflow = 4,
    /// Rounding broke the polytope (a face with no area, or a fold found by the checks); best face so far.
    /// The float32 entry points then repeat the pair in float64.
    Degenerate = 5,
    /// GJK was left unresolved by rounding (`Unresolved`), so whether the shapes overlap is
    /// unknown. The float32 entry points repeat the pair in float64.
    GjkUnresolved = 6,
    /// The GPU adapter cut a loop of the kernel short (`GpuLoopLimit`); answer on the CPU.
    GpuLoopLimit = 7,
}

impl PenetrationStatus {
    pub const ALL: [PenetrationStatus; 8] = [
        PenetrationStatus::Separated,
        PenetrationStatus::Penetrating,
        PenetrationStatus::GjkMaxIterations,
        PenetrationStatus::MaxIterations,
        PenetrationStatus::Overflow,
        PenetrationStatus::Degenerate,
        PenetrationStatus::GjkUnresolved,
        PenetrationStatus::GpuLoopLimit,
    ];

    pub fn name(self) -> &'static str {
        match self {
            PenetrationStatus::Separated => "separated",
            PenetrationStatus::Penetrating => "penetrating",
            PenetrationStatus::GjkMaxIterations => "gjk_max_iterations",
            PenetrationStatus::MaxIterations => "epa_max_iterations",
            PenetrationStatus::Overflow => "epa_overflow",
            PenetrationStatus::Degenerate => "epa_degenerate",
            PenetrationStatus::GjkUnresolved => "gjk_unresolved",
            PenetrationStatus::GpuLoopLimit => "gpu_loop_limit",
        }
    }

    /// True when the pair has no trustworthy answer: every status but `Separated` and `Penetrating`.
    pub fn is_failure(self) -> bool {
        !matches!(
            self,
            PenetrationStatus::Separated | PenetrationStatus::Penetrating
        )
    }
}

/// How deep two shapes overlap, in the pair-local frame (A's local frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration<R: Real> {
    pub status: PenetrationStatus,
    /// Overlap depth, radii included; 0 when separated or exactly touching.
    pub depth: R,
    /// Unit direction from A towards B: moving B by `normal * depth` leaves the shapes touching.
    pub normal: R::Plain,
    /// The point of A deepest inside B.
    pub contact_a: R::Plain,
    /// The point of B deepest inside A; `contact_a - contact_b = normal * depth`.
    pub contact_b: R::Plain,
    /// EPA expansions (0 when GJK alone answered).
    pub iterations: u32,
    /// On an answer EPA did not converge on (`MaxIterations`, `Overflow`, `Degenerate`), an upper bound on the
    /// depth: the shapes' support functions along the answer's normal, `h_A(n) + h_B(-n)`, radii included
    /// (the depth of any direction is at least the penetration depth). `None` on every other status.
    pub depth_upper: Option<R>,
}

/// A float32 answer's fields as bits: (status, depth, normal, contact_a, contact_b, iterations, depth_upper).
pub(crate) type PenetrationBits = (
    PenetrationStatus,
    u32,
    [u32; 3],
    [u32; 3],
    [u32; 3],
    u32,
    Option<u32>,
);

impl Penetration<f32> {
    /// Every field's bits, to compare answers bit for bit: `==` takes `-0.0` for `0.0` and never a NaN for
    /// itself.
    pub fn to_bits(&self) -> PenetrationBits {
        let bits = |v: glam::Vec3| v.to_array().map(f32::to_bits);
        (
            self.status,
            self.depth.to_bits(),
            bits(self.normal),
            bits(self.contact_a),
            bits(self.contact_b),
            self.iterations,
            self.depth_upper.map(f32::to_bits),
        )
    }
}

impl<R: Real> Penetration<R> {
    /// An answer with no depth: separated, or a failure before EPA could start.
    pub fn none(status: PenetrationStatus) -> Self {
        Self {
            status,
            depth: R::ZERO,
            normal: R::plain(R::vzero()),
            contact_a: R::plain(R::vzero()),
            contact_b: R::plain(R::vzero()),
            iterations: 0,
            depth_upper: None,
        }
    }
}
