//! Penetration depth, contact normal and contact points for overlapping shapes: GJK first (which also
//! answers shapes whose cores are apart but whose radii overlap), then the expanding polytope algorithm
//! (EPA, van den Bergen 2001) on the cores, started from GJK's final simplex.
//!
//! Fixed-size arrays and named bounds, no allocation, so a WGSL twin can hold the same polytope in private
//! memory. When a bound is hit the answer carries a named status, never a silent guess.

#![expect(
    clippy::neg_cmp_op_on_partial_ord,
    reason = "negated comparisons are deliberate: they are true for NaN too, which must take the safe branch"
)]

use super::config::{GjkConfig, GjkStatus, QueryKind};
use super::simplex::Simplex;
use super::solver::{gjk_with_simplex, GjkResult};
use super::support::PairSupport;
use crate::real::Real;

/// Most polytope vertices (the start tetrahedron included) in the first try, the GPU's bound.
pub const EPA_MAX_VERTICES: usize = 64;
/// Most polytope faces, live and dead slots together (dead slots are reused).
pub const EPA_MAX_FACES: usize = 128;
/// Most horizon edges in one expansion.
pub const EPA_MAX_HORIZON: usize = 64;
/// Most expansions (each adds one vertex, so this stays below the vertex bound).
pub const EPA_MAX_ITERATIONS: u32 = (EPA_MAX_VERTICES - 4) as u32;
/// The bounds of one EPA run: how many vertices, faces and horizon edges its polytope may hold. It makes at
/// most `vertices - 4` expansions (each adds a vertex).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EpaLimits {
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
    /// finely tessellated round hulls need a polytope with many small faces (measured: up to 601 expansions for
    /// the 482-vertex sphere asset against itself at one centre, about a quarter of the points of a
    /// 4,000-point round hull against itself). Half the points of both hulls, at least 1,024 and at most 16,384
    /// vertices; a closed triangulation has fewer than twice as many faces as vertices.
    pub fn grown(points_a: usize, points_b: usize) -> EpaLimits {
        let vertices = ((points_a + points_b) / 2 + 512).clamp(1024, 16384);
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
pub const EPA_TOLERANCE: f64 = 1e-6;

/// How far (relative to the pair's size) the origin may lie outside the final polytope: GJK declares
/// overlap within the touching tolerance (1e-5 by default), and EPA's start simplex inherits that.
const TOUCH_SLACK: f64 = 1e-4;
/// How far (relative to the pair's size) the support functions along a penetrating answer's normal may add up
/// to something else than its depth. Not tighter: the coplanar neighbour that rebuilds the contact points may
/// turn the normal by up to 1.4e-3 rad (cosine within 1e-6), which moves the support value by about that
/// fraction of the size. The answers this check exists for are off by a large part of the size.
const CERTIFICATE_SLACK: f64 = 1e-3;
/// How far outside its face (in barycentric weight) the origin's projection may fall to rounding.
const WEIGHT_SLACK: f64 = 1e-3;

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
    /// EPA hit [`EPA_MAX_ITERATIONS`]; the fields hold the best face found, a lower bound on the depth.
    MaxIterations = 3,
    /// The polytope outgrew [`EPA_MAX_VERTICES`], [`EPA_MAX_FACES`] or [`EPA_MAX_HORIZON`]; best face so far.
    Overflow = 4,
    /// Rounding broke the polytope (a face with no area, or a fold found by the checks); best face so far.
    /// The float32 entry points then repeat the pair in float64.
    Degenerate = 5,
    /// GJK was left unresolved by rounding ([`GjkStatus::Unresolved`]), so whether the shapes overlap is
    /// unknown. The float32 entry points repeat the pair in float64.
    GjkUnresolved = 6,
    /// The GPU adapter cut a loop of the kernel short ([`GjkStatus::GpuLoopLimit`]); answer on the CPU.
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
    pub normal: R::V,
    /// The point of A deepest inside B.
    pub contact_a: R::V,
    /// The point of B deepest inside A; `contact_a - contact_b = normal * depth`.
    pub contact_b: R::V,
    /// EPA expansions (0 when GJK alone answered).
    pub iterations: u32,
}

