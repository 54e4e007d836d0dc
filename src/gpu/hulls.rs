//! The hulls as the GPU holds them: a vertex pool and a hull table, with identical shapes packed once. A batch
//! read from a file often repeats one shape on every line (600,000 lines of the same two boxes are two hulls, not
//! 1.2 million), so shapes are compared bit for bit (centred points, centre, radius) and each distinct one gets
//! one hull.
//!
//! **Adjacency in the pool.** A hull with a vertex adjacency (hulls of at least
//! `HILL_CLIMB_MIN_VERTICES` vertices, as on the CPU) is climbed on the
//! GPU too, and its adjacency travels in the same pool, right after its padded points, so that it needs no
//! binding of its own and goes wherever the points go (a gathered group copies the hull's whole footprint):
//! first the start table (`START_CELLS` vertex indices, four to a pool entry), then the neighbour lists, each
//! vertex's neighbours in ascending order and then `END_OF_NEIGHBOURS`, four to an entry. Each point's `w`
//! holds where its list starts. Indices are stored as float32 values, exact below 2^24, rather than as bit
//! patterns, which would be subnormal floats that a driver is free to flush on the way; a hull whose indices
//! would not be exact is scanned instead.

use super::layout::{padded_len, GpuHull, VERTEX_STRIDE};
use crate::shape::{ConvexShape, HullAdjacency, START_TABLE_SIDE};
use rayon::prelude::*;
use std::collections::HashMap;

/// Entries of a climbing hull's start table (a cube map of directions, as on the CPU).
pub(crate) const START_CELLS: usize = 6 * START_TABLE_SIDE * START_TABLE_SIDE;

/// Ends a vertex's neighbour list in the pool (indices are never negative).
pub(crate) const END_OF_NEIGHBOURS: f32 = -1.0;

/// Float32 holds every integer below this exactly.
const EXACT_INTEGERS: usize = 1 << 24;

/// Distinct hulls and, for every shape, which hull it is.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct HullSet {
    /// Every hull's centred points, each hull padded to a multiple of four with copies of its first point, which
    /// never win a support scan; a climbing hull's adjacency after them (see the module's text), and in `w`
    /// where each point's neighbour list starts (0 for a scanned hull).
    pub vertices: Vec<[f32; 4]>,
    pub hulls: Vec<GpuHull>,
    /// `hull_of_shape[s]`: the hull of shape `s`.
    pub hull_of_shape: Vec<u32>,
}

/// FxHash's step over the shape's words: fast, and collisions are settled by comparing the shapes.
fn shape_hash(shape: &ConvexShape) -> u64 {
    shape_words(shape).fold(0u64, |h, word| {
        (h.rotate_left(5) ^ u64::from(word)).wrapping_mul(0x517c_c1b7_2722_0a95)
    })
}

/// The shape's words as a support scan sees them: radius, centre, centred points.
fn shape_words(shape: &ConvexShape) -> impl Iterator<Item = u32> + '_ {
    std::iter::once(shape.centre())
        .chain(shape.core_points().iter().copied())
        .flat_map(|v| v.to_array().map(f32::to_bits))
        .chain([shape.radius().to_bits()])
}

/// Equal bit for bit: `-0.0` and `0.0` are different points to a support scan's tie-breaking.
fn same_bits(a: &ConvexShape, b: &ConvexShape) -> bool {
    a.len() == b.len() && shape_words(a).eq(shape_words(b))
}

/// How [`HullSet::pack_searched`] packs a raw point set of more than `RAW_HULL_MIN_POINTS` points
/// ([`ConvexShape::is_big_raw_set`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RawSets {
    /// As its hull ([`ConvexShape::searched_as_hull`]), built once per distinct shape: the same shape, whose
    /// support calls read a hull's vertices (climbed from `HILL_CLIMB_MIN_VERTICES` on) instead of every point.
    #[default]
    Hulled,
    /// As given, every support call scanning every point (what the CPU does with the shape).
    Scanned,
}

impl HullSet {
    /// Packs `shapes` as given, one hull per distinct shape, in order of first appearance.
    #[cfg(test)]
    pub fn pack(shapes: &[ConvexShape]) -> Self {
        Self::pack_searched(shapes, RawSets::Scanned)
    }

