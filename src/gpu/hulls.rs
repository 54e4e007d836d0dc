//! The hulls as the GPU holds them: a vertex pool and a hull table, with identical shapes packed once. A batch
//! read from a file often repeats one shape on every line (600,000 lines of the same two boxes are two hulls, not
//! 1.2 million), so shapes are compared bit for bit (centred points, centre, radius) and each distinct one gets
//! one hull.

use super::layout::{padded_len, GpuHull, VERTEX_STRIDE};
use crate::shape::ConvexShape;
use std::collections::HashMap;

/// Distinct hulls and, for every shape, which hull it is.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HullSet {
    /// Every hull's centred points (`w` unused), each hull padded to a multiple of four with copies of its
    /// first point, which never win a support scan.
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

impl HullSet {
    /// Packs `shapes`, one hull per distinct shape, in order of first appearance.
    pub fn pack(shapes: &[ConvexShape]) -> Self {
        let mut set = HullSet {
            hull_of_shape: Vec::with_capacity(shapes.len()),
            ..HullSet::default()
        };
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
                    let hull = set.push(shape);
                    first_shape.push(index);
                    by_hash.entry(hash).or_insert(hull);
                    hull
                }
            };
            set.hull_of_shape.push(hull);
        }
        set
    }

    fn push(&mut self, shape: &ConvexShape) -> u32 {
        self.hulls.push(GpuHull {
            offset: self.vertices.len() as u32,
            count: shape.len() as u32,
            radius: shape.radius(),
            bound: shape.bounding_radius(),
            centre: shape.centre().to_array(),
            pad: 0,
        });
        let points = shape.core_points();
        let first = [points[0].x, points[0].y, points[0].z, 0.0];
        self.vertices
            .extend(points.iter().map(|p| [p.x, p.y, p.z, 0.0]));
        self.vertices.extend(std::iter::repeat_n(
            first,
            padded_len(points.len()) - points.len(),
        ));
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

    /// The padded points of hull `h`, as they sit in the pool.
    pub fn hull_vertices(&self, h: u32) -> &[[f32; 4]] {
        let hull = &self.hulls[h as usize];
        let start = hull.offset as usize;
        &self.vertices[start..start + padded_len(hull.count as usize)]
    }
}

/// Bytes per hull table entry.
pub const HULL_STRIDE: u64 = std::mem::size_of::<GpuHull>() as u64;

#[cfg(test)]
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

    #[test]
    fn a_negative_zero_is_a_different_point() {
        let a = ConvexShape::new(vec![Vec3::ZERO], 1.0).unwrap();
        let b = ConvexShape::new(vec![Vec3::new(-0.0, 0.0, 0.0)], 1.0).unwrap();
        assert_eq!(HullSet::pack(&[a, b]).hulls.len(), 2);
    }
}