impl<R: Real> Penetration<R> {
    fn none(status: PenetrationStatus) -> Self {
        Self {
            status,
            depth: R::ZERO,
            normal: R::vzero(),
            contact_a: R::vzero(),
            contact_b: R::vzero(),
            iterations: 0,
        }
    }
}

#[derive(Clone, Copy)]
struct Face<R: Real> {
    v: [usize; 3],
    normal: R::V,
    dist: R,
    alive: bool,
}

/// The polytope: vertices of A - B with the support points of A and B that made them, and faces, in storage
/// sized by [`EpaLimits`] (the GPU holds the first try's bounds in fixed private arrays).
struct Polytope<R: Real> {
    w: Vec<R::V>,
    a: Vec<R::V>,
    b: Vec<R::V>,
    vertices: usize,
    faces: Vec<Face<R>>,
    face_slots: usize,
    limits: EpaLimits,
}

impl<R: Real> Polytope<R> {
    fn new(limits: EpaLimits) -> Self {
        let z = R::vzero();
        let dead = Face {
            v: [0; 3],
            normal: z,
            dist: R::ZERO,
            alive: false,
        };
        Self {
            w: vec![z; limits.vertices],
            a: vec![z; limits.vertices],
            b: vec![z; limits.vertices],
            vertices: 0,
            faces: vec![dead; limits.faces],
            face_slots: 0,
            limits,
        }
    }

    fn push_vertex(&mut self, a: R::V, b: R::V) -> usize {
        let i = self.vertices;
        self.w[i] = a - b;
        self.a[i] = a;
        self.b[i] = b;
        self.vertices += 1;
        i
    }

    /// Adds face (i, j, k), counter-clockwise seen from outside. `None` when it has no area.
    fn push_face(&mut self, i: usize, j: usize, k: usize) -> Result<(), PenetrationStatus> {
        let n = R::cross(self.w[j] - self.w[i], self.w[k] - self.w[i]);
        let len = R::length_squared(n).sqrt();
        if !(len > R::ZERO) {
            return Err(PenetrationStatus::Degenerate);
        }
        let normal = n * (R::ONE / len);
        let face = Face {
            v: [i, j, k],
            normal,
            dist: R::dot(normal, self.w[i]),
            alive: true,
        };
        // Reuse a dead slot before growing.
        let slot = (0..self.face_slots).find(|&s| !self.faces[s].alive);
        match slot {
            Some(s) => self.faces[s] = face,
            None if self.face_slots < self.limits.faces => {
                self.faces[self.face_slots] = face;
                self.face_slots += 1;
            }
            None => return Err(PenetrationStatus::Overflow),
        }
        Ok(())
    }

    fn closest_face(&self) -> Option<usize> {
        let mut best: Option<usize> = None;
        for s in 0..self.face_slots {
            let f = &self.faces[s];
            if f.alive && best.is_none_or(|b| f.dist < self.faces[b].dist) {
                best = Some(s);
            }
        }
        best
    }
}

/// GJK, then EPA when the shapes overlap. Returns GJK's distance answer too (the same as
/// [`super::gjk`] in distance mode).
pub fn penetration<R: Real>(
    pair: &PairSupport<R>,
    radius_a: R,
    radius_b: R,
    scale: R,
    config: &GjkConfig,
) -> (GjkResult<R>, Penetration<R>) {
    let (result, simplex) =
        gjk_with_simplex(pair, radius_a, radius_b, scale, config, QueryKind::Distance);
    let answer = match result.status {
        GjkStatus::Separated => Penetration::none(PenetrationStatus::Separated),
        GjkStatus::MaxIterations => Penetration::none(PenetrationStatus::GjkMaxIterations),
        GjkStatus::Unresolved => Penetration::none(PenetrationStatus::GjkUnresolved),
        GjkStatus::GpuLoopLimit => Penetration::none(PenetrationStatus::GpuLoopLimit),
        GjkStatus::Intersecting => certified(
            pair,
            overlap(
                pair,
                &simplex,
                result.normal,
                radius_a,
                radius_b,
                scale,
                config,
            ),
            radius_a + radius_b,
            scale,
        ),
    };
    (result, answer)
}

