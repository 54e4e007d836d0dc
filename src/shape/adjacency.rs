//! Vertex adjacency of a convex hull, and the hill-climbing support function that walks it.
//!
//! On a convex polytope, a vertex none of whose neighbours is higher along a direction is the highest vertex of
//! all (the edges at a vertex span a cone that holds the whole polytope), so a walk that keeps moving to a
//! higher neighbour ends on the support vertex after visiting a few of them, where a scan reads them all.
//!
//! The layout is CSR, ready to upload to a GPU as it is: `offsets[v]..offsets[v + 1]` indexes `neighbours` and,
//! in parallel, `neighbour_points`, a copy of each neighbour's coordinates. With the copy, one step of the walk
//! reads two short runs of memory instead of one scattered point per neighbour: measured on a library of 400
//! distinct hulls (caches cold), the walk without it lost to the plain scan up to 700 vertices.
//!
//! **Ties.** The walk moves to the highest neighbour (the first in `neighbours` order on ties, which is
//! ascending vertex index) and only when it is strictly higher, and stops where no neighbour is. Its answer has
//! the support value of the scan up to rounding, but on a face or an edge perpendicular to the direction it may
//! stop on another vertex of that face or edge than the scan's first-on-ties vertex, depending on where it
//! started. Given the start vertex it is deterministic; a GPU twin walking the same arrays from the same start
//! picks the same vertex. The start is the previous answer's vertex or the start table's vertex for the
//! direction (a cube map of 1,536 cells, [`start_cell`]), whichever is higher, the previous one on ties.

use super::convexity::ConvexSurface;
use super::exact_quickhull::exact_quickhull;
use crate::real::Real;
use glam::{Vec3, Vec3A};
use parry3d_f64::math::Vector;
use std::collections::HashMap;

/// A convex hull's vertex graph (CSR) and the start table of its walks.
#[derive(Clone, Debug, PartialEq)]
pub struct HullAdjacency {
    /// `offsets[v]..offsets[v + 1]` are vertex v's neighbours in `neighbours`; `points + 1` entries.
    pub offsets: Vec<u32>,
    /// Neighbour indices, ascending within each vertex.
    pub neighbours: Vec<u32>,
    /// The coordinates of `neighbours[k]`, for every k, in `Vec3A`: the vector type the float32 walk computes
    /// in, so its loads need no conversion.
    pub neighbour_points: Vec<Vec3A>,
    /// A cube map of directions: entry `start_cell``(dir)` is the support vertex of that cell's centre
    /// direction, where a walk along any direction of the cell starts (a few steps from its end).
    /// `6 * START_TABLE_SIDE^2` entries, face-major, then row, then column.
    pub starts: Vec<u32>,
}

/// Cells along each side of a cube face in [`HullAdjacency::starts`]: 6 * 16 * 16 = 1,536 cells (6 KiB), each
/// within about 5 degrees of its centre direction, so a walk from the cell's vertex ends in a step or two on a
/// hull of 1,000 vertices. Measured in `benches/vs_parry.rs` (one run each, cube against the 482-vertex sphere
/// and 1,000 and 5,000-vertex hulls): 16 beat 8 on every case, and 32 won on 1,000-vertex hulls against boxes
/// but lost on the 482-vertex sphere; the 26 seed directions the table replaced cost 26 dot products per
/// support call.
pub(crate) const START_TABLE_SIDE: usize = 16;

/// The cell of `dir` in the start table: the face of the cube its largest component points at, then the
/// other two components over that one, in `START_TABLE_SIDE` equal steps from -1 to 1. A zero or non-finite
/// direction gets some cell (any start is correct; only the walk's length depends on it).
#[inline(always)]
pub fn start_cell<R: Real>(dir: R::V) -> usize {
    let components = [R::comp(dir, 0), R::comp(dir, 1), R::comp(dir, 2)];
    let [ax, ay, az] = components.map(|c| c.abs());
    // The major axis as a number, without branches: EPA's face normals and a new pair's first directions
    // point anywhere, so a branch per comparison goes either way. Over 2,000 distinct pairs a case, old/new on
    // the climbing cases: penetration 1.007-1.040, distance 1.014-1.072, the flag 1.036-1.071
    // (docs/benchmarks.md; over 200 pairs looped, where the predictor had learnt the branches, the flag
    // had read 3% to 6% slower). The other two components follow the major one cyclically: (y, z) for x,
    // (z, x) for y, (x, y) for z.
    let x_major = (ax >= ay) & (ax >= az);
    let y_major = ay >= az;
    let axis = usize::from(!x_major) * (1 + usize::from(!y_major));
    let major = [ax, ay, az][axis];
    let (u, v) = (components[(axis + 1) % 3], components[(axis + 2) % 3]);
    let face = 2 * axis + not_positive(components[axis]);
    let half = R::from_f64(0.5 * START_TABLE_SIDE as f64);
    let scale = half / major;
    let last = R::from_f64((START_TABLE_SIDE - 1) as f64);
    // Clamped to [0, side - 1] before the conversion, where `as usize` took the floor and saturated: the same
    // step for every value (negative rounding and NaN give 0).
    let step = |t: R| {
        let at = t * scale + half;
        let at = if at > R::ZERO { at } else { R::ZERO };
        let at = if at < last { at } else { last };
        at.to_f64() as i32 as usize
    };
    (face * START_TABLE_SIDE + step(u)) * START_TABLE_SIDE + step(v)
}

