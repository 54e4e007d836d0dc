//! Exact sign tests on a triangulated hull of float32 points: whether its triangles close a convex surface, and
//! whether a point lies outside that surface.
//!
//! Quickhull decides "on the hull" with a tolerance (parry3d's float32 one at about 1e-5 of the hull's size), so
//! on thin, flat or nearly flat point sets it drops points that are extreme by less than that: a disk 2e-4 thick
//! lost nearly all of its thickness. These tests decide with Shewchuk's adaptive predicates (the `robust` crate)
//! instead, exactly for the float32 coordinates given, so that a hull they accept holds every point it dropped,
//! with no rounding room at all, and a climb over its edges cannot stop on a vertex that only looks highest.

use super::ray_walk::{StartTable, Surface};
use glam::{DVec3, Vec3};
use rayon::prelude::*;
use robust::{orient2d, orient3d, Coord, Coord3D};
use std::cmp::Ordering;
use std::collections::HashSet;
use wide::f64x4;

/// Room for the float64 arithmetic of [`Plane::side`]'s fast test, per unit of `|b - a|_1 |c - a|_1 |p - a|_1`.
/// Its rounding is below 8 float64 ulps of that product (each difference, product and sum rounds once); this is
/// 1,000 times that, and only the points within it pay for the exact predicate.
const FAST_TEST_ROOM: f64 = 1e-12;

/// Rays [`ConvexSurface::wraps_once`] tries before it gives up on a surface (each through another triangle,
/// in case one grazes an edge).
const RAY_TRIES: usize = 8;

/// The share of the least distance from the centre to a plane that [`ConvexSurface::outside_each`] trusts without
/// testing each plane: far more room than the float64 rounding of a distance (about 1e-16 of it).
const INNER_RADIUS_SHARE: f64 = 1.0 - 1e-9;

/// Points per block of [`ConvexSurface::outside_each`] (one bit each in a `u64`): their coordinates (1.5 KiB)
/// stay in the first-level cache while every plane is tested against them.
const BLOCK: usize = 64;

/// From this many triangles, and this many points to test, [`ConvexSurface::outside_each`] walks each point to
/// the one plane that decides it (see [`super::ray_walk`]) instead of testing every plane.
const WALK_MIN_TRIANGLES: usize = 256;
const WALK_MIN_POINTS: usize = 256;

/// Steps a point's walk takes before that point is tested against every plane instead.
const POINT_WALK_STEPS: usize = 256;

/// Below this many items a loop here runs on the calling thread: handing a small hull's triangles to rayon's
/// pool cost more than checking them (building a hull of 8 random points took 4 times as long).
pub(super) const PARALLEL_MIN_ITEMS: usize = 4096;

/// Whether a loop over `items` items goes to rayon's pool.
pub(super) fn parallel(items: usize) -> bool {
    items >= PARALLEL_MIN_ITEMS
}

/// One triangle's plane, with what its fast test needs.
struct Plane {
    a: DVec3,
    b: DVec3,
    c: DVec3,
    /// `(b - a) x (c - a)`, outward for a triangle counterclockwise seen from outside.
    normal: DVec3,
    /// [`FAST_TEST_ROOM`] times `|b - a|_1 |c - a|_1`.
    room: f64,
}

impl Plane {
    fn new(a: Vec3, b: Vec3, c: Vec3) -> Self {
        let (a, b, c) = (a.as_dvec3(), b.as_dvec3(), c.as_dvec3());
        let (ab, ac) = (b - a, c - a);
        Self {
            a,
            b,
            c,
            normal: ab.cross(ac),
            room: FAST_TEST_ROOM * l1(ab) * l1(ac),
        }
    }

    /// Where `p` lies: `Greater` outside (on the normal's side), `Less` inside, `Equal` on the plane, exactly.
    fn side(&self, p: DVec3) -> Ordering {
        let q = p - self.a;
        let height = self.normal.dot(q);
        let room = self.room * l1(q);
        if height > room {
            Ordering::Greater
        } else if height < -room {
            Ordering::Less
        } else {
            // Shewchuk's orient3d is positive when `p` is below the plane of a, b, c counterclockwise.
            0.0.partial_cmp(&orient3d(
                coord(self.a),
                coord(self.b),
                coord(self.c),
                coord(p),
            ))
            .unwrap_or(Ordering::Greater)
        }
    }

