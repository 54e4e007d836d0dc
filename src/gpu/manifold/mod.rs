//! Contact manifolds on the GPU: the WGSL twin of [`crate::manifold::manifold`] (`shaders/manifold.wgsl`), one
//! invocation per pair of solid hulls without radius.
//!
//! The contact normal, EPA's depth and EPA's contact pair come from the CPU's penetration answer (the query
//! [`crate::manifold::manifold`] itself runs first); the GPU finds each hull's feature facing the other, clips
//! the incident feature against the reference face's side planes, keeps the deep enough points, adds EPA's pair
//! where none is as deep, and reduces to four points with their feature ids, in float32 in A's frame. Pairs the
//! kernel does not take (rounded shapes, flat hulls, pairs not penetrating) and pairs it gives up on (a clipped
//! polygon beyond [`MAX_POLYGON`] points, a software adapter's loop budget) are answered by the CPU manifold,
//! each counted by its [`ManifoldSource`]. `docs/gpu.md` (GPU contact manifolds) states the agreement band.

pub(crate) mod codes;
pub mod compare;
mod pack;
#[cfg(test)]
mod tests;

use super::pair_kernel::PairKernel;
use super::GpuError;
use crate::epa::PenetrationStatus;
use crate::manifold::{
    manifold, ContactPoint, FeatureId, Manifold, DEEPEST_SLACK, FACE_MIN_ALIGNMENT, MERGE_DISTANCE,
    REFERENCE_BIAS,
};
use crate::query::{penetration_in_a, PairInput, QueryOptions};
use crate::shape::HullFaces;
use crate::{GjkConfig, Precision};
use glam::Vec3;
use pack::{pair_words, FacePool, Limits, ManifoldPairWords, ManifoldResultWords};

pub use codes::MAX_POLYGON;
use codes::{MANIFOLD_GPU_LOOP_LIMIT, MANIFOLD_POLYGON_BOUND, MANIFOLD_WORKGROUP_SIZE};

/// Who answered a pair's manifold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ManifoldSource {
    /// The GPU kernel.
    Gpu,
    /// The CPU: not two solid hulls without radius (spheres, capsules, rounded or flat shapes).
    CpuNotPolyhedra,
    /// The CPU: the shapes do not penetrate, so the manifold has no points.
    CpuNoContact,
    /// The CPU: the clipped polygon would exceed [`MAX_POLYGON`] points.
    CpuPolygonBound,
    /// The CPU: a software adapter's loop budget ran out in the pair's group of invocations (`docs/gpu.md`).
    CpuLoopLimit,
}

/// A run's manifolds in world coordinates, one per pair in order, and who answered each.
#[derive(Clone, Debug)]
pub struct GpuManifoldBatch {
    pub manifolds: Vec<Manifold>,
    pub sources: Vec<ManifoldSource>,
    /// Chunks the GPU part of the run went up in.
    pub chunks: usize,
}

impl GpuManifoldBatch {
    /// How many pairs `source` answered.
    pub fn count(&self, source: ManifoldSource) -> usize {
        self.sources.iter().filter(|s| **s == source).count()
    }
}

/// Most pairs per chunk.
const MAX_PAIRS_PER_CHUNK: usize = 65_536;

/// The most hull words one chunk binds, below the device's binding limit.
const MAX_HULL_BYTES_PER_CHUNK: u64 = 64 << 20;

/// The kernel's source: the loop-budget probe and the kernel.
pub(crate) fn manifold_source() -> String {
    let constants = crate::gpu::shader::constants::wgsl_constants_for(
        crate::gpu::shader::constants::Climbing::Left,
    );
    let files: String = [
        (
            "shared/loop_budget.wgsl",
            include_str!("../../../shaders/shared/loop_budget.wgsl"),
        ),
        (
            "manifold.wgsl",
            include_str!("../../../shaders/manifold.wgsl"),
        ),
    ]
    .iter()
    .map(|(path, text)| format!("\n// ---- {path} ----\n{text}"))
    .collect();
    constants + &files
}

/// A pair the kernel answers: its index, words, and the CPU's unit normal in A's frame.
struct GpuPair {
    index: usize,
    words: ManifoldPairWords,
    normal: glam::DVec3,
}

/// Computes contact manifolds on batches of pairs, on a device and queue of your own.
pub struct GpuManifolds {
    kernel: PairKernel,
    max_hull_bytes: u64,
    max_pairs: usize,
}

