//! The GPU grid's layout, fitted on the host, and its CPU twin ([`twin_pairs`]), which files boxes exactly as
//! `shaders/broad_phase_grid.wgsl` does (float32 cell coordinates, hashed buckets) so the tests can check the
//! cell rule on scenes too hostile or too many for a software GPU.
//!
//! The rule is the CPU grid's ([`crate::broad_phase::grid_pairs`]): cells at least 1 % wider than the widest
//! box, each box in the cell of its minimum corner. The GPU computes cell coordinates in float32, as
//! `floor((p - origin) * inverse_cell)`: with at most [`MAX_CELL`] + 1 cells per axis the rounding error is
//! below 1e-3 of a cell, far inside the 1 % slack, so two overlapping boxes are never two cells apart.

use crate::broad_phase::Aabb;

/// Bits of one cell coordinate in a cell key (three fit in a `u32`).
pub const CELL_BITS: u32 = 10;

/// The largest cell coordinate. The host makes cells wide enough that the scene spans at most
/// [`CELLS_SPANNED`] of them, so the shader's clamp to `0..=MAX_CELL` never moves a box.
pub const MAX_CELL: u32 = (1 << CELL_BITS) - 1;

/// Cells the scene may span per axis.
const CELLS_SPANNED: f64 = 1000.0;

/// How much wider than the widest box a cell is (as on the CPU grid).
const CELL_SLACK: f64 = 1.01;

/// The narrowest cell: its inverse stays a finite float32.
const NARROWEST_CELL: f64 = 1e-30;

/// Where the grid starts and how wide its cells are, as the shader reads them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridFit {
    pub origin: [f32; 3],
    pub inverse_cell: f32,
}

/// Why no grid can hold the boxes (the caller answers them on the CPU, which falls back on sweep and prune).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    #[error("box {index} has a coordinate that is not finite")]
    NotFinite { index: usize },
    #[error("the bounds given for the boxes are not finite")]
    BoundsNotFinite,
    #[error("the boxes span {span}, too far for float32 cell coordinates")]
    TooWide { span: String },
}

impl GridFit {
    /// The grid for `boxes`.
    pub fn fit(boxes: &[Aabb]) -> Result<Self, GridError> {
        let mut lo = [f32::INFINITY; 3];
        let mut hi = [f32::NEG_INFINITY; 3];
        let mut widest = 0f64;
        for (index, b) in boxes.iter().enumerate() {
            if !(b.min.is_finite() && b.max.is_finite()) {
                return Err(GridError::NotFinite { index });
            }
            for k in 0..3 {
                lo[k] = lo[k].min(b.min[k]);
                hi[k] = hi[k].max(b.max[k]);
                widest = widest.max(f64::from(b.max[k]) - f64::from(b.min[k]));
            }
        }
        if boxes.is_empty() {
            lo = [0.0; 3];
            hi = [0.0; 3];
        }
        Self::for_bounds(lo, hi, widest)
    }

    /// The grid for boxes within `lo..hi` none wider than `widest` on any axis (known without the boxes, for
    /// boxes that never leave the device).
    pub fn for_bounds(lo: [f32; 3], hi: [f32; 3], widest: f64) -> Result<Self, GridError> {
        if !(lo.iter().chain(&hi).all(|v| v.is_finite()) && widest.is_finite()) {
            return Err(GridError::BoundsNotFinite);
        }
        let span = (0..3)
            .map(|k| f64::from(hi[k]) - f64::from(lo[k]))
            .fold(0f64, f64::max);
        // `p - origin` must stay finite in float32.
        if span > f64::from(f32::MAX) / 2.0 {
            return Err(GridError::TooWide {
                span: format!("{span:e}"),
            });
        }
        let cell = (widest * CELL_SLACK)
            .max(span / CELLS_SPANNED)
            .max(NARROWEST_CELL);
        Ok(Self {
            origin: lo,
            inverse_cell: (1.0 / cell) as f32,
        })
    }

    /// The cell of `p`, as the shader's `cell_of` computes it.
    pub fn cell_of(&self, p: glam::Vec3) -> [u32; 3] {
        [0, 1, 2].map(|k| {
            ((p[k] - self.origin[k]) * self.inverse_cell)
                .floor()
                .clamp(0.0, MAX_CELL as f32) as u32
        })
    }
}

/// The cell key: x, y, z in [`CELL_BITS`] each, x most significant.
pub fn cell_key([x, y, z]: [u32; 3]) -> u32 {
    (x << (2 * CELL_BITS)) | (y << CELL_BITS) | z
}

/// The bucket of a cell in a table of `table_mask + 1` buckets (the shader's `bucket_of`).
pub fn bucket_of([x, y, z]: [u32; 3], table_mask: u32) -> u32 {
    (x.wrapping_mul(73_856_093) ^ y.wrapping_mul(19_349_663) ^ z.wrapping_mul(83_492_791))
        & table_mask
}

/// Buckets for `boxes` boxes: a power of two, about two per box.
pub fn table_size(boxes: usize) -> u32 {
    (boxes.max(32) as u32).next_power_of_two() * 2
}

/// The cells compared with a box's own: itself (the boxes after it only), then the 13 after it in (x, y, z)
/// order, in the shader's loop order; `None` outside the grid.
fn visited_cells([x, y, z]: [u32; 3]) -> impl Iterator<Item = ([u32; 3], bool)> {
    let own = std::iter::once(([x, y, z], true));
    let after = (0..=1i64).flat_map(move |dx| {
        (-1..=1i64).flat_map(move |dy| {
            (-1..=1i64).filter_map(move |dz| {
                let after = dx > 0 || dy > 0 || (dy == 0 && dz > 0);
                let n = [x as i64 + dx, y as i64 + dy, z as i64 + dz];
                let inside = n.iter().all(|&v| (0..=i64::from(MAX_CELL)).contains(&v));
                (after && inside).then(|| (n.map(|v| v as u32), false))
            })
        })
    });
    own.chain(after)
}

