//! Which triangle of a closed convex surface the ray from a point inside it towards `p` leaves through: a
//! walk over the triangles' neighbours, each step decided exactly (Shewchuk's orient3d), started from a
//! table of directions so that it is short.
//!
//! Why: a point is outside a convex body exactly when it lies beyond the plane of that one triangle (the ray
//! from the inside point meets the surface once, in that triangle, and the plane holds the body on one side),
//! so a hull's dropped points need one plane each instead of every plane. A thin cloud of a million points
//! has a hull of about 9,000 triangles: testing every plane took 10 s.

use glam::{DMat3, DVec3};
use robust::{orient3d, Coord3D};

/// A triangle's corners, counterclockwise seen from outside.
pub type Corners = [DVec3; 3];

/// The triangles' corners by index, and for each triangle the triangle across each of its edges (edge `k`
/// runs from corner `k` to corner `k + 1`).
pub struct Surface<'a, F: Fn(u32) -> Corners> {
    pub corners: F,
    pub neighbours: &'a [[u32; 3]],
    /// A point strictly inside every triangle's plane: the apex of every cone.
    pub centre: DVec3,
}

impl<F: Fn(u32) -> Corners> Surface<'_, F> {
    /// The triangle whose closed cone from the centre holds `p` (the ray towards `p` leaves the surface
    /// through it, or through one of its edges or corners), walking from `start`: `Ok` with it, or `Err` with
    /// the last triangle reached when the walk takes more than `max_steps` steps (the caller decides without
    /// it). A point that is not a number ends the walk at once, in `start`.
    ///
    /// Each step crosses an edge beyond which `p` lies (seen from the centre), trying the edges in turn from
    /// a different one each step, so that the walk does not circle; the edge just crossed is not tried again.
    pub fn walk(&self, p: DVec3, start: u32, max_steps: usize) -> Result<u32, u32> {
        let (apex, target) = (coord(self.centre), coord(p));
        let (mut at, mut came_from) = (start, u32::MAX);
        for step in 0..max_steps {
            let corners = (self.corners)(at);
            let across = self.neighbours[at as usize];
            let beyond = (0..3).map(|j| (j + step) % 3).find(|&k| {
                across[k] != came_from
                    // The cone's side through edge k has the third corner on its negative side: for a
                    // triangle counterclockwise from outside, orient3d(a, b, c, centre) > 0, and moving the
                    // centre first is an odd permutation.
                    && orient3d(
                        apex,
                        coord(corners[k]),
                        coord(corners[(k + 1) % 3]),
                        target,
                    ) > 0.0
            });
            match beyond {
                Some(k) => (came_from, at) = (at, across[k]),
                None => return Ok(at),
            }
        }
        Err(at)
    }
}

/// Starting triangles for [`Surface::walk`] by the direction of a point from the centre: the directions are
/// first whitened (an affine map that makes the hull's vertices spread alike along every axis, so that a
/// thin or long hull's triangles spread over the directions as a round one's do), then looked up on the six
/// faces of a cube of `side` by `side` cells each; each cell holds the triangle its middle direction leaves
/// through.
pub struct StartTable {
    centre: DVec3,
    whiten: DMat3,
    side: usize,
    cells: Vec<u32>,
}

/// The most steps a walk that fills a cell of [`StartTable`] takes (from the last cell's triangle, usually
/// a neighbour); a cell whose walk stops there keeps the triangle reached, a worse start and nothing more.
const TABLE_WALK_STEPS: usize = 4096;

impl StartTable {
    /// The table for `surface` of `triangles` triangles, whitened by the spread of `vertices` (its corners,
    /// each any number of times), about one cell per triangle (at most 64 by 64 cells a cube face).
    pub fn new<F: Fn(u32) -> Corners>(
        surface: &Surface<'_, F>,
        vertices: impl Iterator<Item = DVec3>,
        triangles: usize,
    ) -> Self {
        let side = ((triangles as f64 / 6.0).sqrt() as usize).clamp(2, 64);
        let spread = whitening(vertices, surface.centre);
        let mut table = Self {
            centre: surface.centre,
            whiten: spread.inverse(),
            side,
            cells: vec![0; 6 * side * side],
        };
        let mut at = 0;
        for cell in 0..table.cells.len() {
            let direction = spread * table.middle(cell);
            at = surface
                .walk(surface.centre + direction, at, TABLE_WALK_STEPS)
                .unwrap_or_else(|last| last);
            table.cells[cell] = at;
        }
        table
    }

    /// The starting triangle for a walk towards `p`.
    pub fn start(&self, p: DVec3) -> u32 {
        self.cells[self.cell(self.whiten * (p - self.centre))]
    }