/// A penetrating answer must be what it claims: B moved by `depth` along `normal` just separates the shapes,
/// so the support functions along the normal must add up to the depth, within [`CERTIFICATE_SLACK`] of the
/// pair's size. Rounding can fool every earlier check (a witness difference that puts touching cores apart, a
/// start tetrahedron that looks flat, a fold that leaves a face too close); this one catches what they
/// miss, and such an answer becomes `Degenerate` (repeated in float64 by the float32 entry points) instead
/// of a silent wrong normal.
fn certified<R: Real>(
    pair: &PairSupport<R>,
    answer: Penetration<R>,
    margin: R,
    scale: R,
) -> Penetration<R> {
    if answer.status != PenetrationStatus::Penetrating {
        return answer;
    }
    let n = answer.normal;
    let along = R::dot(pair.support_a(n) - pair.support_b(-n), n) + margin;
    // A normal that is not unit length (an overflowed or vanished cross product) certifies nothing.
    let unit_length = (R::length_squared(n) - R::ONE).abs() <= R::from_f64(1e-3);
    if unit_length && (along - answer.depth).abs() <= R::from_f64(CERTIFICATE_SLACK) * scale {
        answer
    } else {
        Penetration {
            status: PenetrationStatus::Degenerate,
            ..answer
        }
    }
}

/// The answer for a pair GJK found intersecting. `gjk_normal` is GJK's direction from A to B (zero when the
/// cores overlap).
#[allow(clippy::too_many_arguments)]
fn overlap<R: Real>(
    pair: &PairSupport<R>,
    simplex: &Simplex<R>,
    gjk_normal: R::V,
    radius_a: R,
    radius_b: R,
    scale: R,
    config: &GjkConfig,
) -> Penetration<R> {
    let margin = radius_a + radius_b;
    let tol = R::from_f64(config.touch_tolerance) * scale;
    let (core_a, core_b) = simplex.witnesses();
    let gap = core_b - core_a;
    let core_distance = R::length_squared(gap).sqrt();
    if core_distance > tol {
        // Cores apart, radii overlapping: the depth is what the radii add beyond the core distance, along
        // GJK's direction, which comes from the closest point's projection and stays accurate when the
        // cores nearly touch (the difference of the two witnesses loses digits there).
        let normal = if R::length_squared(gjk_normal) > R::ZERO {
            gjk_normal
        } else {
            gap * (R::ONE / core_distance)
        };
        return finish(
            PenetrationStatus::Penetrating,
            core_a,
            core_b,
            normal,
            margin - core_distance,
            radius_a,
            radius_b,
            0,
        );
    }
    let first = expand(pair, simplex, radius_a, radius_b, scale, EpaLimits::FIRST);
    if !matches!(
        first.status,
        PenetrationStatus::Overflow | PenetrationStatus::MaxIterations
    ) {
        return first;
    }
    // The first try's bounds (the GPU's) ran out: a deep overlap of round hulls. Start again with bounds
    // that grow with the hulls.
    let limits = EpaLimits::grown(pair.points_a.len(), pair.points_b.len());
    let second = expand(pair, simplex, radius_a, radius_b, scale, limits);
    Penetration {
        iterations: first.iterations + second.iterations,
        ..second
    }
}