/// The GPU kernels' pairs computed on the CPU, in the kernels' steps (keys, bucket sort, visits), sorted.
pub fn twin_pairs(boxes: &[Aabb]) -> Result<Vec<[u32; 2]>, GridError> {
    let fit = GridFit::fit(boxes)?;
    let mask = table_size(boxes.len()) - 1;
    let cells: Vec<[u32; 3]> = boxes.iter().map(|b| fit.cell_of(b.min)).collect();
    let mut starts = vec![0u32; mask as usize + 2];
    for &c in &cells {
        starts[bucket_of(c, mask) as usize + 1] += 1;
    }
    for k in 1..starts.len() {
        starts[k] += starts[k - 1];
    }
    let mut fill = starts.clone();
    let mut sorted = vec![0u32; boxes.len()];
    for (i, &c) in cells.iter().enumerate() {
        let b = bucket_of(c, mask) as usize;
        sorted[fill[b] as usize] = i as u32;
        fill[b] += 1;
    }
    let mut pairs = Vec::new();
    for (i, a) in boxes.iter().enumerate() {
        for (c, same) in visited_cells(cells[i]) {
            let b = bucket_of(c, mask) as usize;
            for &j in &sorted[starts[b] as usize..starts[b + 1] as usize] {
                let ju = j as usize;
                if cell_key(cells[ju]) != cell_key(c) || (same && ju <= i) {
                    continue;
                }
                if a.overlaps(&boxes[ju]) {
                    pairs.push([(i as u32).min(j), (i as u32).max(j)]);
                }
            }
        }
    }
    pairs.sort_unstable();
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad_phase::{boxed, grid_pairs, hostile_boxes, world_aabbs, HOSTILE_GRID_CASES};
    use crate::scenario::stress::{StressScene, StressSpec};
    use crate::shape::ConvexShape;
    use glam::Vec3;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    #[test]
    fn the_twin_equals_the_cpu_grid_on_hostile_scenes() {
        let mut rng = Pcg64Mcg::seed_from_u64(11);
        for (n, (count, extent, sizes, far)) in HOSTILE_GRID_CASES.into_iter().enumerate() {
            for round in 0..3 {
                let boxes = hostile_boxes(&mut rng, count, extent, sizes, far);
                assert_eq!(
                    twin_pairs(&boxes).unwrap(),
                    grid_pairs(&boxes),
                    "case {n}, round {round}"
                );
            }
        }
    }

    #[test]
    fn the_twin_equals_the_cpu_grid_on_lattices_points_and_the_stress_scene() {
        let mut lattice = Vec::new();
        for x in 0..6 {
            for y in 0..6 {
                for z in 0..6 {
                    lattice.push(boxed(
                        Vec3::new(x as f32, y as f32, z as f32),
                        Vec3::splat(0.5),
                    ));
                }
            }
        }
        assert_eq!(twin_pairs(&lattice).unwrap(), grid_pairs(&lattice));
        for half in [Vec3::ZERO, Vec3::ONE] {
            let same = vec![boxed(Vec3::splat(-7.0), half); 40];
            assert_eq!(twin_pairs(&same).unwrap().len(), 40 * 39 / 2);
        }
        assert!(twin_pairs(&[]).unwrap().is_empty());
        assert!(twin_pairs(&lattice[..1]).unwrap().is_empty());
        let mut scene = StressScene::new(
            vec![
                ConvexShape::cuboid(Vec3::ONE).unwrap(),
                ConvexShape::sphere(1.0).unwrap(),
            ],
            StressSpec {
                bodies: 5000,
                ..StressSpec::default()
            },
        )
        .unwrap();
        for _ in 0..3 {
            let boxes = world_aabbs(&scene.shapes, &scene.instances());
            let expected = grid_pairs(&boxes);
            assert!(expected.len() > 1000);
            assert_eq!(twin_pairs(&boxes).unwrap(), expected);
            scene.step(0.5);
        }
    }

    #[test]
    fn boxes_no_grid_holds_are_refused_by_name() {
        let mut boxes = vec![boxed(Vec3::ZERO, Vec3::ONE); 3];
        boxes[2].max.y = f32::NAN;
        assert_eq!(GridFit::fit(&boxes), Err(GridError::NotFinite { index: 2 }));
        boxes[2] = boxed(Vec3::splat(3e38), Vec3::ONE);
        boxes[1] = boxed(Vec3::splat(-3e38), Vec3::ONE);
        assert!(matches!(
            GridFit::fit(&boxes),
            Err(GridError::TooWide { .. })
        ));
    }

    #[test]
    fn a_grid_for_bounds_is_the_grid_of_boxes_filling_them() {
        let boxes = [
            boxed(Vec3::new(-4.0, -1.0, 0.0), Vec3::ONE),
            boxed(Vec3::new(2.0, 3.0, 5.0), Vec3::splat(2.0)),
        ];
        let fit = GridFit::fit(&boxes).unwrap();
        // The boxes span -5..4, -2..5, -1..7; the widest is 4 wide.
        let lo = [-5.0, -2.0, -1.0];
        let hi = [4.0, 5.0, 7.0];
        assert_eq!(GridFit::for_bounds(lo, hi, 4.0), Ok(fit));
        assert_eq!(
            GridFit::for_bounds([f32::NAN, 0.0, 0.0], hi, 4.0),
            Err(GridError::BoundsNotFinite)
        );
        assert_eq!(
            GridFit::for_bounds(lo, hi, f64::INFINITY),
            Err(GridError::BoundsNotFinite)
        );
    }
}
