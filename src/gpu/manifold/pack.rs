//! Hulls with their face loops packed for the GPU manifold kernel (`shaders/manifold.wgsl` describes the words),
//! and a pair's placement, formed in float64 and rounded once, with the GPU's penetration answer in A's frame.

use crate::epa::Penetration;
use crate::query::PairInput;
use crate::shape::{ConvexShape, HullFace};
use glam::{DMat3, DVec3};
use std::collections::HashMap;

/// Words of a hull's header.
const HULL_HEADER_WORDS: usize = 8;

/// Words of a face record: unit normal, first loop word, vertex count.
const FACE_WORDS: usize = 5;

fn f(x: f64) -> u32 {
    (x as f32).to_bits()
}

/// The words of one hull's points (centre + core point, in float64 then rounded) and faces, from its base.
pub(crate) fn hull_words(shape: &ConvexShape, faces: &[HullFace]) -> Vec<u32> {
    let centre = shape.centre().as_dvec3();
    let core = shape.core_points();
    let points_at = HULL_HEADER_WORDS;
    let faces_at = points_at + 3 * core.len();
    let loops_at = faces_at + FACE_WORDS * faces.len();
    let loop_words: usize = faces.iter().map(|face| face.vertices.len()).sum();
    let mut words = Vec::with_capacity(loops_at + loop_words);
    words.extend([core.len(), faces.len(), points_at, faces_at, loops_at].map(|w| w as u32));
    words.resize(HULL_HEADER_WORDS, 0);
    for p in core {
        let p = centre + p.as_dvec3();
        words.extend([f(p.x), f(p.y), f(p.z)]);
    }
    let mut start = 0u32;
    for face in faces {
        let n = face.normal;
        words.extend([f(n.x), f(n.y), f(n.z), start, face.vertices.len() as u32]);
        start += face.vertices.len() as u32;
    }
    for face in faces {
        words.extend(&face.vertices);
    }
    words
}

/// One pair as the kernel reads it (`ManifoldPair` in `shaders/manifold.wgsl`).
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub(super) struct ManifoldPairWords {
    pub words: [u32; 32],
}

/// One pair's result (`ManifoldResult` in `shaders/manifold.wgsl`).
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub(super) struct ManifoldResultWords {
    /// Per point: on A with the depth in w, then on B.
    pub points: [[f32; 4]; 8],
    pub ids: [[u32; 4]; 2],
    pub info: [u32; 4],
}

/// What the kernel needs beyond the placement: the touching margin, the deepest point's slack and the merge
/// distance, each already scaled by the pair's size.
pub(super) struct Limits {
    pub margin: f64,
    pub slack: f64,
    pub merge: f64,
}

/// `pair`'s words for hulls at bases `base_a` and `base_b`, with the GPU's penetration answer `hit` (A's frame)
/// and its unit `normal`: the rotation and shift formed in float64 exactly as the CPU manifold forms them.
pub(super) fn pair_words(
    pair: &PairInput,
    base_a: u32,
    base_b: u32,
    hit: &Penetration<f32>,
    normal: DVec3,
    limits: &Limits,
) -> ManifoldPairWords {
    let inverse = pair.pose_a.rotation.inverse();
    let turn = DMat3::from_quat(inverse * pair.pose_b.rotation);
    let shift = inverse * (pair.pose_b.position - pair.pose_a.position);
    let column = |c: DVec3, w: u32| [f(c.x), f(c.y), f(c.z), w];
    let mut words = [0u32; 32];
    words[0..4].copy_from_slice(&column(turn.x_axis, base_a));
    words[4..8].copy_from_slice(&column(turn.y_axis, base_b));
    words[8..12].copy_from_slice(&column(turn.z_axis, 0));
    words[12..16].copy_from_slice(&column(shift, 0));
    words[16..20].copy_from_slice(&column(normal, hit.depth.to_bits()));
    words[20..24].copy_from_slice(&column(hit.contact_a.as_dvec3(), f(limits.margin)));
    words[24..28].copy_from_slice(&column(hit.contact_b.as_dvec3(), f(limits.slack)));
    words[28..32].copy_from_slice(&[f(limits.merge), 0, 0, 0]);
    ManifoldPairWords { words }
}

/// The hulls of a run of pairs, each shape packed once (by identity) however many pairs name it.
#[derive(Default)]
pub(super) struct FacePool {
    pub words: Vec<u32>,
    base_of: HashMap<*const ConvexShape, u32>,
}

impl FacePool {
    /// The base word of `shape`'s hull, packing it on first use.
    pub fn base(&mut self, shape: &ConvexShape, faces: &[HullFace]) -> u32 {
        *self
            .base_of
            .entry(shape as *const ConvexShape)
            .or_insert_with(|| {
                let base = self.words.len() as u32;
                self.words.extend(hull_words(shape, faces));
                base
            })
    }

    pub fn clear(&mut self) {
        self.words.clear();
        self.base_of.clear();
    }
}