impl GpuManifolds {
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        Self::with_chunks(device, queue, MAX_PAIRS_PER_CHUNK, MAX_HULL_BYTES_PER_CHUNK)
    }

    /// [`GpuManifolds::new`] with chunks of at most `max_pairs` pairs and `max_hull_bytes` of hull words (each
    /// also capped by the device's binding limit): smaller chunks keep each dispatch shorter.
    pub fn with_chunks(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        max_pairs: usize,
        max_hull_bytes: u64,
    ) -> Self {
        let kernel = PairKernel::new(
            device,
            queue,
            "manifold",
            manifold_source(),
            "manifold_kernel",
            MANIFOLD_WORKGROUP_SIZE,
        );
        Self {
            max_hull_bytes: kernel.binding_cap(max_hull_bytes),
            kernel,
            max_pairs: max_pairs.clamp(1, MAX_PAIRS_PER_CHUNK),
        }
    }

    /// The manifold of every pair, in pair order, with the query's `precision` and `config` (as
    /// [`crate::manifold::manifold`] takes them in [`QueryOptions`]). A pair whose two hulls alone exceed one
    /// binding fails the run with the pair named.
    pub fn run(
        &self,
        pairs: &[PairInput],
        precision: Precision,
        config: GjkConfig,
    ) -> Result<GpuManifoldBatch, GpuError> {
        let options = || QueryOptions {
            precision,
            config,
            ..QueryOptions::default()
        };
        let mut manifolds: Vec<Option<Manifold>> = vec![None; pairs.len()];
        let mut sources = vec![ManifoldSource::Gpu; pairs.len()];
        let mut pool = FacePool::default();
        let mut chunk: Vec<GpuPair> = Vec::new();
        let mut chunks = 0;
        for (k, pair) in pairs.iter().enumerate() {
            let (Some(faces_a), Some(faces_b)) = (solid_faces(pair.a), solid_faces(pair.b)) else {
                manifolds[k] = Some(manifold(pair, options()));
                sources[k] = ManifoldSource::CpuNotPolyhedra;
                continue;
            };
            let (_, hit) = penetration_in_a(pair, options());
            if hit.status != PenetrationStatus::Penetrating {
                manifolds[k] = Some(manifold(pair, options()));
                sources[k] = ManifoldSource::CpuNoContact;
                continue;
            }
            let normal = hit.normal.normalize();
            let scale = pair.a.bounding_radius().max(pair.b.bounding_radius()) as f64;
            let limits = Limits {
                margin: config.touch_tolerance * scale,
                slack: DEEPEST_SLACK * scale,
                merge: MERGE_DISTANCE * scale,
            };
            let before = pool.words.len();
            let mut bases = (pool.base(pair.a, faces_a), pool.base(pair.b, faces_b));
            if pool.words.len() as u64 * 4 > self.max_hull_bytes && !chunk.is_empty() {
                pool.words.truncate(before);
                self.run_chunk(&pool.words, &chunk, pairs, &mut manifolds, &mut sources)?;
                chunks += 1;
                chunk.clear();
                pool.clear();
                bases = (pool.base(pair.a, faces_a), pool.base(pair.b, faces_b));
            }
            if pool.words.len() as u64 * 4 > self.max_hull_bytes {
                return Err(GpuError::PairTooLarge {
                    pair: k,
                    what: "two hulls with their faces",
                    bytes: pool.words.len() as u64 * 4,
                    limit: self.max_hull_bytes,
                });
            }
            chunk.push(GpuPair {
                index: k,
                words: pair_words(pair, bases.0, bases.1, &hit, normal, &limits),
                normal,
            });
            if chunk.len() == self.max_pairs {
                self.run_chunk(&pool.words, &chunk, pairs, &mut manifolds, &mut sources)?;
                chunks += 1;
                chunk.clear();
                pool.clear();
            }
        }
        if !chunk.is_empty() {
            self.run_chunk(&pool.words, &chunk, pairs, &mut manifolds, &mut sources)?;
            chunks += 1;
        }
        // Pairs the kernel gave up on.
        for (k, pair) in pairs.iter().enumerate() {
            if manifolds[k].is_none() {
                manifolds[k] = Some(manifold(pair, options()));
            }
        }
        Ok(GpuManifoldBatch {
            manifolds: manifolds.into_iter().flatten().collect(),
            sources,
            chunks,
        })
    }

    fn run_chunk(
        &self,
        hull_words: &[u32],
        chunk: &[GpuPair],
        pairs: &[PairInput],
        manifolds: &mut [Option<Manifold>],
        sources: &mut [ManifoldSource],
    ) -> Result<(), GpuError> {
        let params = [
            chunk.len() as u32,
            crate::gpu::layout::LOOP_PROBE_TRIPS,
            (FACE_MIN_ALIGNMENT as f32).to_bits(),
            (REFERENCE_BIAS as f32).to_bits(),
        ];
        let pair_words: Vec<ManifoldPairWords> = chunk.iter().map(|p| p.words).collect();
        let records: Vec<ManifoldResultWords> = self.kernel.run(params, hull_words, &pair_words)?;
        for (pair, record) in chunk.iter().zip(records) {
            let k = pair.index;
            match record.info[0] {
                MANIFOLD_GPU_LOOP_LIMIT => sources[k] = ManifoldSource::CpuLoopLimit,
                MANIFOLD_POLYGON_BOUND => sources[k] = ManifoldSource::CpuPolygonBound,
                _ => manifolds[k] = Some(manifold_of(&record, &pairs[k], pair.normal)),
            }
        }
        Ok(())
    }
}

/// A shape's faces when the kernel takes it: a solid hull without radius whose faces are all polygons.
fn solid_faces(shape: &crate::shape::ConvexShape) -> Option<&[crate::shape::HullFace]> {
    shape.polyhedron()?;
    match shape.faces() {
        HullFaces::Faces(faces) if faces.iter().all(|f| f.vertices.len() >= 3) => Some(faces),
        _ => None,
    }
}

/// A result record as a world manifold, moved by A's pose as [`crate::manifold::manifold`] moves its own.
fn manifold_of(record: &ManifoldResultWords, pair: &PairInput, normal: glam::DVec3) -> Manifold {
    let count = (record.info[1] as usize).min(crate::manifold::MAX_POINTS);
    let pose = &pair.pose_a;
    let points = (0..count)
        .map(|j| {
            let [ax, ay, az, depth] = record.points[2 * j];
            let [bx, by, bz, _] = record.points[2 * j + 1];
            let ids = record.ids[j / 2];
            let (a, b) = if j % 2 == 0 {
                (ids[0], ids[1])
            } else {
                (ids[2], ids[3])
            };
            ContactPoint {
                point_a: pose.transform_point(Vec3::new(ax, ay, az).as_dvec3()),
                point_b: pose.transform_point(Vec3::new(bx, by, bz).as_dvec3()),
                depth: depth as f64,
                id: FeatureId { a, b },
            }
        })
        .collect();
    Manifold {
        status: PenetrationStatus::Penetrating,
        normal: pose.rotation * normal,
        points,
    }
}