/// 1 when `x` is not above zero (NaN included: any cell is a correct start), else 0.
#[inline(always)]
fn not_positive<R: Real>(x: R) -> usize {
    usize::from(x.partial_cmp(&R::ZERO) != Some(std::cmp::Ordering::Greater))
}

/// The centre direction of start-table cell `cell` (not unit length: its largest component is +-1).
fn cell_centre(cell: usize) -> Vec3 {
    let side = START_TABLE_SIDE;
    let (face, row, column) = (cell / (side * side), (cell / side) % side, cell % side);
    let at = |k: usize| (k as f32 + 0.5) / side as f32 * 2.0 - 1.0;
    let (u, v) = (at(row), at(column));
    let sign = if face % 2 == 0 { 1.0 } else { -1.0 };
    match face / 2 {
        0 => Vec3::new(sign, u, v),
        1 => Vec3::new(v, sign, u),
        _ => Vec3::new(u, v, sign),
    }
}

/// No previous vertex: start from the start table's vertex for the direction.
pub(crate) const NO_START: u32 = u32::MAX;

impl HullAdjacency {
    /// The adjacency of `points` over their convex hull's triangles (quickhull with exact predicates, else
    /// parry3d's float64 quickhull), when they are exactly the vertices of a convex polytope with volume; `None`
    /// otherwise (flat or collinear sets, interior or repeated points, a hull that neither quickhull builds or
    /// that fails [`Self::of_surface`]'s exact check). The walk is only correct on
    /// such sets.
    pub fn of_hull_vertices(points: &[Vec3]) -> Option<Self> {
        Self::of_surface(points, &hull_triangles(points)?)
    }

    /// The adjacency of `points` over `triangles` (indices into `points`, counterclockwise seen from outside),
    /// when they close a convex surface that uses every point, checked exactly (`of`): on any
    /// other graph the walk's local maximum need not be the highest vertex.
    pub fn of_surface(points: &[Vec3], triangles: &[[u32; 3]]) -> Option<Self> {
        ConvexSurface::of(points, triangles)?;
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); points.len()];
        for t in triangles {
            for k in 0..3 {
                let (u, v) = (t[k], t[(k + 1) % 3]);
                lists[u as usize].push(v);
                lists[v as usize].push(u);
            }
        }
        let mut offsets = Vec::with_capacity(points.len() + 1);
        let mut neighbours = Vec::new();
        offsets.push(0);
        for list in &mut lists {
            list.sort_unstable();
            list.dedup();
            neighbours.extend_from_slice(list);
            offsets.push(neighbours.len() as u32);
        }
        let mut adjacency = Self {
            offsets,
            neighbour_points: neighbours
                .iter()
                .map(|&n| points[n as usize].into())
                .collect(),
            neighbours,
            starts: Vec::new(),
        };
        // Each cell's vertex by a walk from the previous cell's (the cells of a row are neighbours): the
        // walk's answer is the support value of the scan, at a few steps per cell instead of a scan each.
        let mut at = 0;
        let points: Vec<Vec3A> = points.iter().map(|&p| p.into()).collect();
        adjacency.starts = (0..6 * START_TABLE_SIDE * START_TABLE_SIDE)
            .map(|cell| {
                let dir = Vec3A::from(cell_centre(cell));
                at = adjacency.walk::<f32>(&points, at, points[at].dot(dir), dir);
                at as u32
            })
            .collect();
        Some(adjacency)
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Always false: a hull has vertices.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The support vertex of `points` along `dir` by hill climbing from `start` or from the start table's
    /// vertex for `dir`, whichever is higher (the table's alone with `NO_START`). `points` are the vertices
    /// this adjacency was built for, in any precision (the copies of the coordinates here are float32, exact in
    /// float64).
    #[inline]
    pub fn climb<R: Real>(&self, points: &[R::V], start: u32, dir: R::V) -> usize {
        // The previous vertex is a good start for GJK's slowly turning directions, but EPA's face normals jump
        // across the hull; the table's vertex, within about 5 degrees of any direction, bounds how far a walk
        // goes.
        let near = self.starts[start_cell::<R>(dir)] as usize;
        let near_height = R::dot(points[near], dir);
        if start == NO_START {
            return self.walk::<R>(points, near, near_height, dir);
        }
        let start = start as usize;
        let start_height = R::dot(points[start], dir);
        if near_height > start_height {
            self.walk::<R>(points, near, near_height, dir)
        } else {
            self.walk::<R>(points, start, start_height, dir)
        }
    }

    /// The walk from vertex `at`, whose height along `dir` is `height`: to the highest neighbour (the first on
    /// ties) while one is strictly higher.
    #[inline(always)]
    fn walk<R: Real>(&self, points: &[R::V], mut at: usize, mut height: R, dir: R::V) -> usize {
        debug_assert_eq!(points.len(), self.len());
        loop {
            let mut next = at;
            let range = self.offsets[at] as usize..self.offsets[at + 1] as usize;
            for (&n, &p) in self.neighbours[range.clone()]
                .iter()
                .zip(&self.neighbour_points[range])
            {
                let h = R::dot(R::vec_from_f32_lanes(p), dir);
                if h > height {
                    height = h;
                    next = n as usize;
                }
            }
            if next == at {
                return at;
            }
            at = next;
        }
    }
}