    /// A lower bound on the distance from `p`, strictly inside the plane, to the plane: the height less the
    /// fast test's room, over the normal's length plus the room of its rounding (the same bound as
    /// [`Plane::side`]'s, so a sliver triangle, whose normal lost its digits, gets a distance of 0 rather than a
    /// wrong one).
    fn least_distance(&self, p: DVec3) -> f64 {
        let q = p - self.a;
        let height = -self.normal.dot(q) - self.room * l1(q);
        let length = self.normal.length() + self.room * 3.0;
        (height / length).max(0.0)
    }
}

/// Whether three points lie on one line (or coincide), exactly: their projections on the three coordinate
/// planes all have zero area.
fn collinear(a: Vec3, b: Vec3, c: Vec3) -> bool {
    let area = |i: usize, j: usize| {
        let coord = |v: Vec3| Coord {
            x: v[i] as f64,
            y: v[j] as f64,
        };
        orient2d(coord(a), coord(b), coord(c))
    };
    area(0, 1) == 0.0 && area(1, 2) == 0.0 && area(2, 0) == 0.0
}

/// No point given twice (`-0.0` and `0.0` are one coordinate).
fn distinct(points: &[Vec3]) -> bool {
    let mut seen = HashSet::with_capacity(points.len());
    points
        .iter()
        .all(|p| seen.insert((*p + Vec3::ZERO).to_array().map(f32::to_bits)))
}

/// `v` as Shewchuk's predicates take it.
pub(super) fn coord(v: DVec3) -> Coord3D<f64> {
    Coord3D {
        x: v.x,
        y: v.y,
        z: v.z,
    }
}

fn l1(v: DVec3) -> f64 {
    v.x.abs() + v.y.abs() + v.z.abs()
}

/// The directed edges of a triangle list, grouped by tail (CSR) and sorted by head: for each edge, the third
/// corner of its triangle. A hash map of two million triangles' six million edges took seconds; here a lookup
/// is a binary search among the edges leaving one vertex (a cone's apex may have a million of them).
struct DirectedEdges {
    /// `offsets[v]..offsets[v + 1]` indexes the edges leaving vertex `v` in `edges`.
    offsets: Vec<u32>,
    /// (head, third corner, triangle), sorted by head within each tail's run.
    edges: Vec<(u32, u32, u32)>,
}

impl DirectedEdges {
    /// The edges of `triangles` over `points` points; `None` when a corner is out of range or a directed edge
    /// is used twice.
    fn of(points: usize, triangles: &[[u32; 3]]) -> Option<Self> {
        let mut offsets = vec![0u32; points + 1];
        for t in triangles {
            for &i in t {
                *offsets.get_mut(i as usize + 1)? += 1;
            }
        }
        for v in 0..points {
            offsets[v + 1] += offsets[v];
        }
        let mut fill = offsets.clone();
        let mut edges = vec![(0, 0, 0); triangles.len() * 3];
        for (index, t) in triangles.iter().enumerate() {
            for k in 0..3 {
                let slot = &mut fill[t[k] as usize];
                edges[*slot as usize] = (t[(k + 1) % 3], t[(k + 2) % 3], index as u32);
                *slot += 1;
            }
        }
        let in_parallel = parallel(edges.len());
        let mut runs = Vec::with_capacity(points);
        let mut rest = edges.as_mut_slice();
        for w in offsets.windows(2) {
            let (run, after) = rest.split_at_mut((w[1] - w[0]) as usize);
            runs.push(run);
            rest = after;
        }
        let has_repeat = |run: &mut [(u32, u32, u32)]| {
            run.sort_unstable();
            run.windows(2).any(|pair| pair[0].0 == pair[1].0)
        };
        let repeated = if in_parallel {
            runs.into_par_iter().any(has_repeat)
        } else {
            runs.into_iter().any(has_repeat)
        };
        (!repeated).then_some(Self { offsets, edges })
    }

