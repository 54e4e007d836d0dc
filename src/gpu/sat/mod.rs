//! The separating axis test on the GPU: the WGSL twin of [`crate::sat::separating_axis`]
//! (`shaders/sat.wgsl`, `shaders/shared/polyhedron.wgsl`), one invocation per pair of solid hulls without radius.
//!
//! Each shape's [`crate::shape::Polyhedron`] (points, face planes, edges with their faces, edge graph) is packed
//! into one word array once per run however many pairs name it (`pack`); each pair sends B's rotation and shift
//! into A's frame, formed in float64 on the host as the CPU test forms them, and gets back the flag, the largest
//! separation and its axis in the CPU test's conventions ([`SatAnswer`]). Runs larger than one binding go up in
//! chunks of consecutive pairs. `compare` counts the agreement with the CPU test.

pub(crate) mod codes;
pub mod compare;
pub(crate) mod pack;
#[cfg(test)]
mod tests;

use super::pair_kernel::PairKernel;
use super::GpuError;
use super::WORKGROUP_SIZE;
use crate::query::PairInput;
use crate::sat::{SatAnswer, SatAxis};
use codes::{AXIS_FACE_A, AXIS_FACE_B, SAT_GPU_LOOP_LIMIT};
use glam::{DVec3, Vec3};
use pack::{pair_words, HullPool, SatPairWords, SatResultWords};

/// What the GPU answered for one pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GpuSatAnswer {
    /// The test's answer, in world coordinates, as [`crate::sat::separating_axis`] gives it (in float32).
    Answered(SatAnswer),
    /// A software adapter's loop budget ran out in this pair's group of invocations (`docs/gpu.md`, loop
    /// budgets): no answer; [`GpuSatBatch::resolve_failures_on_cpu`] answers it on the CPU.
    GpuLoopLimit,
    /// Not two solid hulls without radius (the CPU test answers `None` too).
    NotPolyhedra,
}

/// A run's answers, one per pair in order.
#[derive(Clone, Debug)]
pub struct GpuSatBatch {
    pub answers: Vec<GpuSatAnswer>,
    /// Chunks the run went up in.
    pub chunks: usize,
}

impl GpuSatBatch {
    /// Pairs with no GPU answer ([`GpuSatAnswer::GpuLoopLimit`]).
    pub fn gpu_failures(&self) -> usize {
        self.answers
            .iter()
            .filter(|a| **a == GpuSatAnswer::GpuLoopLimit)
            .count()
    }

    /// Answers every [`GpuSatAnswer::GpuLoopLimit`] pair again with the CPU test; returns how many.
    pub fn resolve_failures_on_cpu(&mut self, pairs: &[PairInput]) -> usize {
        let mut resolved = 0;
        for (answer, pair) in self.answers.iter_mut().zip(pairs) {
            if *answer == GpuSatAnswer::GpuLoopLimit {
                *answer = crate::sat::separating_axis(pair)
                    .map_or(GpuSatAnswer::NotPolyhedra, GpuSatAnswer::Answered);
                resolved += 1;
            }
        }
        resolved
    }
}

/// Most pairs per chunk: a chunk's dispatch stays short on a software adapter, and far below any device's
/// workgroup limit.
const MAX_PAIRS_PER_CHUNK: usize = 65_536;

/// The most hull words one chunk binds, below the device's binding limit.
const MAX_HULL_BYTES_PER_CHUNK: u64 = 64 << 20;

/// The kernel's source: the loop-budget probe, the polyhedron reader, the axis search and the kernel.
pub(crate) fn sat_source() -> String {
    let constants = crate::gpu::shader::constants::wgsl_constants_for(
        crate::gpu::shader::constants::Climbing::Left,
    );
    let files: String = [
        (
            "shared/loop_budget.wgsl",
            include_str!("../../../shaders/shared/loop_budget.wgsl"),
        ),
        (
            "shared/polyhedron.wgsl",
            include_str!("../../../shaders/shared/polyhedron.wgsl"),
        ),
        (
            "shared/sat_axes.wgsl",
            include_str!("../../../shaders/shared/sat_axes.wgsl"),
        ),
        ("sat.wgsl", include_str!("../../../shaders/sat.wgsl")),
    ]
    .iter()
    .map(|(path, text)| format!("\n// ---- {path} ----\n{text}"))
    .collect();
    constants + &files
}

/// Runs the separating axis test on batches of pairs, on a device and queue of your own.
pub struct GpuSat {
    kernel: PairKernel,
    max_hull_bytes: u64,
    max_pairs: usize,
}