/// The triangles of the convex hull of `points`, as indices into `points`, when every point is one of its
/// vertices: quickhull with exact predicates, else parry3d's float64 quickhull.
fn hull_triangles(points: &[Vec3]) -> Option<Vec<[u32; 3]>> {
    if points.len() < 4 {
        return None;
    }
    if let Some((picked, triangles)) = exact_quickhull(points) {
        // Its vertices are increasing indices: all of them means the identity.
        return (picked.len() == points.len()).then_some(triangles);
    }
    let wide: Vec<Vector> = points
        .iter()
        .map(|p| Vector::new(p.x as f64, p.y as f64, p.z as f64))
        .collect();
    let (picked, triangles) = quickhull_f64_indices(&wide)?;
    if picked.len() != points.len() {
        return None;
    }
    Some(
        triangles
            .iter()
            .map(|t| t.map(|k| picked[k as usize] as u32))
            .collect(),
    )
}

/// parry3d's float64 quickhull of `placed`: each hull vertex as its index into `placed`, and the triangles over
/// that list of vertices. Quickhull returns copies of the points it keeps, in its own order; their bits find
/// them. `None` when quickhull fails or two entries of `placed` are the same point.
fn quickhull_f64_indices(placed: &[Vector]) -> Option<(Vec<usize>, Vec<[u32; 3]>)> {
    let key = |v: &Vector| [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()];
    let index: HashMap<[u64; 3], usize> = placed
        .iter()
        .enumerate()
        .map(|(i, v)| (key(v), i))
        .collect();
    if index.len() != placed.len() {
        return None;
    }
    let (vertices, triangles) = parry3d_f64::transformation::try_convex_hull(placed).ok()?;
    let picked = vertices
        .iter()
        .map(|v| index.get(&key(v)).copied())
        .collect::<Option<Vec<usize>>>()?;
    Some((picked, triangles))
}

#[cfg(all(test, feature = "scenario"))]
mod tests {
    use super::*;
    use crate::shape::support_index;
    use glam::DVec3;

    use crate::scenario::mesh_gen::fibonacci_sphere as sphere_points;

    fn directions(n: usize) -> Vec<Vec3A> {
        sphere_points(n)
            .into_iter()
            .map(|d| Vec3A::from((d + Vec3::new(0.013, -0.007, 0.002)).normalize()))
            .collect()
    }

    /// `points` as the float32 walk and scan take them.
    fn aligned(points: &[Vec3]) -> Vec<Vec3A> {
        points.iter().map(|&p| p.into()).collect()
    }

    #[test]
    fn the_walk_finds_the_scans_support_value_from_any_start() {
        for n in [4, 12, 100, 1000] {
            let points = sphere_points(n);
            let adjacency = HullAdjacency::of_hull_vertices(&points).expect("a convex set");
            let points = aligned(&points);
            assert_eq!(adjacency.len(), n);
            for (k, dir) in directions(64).into_iter().enumerate() {
                let best = points[support_index::<f32>(&points, dir)].dot(dir);
                for start in [NO_START, 0, (k * 7 % n) as u32] {
                    let found = adjacency.climb::<f32>(&points, start, dir);
                    assert_eq!(points[found].dot(dir), best, "{n} points, dir {dir}");
                }
            }
        }
    }