    /// The third corner of the triangle with directed edge (tail, head), and that triangle.
    fn opposite(&self, tail: u32, head: u32) -> Option<(u32, u32)> {
        let run = &self.edges
            [self.offsets[tail as usize] as usize..self.offsets[tail as usize + 1] as usize];
        let at = run.binary_search_by_key(&head, |&(h, _, _)| h).ok()?;
        Some((run[at].1, run[at].2))
    }

    /// Whether every point is a corner of some triangle.
    fn every_point_used(&self) -> bool {
        self.offsets.windows(2).all(|w| w[1] > w[0])
    }
}

/// A closed convex surface of triangles over float32 points, checked exactly.
pub struct ConvexSurface {
    planes: Vec<Plane>,
    /// For each triangle, the triangle across each of its edges (edge `k` from corner `k` to `k + 1`).
    neighbours: Vec<[u32; 3]>,
    /// The mean of the points, strictly inside every plane.
    centre: DVec3,
    /// A radius about `centre` within which every point is inside every plane (a lower bound on the
    /// distance to the nearest plane, less the rounding of the normals and of the distances): a point there
    /// needs no test against each plane.
    inner_radius: f64,
}

impl ConvexSurface {
    /// The surface of `triangles` (indices into `points`, counterclockwise seen from outside), when they close
    /// it (every directed edge used once, and its reverse once), use every point, none twice and none on a line
    /// with the other two, and it folds outward or stays flat at every edge (each triangle's far neighbour
    /// across an edge is not outside its plane), all exactly; `None` otherwise. A closed surface convex at
    /// every edge bounds a convex body: every point on the inner side of all its planes is inside, and on it a
    /// vertex none of whose neighbours is higher along a direction is the highest.
    pub fn of(points: &[Vec3], triangles: &[[u32; 3]]) -> Option<Self> {
        if triangles.is_empty() || !distinct(points) {
            return None;
        }
        let edges = DirectedEdges::of(points.len(), triangles)?;
        let p = |i: u32| points[i as usize];
        // Each triangle's checks read only the points and the edges: in parallel on a big hull (a million
        // vertices make two million triangles).
        let check = |t: &[u32; 3]| {
            if collinear(p(t[0]), p(t[1]), p(t[2])) {
                // No plane: the fold tests across its edges would be empty.
                return None;
            }
            let plane = Plane::new(p(t[0]), p(t[1]), p(t[2]));
            let mut across = [0; 3];
            for k in 0..3 {
                let (far, neighbour) = edges.opposite(t[(k + 1) % 3], t[k])?;
                if plane.side(p(far).as_dvec3()) == Ordering::Greater {
                    return None;
                }
                across[k] = neighbour;
            }
            Some((plane, across))
        };
        let checked: Vec<(Plane, [u32; 3])> = if parallel(triangles.len()) {
            triangles.par_iter().map(check).collect::<Option<_>>()?
        } else {
            triangles.iter().map(check).collect::<Option<_>>()?
        };
        let (planes, neighbours) = checked.into_iter().unzip();
        if !edges.every_point_used() {
            return None;
        }
        let centre = points.iter().map(|p| p.as_dvec3()).sum::<DVec3>() / points.len() as f64;
        let mut surface = Self {
            planes,
            neighbours,
            centre,
            inner_radius: 0.0,
        };
        if !surface.wraps_once() {
            return None;
        }
        let least = |plane: &Plane| plane.least_distance(centre);
        let nearest = if parallel(surface.planes.len()) {
            surface
                .planes
                .par_iter()
                .map(least)
                .reduce(|| f64::INFINITY, f64::min)
        } else {
            surface
                .planes
                .iter()
                .map(least)
                .fold(f64::INFINITY, f64::min)
        };
        surface.inner_radius = nearest * INNER_RADIUS_SHARE;
        Some(surface)
    }