    /// The cell of a whitened direction (cell 0 for one that is not a number, or zero).
    fn cell(&self, u: DVec3) -> usize {
        let size = u.abs();
        let axis = if size.x >= size.y && size.x >= size.z {
            0
        } else if size.y >= size.z {
            1
        } else {
            2
        };
        let along = u[axis];
        // Zero, or not a number.
        if !along.is_normal() {
            return 0;
        }
        let face = 2 * axis + usize::from(along < 0.0);
        let index = |x: f64| {
            let at = ((x / along.abs() + 1.0) * 0.5 * self.side as f64) as usize;
            at.min(self.side - 1)
        };
        let (i, j) = (index(u[(axis + 1) % 3]), index(u[(axis + 2) % 3]));
        (face * self.side + i) * self.side + j
    }

    /// The whitened direction through the middle of `cell`.
    fn middle(&self, cell: usize) -> DVec3 {
        let side = self.side;
        let (face, i, j) = (cell / (side * side), cell / side % side, cell % side);
        let coordinate = |k: usize| (k as f64 + 0.5) / side as f64 * 2.0 - 1.0;
        let axis = face / 2;
        let sign = if face % 2 == 0 { 1.0 } else { -1.0 };
        let mut u = DVec3::ZERO;
        u[axis] = sign;
        u[(axis + 1) % 3] = coordinate(i);
        u[(axis + 2) % 3] = coordinate(j);
        u
    }
}

/// A matrix `L` with `L L^T` the covariance of `vertices` about `centre` (its Cholesky factor), so that
/// `L^-1` whitens them; the identity when the covariance is not safely positive definite (the table is then
/// a worse start and nothing more).
fn whitening(vertices: impl Iterator<Item = DVec3>, centre: DVec3) -> DMat3 {
    let mut m = [[0.0f64; 3]; 3];
    let mut count = 0.0;
    for v in vertices {
        let d = (v - centre).to_array();
        for (r, row) in m.iter_mut().enumerate() {
            for (c, entry) in row.iter_mut().enumerate() {
                *entry += d[r] * d[c];
            }
        }
        count += 1.0;
    }
    for entry in m.iter_mut().flatten() {
        *entry /= f64::max(count, 1.0);
    }
    let mut l = [[0.0f64; 3]; 3];
    for r in 0..3 {
        for c in 0..=r {
            let sum: f64 = (0..c).map(|k| l[r][k] * l[c][k]).sum();
            if r == c {
                let pivot = m[r][r] - sum;
                let positive = pivot.is_finite() && pivot > 1e-30 * m[r][r];
                if !positive {
                    return DMat3::IDENTITY;
                }
                l[r][r] = pivot.sqrt();
            } else {
                l[r][c] = (m[r][c] - sum) / l[c][c];
            }
        }
    }
    // glam's matrices are column-major: column c holds l[..][c].
    let factor = DMat3::from_cols_array_2d(&[
        [l[0][0], l[1][0], l[2][0]],
        [l[0][1], l[1][1], l[2][1]],
        [l[0][2], l[1][2], l[2][2]],
    ]);
    if factor.determinant().is_normal() {
        factor
    } else {
        DMat3::IDENTITY
    }
}

