//! Hulls packed for the GPU separating axis test (`shaders/shared/polyhedron.wgsl` describes the words), and a
//! pair's placement of B in A's frame, formed in float64 and rounded once to float32.

use crate::query::PairInput;
use crate::shape::{ConvexShape, Polyhedron};
use glam::DMat3;
use std::collections::HashMap;

pub(super) use super::codes::HULL_HEADER_WORDS;

/// Hulls with at least this many points climb their edge graph on the GPU, as on the CPU (`Polyhedron::lowest`).
const CLIMB_MIN_POINTS: usize = 24;

/// The words of one polyhedron, from its base (`shaders/shared/polyhedron.wgsl`).
pub(crate) fn hull_words(hull: &Polyhedron) -> Vec<u32> {
    let count = hull.points.len();
    let mut degree = vec![0u32; count + 1];
    for e in &hull.edges {
        degree[e.ends[0] as usize + 1] += 1;
        degree[e.ends[1] as usize + 1] += 1;
    }
    let mut first = degree;
    for i in 1..first.len() {
        first[i] += first[i - 1];
    }
    let mut fill = first.clone();
    let mut neighbours = vec![0u32; hull.edges.len() * 2];
    for e in &hull.edges {
        for (from, to) in [(e.ends[0], e.ends[1]), (e.ends[1], e.ends[0])] {
            neighbours[fill[from as usize] as usize] = to;
            fill[from as usize] += 1;
        }
    }
    // Points on no edge (inside the hull, or inside a merged face's outline): scanned besides the climb.
    let loose: Vec<u32> = (0..count as u32)
        .filter(|&i| first[i as usize] == first[i as usize + 1])
        .collect();
    let points_at = HULL_HEADER_WORDS;
    let planes_at = points_at + 3 * count;
    let edges_at = planes_at + 4 * hull.planes.len();
    let first_at = edges_at + 4 * hull.edges.len();
    let neighbours_at = first_at + first.len();
    let loose_at = neighbours_at + neighbours.len();
    let mut words = Vec::with_capacity(loose_at + loose.len());
    let f = |x: f64| (x as f32).to_bits();
    let mean = hull.mean;
    words.extend([
        count as u32,
        hull.planes.len() as u32,
        hull.edges.len() as u32,
        loose.len() as u32,
    ]);
    words.extend(
        [
            points_at,
            planes_at,
            edges_at,
            first_at,
            neighbours_at,
            loose_at,
        ]
        .map(|w| w as u32),
    );
    words.extend([f(mean.x), f(mean.y), f(mean.z)]);
    words.push(u32::from(count >= CLIMB_MIN_POINTS));
    words.resize(HULL_HEADER_WORDS, 0);
    for p in &hull.points {
        words.extend([f(p.x), f(p.y), f(p.z)]);
    }
    for (n, offset) in &hull.planes {
        words.extend([f(n.x), f(n.y), f(n.z), f(*offset)]);
    }
    for e in &hull.edges {
        words.extend([e.ends[0], e.ends[1], e.faces[0], e.faces[1]]);
    }
    words.extend(first);
    words.extend(neighbours);
    words.extend(loose);
    words
}

/// One pair as the kernel reads it (`SatPair` in `shaders/sat.wgsl`): B's rotation into A's frame by columns,
/// each with a hull's base word in `w` (A's, then B's), then B's shift into A's frame.
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub(super) struct SatPairWords {
    pub words: [u32; 16],
}

/// One pair's result (`SatResult` in `shaders/sat.wgsl`).
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub(super) struct SatResultWords {
    pub axis: [f32; 4],
    pub info: [u32; 4],
}

/// `pair`'s placement words for hulls at bases `base_a` and `base_b`, the rotation and shift formed in float64
/// exactly as the CPU test forms them.
pub(super) fn pair_words(pair: &PairInput, base_a: u32, base_b: u32) -> SatPairWords {
    let inverse = pair.pose_a.rotation.inverse();
    let turn = DMat3::from_quat(inverse * pair.pose_b.rotation);
    let shift = inverse * (pair.pose_b.position - pair.pose_a.position);
    let f = |x: f64| (x as f32).to_bits();
    let column = |c: glam::DVec3, w: u32| [f(c.x), f(c.y), f(c.z), w];
    let mut words = [0u32; 16];
    words[0..4].copy_from_slice(&column(turn.x_axis, base_a));
    words[4..8].copy_from_slice(&column(turn.y_axis, base_b));
    words[8..12].copy_from_slice(&column(turn.z_axis, 0));
    words[12..16].copy_from_slice(&column(shift, 0));
    SatPairWords { words }
}

/// The hulls of a run of pairs, each shape packed once (by identity) however many pairs name it.
#[derive(Default)]
pub(super) struct HullPool {
    pub words: Vec<u32>,
    base_of: HashMap<*const ConvexShape, u32>,
}

impl HullPool {
    /// The base word of `shape`'s hull, packing it on first use.
    pub fn base(&mut self, shape: &ConvexShape, hull: &Polyhedron) -> u32 {
        *self
            .base_of
            .entry(shape as *const ConvexShape)
            .or_insert_with(|| {
                let base = self.words.len() as u32;
                self.words.extend(hull_words(hull));
                base
            })
    }

    pub fn clear(&mut self) {
        self.words.clear();
        self.base_of.clear();
    }
}
