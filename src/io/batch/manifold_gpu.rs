//! `query --kind manifold` on a JSON Lines batch with a GPU backend: each block's pairs placed as
//! [`manifold_placed`](super::manifold_placed) places them (both poses moved by minus A's position), their
//! manifolds computed by [`GpuManifolds`] (the CPU's penetration normal, the GPU's clipping; rounded shapes and
//! the pairs the kernel gives up on answered on the CPU), and the points moved back.

use super::exec::Executor;
use super::manifold::stream_manifolds_with;
use super::stream_cpu::Streamed;
use crate::gpu::manifold::GpuManifolds;
use crate::gpu::GpuContext;
use crate::io::jsonl::parse::PairInput as LinePair;
use crate::io::jsonl::ShapeCache;
use crate::io::sink::Destination;
use crate::manifold::Manifold;
use crate::pose::{CentredPose, DPose};
use crate::query::PairInput;
use crate::{GjkConfig, Precision};
use std::path::Path;

/// Answers the JSON Lines batch at `path` (stdin for `-`) with contact manifolds computed on `ctx`'s device,
/// block by block.
pub fn stream_manifolds_gpu(
    path: &Path,
    exec: &Executor,
    cache: &ShapeCache,
    output: &Destination,
    max_line_bytes: usize,
    ctx: &GpuContext,
) -> anyhow::Result<Streamed> {
    let gpu = GpuManifolds::new(&ctx.device, &ctx.queue);
    let on_gpu = |valid: &[&LinePair]| manifolds_on_gpu(&gpu, valid);
    stream_manifolds_with(path, exec, cache, output, max_line_bytes, on_gpu)
}

/// The manifolds of one block's pairs, in world coordinates.
fn manifolds_on_gpu(gpu: &GpuManifolds, valid: &[&LinePair]) -> anyhow::Result<Vec<Manifold>> {
    let origins: Vec<_> = valid.iter().map(|p| p.a.pose.pose.position).collect();
    let near = |placed: &CentredPose, origin| DPose {
        position: (placed.pose.position - origin) + placed.pose.rotation * placed.centre,
        rotation: placed.pose.rotation,
    };
    let inputs: Vec<PairInput> = valid
        .iter()
        .zip(&origins)
        .map(|(p, &o)| {
            PairInput::new(
                &p.a.shape,
                near(&p.a.pose, o),
                &p.b.shape,
                near(&p.b.pose, o),
            )
        })
        .collect();
    let batch = gpu.run(&inputs, Precision::default(), GjkConfig::default())?;
    let mut manifolds = batch.manifolds;
    for (m, origin) in manifolds.iter_mut().zip(origins) {
        for p in &mut m.points {
            p.point_a += origin;
            p.point_b += origin;
        }
    }
    Ok(manifolds)
}
