//! Contact manifolds on the GPU: the WGSL twin of [`crate::manifold::manifold`] (`shaders/manifold.wgsl`), one
//! invocation per pair of solid hulls without radius, from the GPU's own penetration answer.
//!
//! A run first answers its pairs' penetration with the narrow phase's GJK and EPA kernels
//! ([`NarrowPhase::contacts`]: B placed relative to A in float64 and rounded once), reads the 48-byte records
//! back, and sends each penetrating pair's unit normal, depth and contact pair to the manifold kernel, which finds
//! each hull's feature facing the other, clips the incident feature against the reference face's side planes,
//! keeps the deep enough points, adds EPA's pair where none is as deep, and reduces to four points with their
//! feature ids, in float32 in A's frame. Pairs the kernels do not take (rounded shapes, flat hulls), pairs the
//! GPU finds apart, pairs its penetration query gives no answer for (a failure status) and pairs the manifold
//! kernel gives up on (a clipped polygon beyond [`MAX_POLYGON`] points, a software adapter's loop budget) are
//! answered by the CPU manifold, each counted by its [`ManifoldSource`]. `docs/gpu.md` (GPU contact manifolds)
//! states the agreement band.

pub(crate) mod codes;
pub mod compare;
pub(crate) mod pack;
#[cfg(test)]
mod tests;

use super::narrow_phase::NarrowPhase;
use super::pair_kernel::PairKernel;
use super::GpuError;
use crate::epa::{Penetration, PenetrationStatus};
use crate::instance::{Instance, Pair};
use crate::manifold::{manifold, ContactPoint, FeatureId, Manifold, DEEPEST_SLACK, MERGE_DISTANCE};
use crate::pose::{Pose, RelativePose};
use crate::query::{PairInput, QueryOptions};
use crate::shape::{ConvexShape, HullFace, HullFaces};
use crate::{GjkConfig, Precision};
use glam::{DVec3, Vec3};
use pack::{pair_words, FacePool, Limits, ManifoldPairWords, ManifoldResultWords};
use std::collections::HashMap;
use std::sync::Mutex;

pub use codes::MAX_POLYGON;
use codes::{MANIFOLD_GPU_LOOP_LIMIT, MANIFOLD_POLYGON_BOUND, MANIFOLD_WORKGROUP_SIZE};

/// Who answered a pair's manifold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ManifoldSource {
    /// The GPU kernels: the penetration answer and the manifold.
    Gpu,
    /// The CPU: not two solid hulls without radius (spheres, capsules, rounded or flat shapes).
    CpuNotPolyhedra,
    /// The CPU: the shapes do not penetrate, so the manifold has no points (the GPU found them apart or gave no
    /// penetration answer, and the CPU found them apart).
    CpuNoContact,
    /// The CPU: the GPU's penetration query gave no answer (a failure status: GJK's or EPA's bound, EPA's
    /// overflow, rounding, a software adapter's loop budget) or found the shapes apart, and the CPU found them
    /// penetrating.
    CpuPenetrationFallback,
    /// The CPU: the clipped polygon would exceed [`MAX_POLYGON`] points.
    CpuPolygonBound,
    /// The CPU: a software adapter's loop budget ran out in the pair's group of manifold invocations
    /// (`docs/gpu.md`).
    CpuLoopLimit,
}

/// A run's manifolds in world coordinates, one per pair in order, and who answered each.
#[derive(Clone, Debug)]
pub struct GpuManifoldBatch {
    pub manifolds: Vec<Manifold>,
    pub sources: Vec<ManifoldSource>,
    /// The GPU's penetration answer (A's local frame) of each pair of solid hulls, whatever its status: the one
    /// a [`ManifoldSource::Gpu`] manifold was built from; `None` for the other pairs.
    pub penetrations: Vec<Option<Penetration<f32>>>,
    /// Chunks the manifold kernel's part of the run went up in.
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

/// The kernel's source: the loop-budget probe, the clipping and the kernel.
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
            "shared/manifold_clip.wgsl",
            include_str!("../../../shaders/shared/manifold_clip.wgsl"),
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

/// A pair the kernel answers: its index, words, and the GPU's unit normal in A's frame.
struct GpuPair {
    index: usize,
    words: ManifoldPairWords,
    normal: DVec3,
}

/// Computes contact manifolds on batches of pairs, on a device and queue of your own.
pub struct GpuManifolds {
    kernel: PairKernel,
    /// The penetration kernels, behind a lock so that [`GpuManifolds::run`] takes `&self` (a batch uploads its
    /// own hulls and instances).
    narrow: Mutex<NarrowPhase>,
    max_hull_bytes: u64,
    max_pairs: usize,
}

impl GpuManifolds {
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        Self::with_chunks(device, queue, MAX_PAIRS_PER_CHUNK, MAX_HULL_BYTES_PER_CHUNK)
    }