    /// Whether the surface wraps once around the mean of `points`: that point is strictly inside every
    /// triangle's plane, and a ray from it through one triangle crosses no other. Convex at every edge is not
    /// enough: parry3d's float64 quickhull answered a squashed sphere of 522 points with a closed surface convex
    /// at every edge whose triangles went three times around one vertex, and a climb over it ended 1.77 short of
    /// the highest point. Every triangle seen from inside turns the same way, so the ray's one crossing makes
    /// the surface's projection from that point onto a sphere one to one (it covers the sphere exactly once):
    /// the surface is the boundary of a star-shaped body, which convex edges make convex (Mehlhorn et al.,
    /// "Checking geometric programs or verification of geometric structures", 1999).
    fn wraps_once(&self) -> bool {
        let inside = self.centre;
        let not_inside = |plane: &Plane| plane.side(inside) != Ordering::Less;
        let outside_some = if parallel(self.planes.len()) {
            self.planes.par_iter().any(not_inside)
        } else {
            self.planes.iter().any(not_inside)
        };
        if outside_some {
            return false;
        }
        // A ray through a triangle's centroid may graze another triangle's edge; a few others decide then.
        self.planes
            .iter()
            .take(RAY_TRIES)
            .find_map(|through| self.ray_crossings(inside, through))
            == Some(1)
    }

    /// How many triangles the ray from `from` (inside every plane) through the centroid of `through` leaves the
    /// surface through, when it grazes no edge or corner. Seen along the ray, a triangle it crosses ahead of
    /// `from` turns the way `through` does, and one it crosses behind `from` the other way (exactly, by
    /// Shewchuk's orient3d).
    fn ray_crossings(&self, from: DVec3, through: &Plane) -> Option<usize> {
        let (o, r) = (
            coord(from),
            coord((through.a + through.b + through.c) / 3.0),
        );
        let turn = |plane: &Plane| {
            let (a, b, c) = (coord(plane.a), coord(plane.b), coord(plane.c));
            [
                orient3d(o, r, a, b),
                orient3d(o, r, b, c),
                orient3d(o, r, c, a),
            ]
            .map(|x| x.partial_cmp(&0.0).unwrap_or(Ordering::Equal))
        };
        let aimed = turn(through);
        let ahead = aimed[0];
        if ahead == Ordering::Equal || aimed.iter().any(|&s| s != ahead) {
            return None;
        }
        // Per triangle: crossed (1), missed (0), or grazed at an edge or corner (`None`, for the whole ray).
        let crossing = |plane: &Plane| {
            let signs = turn(plane);
            if signs.iter().any(|&s| s != ahead && s != Ordering::Equal) {
                // Missed, or crossed behind `from`.
                Some(0)
            } else if signs.contains(&Ordering::Equal) {
                None
            } else {
                Some(1)
            }
        };
        if parallel(self.planes.len()) {
            self.planes.par_iter().map(crossing).sum()
        } else {
            self.planes.iter().map(crossing).sum()
        }
    }

    /// Whether `p` lies outside the surface (strictly outside some triangle's plane), exactly. A point within
    /// the inner radius of the centre is inside without a test per plane (most of a dense cloud's interior).
    /// The point-by-point reference that [`Self::outside_each`] is tested against.
    #[cfg(test)]
    pub fn outside(&self, p: Vec3) -> bool {
        let p = p.as_dvec3();
        if p.distance(self.centre) < self.inner_radius {
            return false;
        }
        self.planes
            .iter()
            .any(|plane| plane.side(p) == Ordering::Greater)
    }

    /// [`Self::outside`] for each of `points`, with the same answers: on a surface of many triangles, by the one
    /// plane that decides each point ([`Self::outside_each_walked`]; every plane took a million points in a
    /// cloud 1e-3 thick 10 s, one plane each 1.2 s); on a small one, plane after plane over blocks of points (in
    /// parallel for many). Point after point, every point read all the planes (over 100 bytes each) from
    /// memory: a cloud of 65,536 points 1e-3 thick, whose inner radius spares few, spent 87% of its hull's
    /// build there.
    pub fn outside_each(&self, points: &[Vec3]) -> Vec<bool> {
        if self.planes.len() >= WALK_MIN_TRIANGLES && points.len() >= WALK_MIN_POINTS {
            return self.outside_each_walked(points, POINT_WALK_STEPS);
        }
        let block = |block: &[Vec3]| self.outside_block(block);
        if parallel(points.len()) {
            points.par_chunks(BLOCK).flat_map_iter(block).collect()
        } else {
            points.chunks(BLOCK).flat_map(block).collect()
        }
    }

