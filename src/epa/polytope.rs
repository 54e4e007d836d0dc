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
pub struct Face<R: Real> {
    pub v: [usize; 3],
    pub normal: R::V,
    pub dist: R,
    pub alive: bool,
}

/// The polytope, in storage bounded by [`EpaLimits`].
pub struct Polytope<R: Real> {
    pub w: Vec<R::V>,
    pub a: Vec<R::V>,
    pub b: Vec<R::V>,
    pub vertices: usize,
    pub faces: Vec<Face<R>>,
    pub face_slots: usize,
    /// Every slot below this one holds a live face: the search for a dead slot to reuse starts here (it finds
    /// the lowest dead slot, as a search from 0 would, without walking the live ones).
    first_free: usize,
    /// The faces the current expansion's point sees, in slot order (storage reused across expansions).
    visible: Vec<usize>,
    /// Horizon edges (tail, head) of the current expansion, `edges` of them in use.
    pub horizon: Vec<[usize; 2]>,
    pub edges: usize,
    pub limits: EpaLimits,
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
            face_slots: 0,
            first_free: 0,
            visible: Vec::with_capacity(faces),
            horizon: vec![[0; 2]; limits.horizon],
            edges: 0,
            limits,
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
        self.face_slots = 0;
        self.first_free = 0;
        self.visible.clear();
        self.edges = 0;
    }

    pub fn push_vertex(&mut self, a: R::V, b: R::V) -> usize {
        let i = self.vertices;
        self.w.push(a - b);
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
        let n = R::balanced(R::cross(self.w[j] - self.w[i], self.w[k] - self.w[i]));
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
        // Reuse the lowest dead slot before growing.
        let slot = (self.first_free..self.face_slots).find(|&s| !self.faces[s].alive);
        match slot {
            Some(s) => {
                self.faces[s] = face;
                self.first_free = s + 1;
            }
            None if self.face_slots < self.limits.faces => {
                self.faces.push(face);
                self.face_slots += 1;
                self.first_free = self.face_slots;
            }
            None => return Err(PenetrationStatus::Overflow),
        }
        Ok(())
    }

    /// Frees face slot `s`.
    fn remove_face(&mut self, s: usize) {
        self.faces[s].alive = false;
        self.first_free = self.first_free.min(s);
    }

    /// The live face nearest the origin (the first one on ties).
    pub fn closest_face(&self) -> Option<usize> {
        let mut best: Option<usize> = None;
        for s in 0..self.face_slots {
            let f = &self.faces[s];
            if f.alive && best.is_none_or(|b| f.dist < self.faces[b].dist) {
                best = Some(s);
            }
        }
        best
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
        visible.extend((0..self.face_slots).filter(|&s| {
            let f = &self.faces[s];
            f.alive && sees(f, w - self.w[f.v[0]])
        }));
        let carved = self.grow_visible_region(&visible, best);
        self.visible = visible;
        carved?;
        self.absorb_flat_neighbours(w)
    }

    /// Removes the faces of `visible` connected to face `best` across shared edges, pass after pass until a
    /// pass removes none, toggling their edges into the horizon.
    fn grow_visible_region(
        &mut self,
        visible: &[usize],
        best: usize,
    ) -> Result<(), PenetrationStatus> {
        let mut grew = true;
        let mut first = true;
        while grew {
            grew = false;
            for &s in visible {
                let f = self.faces[s];
                if !f.alive {
                    continue;
                }
                let touches_region = if first {
                    s == best
                } else {
                    (0..3).any(|e| self.horizon_has([f.v[(e + 1) % 3], f.v[e]]).is_some())
                };
                if !touches_region {
                    continue;
                }
                self.remove_face(s);
                grew = true;
                for e in 0..3 {
                    self.toggle_horizon_edge([f.v[e], f.v[(e + 1) % 3]])?;
                }
            }
            first = false;
        }
        Ok(())
    }

    /// A horizon edge in line with `w` would close with a face of no area (a box's A - B, exactly: the new
    /// point lands on the extension of an edge). `w` then lies in the plane of the live face across that edge,
    /// whose plane holds the edge's line, so that face goes too, as if `w` saw it, and the new faces cover its
    /// plane instead. Each pass removes a face, so this ends.
    fn absorb_flat_neighbours(&mut self, w: R::V) -> Result<(), PenetrationStatus> {
        let mut e = 0;
        while e < self.edges {
            let [tail, head] = self.horizon[e];
            let n = R::cross(self.w[head] - self.w[tail], w - self.w[tail]);
            if R::length_squared(R::balanced(n)) == R::ZERO {
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
    fn face_across(&self, tail: usize, head: usize) -> Option<usize> {
        (0..self.face_slots).find(|&s| {
            let f = &self.faces[s];
            f.alive && (0..3).any(|k| f.v[k] == head && f.v[(k + 1) % 3] == tail)
        })
    }

    /// Where `edge` is in the horizon.
    fn horizon_has(&self, edge: [usize; 2]) -> Option<usize> {
        self.horizon[..self.edges].iter().position(|h| *h == edge)
    }

    /// A removed face's edge: shared with a face removed before (its reverse is in the horizon) it is interior
    /// and leaves; otherwise it joins the horizon.
    fn toggle_horizon_edge(&mut self, edge: [usize; 2]) -> Result<(), PenetrationStatus> {
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