    /// `start_cell` as it was written with a branch per comparison, before the branch-free version: the
    /// reference the table was built with.
    fn start_cell_by_branches<R: Real>(dir: R::V) -> usize {
        let (x, y, z) = (R::comp(dir, 0), R::comp(dir, 1), R::comp(dir, 2));
        let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
        let (face, major, u, v) = if ax >= ay && ax >= az {
            (not_positive(x), ax, y, z)
        } else if ay >= az {
            (2 + not_positive(y), ay, z, x)
        } else {
            (4 + not_positive(z), az, x, y)
        };
        let half = R::from_f64(0.5 * START_TABLE_SIDE as f64);
        let scale = half / major;
        let step = |t: R| ((t * scale + half).to_f64() as usize).min(START_TABLE_SIDE - 1);
        (face * START_TABLE_SIDE + step(u)) * START_TABLE_SIDE + step(v)
    }

    /// Component values where the two versions could part: zeros of both signs, ties between components, cell
    /// edges (the step lands on a whole number, or a rounding from one), the ends of the range, tiny, huge and
    /// non-finite values.
    fn awkward_components() -> Vec<f32> {
        let mut values = vec![
            0.0,
            f32::MIN_POSITIVE,
            1e-45,
            1e-30,
            0.125,
            0.25,
            0.5,
            0.875,
            1.0,
            1.5,
            3.0,
            1e30,
            f32::MAX,
            f32::INFINITY,
            f32::NAN,
        ];
        // Where t * 8 / major + 8 is a whole number for major 1: every cell edge, and a rounding either side.
        for k in 0..=16 {
            let edge = k as f32 / 8.0 - 1.0;
            values.extend([edge, edge.next_up(), edge.next_down()]);
        }
        let negated: Vec<f32> = values.iter().map(|v| -v).collect();
        values.extend(negated);
        values
    }

    /// `dir`'s cell is the branching version's, in float32 and float64.
    fn assert_same_cell(dir: Vec3A) {
        assert_eq!(
            start_cell::<f32>(dir),
            start_cell_by_branches::<f32>(dir),
            "{dir}"
        );
        let wide = dir.as_dvec3();
        assert_eq!(
            start_cell::<f64>(wide),
            start_cell_by_branches::<f64>(wide),
            "{wide}"
        );
    }