    /// [`Self::outside_each`] by one plane a point: the plane of the triangle through which the ray from the
    /// centre towards the point leaves the surface (found by [`Surface::walk`]), beyond which the point lies
    /// exactly when it is outside. The surface is closed, convex and wraps once around the centre, which is
    /// strictly inside every plane ([`Self::of`] checked all of it), so that ray meets the surface once, in
    /// that triangle (or on its edges), and the points of the ray beyond that plane are the ray's points
    /// outside. A walk that does not arrive within `max_steps` leaves its point to every plane.
    pub(super) fn outside_each_walked(&self, points: &[Vec3], max_steps: usize) -> Vec<bool> {
        let surface = Surface {
            corners: |t: u32| {
                let plane = &self.planes[t as usize];
                [plane.a, plane.b, plane.c]
            },
            neighbours: &self.neighbours,
            centre: self.centre,
        };
        let corners = self.planes.iter().map(|plane| plane.a);
        let table = StartTable::new(&surface, corners, self.planes.len());
        let one = |p: &Vec3| {
            let p = p.as_dvec3();
            // Not `>=`: a point that is not a number is tested, as in `outside`.
            if p.distance(self.centre) < self.inner_radius {
                return false;
            }
            match surface.walk(p, table.start(p), max_steps) {
                Ok(t) => self.planes[t as usize].side(p) == Ordering::Greater,
                Err(_) => self
                    .planes
                    .iter()
                    .any(|plane| plane.side(p) == Ordering::Greater),
            }
        };
        if parallel(points.len()) {
            points.par_iter().map(one).collect()
        } else {
            points.iter().map(one).collect()
        }
    }

    /// [`Self::outside_each`] on at most [`BLOCK`] points: the fast test of [`Plane::side`] on every point
    /// not yet inside the inner radius, in columns, then the exact test on the few it cannot decide.
    fn outside_block(&self, block: &[Vec3]) -> Vec<bool> {
        // Columns of a whole block, four rows a lane group; the unused rows at the centre, which is inside every
        // plane.
        let c = self.centre;
        let (mut at, mut x, mut y, mut z) = ([0; BLOCK], [c.x; BLOCK], [c.y; BLOCK], [c.z; BLOCK]);
        let mut n = 0;
        for (i, p) in block.iter().enumerate() {
            let p = p.as_dvec3();
            // Not `>=`: a point that is not a number is tested, as in `outside`.
            let spared = p.distance(c) < self.inner_radius;
            if !spared {
                (at[n], x[n], y[n], z[n]) = (i, p.x, p.y, p.z);
                n += 1;
            }
        }
        let groups = n.div_ceil(4);
        let lanes = |a: &[f64; BLOCK]| -> [f64x4; BLOCK / 4] {
            std::array::from_fn(|g| f64x4::from(&a[g * 4..g * 4 + 4]))
        };
        let (x4, y4, z4) = (lanes(&x), lanes(&y), lanes(&z));
        // Bit k: row k is outside some plane so far.
        let mut outside = 0u64;
        for plane in &self.planes {
            let (a, normal) = (plane.a, plane.normal);
            let (ax, ay, az) = (f64x4::splat(a.x), f64x4::splat(a.y), f64x4::splat(a.z));
            let (nx, ny, nz) = (
                f64x4::splat(normal.x),
                f64x4::splat(normal.y),
                f64x4::splat(normal.z),
            );
            let room_per = f64x4::splat(plane.room);
            let mut unsure = 0u64;
            // The same operations in the same order as `Plane::side`'s fast test, so the same decisions.
            for g in 0..groups {
                let (qx, qy, qz) = (x4[g] - ax, y4[g] - ay, z4[g] - az);
                let height = nx * qx + ny * qy + nz * qz;
                let room = room_per * (qx.abs() + qy.abs() + qz.abs());
                let beyond = height.simd_gt(room).to_bitmask() as u64;
                let below = height.simd_lt(-room).to_bitmask() as u64;
                outside |= beyond << (g * 4);
                unsure |= (!(beyond | below) & 0xF) << (g * 4);
            }
            // Rows past `n` are the centre's copies: never asked exactly.
            let mut ask = unsure & !outside & low_bits(n);
            while ask != 0 {
                let k = ask.trailing_zeros() as usize;
                ask &= ask - 1;
                if plane.side(DVec3::new(x[k], y[k], z[k])) == Ordering::Greater {
                    outside |= 1 << k;
                }
            }
        }
        let mut answers = vec![false; block.len()];
        for k in 0..n {
            answers[at[k]] = outside >> k & 1 == 1;
        }
        answers
    }
}