#[allow(clippy::too_many_arguments)]
fn finish<R: Real>(
    status: PenetrationStatus,
    core_a: R::V,
    core_b: R::V,
    normal: R::V,
    depth: R,
    radius_a: R,
    radius_b: R,
    iterations: u32,
) -> Penetration<R> {
    Penetration {
        status,
        depth: if depth > R::ZERO { depth } else { R::ZERO },
        normal,
        contact_a: core_a + normal * radius_a,
        contact_b: core_b - normal * radius_b,
        iterations,
    }
}

/// A unit vector perpendicular to `d` (non-zero).
fn perpendicular<R: Real>(d: R::V) -> R::V {
    let (x, y, z) = (
        R::comp(d, 0).abs(),
        R::comp(d, 1).abs(),
        R::comp(d, 2).abs(),
    );
    let axis = if x <= y && x <= z {
        R::vec(R::ONE, R::ZERO, R::ZERO)
    } else if y <= z {
        R::vec(R::ZERO, R::ONE, R::ZERO)
    } else {
        R::vec(R::ZERO, R::ZERO, R::ONE)
    };
    let p = R::cross(d, axis);
    p * (R::ONE / R::length_squared(p).sqrt())
}

/// `n` or `-n`, whichever points from A towards B's origin, so a flat contact gets a sensible side.
fn towards_b<R: Real>(pair: &PairSupport<R>, n: R::V) -> R::V {
    if R::dot(n, pair.position_b) < R::ZERO {
        -n
    } else {
        n
    }
}