    /// Packs `shapes`, one hull per distinct shape, in order of first appearance; big raw sets as `raw` says,
    /// hulled on all threads.
    pub fn pack_searched(shapes: &[ConvexShape], raw: RawSets) -> Self {
        let mut hull_of_shape = Vec::with_capacity(shapes.len());
        // The first shape of each hull, to settle hash collisions.
        let mut first_shape: Vec<usize> = Vec::new();
        let mut by_hash: HashMap<u64, u32> = HashMap::new();
        for (index, shape) in shapes.iter().enumerate() {
            let hash = shape_hash(shape);
            let known = by_hash
                .get(&hash)
                .copied()
                .filter(|&h| same_bits(&shapes[first_shape[h as usize]], shape));
            let hull = match known {
                Some(hull) => hull,
                None => {
                    let hull = first_shape.len() as u32;
                    first_shape.push(index);
                    by_hash.entry(hash).or_insert(hull);
                    hull
                }
            };
            hull_of_shape.push(hull);
        }
        let hulled: Vec<Option<ConvexShape>> = first_shape
            .par_iter()
            .map(|&s| {
                let shape = &shapes[s];
                (raw == RawSets::Hulled && shape.is_big_raw_set())
                    .then(|| shape.clone().searched_as_hull())
            })
            .collect();
        let mut set = HullSet {
            hull_of_shape,
            ..HullSet::default()
        };
        for (&s, hulled) in first_shape.iter().zip(&hulled) {
            set.push(hulled.as_ref().unwrap_or(&shapes[s]));
        }
        set
    }

    fn push(&mut self, shape: &ConvexShape) -> u32 {
        let adjacency = shape.adjacency().filter(|a| climbable(a));
        self.hulls.push(GpuHull {
            offset: self.vertices.len() as u32,
            count: shape.len() as u32,
            radius: shape.radius(),
            bound: shape.bounding_radius(),
            centre: shape.centre().to_array(),
            climbs: u32::from(adjacency.is_some()),
        });
        let points = shape.core_points();
        // Where each vertex's list starts in the neighbour stream: its CSR offset plus one end mark per earlier
        // vertex.
        let list_start = |v: usize| match adjacency {
            Some(a) => (a.offsets[v] as usize + v) as f32,
            None => 0.0,
        };
        let first = [points[0].x, points[0].y, points[0].z, list_start(0)];
        self.vertices.extend(
            points
                .iter()
                .enumerate()
                .map(|(v, p)| [p.x, p.y, p.z, list_start(v)]),
        );
        self.vertices.extend(std::iter::repeat_n(
            first,
            padded_len(points.len()) - points.len(),
        ));
        if let Some(adjacency) = adjacency {
            let starts = adjacency.starts.iter().map(|&v| v as f32);
            let lists = (0..adjacency.len()).flat_map(|v| {
                let range = adjacency.offsets[v] as usize..adjacency.offsets[v + 1] as usize;
                adjacency.neighbours[range]
                    .iter()
                    .map(|&n| n as f32)
                    .chain([END_OF_NEIGHBOURS])
            });
            push_in_fours(&mut self.vertices, starts, 0.0);
            push_in_fours(&mut self.vertices, lists, END_OF_NEIGHBOURS);
        }
        (self.hulls.len() - 1) as u32
    }

    /// Bytes of the vertex pool.
    pub fn vertex_bytes(&self) -> u64 {
        self.vertices.len() as u64 * VERTEX_STRIDE
    }

    /// Bytes of the hull table.
    pub fn hull_bytes(&self) -> u64 {
        self.hulls.len() as u64 * HULL_STRIDE
    }

    /// Pool entries of hull `h`: its padded points and, for a climbing hull, its adjacency.
    pub fn footprint(&self, h: u32) -> usize {
        let end = self
            .hulls
            .get(h as usize + 1)
            .map_or(self.vertices.len(), |next| next.offset as usize);
        end - self.hulls[h as usize].offset as usize
    }

    /// Hull `h` as it sits in the pool: its padded points and, for a climbing hull, its adjacency.
    pub fn hull_vertices(&self, h: u32) -> &[[f32; 4]] {
        let start = self.hulls[h as usize].offset as usize;
        &self.vertices[start..start + self.footprint(h)]
    }
}

/// Pool entries one support call on `hull` is counted as reading, for the work estimate of a chunk: every
/// padded point for a scan; for a climb, the start table's entry and a walk's few steps, each reading a
/// vertex's neighbour list and their points (on a 1,000-vertex hull a walk from the table's vertex ends in a step
/// or two; six neighbours a vertex on average), rounded up.
pub(crate) fn support_reads(hull: &GpuHull) -> u32 {
    let scanned = padded_len(hull.count as usize) as u32;
    if hull.climbs == 1 {
        scanned.min(CLIMB_READS)
    } else {
        scanned
    }
}

/// What [`support_reads`] counts for a climb.
const CLIMB_READS: u32 = 64;

/// Whether the GPU can walk `adjacency` with its indices stored exactly as float32 values.
fn climbable(adjacency: &HullAdjacency) -> bool {
    adjacency.len() + adjacency.neighbours.len() < EXACT_INTEGERS
}