/// The lowest `n` bits set (`n` up to 64).
fn low_bits(n: usize) -> u64 {
    u64::MAX.checked_shr(64 - n as u32).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cube of corners +-1, as 12 triangles counterclockwise seen from outside.
    fn cube() -> (Vec<Vec3>, Vec<[u32; 3]>) {
        let points: Vec<Vec3> = (0..8)
            .map(|i| {
                let s = |bit: u32| if i & bit == 0 { -1.0 } else { 1.0 };
                Vec3::new(s(1), s(2), s(4))
            })
            .collect();
        let quads = [
            [0, 2, 3, 1],
            [4, 5, 7, 6],
            [0, 1, 5, 4],
            [2, 6, 7, 3],
            [0, 4, 6, 2],
            [1, 3, 7, 5],
        ];
        let triangles = quads
            .iter()
            .flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]])
            .collect();
        (points, triangles)
    }

    #[test]
    fn a_cube_is_closed_and_convex_and_holds_its_faces_points() {
        let (points, triangles) = cube();
        let surface = ConvexSurface::of(&points, &triangles).expect("a cube is convex");
        assert!(!surface.outside(Vec3::ZERO));
        // On a face, on an edge, at a corner: on the surface, not outside.
        for p in [
            Vec3::new(1.0, 0.3, -0.7),
            Vec3::new(1.0, 1.0, 0.2),
            Vec3::ONE,
        ] {
            assert!(!surface.outside(p), "{p}");
        }
        // One float32 ulp beyond a face is outside: no rounding room.
        let beyond = Vec3::new(f32::from_bits(1.0f32.to_bits() + 1), 0.5, 0.5);
        assert!(surface.outside(beyond));
    }

    #[test]
    fn a_dent_or_an_open_surface_is_refused() {
        let (mut points, triangles) = cube();
        // Corner 7 pushed in by one ulp along the diagonal: the faces at it fold inward.
        points[7] = Vec3::splat(f32::from_bits(1.0f32.to_bits() - 1));
        assert!(ConvexSurface::of(&points, &triangles).is_none());
        let (points, mut triangles) = cube();
        triangles.pop();
        assert!(ConvexSurface::of(&points, &triangles).is_none());
        // A ninth point no triangle uses, or a corner given twice.
        let (mut points, triangles) = cube();
        points.push(Vec3::ZERO);
        assert!(ConvexSurface::of(&points, &triangles).is_none());
        let (mut points, triangles) = cube();
        points[7] = points[6];
        assert!(ConvexSurface::of(&points, &triangles).is_none());
    }

    /// A double pyramid over a regular pentagon whose rim is taken in `step`s: 1 goes round once (a convex
    /// surface), 2 goes round the pentagram twice. Both are closed and convex at every edge.
    fn bipyramid(step: usize) -> (Vec<Vec3>, Vec<[u32; 3]>) {
        let mut points: Vec<Vec3> = (0..5)
            .map(|k| {
                let a = k as f32 * std::f32::consts::TAU / 5.0;
                Vec3::new(a.cos(), a.sin(), 0.0)
            })
            .collect();
        points.extend([Vec3::Z, -Vec3::Z]);
        let rim = |k: usize| ((k * step) % 5) as u32;
        let triangles = (0..5)
            .flat_map(|k| [[5, rim(k), rim(k + 1)], [6, rim(k + 1), rim(k)]])
            .collect();
        (points, triangles)
    }

    #[test]
    fn a_surface_convex_at_every_edge_that_wraps_twice_is_refused() {
        let (points, triangles) = bipyramid(1);
        assert!(ConvexSurface::of(&points, &triangles).is_some());
        let (points, triangles) = bipyramid(2);
        assert!(ConvexSurface::of(&points, &triangles).is_none());
    }

    /// Points around a surface: anywhere near it, on its faces and edges and a float32 ulp either side, and at
    /// its centre (inside the inner radius).
    fn points_around(surface_points: &[Vec3], count: usize) -> Vec<Vec3> {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f32 / (1u64 << 53) as f32
        };
        let nudge = |x: f32, step: i32| match step {
            -1 => x.next_down(),
            1 => x.next_up(),
            _ => x,
        };
        (0..count)
            .map(|i| {
                let corner = surface_points[i % surface_points.len()];
                let other = surface_points[(i * 7 + 3) % surface_points.len()];
                let t = next();
                match i % 4 {
                    0 => Vec3::new(next(), next(), next()) * 3.0 - 1.5,
                    // On an edge or a chord between two corners, exactly or nearly.
                    1 => corner + (other - corner) * t,
                    2 => (corner + (other - corner) * t).map(|x| nudge(x, (i % 3) as i32 - 1)),
                    _ => corner.map(|x| nudge(x, (i % 3) as i32 - 1)) * (0.2 + 0.8 * t.round()),
                }
            })
            .collect()
    }

    #[test]
    fn the_blocked_test_answers_as_the_point_by_point_one() {
        // A cube, a pentagonal bipyramid, and a cube squashed to 1e-6 of its height (few points inside its
        // inner radius); 5,000 points take the parallel path, 70 one and a bit blocks.
        let (cube_points, cube_triangles) = cube();
        let squashed: Vec<Vec3> = cube_points
            .iter()
            .map(|p| *p * Vec3::new(1.0, 1.0, 1e-6))
            .collect();
        let (pyramid_points, pyramid_triangles) = bipyramid(1);
        for (points, triangles) in [
            (&cube_points, &cube_triangles),
            (&squashed, &cube_triangles),
            (&pyramid_points, &pyramid_triangles),
        ] {
            let surface = ConvexSurface::of(points, triangles).expect("a convex surface");
            for count in [70, 5000] {
                let mut around = points_around(points, count);
                // Not a number: outside, as no plane holds it (hull points are finite; the two tests agree).
                around[count / 2] = Vec3::new(f32::NAN, 0.0, 0.0);
                let each = surface.outside_each(&around);
                let reference: Vec<bool> = around.iter().map(|p| surface.outside(*p)).collect();
                assert_eq!(each, reference);
                let outside = each.iter().filter(|&&o| o).count();
                assert!(
                    outside > count / 10 && outside < count * 9 / 10,
                    "{outside} of {count}"
                );
            }
        }
    }

    #[test]
    fn a_point_a_hair_above_a_sliver_face_is_outside() {
        // A face 1e6 long and 1e-6 wide: its normal has lost most of its digits in float64 (the fast test's
        // room covers that), and the exact predicate decides a point 1e-7 above it.
        let a = Vec3::new(0.0, 0.0, 0.0);
        let b = Vec3::new(1e6, 0.0, 0.0);
        let c = Vec3::new(5e5, 1e-6, 0.0);
        let plane = Plane::new(a, b, c);
        let above = Vec3::new(3e5, 2e-7, 1e-7).as_dvec3();
        let below = Vec3::new(3e5, 2e-7, -1e-7).as_dvec3();
        let on = Vec3::new(3e5, 2e-7, 0.0).as_dvec3();
        assert_eq!(plane.side(above), Ordering::Greater);
        assert_eq!(plane.side(below), Ordering::Less);
        assert_eq!(plane.side(on), Ordering::Equal);
    }
}