/// EPA on the cores, which overlap or touch (the origin is in A - B, within the tolerance).
fn expand<R: Real>(
    pair: &PairSupport<R>,
    simplex: &Simplex<R>,
    radius_a: R,
    radius_b: R,
    scale: R,
    limits: EpaLimits,
) -> Penetration<R> {
    let margin = radius_a + radius_b;
    let eps = R::from_f64(EPA_TOLERANCE) * scale;
    let (core_a, core_b) = simplex.witnesses();
    // A - B with no thickness along `n` (flat or lower-dimensional): the cores touch, and moving B by the
    // radii along `n` separates the shapes, which no other direction beats.
    let flat = |n: R::V| {
        finish(
            PenetrationStatus::Penetrating,
            core_a,
            core_b,
            towards_b(pair, n),
            margin,
            radius_a,
            radius_b,
            0,
        )
    };

    let mut poly = Polytope::<R>::new(limits);
    for i in 0..simplex.len {
        poly.push_vertex(simplex.a[i], simplex.b[i]);
    }
    let support = |dir: R::V| (pair.support_a(dir), pair.support_b(-dir));

    // Blow the simplex up to a tetrahedron, searching A - B for a point off the current point, line or
    // plane. When none exists, A - B is flat there.
    if poly.vertices == 4 {
        let volume = R::dot(
            R::cross(poly.w[1] - poly.w[0], poly.w[2] - poly.w[0]),
            poly.w[3] - poly.w[0],
        );
        if !(volume.abs() > eps * scale * scale) {
            // A flat tetrahedron: keep the triangle of largest area and search off its plane.
            let mut best = (0, R::ZERO);
            for drop in 0..4 {
                let k: Vec3i = others(drop);
                let area = R::length_squared(R::cross(
                    poly.w[k.1] - poly.w[k.0],
                    poly.w[k.2] - poly.w[k.0],
                ));
                if area > best.1 {
                    best = (drop, area);
                }
            }
            let k = others(best.0);
            let (w, a, b) = (poly.w.clone(), poly.a.clone(), poly.b.clone());
            for (slot, &src) in [k.0, k.1, k.2].iter().enumerate() {
                poly.w[slot] = w[src];
                poly.a[slot] = a[src];
                poly.b[slot] = b[src];
            }
            poly.vertices = 3;
        }
    }
    if poly.vertices == 1 {
        let axes = [
            R::vec(R::ONE, R::ZERO, R::ZERO),
            R::vec(R::ZERO, R::ONE, R::ZERO),
            R::vec(R::ZERO, R::ZERO, R::ONE),
        ];
        let mut found = false;
        for axis in axes {
            for dir in [axis, -axis] {
                let (a, b) = support(dir);
                if !found && R::length_squared((a - b) - poly.w[0]) > eps * eps {
                    poly.push_vertex(a, b);
                    found = true;
                }
            }
        }
        if !found {
            // A - B is a single point at the origin (concentric spheres, coincident points).
            return flat(R::vec(R::ONE, R::ZERO, R::ZERO));
        }
    }
    if poly.vertices == 2 {
        let d = poly.w[1] - poly.w[0];
        let e1 = perpendicular::<R>(d);
        let e2 = R::cross(d, e1) * (R::ONE / R::length_squared(d).sqrt());
        let mut found = false;
        for dir in [e1, -e1, e2, -e2] {
            let (a, b) = support(dir);
            let w = a - b;
            let off = R::cross(d, w - poly.w[0]);
            if !found && R::length_squared(off) > eps * eps * R::length_squared(d) {
                poly.push_vertex(a, b);
                found = true;
            }
        }
        if !found {
            // A - B is a segment through the origin: every perpendicular is as good; prefer towards B.
            let along = R::dot(pair.position_b, d) / R::length_squared(d);
            let p = pair.position_b - d * along;
            let n = if R::length_squared(p) > eps * eps {
                p * (R::ONE / R::length_squared(p).sqrt())
            } else {
                e1
            };
            return flat(n);
        }
    }
    if poly.vertices == 3 {
        let n = R::cross(poly.w[1] - poly.w[0], poly.w[2] - poly.w[0]);
        let len = R::length_squared(n).sqrt();
        if !(len > R::ZERO) {
            // GJK kept three points on one line: rounding, and no plane to search off.
            return Penetration::none(PenetrationStatus::Degenerate);
        }
        let n = n * (R::ONE / len);
        let mut found = false;
        for dir in [n, -n] {
            let (a, b) = support(dir);
            if !found && R::dot(n, (a - b) - poly.w[0]).abs() > eps {
                poly.push_vertex(a, b);
                found = true;
            }
        }
        if !found {
            return flat(n);
        }
    }

    // Orient the tetrahedron so that faces (0,1,2), (0,3,1), (0,2,3), (1,3,2) face outwards.
    let orientation = R::dot(
        R::cross(poly.w[1] - poly.w[0], poly.w[2] - poly.w[0]),
        poly.w[3] - poly.w[0],
    );
    if orientation > R::ZERO {
        poly.w.swap(1, 2);
        poly.a.swap(1, 2);
        poly.b.swap(1, 2);
    }
    for [i, j, k] in [[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]] {
        if poly.push_face(i, j, k).is_err() {
            // Rounding made the start tetrahedron flat after all.
            let n = R::cross(poly.w[1] - poly.w[0], poly.w[2] - poly.w[0]);
            let len = R::length_squared(n).sqrt();
            return if len > R::ZERO {
                flat(n * (R::ONE / len))
            } else {
                Penetration::none(PenetrationStatus::Degenerate)
            };
        }
    }

    let mut status = PenetrationStatus::MaxIterations;
    let mut iterations = 0u32;
    let mut horizon = vec![[0usize; 2]; poly.limits.horizon];
    // A copy, not a slot index: an expansion frees the closest face's slot and may reuse it.
    let mut face = poly.faces[poly
        .closest_face()
        .expect("the start tetrahedron has faces")];
    while iterations < poly.limits.iterations() {
        let best = poly.closest_face().expect("a closed polytope has faces");
        face = poly.faces[best];
        let (a, b) = support(face.normal);
        let w = a - b;
        // The support point barely beyond the closest face, or already a vertex: that face is on the
        // boundary of A - B and its distance is the depth.
        if !(R::dot(w, face.normal) - face.dist > eps) {
            status = PenetrationStatus::Penetrating;
            break;
        }
        // A vertex already on the polytope lies beyond its closest face: rounding has folded the
        // polytope, and no answer from it can be trusted.
        if poly.w[..poly.vertices].contains(&w) {
            status = PenetrationStatus::Degenerate;
            break;
        }
        if poly.vertices == poly.limits.vertices {
            status = PenetrationStatus::Overflow;
            break;
        }
        iterations += 1;

        // Remove the faces that see w, grown from the closest face across shared edges: the visible region
        // of a convex polytope is connected, and a face that only rounding calls visible elsewhere would
        // otherwise open a second horizon and fold the polytope. The edges the removed faces do not share
        // form the horizon.
        let mut edges = 0usize;
        let mut overflow = false;
        let mut grew = true;
        let mut first = true;
        while grew && !overflow {
            grew = false;
            for s in 0..poly.face_slots {
                let f = poly.faces[s];
                if !f.alive || !(R::dot(f.normal, w - poly.w[f.v[0]]) > R::ZERO) {
                    continue;
                }
                let touches_region = if first {
                    s == best
                } else {
                    (0..3).any(|e| {
                        let (p, q) = (f.v[e], f.v[(e + 1) % 3]);
                        horizon[..edges].iter().any(|h| h[0] == q && h[1] == p)
                    })
                };
                if !touches_region {
                    continue;
                }
                poly.faces[s].alive = false;
                grew = true;
                for e in 0..3 {
                    let edge = [f.v[e], f.v[(e + 1) % 3]];
                    match horizon[..edges]
                        .iter()
                        .position(|h| h[0] == edge[1] && h[1] == edge[0])
                    {
                        Some(p) => {
                            horizon[p] = horizon[edges - 1];
                            edges -= 1;
                        }
                        None if edges < poly.limits.horizon => {
                            horizon[edges] = edge;
                            edges += 1;
                        }
                        None => overflow = true,
                    }
                }
            }
            first = false;
        }
        if overflow {
            status = PenetrationStatus::Overflow;
            break;
        }
        let k = poly.push_vertex(a, b);
        let mut failed = None;
        for edge in &horizon[..edges] {
            if let Err(e) = poly.push_face(edge[0], edge[1], k) {
                failed = Some(e);
                break;
            }
        }
        if let Some(e) = failed {
            status = e;
            // The polytope is open now: answer from the best closed one.
            break;
        }
    }

    // Coplanar neighbours (a flat facet of A - B split into triangles) share the closest distance; the
    // origin projects into only one of them, and only there do the weights rebuild exact contact points.
    let mut lambda = unclamped_barycentric::<R>(&poly, &face);
    if status == PenetrationStatus::Penetrating {
        let parallel = R::ONE - R::from_f64(1e-6);
        for s in 0..poly.face_slots {
            let f = poly.faces[s];
            if f.alive
                && (f.dist - face.dist).abs() <= eps
                && R::dot(f.normal, face.normal) > parallel
            {
                let l = unclamped_barycentric::<R>(&poly, &f);
                if min3(l) > min3(lambda) {
                    face = f;
                    lambda = l;
                }
            }
        }
    }
    // The origin lies in A - B (within the touching tolerance), so the closest face cannot be far on the
    // wrong side of it; if it is, the polytope was folded by rounding.
    if status == PenetrationStatus::Penetrating && face.dist < -R::from_f64(TOUCH_SLACK) * scale {
        status = PenetrationStatus::Degenerate;
    }
    // Likewise the origin projects into the closest face of a convex polytope (or a coplanar neighbour);
    // a projection clearly outside means a fold, and its contact points would not match the depth.
    if status == PenetrationStatus::Penetrating && min3(lambda) < -R::from_f64(WEIGHT_SLACK) {
        status = PenetrationStatus::Degenerate;
    }
    let [i, j, k] = face.v;
    let lambda = clamp_weights(lambda);
    let core_a = poly.a[i] * lambda[0] + poly.a[j] * lambda[1] + poly.a[k] * lambda[2];
    let core_b = poly.b[i] * lambda[0] + poly.b[j] * lambda[1] + poly.b[k] * lambda[2];
    finish(
        status,
        core_a,
        core_b,
        face.normal,
        face.dist + margin,
        radius_a,
        radius_b,
        iterations,
    )
}

