//! `query --backend gpu`: every line's two shapes go up as hulls, with A at the origin and B at its pose
//! relative to A, formed in float64 here, so the GPU computes in the pair-local frame without losing the
//! precision of far-away world coordinates. Answers (GJK's, and EPA's on overlapping pairs) come back in A's
//! frame and go to world coordinates in float64, exactly as on the CPU path.

use super::answer::PairAnswer;
use super::parse::PairInput;
use crate::gjk::GjkConfig;
use crate::gpu::{GpuContext, NarrowPhase};
use crate::instance::Instance;
use crate::pose::{Pose, RelativePose};
use crate::query::{WorldPenetration, WorldResult};
use crate::shape::ConvexShape;
use std::collections::HashMap;
use std::sync::Arc;

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
    let mut instances = Vec::with_capacity(pairs.len() * 2);
    for pair in pairs {
        let relative = RelativePose::<f32>::between(&pair.a.pose, &pair.b.pose);
        instances.push(Instance {
            shape: shape_index(&pair.a.shape),
            pose: Pose::IDENTITY,
        });
        instances.push(Instance {
            shape: shape_index(&pair.b.shape),
            pose: Pose::new(relative.position, relative.rotation),
        });
    }
    let indices: Vec<[u32; 2]> = (0..pairs.len() as u32)
        .map(|k| [2 * k, 2 * k + 1])
        .collect();
    let mut narrow = NarrowPhase::new(&ctx.device, &ctx.queue);
    narrow.upload_hulls(&shapes)?;
    let config = GjkConfig::default();
    let mut batch = narrow.run_penetration(&instances, &indices, &config)?;
    // The GPU has no float64 to repeat a pair whose float32 polytope folded (a few per million): those few
    // are answered on the CPU, so both backends print the same quality of answer.
    batch.resolve_failures_on_cpu(&shapes, &instances, &indices, &config);
    let answers = batch
        .results
        .iter()
        .zip(&batch.penetrations)
        .zip(pairs)
        .map(|((local, hit), pair)| {
            (
                WorldResult::from_local(local, &pair.a.pose),
                Some(WorldPenetration::from_local(hit, &pair.a.pose)),
            )
        })
        .collect();
    Ok((answers, batch.timings.total_s))
}
