//! `query --backend gpu`: every line's two shapes go up as hulls, with A at the origin and B at its pose
//! relative to A, formed in float64 here, so the GPU computes in the pair-local frame without losing the
//! precision of far-away world coordinates. Answers (GJK's, and EPA's on overlapping pairs) come back in A's
//! frame and go to world coordinates in float64, exactly as on the CPU path.

use super::answer::PairAnswer;
use super::parse::PairInput;
use crate::gjk::GjkConfig;
use crate::gpu::GpuContext;
use crate::instance::Instance;
use crate::pose::{DPose, Pose, RelativePose};
use crate::query::{WorldPenetration, WorldResult};
use crate::shape::ConvexShape;
use std::collections::HashMap;
use std::sync::Arc;

/// One pair as a batch runs it: two indices into a shape list and the shapes' world poses (each shape's
/// centre folded in), whichever reader made it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IndexedPair {
    pub a: u32,
    pub b: u32,
    pub a_pose: DPose,
    pub b_pose: DPose,
}

/// Runs the valid pairs on the GPU; returns the answers and the batch time (upload, compute, readback).
pub fn query_pairs_gpu(
    ctx: &GpuContext,
    pairs: &[&PairInput],
) -> anyhow::Result<(Vec<PairAnswer>, f64)> {
    // A shape that the parser shared between lines (the same points and radius) goes up once.
    let mut shapes: Vec<ConvexShape> = Vec::new();
    let mut index_of: HashMap<*const ConvexShape, u32> = HashMap::new();
    let mut shape_index = |shape: &Arc<ConvexShape>| {
        *index_of.entry(Arc::as_ptr(shape)).or_insert_with(|| {
            shapes.push(ConvexShape::clone(shape));
            shapes.len() as u32 - 1
        })
    };
    let indexed: Vec<IndexedPair> = pairs
        .iter()
        .map(|pair| IndexedPair {
            a: shape_index(&pair.a.shape),
            b: shape_index(&pair.b.shape),
            a_pose: pair.a.pose,
            b_pose: pair.b.pose,
        })
        .collect();
    query_indexed_gpu(ctx, &shapes, &indexed)
}

/// [`query_pairs_gpu`] on pairs that index `shapes` (all indices valid).
pub fn query_indexed_gpu(
    ctx: &GpuContext,
    shapes: &[ConvexShape],
    pairs: &[IndexedPair],
) -> anyhow::Result<(Vec<PairAnswer>, f64)> {
    let mut instances = Vec::with_capacity(pairs.len() * 2);
    for pair in pairs {
        let relative = RelativePose::<f32>::between(&pair.a_pose, &pair.b_pose);
        instances.push(Instance {
            shape: pair.a,
            pose: Pose::IDENTITY,
        });
        instances.push(Instance {
            shape: pair.b,
            pose: Pose::new(relative.position, relative.rotation),
        });
    }
    let indices: Vec<[u32; 2]> = (0..pairs.len() as u32)
        .map(|k| [2 * k, 2 * k + 1])
        .collect();
    let config = GjkConfig::default();
    let mut batch = ctx.with_narrow_phase(|narrow| {
        narrow.upload_hulls(shapes)?;
        narrow.run_penetration(&instances, &indices, &config)
    })?;
    // The GPU has no float64 to repeat a pair whose float32 polytope folded (a few per million): those few
    // are answered on the CPU, so both backends print the same quality of answer.
    batch.resolve_failures_on_cpu(shapes, &instances, &indices, &config);
    let answers = batch
        .results
        .iter()
        .zip(&batch.penetrations)
        .zip(pairs)
        .map(|((local, hit), pair)| {
            (
                WorldResult::from_local(local, &pair.a_pose),
                Some(WorldPenetration::from_local(hit, &pair.a_pose)),
            )
        })
        .collect();
    Ok((answers, batch.timings.total_s))
}