type Vec3i = (usize, usize, usize);

/// The three vertex indices of a tetrahedron other than `drop`.
fn others(drop: usize) -> Vec3i {
    match drop {
        0 => (1, 2, 3),
        1 => (0, 2, 3),
        2 => (0, 1, 3),
        _ => (0, 1, 2),
    }
}

fn min3<R: Real>(l: [R; 3]) -> R {
    let m = if l[0] < l[1] { l[0] } else { l[1] };
    if m < l[2] {
        m
    } else {
        l[2]
    }
}

/// Barycentric weights of the origin's projection onto a face (negative outside the triangle).
fn unclamped_barycentric<R: Real>(poly: &Polytope<R>, face: &Face<R>) -> [R; 3] {
    let (a, b, c) = (poly.w[face.v[0]], poly.w[face.v[1]], poly.w[face.v[2]]);
    let p = face.normal * face.dist;
    let n = R::cross(b - a, c - a);
    let nn = R::length_squared(n);
    if !(nn > R::ZERO) {
        let third = R::ONE / R::from_f64(3.0);
        return [third, third, third];
    }
    let u = R::dot(R::cross(c - b, p - b), n) / nn;
    let v = R::dot(R::cross(a - c, p - c), n) / nn;
    [u, v, R::ONE - u - v]
}