    #[test]
    fn the_branch_free_cell_is_the_branching_one_for_every_direction() {
        let values = awkward_components();
        let mut checked = 0;
        for &x in &values {
            for &y in &values {
                for &z in &values {
                    assert_same_cell(Vec3A::new(x, y, z));
                    checked += 1;
                }
            }
        }
        assert!(checked > 1_000_000, "{checked}");
        // And random directions of every length.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
        };
        for _ in 0..200_000 {
            let scale = 10f32.powi((next() * 30.0) as i32);
            assert_same_cell(Vec3A::new(next(), next(), next()) * scale);
        }
    }

    #[test]
    fn every_direction_falls_in_a_cell_whose_centre_is_near_it() {
        for cell in 0..6 * START_TABLE_SIDE * START_TABLE_SIDE {
            let centre = cell_centre(cell);
            assert_eq!(start_cell::<f32>(centre.into()), cell, "{centre}");
            assert_eq!(start_cell::<f64>(centre.as_dvec3()), cell, "{centre}");
        }
        for dir in directions(5000) {
            let centre = cell_centre(start_cell::<f32>(dir)).normalize();
            // A cell is widest at the face's centre: half its diagonal there, with room for the rest.
            let widest = (2f32.sqrt() / START_TABLE_SIDE as f32).atan();
            assert!(dir.angle_between(centre.into()) < 1.1 * widest, "{dir}");
            assert_eq!(start_cell::<f64>(dir.as_dvec3()), start_cell::<f32>(dir));
        }
        // Zero and non-finite directions get a cell too.
        for odd in [
            Vec3A::ZERO,
            Vec3A::NAN,
            Vec3A::INFINITY,
            Vec3A::new(-0.0, 0.0, -0.0),
        ] {
            assert!(start_cell::<f32>(odd) < 6 * START_TABLE_SIDE * START_TABLE_SIDE);
        }
    }

    #[test]
    fn each_start_is_the_support_vertex_of_its_cells_centre() {
        for n in [12, 300, 2000] {
            let points = sphere_points(n);
            let adjacency = HullAdjacency::of_hull_vertices(&points).unwrap();
            let points = aligned(&points);
            assert_eq!(
                adjacency.starts.len(),
                6 * START_TABLE_SIDE * START_TABLE_SIDE
            );
            for (cell, &start) in adjacency.starts.iter().enumerate() {
                let centre = Vec3A::from(cell_centre(cell));
                let best = points[support_index::<f32>(&points, centre)].dot(centre);
                assert_eq!(
                    points[start as usize].dot(centre),
                    best,
                    "{n} points, cell {cell}"
                );
            }
        }
    }

    #[test]
    fn walks_from_the_table_end_on_the_scans_value_in_both_precisions() {
        for n in [256, 1000, 5000] {
            let points = sphere_points(n);
            let adjacency = HullAdjacency::of_hull_vertices(&points).unwrap();
            let points = aligned(&points);
            let wide: Vec<DVec3> = points.iter().map(|p| p.as_dvec3()).collect();
            for (k, dir) in directions(500).into_iter().enumerate() {
                let best = points[support_index::<f32>(&points, dir)].dot(dir);
                let previous = (k * 13 % n) as u32;
                for start in [NO_START, previous] {
                    let found = adjacency.climb::<f32>(&points, start, dir);
                    assert_eq!(points[found].dot(dir), best, "{n} points, dir {dir}");
                }
                let dir = dir.as_dvec3();
                let best = wide[support_index::<f64>(&wide, dir)].dot(dir);
                for start in [NO_START, previous] {
                    let found = adjacency.climb::<f64>(&wide, start, dir);
                    assert_eq!(wide[found].dot(dir), best, "{n} points, dir {dir}");
                }
            }
        }
    }

    #[test]
    fn ties_on_a_face_end_on_a_vertex_of_that_face() {
        let cube: Vec<Vec3> = (0..8)
            .map(|i| {
                let s = |bit: i32| if i & bit == 0 { -1.0 } else { 1.0 };
                Vec3::new(s(1), s(2), s(4))
            })
            .collect();
        let adjacency = HullAdjacency::of_hull_vertices(&cube).unwrap();
        for start in 0..8 {
            let found = adjacency.climb::<f32>(&aligned(&cube), start, Vec3A::X);
            assert_eq!(cube[found].x, 1.0, "start {start}");
        }
        // Each corner of a triangulated cube has 3 to 6 neighbours.
        for v in 0..8 {
            let degree = adjacency.offsets[v + 1] - adjacency.offsets[v];
            assert!((3..=6).contains(&degree), "vertex {v}: {degree}");
        }
    }

    #[test]
    fn sets_that_are_not_exactly_hull_vertices_get_no_adjacency() {
        let mut with_interior = sphere_points(50);
        with_interior.push(Vec3::ZERO);
        assert!(HullAdjacency::of_hull_vertices(&with_interior).is_none());
        let mut repeated = sphere_points(20);
        repeated.push(repeated[3]);
        assert!(HullAdjacency::of_hull_vertices(&repeated).is_none());
        assert!(HullAdjacency::of_hull_vertices(&[Vec3::ZERO, Vec3::X, Vec3::Y]).is_none());
    }

    /// quickhull closes a convex polygon with two opposite triangle fans: the walk then runs over a
    /// triangulated polygon, where a vertex higher than its neighbours is the highest too.
    #[test]
    fn a_flat_convex_polygon_walks_to_the_scans_value() {
        let flat: Vec<Vec3> = (0..40)
            .map(|i| {
                let t = i as f32 * std::f32::consts::TAU / 40.0;
                Vec3::new(t.cos(), 0.5 * t.sin(), 0.0)
            })
            .collect();
        let Some(adjacency) = HullAdjacency::of_hull_vertices(&flat) else {
            return;
        };
        let flat = aligned(&flat);
        for dir in directions(64) {
            let best = flat[support_index::<f32>(&flat, dir)].dot(dir);
            for start in [NO_START, 0, 17] {
                let found = adjacency.climb::<f32>(&flat, start, dir);
                assert_eq!(flat[found].dot(dir), best, "dir {dir}");
            }
        }
    }

    #[test]
    fn float64_walks_agree_with_float64_scans() {
        let points = sphere_points(300);
        let adjacency = HullAdjacency::of_hull_vertices(&points).unwrap();
        let wide: Vec<DVec3> = points.iter().map(|p| p.as_dvec3()).collect();
        for dir in directions(50) {
            let dir = dir.as_dvec3();
            let found = adjacency.climb::<f64>(&wide, NO_START, dir);
            assert_eq!(
                wide[found].dot(dir),
                wide[support_index::<f64>(&wide, dir)].dot(dir)
            );
        }
    }
}