impl GpuSat {
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        Self::with_chunks(device, queue, MAX_PAIRS_PER_CHUNK, MAX_HULL_BYTES_PER_CHUNK)
    }

    /// [`GpuSat::new`] with chunks of at most `max_pairs` pairs and `max_hull_bytes` of hull words (each also
    /// capped by the device's binding limit): smaller chunks keep each dispatch shorter.
    pub fn with_chunks(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        max_pairs: usize,
        max_hull_bytes: u64,
    ) -> Self {
        let kernel = PairKernel::new(
            device,
            queue,
            "sat",
            sat_source(),
            "sat_kernel",
            WORKGROUP_SIZE,
        );
        Self {
            max_hull_bytes: kernel.binding_cap(max_hull_bytes),
            kernel,
            max_pairs: max_pairs.clamp(1, MAX_PAIRS_PER_CHUNK),
        }
    }

    /// The test on every pair, answers in pair order. A pair whose two hulls alone exceed one binding fails the
    /// run with the pair named.
    pub fn run(&self, pairs: &[PairInput]) -> Result<GpuSatBatch, GpuError> {
        let mut answers = vec![GpuSatAnswer::NotPolyhedra; pairs.len()];
        let mut pool = HullPool::default();
        let mut chunk: Vec<(usize, SatPairWords)> = Vec::new();
        let mut chunks = 0;
        for (k, pair) in pairs.iter().enumerate() {
            let (Some(a), Some(b)) = (pair.a.polyhedron(), pair.b.polyhedron()) else {
                continue;
            };
            let before = pool.words.len();
            let mut words = pair_words(pair, pool.base(pair.a, a), pool.base(pair.b, b));
            if pool.words.len() as u64 * 4 > self.max_hull_bytes && !chunk.is_empty() {
                // Run what came before this pair, then start the next chunk with it.
                pool.words.truncate(before);
                self.run_chunk(&pool.words, &chunk, pairs, &mut answers)?;
                chunks += 1;
                chunk.clear();
                pool.clear();
                words = pair_words(pair, pool.base(pair.a, a), pool.base(pair.b, b));
            }
            if pool.words.len() as u64 * 4 > self.max_hull_bytes {
                return Err(GpuError::PairTooLarge {
                    pair: k,
                    what: "two polyhedra",
                    bytes: pool.words.len() as u64 * 4,
                    limit: self.max_hull_bytes,
                });
            }
            chunk.push((k, words));
            if chunk.len() == self.max_pairs {
                self.run_chunk(&pool.words, &chunk, pairs, &mut answers)?;
                chunks += 1;
                chunk.clear();
                pool.clear();
            }
        }
        if !chunk.is_empty() {
            self.run_chunk(&pool.words, &chunk, pairs, &mut answers)?;
            chunks += 1;
        }
        Ok(GpuSatBatch { answers, chunks })
    }

    fn run_chunk(
        &self,
        hull_words: &[u32],
        chunk: &[(usize, SatPairWords)],
        pairs: &[PairInput],
        answers: &mut [GpuSatAnswer],
    ) -> Result<(), GpuError> {
        let params = [
            chunk.len() as u32,
            crate::gpu::layout::LOOP_PROBE_TRIPS,
            0,
            0,
        ];
        let pair_words: Vec<SatPairWords> = chunk.iter().map(|(_, w)| *w).collect();
        let records: Vec<SatResultWords> = self.kernel.run(params, hull_words, &pair_words)?;
        for ((k, _), record) in chunk.iter().zip(records) {
            answers[*k] = answer_of(&record, &pairs[*k]);
        }
        Ok(())
    }
}

/// A result record as a world answer: the axis turned by A's rotation, an edge pair named by its edges' ends.
fn answer_of(record: &SatResultWords, pair: &PairInput) -> GpuSatAnswer {
    let [status, kind, first, second] = record.info;
    if status == SAT_GPU_LOOP_LIMIT {
        return GpuSatAnswer::GpuLoopLimit;
    }
    let (Some(a), Some(b)) = (pair.a.polyhedron(), pair.b.polyhedron()) else {
        return GpuSatAnswer::NotPolyhedra;
    };
    let axis = match kind {
        AXIS_FACE_A => SatAxis::FaceA(first),
        AXIS_FACE_B => SatAxis::FaceB(first),
        _ => {
            let ends = |edges: &[crate::shape::PolyhedronEdge], k: u32| {
                edges.get(k as usize).map_or([u32::MAX; 2], |e| e.ends)
            };
            SatAxis::Edges(ends(&a.edges, first), ends(&b.edges, second))
        }
    };
    let [x, y, z, separation] = record.axis;
    let normal: DVec3 = Vec3::new(x, y, z).as_dvec3();
    GpuSatAnswer::Answered(SatAnswer {
        intersecting: separation <= 0.0,
        separation: separation as f64,
        normal: pair.pose_a.rotation * normal,
        axis,
    })
}