/// Weights clamped to the triangle and renormalised, so the contact points stay on the shapes.
fn clamp_weights<R: Real>(l: [R; 3]) -> [R; 3] {
    let clamp = |x: R| if x > R::ZERO { x } else { R::ZERO };
    let (u, v, w) = (clamp(l[0]), clamp(l[1]), clamp(l[2]));
    let sum = u + v + w;
    if !(sum > R::ZERO) {
        let third = R::ONE / R::from_f64(3.0);
        return [third, third, third];
    }
    [u / sum, v / sum, w / sum]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pose::RelativePose;
    use glam::{Quat, Vec3};

    #[test]
    fn the_certificate_keeps_true_answers_and_names_wrong_ones() {
        let cube: Vec<Vec3> = (0..8)
            .map(|i| {
                let s = |bit: i32| if i & bit == 0 { -0.5 } else { 0.5 };
                Vec3::new(s(1), s(2), s(4))
            })
            .collect();
        // B's cube 0.75 along x: the overlap is 0.25 along x.
        let relative = RelativePose::<f32> {
            rotation: Quat::IDENTITY,
            position: Vec3::new(0.75, 0.0, 0.0),
        };
        let pair = PairSupport::<f32>::new(&cube, &cube, &relative, 1.0);
        let answer = |normal: Vec3, depth: f32| Penetration {
            status: PenetrationStatus::Penetrating,
            depth,
            normal,
            contact_a: Vec3::ZERO,
            contact_b: Vec3::ZERO,
            iterations: 1,
        };
        let kept = certified(&pair, answer(Vec3::X, 0.25), 0.0, 1.0);
        assert_eq!(kept.status, PenetrationStatus::Penetrating);
        // A depth cut short, and a normal along which B would have to move 1.0, not 0.25.
        for wrong in [answer(Vec3::X, 0.1), answer(Vec3::Y, 0.25)] {
            assert_eq!(
                certified(&pair, wrong, 0.0, 1.0).status,
                PenetrationStatus::Degenerate
            );
        }
        // Radii count: with 0.1 of margin the depth along x is 0.35.
        let rounded = certified(&pair, answer(Vec3::X, 0.35), 0.1, 1.0);
        assert_eq!(rounded.status, PenetrationStatus::Penetrating);
        let separated = Penetration::<f32>::none(PenetrationStatus::Separated);
        assert_eq!(certified(&pair, separated, 0.0, 1.0), separated);
    }
}
