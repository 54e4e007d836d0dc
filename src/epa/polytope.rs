//! EPA's polytope: vertices of A - B with the support points of A and B that made them, triangular faces in
//! slots (a dead slot is reused before the storage grows), the face nearest the origin, and the horizon an
//! expansion leaves when it removes the faces a new point sees.
//!
//! `shaders/shared/epa/polytope.wgsl` is its twin, in fixed private arrays of the first try's bounds
//! (`Polytope::push_face` is `polytope_push_face` there, and so on).

#![expect(
    clippy::neg_cmp_op_on_partial_ord,
    reason = "negated comparisons are deliberate: they are true for NaN too, which must take the safe branch"
)]

use super::answer::{EpaLimits, PenetrationStatus, EPA_COPLANAR_ULPS};
use super::planes::Planes;
use crate::real::Real;
use std::any::Any;
use std::cell::RefCell;

thread_local! {
    /// Each thread's spare polytopes of the first try's bounds, at most one per precision
    /// ([`Polytope::with_spare`]).
    static SPARES: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// A triangle of the polytope: its corners (counter-clockwise seen from outside), its plane (unit normal and
/// distance from the origin) and whether its slot is in use.
#[derive(Clone, Copy)]
pub(crate) struct Face<R: Real> {
    /// Corner vertices, 32-bit: the bounds keep vertex indices below 32,768 ([`EpaLimits::grown`]), and a
    /// face is 32 bytes instead of 48.
    pub v: [u32; 3],
    pub normal: R::V,
    pub dist: R,
    pub alive: bool,
}

/// The polytope, in storage bounded by [`EpaLimits`].
pub(crate) struct Polytope<R: Real> {
    pub w: Vec<R::V>,
    pub a: Vec<R::V>,
    pub b: Vec<R::V>,
    pub vertices: usize,
    pub faces: Vec<Face<R>>,
    /// Each slot's plane, for the two scans of every expansion (a dead slot's is neither nearest nor seen).
    planes: Planes<R>,
    pub face_slots: usize,
    /// Every slot below this one holds a live face: the search for a dead slot to reuse starts here (it finds
    /// the lowest dead slot, as a search from 0 would, without walking the live ones).
    first_free: usize,
    /// One bit per slot below `face_slots`, set where the slot is dead: the lowest dead slot is found a word of
    /// 64 slots at a time (a walk over the slots read each face; on a deep overlap of round hulls, with
    /// hundreds of live faces before the next dead one, that walk was a fifth of the time).
    dead: Vec<u64>,
    /// The faces the current expansion's point sees, in slot order, and then those of them the region growing
    /// left (storage reused across expansions).
    visible: Vec<usize>,
    /// Horizon edges (tail, head) of the current expansion, `edges` of them in use.
    pub horizon: Vec<[u32; 2]>,
    pub edges: usize,
    pub limits: EpaLimits,
    /// At least the largest sum of absolute coordinates of any vertex pushed since the polytope was emptied:
    /// bounds the rounding of [`Self::carve_horizon`]'s quick rejection.
    reach: R,
}

impl<R: Real> Polytope<R> {
    /// An empty polytope. Vertex and face storage grow as they are used (never past `limits`): a grown
    /// polytope's bounds are thousands of entries, and writing them all before a run that needs a few hundred
    /// cost more than the run (`memset` in profiles of the penetration mix).
    pub fn new(limits: EpaLimits) -> Self {
        let (vertices, faces) = (
            limits.vertices.min(EpaLimits::FIRST.vertices),
            limits.faces.min(EpaLimits::FIRST.faces),
        );
        Self {
            w: Vec::with_capacity(vertices),
            a: Vec::with_capacity(vertices),
            b: Vec::with_capacity(vertices),
            vertices: 0,
            faces: Vec::with_capacity(faces),
            planes: Planes::with_capacity(faces),
            face_slots: 0,
            first_free: 0,
            dead: Vec::with_capacity(faces.div_ceil(64)),
            visible: Vec::with_capacity(faces),
            horizon: vec![[0; 2]; limits.horizon],
            edges: 0,
            limits,
            reach: R::ZERO,
        }
    }

    /// Runs `f` on an empty polytope of `limits`: this thread's spare one when it has one of the first try's
    /// bounds (the common case), which goes back to the spares afterwards. In a profile of the penetration mix
    /// of `benches/vs_parry.rs`, making a fresh one (`Polytope::new`, `malloc` and `free`) was 7.3% of the
    /// samples (2.9% after). Grown polytopes (up to megabytes for big hulls, and rare) are made and dropped.
    pub fn with_spare<T>(limits: EpaLimits, f: impl FnOnce(&mut Self) -> T) -> T {
        if limits != EpaLimits::FIRST {
            return f(&mut Self::new(limits));
        }
        let spare = SPARES.with_borrow_mut(|spares| {
            let at = spares.iter().position(|p| p.is::<Self>())?;
            spares.swap_remove(at).downcast::<Self>().ok()
        });
        let mut poly = match spare {
            Some(mut poly) => {
                poly.clear();
                poly
            }
            None => Box::new(Self::new(limits)),
        };
        let out = f(&mut poly);
        SPARES.with_borrow_mut(|spares| spares.push(poly));
        out
    }

    /// Empties the polytope for a new run: every count back to zero (storage past the counts is never read).
    fn clear(&mut self) {
        self.w.clear();
        self.a.clear();
        self.b.clear();
        self.vertices = 0;
        self.faces.clear();
        // The planes keep their storage: slots at or past `face_slots` are never read (see `Planes::reach_slot`).
        self.face_slots = 0;
        self.first_free = 0;
        self.dead.clear();
        self.visible.clear();
        self.edges = 0;
        self.reach = R::ZERO;
    }

    pub fn push_vertex(&mut self, a: R::V, b: R::V) -> usize {
        let i = self.vertices;
        let w = a - b;
        // A vertex that is not a number leaves `reach` as it was (`max_of` keeps its first argument): no face has
        // it as a corner (`push_face` refuses a plane that is not a number), and a new point that is not a number
        // fails every quick test, so the exact test decides.
        self.reach = self.reach.max_of(R::l1_norm(w));
        self.w.push(w);
        self.a.push(a);
        self.b.push(b);
        self.vertices += 1;
        i
    }

    /// Keeps only vertices `keep` (in that order): a flat start tetrahedron reduced to its largest triangle.
    pub fn keep_vertices(&mut self, keep: [usize; 3]) {
        let (w, a, b) = (
            keep.map(|k| self.w[k]),
            keep.map(|k| self.a[k]),
            keep.map(|k| self.b[k]),
        );
        self.w[..3].copy_from_slice(&w);
        self.a[..3].copy_from_slice(&a);
        self.b[..3].copy_from_slice(&b);
        self.w.truncate(3);
        self.a.truncate(3);
        self.b.truncate(3);
        self.vertices = 3;
    }

    /// Swaps two vertices (orienting the start tetrahedron).
    pub fn swap_vertices(&mut self, i: usize, j: usize) {
        self.w.swap(i, j);
        self.a.swap(i, j);
        self.b.swap(i, j);
    }

    /// True when `w` is already a vertex.
    pub fn contains(&self, w: R::V) -> bool {
        self.w[..self.vertices].contains(&w)
    }

    /// Adds face (i, j, k), counter-clockwise seen from outside: `Degenerate` when it has no area, `Overflow`
    /// when no slot is left.
    pub fn push_face(&mut self, i: usize, j: usize, k: usize) -> Result<(), PenetrationStatus> {
        let corner = self.w[i];
        let (n, len2) = R::squarable(R::cross(self.w[j] - corner, self.w[k] - corner));
        let len = len2.sqrt();
        if !(len > R::ZERO) {
            return Err(PenetrationStatus::Degenerate);
        }
        let normal = n * (R::ONE / len);
        let face = Face {
            v: [i as u32, j as u32, k as u32],
            normal,
            dist: R::dot(normal, corner),
            alive: true,
        };
        // Reuse the lowest dead slot before growing.
        let s = match self.lowest_dead_slot() {
            Some(s) => {
                self.faces[s] = face;
                self.dead[s / 64] &= !(1 << (s % 64));
                self.first_free = s + 1;
                s
            }
            None if self.face_slots < self.limits.faces => {
                let s = self.face_slots;
                self.faces.push(face);
                self.planes.reach_slot(s);
                if s.is_multiple_of(64) {
                    self.dead.push(0);
                }
                self.face_slots += 1;
                self.first_free = self.face_slots;
                s
            }
            None => return Err(PenetrationStatus::Overflow),
        };
        self.planes.set(s, face.normal, face.dist);
        Ok(())
    }

    /// Frees face slot `s`.
    fn remove_face(&mut self, s: usize) {
        self.faces[s].alive = false;
        self.dead[s / 64] |= 1 << (s % 64);
        self.planes.kill(s);
        self.first_free = self.first_free.min(s);
    }

    /// The lowest dead slot, if any (every slot below `first_free` is live).
    #[inline(always)]
    fn lowest_dead_slot(&self) -> Option<usize> {
        let mut word = self.first_free / 64;
        while word < self.dead.len() {
            let bits = self.dead[word];
            if bits != 0 {
                return Some(word * 64 + bits.trailing_zeros() as usize);
            }
            word += 1;
        }
        None
    }

    /// The live face nearest the origin (the first one on ties).
    pub fn closest_face(&self) -> Option<usize> {
        // The first live slot, then any nearer one: a dead slot's infinite distance is never nearer (nor is a
        // distance that is not a number), so only the start needs the liveness flags.
        let first = self.faces[..self.face_slots].iter().position(|f| f.alive)?;
        let distances = self.planes.distances(self.face_slots);
        let nearest = distances[first];
        let rest = &distances[first + 1..];
        if rest.len() < MANY_FACES {
            let mut best = (first, nearest);
            for (s, &dist) in rest.iter().enumerate() {
                if dist < best.1 {
                    best = (first + 1 + s, dist);
                }
            }
            return Some(best.0);
        }
        // The same pick, the first slot at the smallest distance, in two passes: the smallest distance in eight
        // running minima (vector lanes), then where it first is. The walk above, with its index in step, was a
        // fifth of the time on a deep overlap of round hulls, with hundreds of faces.
        let smallest = smallest_of(rest);
        if smallest < nearest {
            let at = rest.iter().position(|&d| d == smallest)?;
            Some(first + 1 + at)
        } else {
            Some(first)
        }
    }

    /// Removes the faces that see `w` (or hold it in their plane, [`sees`]), grown from face `best` across
    /// shared edges, and leaves the edges the
    /// removed faces do not share in `horizon[..edges]`: the visible region of a convex polytope is connected,
    /// and a face that only rounding calls visible elsewhere would otherwise open a second horizon and fold
    /// the polytope. Faces across an edge in line with `w` go too ([`Self::absorb_flat_neighbours`]).
    /// `Overflow` when the horizon outgrows its storage.
    pub fn carve_horizon(&mut self, best: usize, w: R::V) -> Result<(), PenetrationStatus> {
        self.edges = 0;
        // Whether a face sees `w` does not change while faces are removed, so it is asked once per face; the
        // passes that grow the region then walk only the faces that see it, in the same slot order.
        let mut visible = std::mem::take(&mut self.visible);
        visible.clear();
        // Most faces are far behind `w`: their plane (stored) rejects them, dead slots included, without the
        // exact test's gather of a corner and its longer arithmetic, and without changing its answer.
        let far = clearly_behind::<R>(R::l1_norm(w) + self.reach);
        let (faces, corners) = (&self.faces, &self.w);
        self.planes.not_below(self.face_slots, w, far, |s| {
            let f = &faces[s];
            if f.alive && sees(f, w - corners[f.v[0] as usize]) {
                visible.push(s);
            }
        });
        let carved = self.grow_visible_region(&mut visible, best);
        self.visible = visible;
        carved?;
        self.absorb_flat_neighbours(w)
    }

    /// Removes the faces of `visible` connected to face `best` across shared edges, pass after pass until a
    /// pass removes none, toggling their edges into the horizon: `best` first, then in each pass, in slot
    /// order, every face left that shares an edge with the horizon as it stands. `visible` is left holding the
    /// faces not removed; each pass walks only those (the faces already removed were walked past again, pass
    /// after pass, and a last pass read every face to find that none was left).
    fn grow_visible_region(
        &mut self,
        visible: &mut Vec<usize>,
        best: usize,
    ) -> Result<(), PenetrationStatus> {
        let Some(at) = visible.iter().position(|&s| s == best) else {
            return Ok(());
        };
        visible.remove(at);
        self.remove_with_edges(best)?;
        loop {
            let before = visible.len();
            let mut kept = 0;
            for r in 0..before {
                let s = visible[r];
                let [i, j, k] = self.faces[s].v;
                let touches_region = self.horizon_has([j, i]).is_some()
                    || self.horizon_has([k, j]).is_some()
                    || self.horizon_has([i, k]).is_some();
                if touches_region {
                    self.remove_with_edges(s)?;
                } else {
                    visible[kept] = s;
                    kept += 1;
                }
            }
            visible.truncate(kept);
            if kept == before || kept == 0 {
                return Ok(());
            }
        }
    }

    /// Removes face `s` and toggles its edges into the horizon.
    #[inline(always)]
    fn remove_with_edges(&mut self, s: usize) -> Result<(), PenetrationStatus> {
        let [i, j, k] = self.faces[s].v;
        self.remove_face(s);
        self.toggle_horizon_edge([i, j])?;
        self.toggle_horizon_edge([j, k])?;
        self.toggle_horizon_edge([k, i])
    }

    /// A horizon edge in line with `w` would close with a face of no area (a box's A - B, exactly: the new
    /// point lands on the extension of an edge). `w` then lies in the plane of the live face across that edge,
    /// whose plane holds the edge's line, so that face goes too, as if `w` saw it, and the new faces cover its
    /// plane instead. Each pass removes a face, so this ends.
    fn absorb_flat_neighbours(&mut self, w: R::V) -> Result<(), PenetrationStatus> {
        let mut e = 0;
        while e < self.edges {
            let [tail, head] = self.horizon[e];
            let n = R::cross(
                self.w[head as usize] - self.w[tail as usize],
                w - self.w[tail as usize],
            );
            // Exactly zero, as `length_squared(balanced(n)) == 0` asks without its three divisions (a tiny
            // cross product whose square underflows is not in line).
            if is_zero::<R>(n) {
                if let Some(s) = self.face_across(tail, head) {
                    self.remove_face(s);
                    let f = self.faces[s];
                    for k in 0..3 {
                        self.toggle_horizon_edge([f.v[k], f.v[(k + 1) % 3]])?;
                    }
                    // The horizon was reshuffled: look at every edge again.
                    e = 0;
                    continue;
                }
            }
            e += 1;
        }
        Ok(())
    }

    /// The live face on the other side of horizon edge (tail, head): the one that runs it head to tail.
    fn face_across(&self, tail: u32, head: u32) -> Option<usize> {
        (0..self.face_slots).find(|&s| {
            let f = &self.faces[s];
            f.alive && (0..3).any(|k| f.v[k] == head && f.v[(k + 1) % 3] == tail)
        })
    }

    /// Where `edge` is in the horizon.
    fn horizon_has(&self, edge: [u32; 2]) -> Option<usize> {
        self.horizon[..self.edges].iter().position(|h| *h == edge)
    }

    /// A removed face's edge: shared with a face removed before (its reverse is in the horizon) it is interior
    /// and leaves; otherwise it joins the horizon.
    fn toggle_horizon_edge(&mut self, edge: [u32; 2]) -> Result<(), PenetrationStatus> {
        match self.horizon_has([edge[1], edge[0]]) {
            Some(p) => {
                self.horizon[p] = self.horizon[self.edges - 1];
                self.edges -= 1;
            }
            None if self.edges < self.limits.horizon => {
                self.horizon[self.edges] = edge;
                self.edges += 1;
            }
            None => return Err(PenetrationStatus::Overflow),
        }
        Ok(())
    }
}

/// Whether a new point `offset` from a face's first corner sees the face: in front of its plane, or in it up to
/// the rounding of that test ([`EPA_COPLANAR_ULPS`]). False for NaN.
fn sees<R: Real>(face: &Face<R>, offset: R::V) -> bool {
    let height = R::dot(face.normal, offset);
    let slack = R::from_f64(EPA_COPLANAR_ULPS) * R::EPSILON;
    height > R::ZERO || height * height <= slack * slack * R::length_squared(offset)
}

/// Slots past which [`Polytope::closest_face`] takes its two-pass search: below, the walk is as fast (most
/// polytopes of the random mix have a few dozen slots).
const MANY_FACES: usize = 64;

/// The smallest of `values` that is a number (+infinity when there is none), in eight running minima.
fn smallest_of<R: Real>(values: &[R]) -> R {
    let infinity = R::from_f64(f64::INFINITY);
    let mut lanes = [infinity; 8];
    let groups = values.chunks_exact(8);
    let tail = groups.remainder();
    for group in groups {
        for (lane, &d) in lanes.iter_mut().zip(group) {
            *lane = if d < *lane { d } else { *lane };
        }
    }
    for (lane, &d) in lanes.iter_mut().zip(tail) {
        *lane = if d < *lane { d } else { *lane };
    }
    lanes
        .into_iter()
        .fold(infinity, |m, d| if d < m { d } else { m })
}

/// Every component exactly zero (false for NaN).
fn is_zero<R: Real>(v: R::V) -> bool {
    R::comp(v, 0) == R::ZERO && R::comp(v, 1) == R::ZERO && R::comp(v, 2) == R::ZERO
}

/// Units of roundoff, of `reach` = |w|₁ + (the largest |corner|₁), by which a face's plane distance from the new
/// point, taken as `normal · w - dist`, may be below `-reach` times this and the face still not certainly
/// behind `w`. [`sees`] takes a face within `EPA_COPLANAR_ULPS` (16) units of `|w - corner| <= reach`; the
/// two ways of computing the height differ by under 6 units of `reach` (three rounded dot products and two
/// differences, with a unit normal): 32 covers both with room.
const QUICK_REJECT_ULPS: f64 = 32.0;

/// The height below which [`sees`] is certainly false, for a new point and corners of total size `reach`
/// (see [`QUICK_REJECT_ULPS`]).
fn clearly_behind<R: Real>(reach: R) -> R {
    -(R::from_f64(QUICK_REJECT_ULPS) * R::EPSILON * reach)
}

// The quick rejection's allowance must cover the exact test's coplanar slack plus the rounding between them.
const _: () = assert!(EPA_COPLANAR_ULPS + 8.0 <= QUICK_REJECT_ULPS);

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec3, Vec3A};

    /// A small deterministic generator (xorshift), so the test needs no optional crate.
    struct Numbers(u64);

    impl Numbers {
        /// Uniform in [-1, 1).
        fn next(&mut self) -> f64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        }

        fn vector(&mut self) -> DVec3 {
            DVec3::new(self.next(), self.next(), self.next())
        }
    }

    /// Triangles at sizes 1e-3 to 1e6, far from the origin or around it, and new points within a few
    /// hundred units of roundoff of their planes, on both sides: every face the exact test says the point
    /// sees passes the quick rejection. Returns how many faces it rejected (so the test cannot pass by
    /// rejecting nothing).
    fn check<R: Real>(to_r: impl Fn(DVec3) -> R::V, eps: f64) -> usize {
        let mut numbers = Numbers(0x9E37_79B9_7F4A_7C15);
        let (mut seen, mut rejected) = (0, 0);
        for case in 0..20_000 {
            let size = 10f64.powf(-3.0 + 9.0 * (numbers.next() + 1.0) / 2.0);
            let centre = numbers.vector() * size * [0.0, 1.0, 100.0][case % 3];
            let mut poly = Polytope::<R>::new(EpaLimits::FIRST);
            for _ in 0..3 {
                poly.push_vertex(
                    to_r(centre + numbers.vector() * size),
                    R::vec(R::ZERO, R::ZERO, R::ZERO),
                );
            }
            if poly.push_face(0, 1, 2).is_err() {
                continue;
            }
            let face = poly.faces[0];
            let normal = DVec3::new(
                R::comp(face.normal, 0).to_f64(),
                R::comp(face.normal, 1).to_f64(),
                R::comp(face.normal, 2).to_f64(),
            );
            let corner = DVec3::new(
                R::comp(poly.w[0], 0).to_f64(),
                R::comp(poly.w[0], 1).to_f64(),
                R::comp(poly.w[0], 2).to_f64(),
            );
            let height = numbers.next() * 300.0 * eps * size * [1.0, 1e3, 1e6][case % 5 % 3];
            let w = to_r(corner + numbers.vector() * size + normal * height);
            let exact = sees(&face, w - poly.w[face.v[0] as usize]);
            let quick = poly.planes.height(0, w) < clearly_behind::<R>(R::l1_norm(w) + poly.reach);
            assert!(
                !(exact && quick),
                "case {case}: a face the point sees was rejected"
            );
            seen += usize::from(exact);
            rejected += usize::from(quick);
        }
        assert!(seen > 1000, "{seen} faces seen");
        rejected
    }

    #[test]
    fn the_quick_rejection_never_drops_a_face_the_exact_test_keeps() {
        let rejected32 = check::<f32>(|v| v.as_vec3().into(), f32::EPSILON as f64);
        let rejected64 = check::<f64>(|v| v, f64::EPSILON);
        assert!(
            rejected32 > 1000 && rejected64 > 1000,
            "{rejected32} {rejected64}"
        );
    }

    /// A face's unit normal and plane at every size float arithmetic can hold, in both precisions: taken
    /// as it is in range, balanced where the cross product's square would underflow (tiny faces) or
    /// overflow (huge ones). Without the balanced fallback, the tiny faces come out degenerate and the
    /// huge ones without a normal.
    fn faces_of_every_size<R: Real>(sizes: &[f64]) {
        for &size in sizes {
            let mut poly = Polytope::<R>::new(EpaLimits::FIRST);
            let corner =
                |x: f64, y: f64| R::vec(R::from_f64(x * size), R::from_f64(y * size), R::ZERO);
            for (x, y) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)] {
                poly.push_vertex(corner(x, y), R::vzero());
            }
            poly.push_face(0, 1, 2)
                .unwrap_or_else(|e| panic!("size {size}: {e:?}"));
            let face = poly.faces[0];
            let normal = [0, 1, 2].map(|k| R::comp(face.normal, k).to_f64());
            let off =
                (normal[0].abs() + normal[1].abs() + (normal[2] - 1.0).abs()) / R::EPSILON.to_f64();
            assert!(off <= 2.0, "size {size}: {normal:?}");
            assert_eq!(face.dist, R::ZERO, "size {size}");
            // Tilted: the normal's direction comes through rounding, at unit length.
            let mut poly = Polytope::<R>::new(EpaLimits::FIRST);
            for (x, y, z) in [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)] {
                let p = R::vec(
                    R::from_f64(x * size),
                    R::from_f64(y * size),
                    R::from_f64(z * size),
                );
                poly.push_vertex(p, R::vzero());
            }
            poly.push_face(0, 1, 2)
                .unwrap_or_else(|e| panic!("size {size}: {e:?}"));
            let face = poly.faces[0];
            let third = 1.0 / 3f64.sqrt();
            for k in 0..3 {
                let n = R::comp(face.normal, k).to_f64();
                assert!(
                    (n - third).abs() < 8.0 * R::EPSILON.to_f64(),
                    "size {size}: {n}"
                );
            }
            let dist = face.dist.to_f64() / (third * size);
            assert!(
                (dist - 1.0).abs() < 8.0 * R::EPSILON.to_f64(),
                "size {size}: {dist}"
            );
        }
    }

    #[test]
    fn faces_get_unit_normals_from_tiny_to_huge() {
        // The cross product's squared length (about size^4) is out of range, and balanced, below about
        // 5e-8 and above about 1e9 in f32, below about 1e-73 and above about 1e77 in f64; each list has sizes
        // on both sides of both bounds, out to where the cross product itself is still a normal number.
        faces_of_every_size::<f32>(&[1e-19, 1e-12, 1e-8, 1.0, 1e8, 1e12, 1e19]);
        faces_of_every_size::<f64>(&[1e-150, 1e-80, 1e-8, 1.0, 1e8, 1e80, 1e150]);
    }

    /// The nearest face as a walk over every slot picks it: the first live slot, then each strictly nearer one.
    fn nearest_by_walk<R: Real>(poly: &Polytope<R>) -> Option<usize> {
        let first = (0..poly.face_slots).find(|&s| poly.faces[s].alive)?;
        let distances = poly.planes.distances(poly.face_slots);
        let mut best = first;
        for s in first + 1..poly.face_slots {
            if distances[s] < distances[best] {
                best = s;
            }
        }
        Some(best)
    }

    /// Polytopes of up to 300 slots, faces removed and added at random, with distances that tie exactly, are
    /// 0 of either sign, infinite or not a number: the nearest face is the walk's pick on both sides of
    /// [`MANY_FACES`], and a new face takes the lowest dead slot, across the words of the dead-slot bits.
    #[test]
    fn the_nearest_face_and_the_reused_slot_are_those_a_walk_over_the_slots_finds() {
        let mut numbers = Numbers(0x2545_F491_4F6C_DD1D);
        let limits = EpaLimits::grown(600, 600);
        let mut poly = Polytope::<f32>::new(limits);
        let (mut two_pass, mut reused) = (0, 0);
        for round in 0..400 {
            poly.clear();
            for _ in 0..3 {
                poly.push_vertex(numbers.vector().as_vec3().into(), Vec3A::ZERO);
            }
            let size = 1 + (numbers.next().abs() * 300.0) as usize;
            for _ in 0..size {
                poly.push_face(0, 1, 2).unwrap();
            }
            for step in 0..200 {
                let s = ((numbers.next().abs() * size as f64) as usize).min(size - 1);
                let pick = numbers.next();
                if pick < -0.3 && poly.faces[s].alive {
                    poly.remove_face(s);
                } else if pick < 0.3 {
                    let dead_before: Vec<usize> = (0..poly.face_slots)
                        .filter(|&t| !poly.faces[t].alive)
                        .collect();
                    if poly.push_face(0, 1, 2).is_ok() && !dead_before.is_empty() {
                        let dead_after: Vec<usize> = (0..poly.face_slots)
                            .filter(|&t| !poly.faces[t].alive)
                            .collect();
                        assert_eq!(dead_after, dead_before[1..], "round {round} step {step}");
                        reused += 1;
                    }
                } else if poly.faces[s].alive {
                    let special = [f32::NAN, 0.0, -0.0, f32::INFINITY, -1.0, 0.5, 0.5];
                    let dist = match (numbers.next().abs() * 9.0) as usize {
                        k if k < special.len() => special[k],
                        _ => numbers.next() as f32,
                    };
                    poly.planes.set(s, poly.faces[s].normal, dist);
                }
                let found = poly.closest_face();
                assert_eq!(found, nearest_by_walk(&poly), "round {round} step {step}");
                if poly.face_slots > MANY_FACES + 1 {
                    two_pass += 1;
                }
            }
        }
        assert!(two_pass > 10_000 && reused > 5_000, "{two_pass} {reused}");
    }

    #[test]
    fn dead_slots_are_neither_nearest_nor_seen() {
        let mut poly = Polytope::<f32>::new(EpaLimits::FIRST);
        for p in [Vec3A::ZERO, Vec3A::X, Vec3A::Y, Vec3A::Z] {
            poly.push_vertex(p, Vec3A::ZERO);
        }
        poly.push_face(0, 2, 1).unwrap();
        poly.push_face(0, 1, 3).unwrap();
        poly.remove_face(0);
        assert_eq!(poly.closest_face(), Some(1));
        poly.remove_face(1);
        assert_eq!(poly.closest_face(), None);
        // A point in front of both dead faces' planes sees neither.
        poly.carve_horizon(1, Vec3A::new(0.2, -1.0, -1.0)).unwrap();
        assert_eq!(poly.edges, 0);
    }
}
