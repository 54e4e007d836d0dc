//! The demo's broad phase: a uniform grid of cubic cells at least as wide as the widest box, each box filed
//! under the cell of its minimum corner. Two overlapping boxes then have minimum corners at most one cell
//! apart on every axis, so each cell's boxes are compared with its own and with those of the 13 neighbouring
//! cells that come after it in (x, y, z) order: every pair is found once.
//!
//! Why not sweep and prune: the demo keeps the density of bodies fixed, so its box grows as the cube root of
//! the body count and the boxes that overlap one body's interval on the sweep axis grow as n^(2/3):
//! the sweep's comparisons grow as n^(5/3). `cargo bench --bench broad_phase` on the demo's scene (dev VM, one
//! thread, the same pairs every frame): 20.1 ms for 10,000 bodies and 330 ms for 50,000 by sweep and prune,
//! 2.4 ms and 13.3 ms by this grid.

use super::Aabb;
use glam::Vec3A;

/// Cells per axis at most: keys pack three cell coordinates into 21 bits each.
const MAX_CELLS: f64 = (1u64 << 20) as f64;

/// Cells are this much wider than the widest box, so that rounding in a cell coordinate can never put two
/// overlapping boxes two cells apart (the coordinates are computed in float64, to about 1e-10 of a cell).
const CELL_SLACK: f64 = 1.01;

/// Where the grid starts, how wide a cell is, and the cell coordinates of a box's minimum corner.
struct Grid {
    origin: [f64; 3],
    cell: f64,
}

impl Grid {
    /// The grid for `boxes`, or `None` when a coordinate is not finite (no grid can hold it).
    fn fit(boxes: &[Aabb]) -> Option<Self> {
        let mut lo = [f64::INFINITY; 3];
        let mut hi = [f64::NEG_INFINITY; 3];
        let mut widest = 0f64;
        for b in boxes {
            if !(b.min.is_finite() && b.max.is_finite()) {
                return None;
            }
            for k in 0..3 {
                lo[k] = lo[k].min(b.min[k] as f64);
                hi[k] = hi[k].max(b.max[k] as f64);
                widest = widest.max(b.max[k] as f64 - b.min[k] as f64);
            }
        }
        let span = (0..3).map(|k| hi[k] - lo[k]).fold(0f64, f64::max);
        let cell = (widest * CELL_SLACK).max(span / MAX_CELLS);
        // Every box a point at one place: one cell holds them all.
        let cell = if cell > 0.0 { cell } else { 1.0 };
        Some(Self { origin: lo, cell })
    }

    /// The cell coordinates of `p`, each in 0..=MAX_CELLS.
    fn cell_of(&self, p: glam::Vec3) -> [u64; 3] {
        [0, 1, 2].map(|k| {
            ((p[k] as f64 - self.origin[k]) / self.cell)
                .floor()
                .clamp(0.0, MAX_CELLS) as u64
        })
    }
}

/// The sort key of a cell: (x, y, z) in that order of significance.
fn key([x, y, z]: [u64; 3]) -> u64 {
    (x << 42) | (y << 21) | z
}

/// The key ranges of the 13 neighbouring cells after it in (x, y, z) order, as 5 runs of consecutive keys.
const NEIGHBOUR_RANGES: usize = 5;

/// The neighbours after cell `cell_key`: z + 1 in its column, then the columns (x, y + 1), (x + 1, y - 1),
/// (x + 1, y) and (x + 1, y + 1), each from z - 1 to z + 1 (`None`: a column below y = 0).
fn neighbour_ranges(cell_key: u64) -> [Option<(u64, u64)>; NEIGHBOUR_RANGES] {
    let [x, y, z] = [
        cell_key >> 42,
        (cell_key >> 21) & 0x1F_FFFF,
        cell_key & 0x1F_FFFF,
    ];
    let column = |dx: u64, dy: i64| {
        let ny = y.checked_add_signed(dy)?;
        Some((
            key([x + dx, ny, z.saturating_sub(1)]),
            key([x + dx, ny, z + 1]),
        ))
    };
    [
        Some((key([x, y, z + 1]), key([x, y, z + 1]))),
        column(0, 1),
        column(1, -1),
        column(1, 0),
        column(1, 1),
    ]
}