    /// [`GpuManifolds::new`] with manifold chunks of at most `max_pairs` pairs and `max_hull_bytes` of hull words
    /// (each also capped by the device's binding limit): smaller chunks keep each dispatch shorter. The
    /// penetration kernels chunk their batch by the device's limits ([`NarrowPhase::new`]).
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
            narrow: Mutex::new(NarrowPhase::new(device, queue)),
            max_pairs: max_pairs.clamp(1, MAX_PAIRS_PER_CHUNK),
        }
    }

    /// The manifold of every pair, in pair order, with the query's `precision` and `config` (as
    /// [`crate::manifold::manifold`] takes them in [`QueryOptions`]; the GPU computes in float32 with `config`,
    /// `precision` applies to the pairs the CPU answers). A pair whose two hulls alone exceed one binding fails
    /// the run with the pair named.
    pub fn run(
        &self,
        pairs: &[PairInput],
        precision: Precision,
        config: GjkConfig,
    ) -> Result<GpuManifoldBatch, GpuError> {
        let cpu = |pair: &PairInput| {
            let options = QueryOptions {
                precision,
                config,
                ..QueryOptions::default()
            };
            manifold(pair, options)
        };
        let mut manifolds: Vec<Option<Manifold>> = vec![None; pairs.len()];
        let mut sources = vec![ManifoldSource::Gpu; pairs.len()];
        let mut penetrations: Vec<Option<Penetration<f32>>> = vec![None; pairs.len()];
        let mut solid: Vec<(usize, &[HullFace], &[HullFace])> = Vec::new();
        for (k, pair) in pairs.iter().enumerate() {
            match (solid_faces(pair.a), solid_faces(pair.b)) {
                (Some(faces_a), Some(faces_b)) => solid.push((k, faces_a, faces_b)),
                _ => {
                    manifolds[k] = Some(cpu(pair));
                    sources[k] = ManifoldSource::CpuNotPolyhedra;
                }
            }
        }
        let hits = self.penetrations(pairs, solid.iter().map(|s| s.0), &config)?;
        let mut pool = FacePool::default();
        let mut chunk: Vec<GpuPair> = Vec::new();
        let mut chunks = 0;
        for (&(k, faces_a, faces_b), hit) in solid.iter().zip(hits) {
            let pair = &pairs[k];
            penetrations[k] = Some(hit);
            let normal = hit.normal.as_dvec3().normalize();
            if hit.status != PenetrationStatus::Penetrating
                || !(normal.is_finite() && hit.depth.is_finite())
            {
                let answer = cpu(pair);
                sources[k] = if answer.status == PenetrationStatus::Penetrating {
                    ManifoldSource::CpuPenetrationFallback
                } else {
                    ManifoldSource::CpuNoContact
                };
                manifolds[k] = Some(answer);
                continue;
            }
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
        // Pairs the manifold kernel gave up on.
        for (k, pair) in pairs.iter().enumerate() {
            if manifolds[k].is_none() {
                manifolds[k] = Some(cpu(pair));
            }
        }
        Ok(GpuManifoldBatch {
            manifolds: manifolds.into_iter().flatten().collect(),
            sources,
            penetrations,
            chunks,
        })
    }

    /// The GPU's penetration answers of pairs `which` (in their order), in each pair's A frame: each distinct
    /// shape goes up once with an instance at the origin (the A of its pairs), and each pair adds B at its pose
    /// relative to A, formed in float64 and rounded once, so far-away pairs keep their precision.
    fn penetrations(
        &self,
        pairs: &[PairInput],
        which: impl Iterator<Item = usize>,
        config: &GjkConfig,
    ) -> Result<Vec<Penetration<f32>>, GpuError> {
        let mut shapes: Vec<ConvexShape> = Vec::new();
        let mut index_of: HashMap<*const ConvexShape, u32> = HashMap::new();
        let mut shape_index = |shape: &ConvexShape| {
            *index_of
                .entry(shape as *const ConvexShape)
                .or_insert_with(|| {
                    shapes.push(shape.clone());
                    shapes.len() as u32 - 1
                })
        };
        let placed: Vec<(u32, u32, Pose)> = which
            .map(|k| {
                let pair = &pairs[k];
                let relative = RelativePose::<f32>::between(&pair.pose_a, &pair.pose_b);
                let pose = Pose::new(relative.position, relative.rotation);
                (shape_index(pair.a), shape_index(pair.b), pose)
            })
            .collect();
        if placed.is_empty() {
            return Ok(Vec::new());
        }
        let mut instances: Vec<Instance> = (0..shapes.len() as u32)
            .map(|shape| Instance {
                shape,
                pose: Pose::IDENTITY,
            })
            .collect();
        let mut indices: Vec<Pair> = Vec::with_capacity(placed.len());
        for &(a, b, pose) in &placed {
            indices.push([a, instances.len() as u32]);
            instances.push(Instance { shape: b, pose });
        }
        // A poisoned lock only means an earlier run panicked: every batch sets the hulls and instances afresh.
        let mut narrow = self.narrow.lock().unwrap_or_else(|e| e.into_inner());
        narrow.upload_hulls(&shapes)?;
        narrow.set_instances(&instances)?;
        let records = narrow.contacts(&indices, config)?;
        Ok(records.records.iter().map(|r| r.penetration()).collect())
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
            0,
            0,
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
pub(crate) fn solid_faces(shape: &ConvexShape) -> Option<&[HullFace]> {
    shape.polyhedron()?;
    match shape.faces() {
        HullFaces::Faces(faces) if faces.iter().all(|f| f.vertices.len() >= 3) => Some(faces),
        _ => None,
    }
}

/// A result record as a world manifold, moved by A's pose as [`crate::manifold::manifold`] moves its own.
fn manifold_of(record: &ManifoldResultWords, pair: &PairInput, normal: DVec3) -> Manifold {
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