fn coord(v: DVec3) -> Coord3D<f64> {
    Coord3D {
        x: v.x,
        y: v.y,
        z: v.z,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A globe of `rings` rings of `around` points between two poles, stretched by `stretch`: its triangles
    /// counterclockwise seen from outside, and each triangle's neighbours (found by brute force).
    fn globe(
        rings: usize,
        around: usize,
        stretch: DVec3,
    ) -> (Vec<DVec3>, Vec<[u32; 3]>, Vec<[u32; 3]>) {
        let mut points = vec![DVec3::Z * stretch, -DVec3::Z * stretch];
        for r in 0..rings {
            let polar = std::f64::consts::PI * (r as f64 + 1.0) / (rings as f64 + 1.0);
            for k in 0..around {
                let azimuth =
                    std::f64::consts::TAU * (k as f64 + 0.5 * (r % 2) as f64) / around as f64;
                let p = DVec3::new(
                    polar.sin() * azimuth.cos(),
                    polar.sin() * azimuth.sin(),
                    polar.cos(),
                );
                points.push(p * stretch);
            }
        }
        let at = |r: usize, k: usize| (2 + r * around + k % around) as u32;
        let mut triangles = Vec::new();
        for k in 0..around {
            triangles.push([0, at(0, k), at(0, k + 1)]);
            triangles.push([1, at(rings - 1, k + 1), at(rings - 1, k)]);
            for r in 0..rings - 1 {
                triangles.push([at(r, k), at(r + 1, k), at(r + 1, k + 1)]);
                triangles.push([at(r, k), at(r + 1, k + 1), at(r, k + 1)]);
            }
        }
        // Turn each triangle counterclockwise seen from outside (the origin is inside).
        for t in &mut triangles {
            let [a, b, c] = t.map(|i| points[i as usize]);
            if (b - a).cross(c - a).dot(a + b + c) < 0.0 {
                t.swap(1, 2);
            }
        }
        let neighbours = triangles
            .iter()
            .map(|t| {
                std::array::from_fn(|k| {
                    let (tail, head) = (t[(k + 1) % 3], t[k]);
                    let found = triangles
                        .iter()
                        .position(|u| (0..3).any(|j| u[j] == tail && u[(j + 1) % 3] == head));
                    found.expect("a closed surface") as u32
                })
            })
            .collect();
        (points, triangles, neighbours)
    }

    /// Whether the closed cone of triangle `t` from the origin holds `p`, exactly.
    fn in_cone(points: &[DVec3], t: [u32; 3], p: DVec3) -> bool {
        (0..3).all(|k| {
            let (a, b) = (points[t[k] as usize], points[t[(k + 1) % 3] as usize]);
            orient3d(coord(DVec3::ZERO), coord(a), coord(b), coord(p)) <= 0.0
        })
    }

    #[test]
    fn every_walk_ends_in_the_cone_that_holds_its_point() {
        // Round, and squashed to 1e-4 of its width (the table's whitening makes it round again).
        for stretch in [DVec3::ONE, DVec3::new(1.0, 0.7, 1e-4)] {
            let (points, triangles, neighbours) = globe(12, 20, stretch);
            let surface = Surface {
                corners: |t: u32| triangles[t as usize].map(|i| points[i as usize]),
                neighbours: &neighbours,
                centre: DVec3::ZERO,
            };
            let table = StartTable::new(&surface, points.iter().copied(), triangles.len());
            let mut state = 0x2545_F491_4F6C_DD1Du64;
            let mut next = || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
            };
            // Random directions, the vertices themselves (on several cones' edges) and the middles of edges.
            let mut targets: Vec<DVec3> = (0..2000)
                .map(|_| DVec3::new(next(), next(), next()) * stretch)
                .collect();
            targets.extend(points.iter().map(|p| *p * 1.5));
            targets.extend(
                triangles
                    .iter()
                    .map(|t| (points[t[0] as usize] + points[t[1] as usize]) * 0.5),
            );
            let mut long_walks = 0;
            for p in targets {
                let from_anywhere = surface.walk(p, 0, 100_000).expect("the walk arrives");
                assert!(
                    in_cone(&points, triangles[from_anywhere as usize], p),
                    "{p}"
                );
                let from_table = surface
                    .walk(p, table.start(p), 100_000)
                    .expect("the walk arrives");
                assert!(in_cone(&points, triangles[from_table as usize], p), "{p}");
                long_walks += usize::from(surface.walk(p, table.start(p), 8).is_err());
            }
            // From the table, nearly every walk takes a few steps.
            assert!(long_walks < 50, "{long_walks} walks took more than 8 steps");
            // A walk cut short says where it stopped, and a point that is not a number stops at once.
            let far = surface.walk(-stretch * 0.9, 0, 1);
            assert!(far.is_err(), "{far:?}");
            assert_eq!(surface.walk(DVec3::NAN, 7, 10), Ok(7));
        }
    }

    #[test]
    fn the_whitening_of_a_squashed_cloud_spreads_it_alike_on_every_axis() {
        let (points, _, _) = globe(12, 20, DVec3::new(1.0, 0.7, 1e-4));
        let spread = whitening(points.iter().copied(), DVec3::ZERO);
        let whiten = spread.inverse();
        let variance = |axis: usize| {
            points
                .iter()
                .map(|p| (whiten * *p)[axis].powi(2))
                .sum::<f64>()
                / points.len() as f64
        };
        for axis in 0..3 {
            assert!((variance(axis) - 1.0).abs() < 1e-9, "{}", variance(axis));
        }
        // All points in one plane: no covariance to whiten by, so the identity.
        let flat: Vec<DVec3> = points
            .iter()
            .map(|p| p * DVec3::new(1.0, 1.0, 0.0))
            .collect();
        assert_eq!(whitening(flat.into_iter(), DVec3::ZERO), DMat3::IDENTITY);
    }
}
