//! `query --backend gpu`: every line's two shapes go up as hulls, with A at the origin and B at its pose
//! relative to A, formed in float64 here, so the GPU computes in the pair-local frame without losing the
//! precision of far-away world coordinates. Answers come back in A's frame and go to world coordinates in
//! float64, exactly as on the CPU path.

use super::parse::PairInput;
use crate::batch::Instance;
use crate::gjk::{GjkConfig, QueryKind, WorldResult};
use crate::gpu::{GpuContext, NarrowPhase};
use crate::pose::{Pose, RelativePose};
use crate::shape::ConvexShape;

/// Runs the valid pairs on the GPU; returns the answers and the batch time (upload, compute, readback).
pub fn query_pairs_gpu(
    ctx: &GpuContext,
    pairs: &[&PairInput],
) -> anyhow::Result<(Vec<WorldResult>, f64)> {
    let mut shapes: Vec<ConvexShape> = Vec::with_capacity(pairs.len() * 2);
    let mut instances = Vec::with_capacity(pairs.len() * 2);
    for (k, pair) in pairs.iter().enumerate() {
        let relative = RelativePose::<f32>::between(&pair.a.pose, &pair.b.pose);
        shapes.push(pair.a.shape.clone());
        shapes.push(pair.b.shape.clone());
        instances.push(Instance {
            shape: 2 * k as u32,
            pose: Pose::IDENTITY,
        });
        instances.push(Instance {
            shape: 2 * k as u32 + 1,
            pose: Pose::new(relative.position, relative.rotation),
        });
    }
    let indices: Vec<[u32; 2]> = (0..pairs.len() as u32)
        .map(|k| [2 * k, 2 * k + 1])
        .collect();
    let mut narrow = NarrowPhase::new(&ctx.device, &ctx.queue);
    narrow.upload_hulls(&shapes)?;
    let batch = narrow.run(
        &instances,
        &indices,
        QueryKind::Distance,
        &GjkConfig::default(),
    )?;
    let answers = batch
        .results
        .iter()
        .zip(pairs)
        .map(|(local, pair)| WorldResult::from_local(local, &pair.a.pose))
        .collect();
    Ok((answers, batch.timings.total_s))
}