/// Appends `values` to the pool four to an entry, the last entry filled up with `fill`.
fn push_in_fours(pool: &mut Vec<[f32; 4]>, values: impl Iterator<Item = f32>, fill: f32) {
    let mut entry = [fill; 4];
    let mut filled = 0;
    for value in values {
        entry[filled] = value;
        filled += 1;
        if filled == 4 {
            pool.push(entry);
            entry = [fill; 4];
            filled = 0;
        }
    }
    if filled > 0 {
        pool.push(entry);
    }
}

/// Bytes per hull table entry.
pub(crate) const HULL_STRIDE: u64 = std::mem::size_of::<GpuHull>() as u64;

#[cfg(all(test, feature = "scenario"))]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn identical_shapes_share_one_hull_and_different_ones_do_not() {
        let cube = ConvexShape::cuboid(Vec3::splat(0.5)).unwrap();
        let other = ConvexShape::cuboid(Vec3::new(0.5, 0.5, 0.25)).unwrap();
        let rounded = ConvexShape::new(cube.local_points().collect(), 0.1).unwrap();
        let shapes = vec![cube.clone(), other.clone(), cube.clone(), rounded, other];
        let set = HullSet::pack(&shapes);
        assert_eq!(set.hull_of_shape, vec![0, 1, 0, 2, 1]);
        assert_eq!(set.hulls.len(), 3);
        assert_eq!(set.vertices.len(), 24);
        for (s, &h) in shapes.iter().zip(&set.hull_of_shape) {
            let hull = set.hulls[h as usize];
            assert_eq!((hull.count as usize, hull.radius), (s.len(), s.radius()));
            let points: Vec<Vec3> = set.hull_vertices(h)[..s.len()]
                .iter()
                .map(|p| Vec3::new(p[0], p[1], p[2]))
                .collect();
            assert_eq!(points, s.core_points());
        }
    }

    /// A climbing hull's adjacency read back from the pool as the WGSL reads it (`support_climb`): the start
    /// table after the padded points, each point's `w` pointing at its neighbour list, lists ascending and
    /// ended; the hull after it starts where the footprint ends.
    #[test]
    fn a_climbing_hulls_adjacency_reads_back_from_the_pool() {
        let round =
            ConvexShape::hull(&crate::scenario::mesh_gen::fibonacci_sphere(1001), 0.25).unwrap();
        let small = ConvexShape::cuboid(Vec3::splat(0.5)).unwrap();
        let set = HullSet::pack(&[small.clone(), round.clone(), small.clone()]);
        assert_eq!(set.hull_of_shape, vec![0, 1, 0]);
        let (box_hull, climbing) = (set.hulls[0], set.hulls[1]);
        assert_eq!((box_hull.climbs, climbing.climbs), (0, 1));
        assert_eq!(climbing.count, 1001);
        let adjacency = round
            .adjacency()
            .expect("a 1,001-vertex hull has an adjacency");
        let base = climbing.offset as usize;
        let number = |from: usize, k: usize| set.vertices[from + k / 4][k % 4];
        let tables = base + padded_len(1001);
        let lists = tables + START_CELLS / 4;
        for (cell, &vertex) in adjacency.starts.iter().enumerate() {
            assert_eq!(number(tables, cell), vertex as f32, "cell {cell}");
        }
        let mut last_entry = 0;
        for v in 0..1001 {
            let point = set.vertices[base + v];
            assert_eq!(&point[..3], &round.core_points()[v].to_array()[..]);
            let mut k = point[3] as usize;
            let mut listed = Vec::new();
            while number(lists, k) != END_OF_NEIGHBOURS {
                listed.push(number(lists, k) as u32);
                k += 1;
            }
            let expected = &adjacency.neighbours
                [adjacency.offsets[v] as usize..adjacency.offsets[v + 1] as usize];
            assert_eq!(listed, expected, "vertex {v}");
            last_entry = last_entry.max(lists + k / 4);
        }
        assert_eq!(base + set.footprint(1), last_entry + 1);
        assert_eq!(set.hull_vertices(1).len(), set.footprint(1));
        assert_eq!(set.footprint(0), 8);
        assert_eq!(support_reads(&climbing), CLIMB_READS);
        assert_eq!(support_reads(&box_hull), 8);
    }

    #[test]
    fn a_negative_zero_is_a_different_point() {
        let a = ConvexShape::new(vec![Vec3::ZERO], 1.0).unwrap();
        let b = ConvexShape::new(vec![Vec3::new(-0.0, 0.0, 0.0)], 1.0).unwrap();
        assert_eq!(HullSet::pack(&[a, b]).hulls.len(), 2);
    }
}