/// Every pair `[i, j]` with `i < j` whose boxes overlap, sorted (what [`super::brute_force`] answers).
///
/// Linear in the boxes when their sizes are alike (the demo's bodies are within a factor of a few). One box
/// much wider than the rest makes every cell that wide: the answer stays exact, but each cell then holds many
/// boxes; [`super::sweep_and_prune`] suits such scenes better.
pub fn grid_pairs(boxes: &[Aabb]) -> Vec<[u32; 2]> {
    if boxes.len() < 2 {
        return Vec::new();
    }
    let Some(grid) = Grid::fit(boxes) else {
        return super::sweep_and_prune(boxes);
    };
    let mut filed: Vec<(u64, u32)> = boxes
        .iter()
        .enumerate()
        .map(|(i, b)| (key(grid.cell_of(b.min)), i as u32))
        .collect();
    filed.sort_unstable();
    // The boxes in filed order, in 16-byte vectors: a cell and each neighbouring run are then contiguous, and
    // one box test is two vector comparisons.
    let sorted: Vec<(Vec3A, Vec3A)> = filed
        .iter()
        .map(|&(_, i)| (boxes[i as usize].min.into(), boxes[i as usize].max.into()))
        .collect();
    let mut pairs = Vec::new();
    let mut test = |here: std::ops::Range<usize>, there: std::ops::Range<usize>, same: bool| {
        for a in here {
            let (a_min, a_max) = sorted[a];
            let from = if same { a + 1 } else { there.start };
            for b in from..there.end {
                let (b_min, b_max) = sorted[b];
                if (a_min.cmple(b_max) & b_min.cmple(a_max)).all() {
                    let (i, j) = (filed[a].1, filed[b].1);
                    pairs.push([i.min(j), i.max(j)]);
                }
            }
        }
    };
    // The neighbours' key ranges grow with the cell's key (a fixed offset keeps the (x, y, z) order), so each
    // range's two ends only move forward: one pass over the filed boxes per range, no search.
    let mut cursors = [(0usize, 0usize); NEIGHBOUR_RANGES];
    let mut start = 0;
    while start < filed.len() {
        let cell_key = filed[start].0;
        let mut end = start;
        while end < filed.len() && filed[end].0 == cell_key {
            end += 1;
        }
        test(start..end, start..end, true);
        for (keys, cursor) in neighbour_ranges(cell_key).into_iter().zip(&mut cursors) {
            let Some((first, last)) = keys else { continue };
            while cursor.0 < filed.len() && filed[cursor.0].0 < first {
                cursor.0 += 1;
            }
            cursor.1 = cursor.1.max(cursor.0);
            while cursor.1 < filed.len() && filed[cursor.1].0 <= last {
                cursor.1 += 1;
            }
            test(start..end, cursor.0..cursor.1, false);
        }
        start = end;
    }
    pairs.sort_unstable();
    pairs
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::{brute_force, Aabb};
    use super::grid_pairs;
    use glam::Vec3;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    pub(crate) fn boxed(centre: Vec3, half: Vec3) -> Aabb {
        Aabb {
            min: centre - half,
            max: centre + half,
        }
    }

    /// Hostile scenes for a grid, as (count, extent, smallest and largest size, distance from the origin) for
    /// [`hostile_boxes`]: mixed sizes, sizes 1e6 apart, huge extents, far from the origin, tiny and far.
    pub(crate) const HOSTILE_GRID_CASES: [(usize, f32, (f32, f32), f32); 7] = [
        (800, 20.0, (0.3, 1.0), 0.0),
        (800, 20.0, (0.01, 10.0), 0.0),
        (600, 5.0, (1e-4, 1e2), 0.0),
        (600, 1e4, (0.5, 2.0), 0.0),
        (600, 20.0, (0.3, 1.0), 1e6),
        (400, 1e-3, (1e-5, 1e-4), -3e3),
        (300, 1e7, (1e-3, 1.0), 0.0),
    ];

    /// Boxes of sizes spread over `sizes` (a ratio of up to 1e6 between the smallest and largest), in a
    /// region `extent` wide whose centre is `far` from the origin, some flat or needle-like.
    pub(crate) fn hostile_boxes(
        rng: &mut Pcg64Mcg,
        count: usize,
        extent: f32,
        sizes: (f32, f32),
        far: f32,
    ) -> Vec<Aabb> {
        (0..count)
            .map(|_| {
                let centre = Vec3::new(
                    rng.random_range(-extent..extent),
                    rng.random_range(-extent..extent),
                    rng.random_range(-extent..extent),
                ) + Vec3::splat(far);
                let size = sizes.0 * (sizes.1 / sizes.0).powf(rng.random_range(0.0..1.0f32));
                let mut half = Vec3::splat(size);
                half[rng.random_range(0..3)] *= [1.0, 1e-3, 0.0][rng.random_range(0..3)];
                boxed(centre, half)
            })
            .collect()
    }

    #[test]
    fn the_grid_finds_exactly_the_overlapping_pairs_on_hostile_scenes() {
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        for (n, (count, extent, sizes, far)) in HOSTILE_GRID_CASES.into_iter().enumerate() {
            for round in 0..4 {
                let boxes = hostile_boxes(&mut rng, count, extent, sizes, far);
                let expected = brute_force(&boxes);
                assert_eq!(grid_pairs(&boxes), expected, "case {n}, round {round}");
                if n < 3 {
                    assert!(!expected.is_empty(), "case {n} has pairs to find");
                }
            }
        }
    }

    #[test]
    fn touching_stacked_identical_and_unbounded_boxes() {
        // Faces, edges and corners touching across cell boundaries (a lattice of unit cubes).
        let mut lattice = Vec::new();
        for x in 0..5 {
            for y in 0..5 {
                for z in 0..5 {
                    lattice.push(boxed(
                        Vec3::new(x as f32, y as f32, z as f32),
                        Vec3::splat(0.5),
                    ));
                }
            }
        }
        let expected = brute_force(&lattice);
        assert_eq!(
            expected.len(),
            1036,
            "every lattice neighbour, 26 directions"
        );
        assert_eq!(grid_pairs(&lattice), expected);
        // Every box the same point, and every box the same box: every pair.
        for half in [Vec3::ZERO, Vec3::ONE] {
            let same = vec![boxed(Vec3::splat(7.0), half); 40];
            assert_eq!(grid_pairs(&same).len(), 40 * 39 / 2);
        }
        // One box over all the others.
        let mut boxes = hostile_boxes(&mut Pcg64Mcg::seed_from_u64(1), 300, 10.0, (0.1, 0.5), 0.0);
        boxes.push(boxed(Vec3::ZERO, Vec3::splat(100.0)));
        assert_eq!(grid_pairs(&boxes), brute_force(&boxes));
        // An infinite or NaN coordinate: no grid holds it, and the sweep answers instead.
        for bad in [f32::INFINITY, f32::NAN] {
            let mut boxes =
                hostile_boxes(&mut Pcg64Mcg::seed_from_u64(2), 200, 5.0, (0.2, 1.0), 0.0);
            boxes[3].max.x = bad;
            assert_eq!(grid_pairs(&boxes), super::super::sweep_and_prune(&boxes));
        }
        assert!(grid_pairs(&lattice[..1]).is_empty());
        assert!(grid_pairs(&[]).is_empty());
    }
}
