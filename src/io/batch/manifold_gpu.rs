//! `query --kind manifold` with a GPU backend (JSON Lines, columnar batches and the Python module): each batch of
//! pairs placed as [`manifold_placed`](super::manifold_placed) places them (both poses moved by minus A's
//! position), their manifolds computed by [`GpuManifolds`] (the CPU's penetration normal, the GPU's clipping;
//! rounded shapes and the pairs the kernel gives up on answered on the CPU), and the points moved back.

use super::exec::Executor;
use super::manifold::stream_manifolds_with;
use super::stream_cpu::Streamed;
use crate::gpu::manifold::GpuManifolds;
use crate::gpu::{GpuContext, GpuError};
use crate::io::jsonl::parse::PairInput as LinePair;
use crate::io::jsonl::ShapeCache;
use crate::io::sink::Destination;
use crate::manifold::{manifold, Manifold};
use crate::pose::{CentredPose, DPose};
use crate::query::{PairInput, QueryOptions};
use crate::shape::ConvexShape;
use std::path::Path;

/// One pair as a manifold batch takes it, however it was read (a JSON line, a pairs table row): A and B, each a
/// centred shape with its world pose.
pub type PlacedPair<'s> = (
    (&'s ConvexShape, &'s CentredPose),
    (&'s ConvexShape, &'s CentredPose),
);

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
    let on_gpu = |valid: &[&LinePair]| {
        let placed: Vec<PlacedPair> = valid
            .iter()
            .map(|p| ((&*p.a.shape, &p.a.pose), (&*p.b.shape, &p.b.pose)))
            .collect();
        manifolds_placed_gpu(&gpu, &placed)
    };
    stream_manifolds_with(path, exec, cache, output, max_line_bytes, on_gpu)
}

/// The manifolds of `pairs` on `gpu`'s device, one per pair in order, in world coordinates: what
/// [`manifold_placed`](super::manifold_placed) answers for each, within the GPU manifolds' agreement band
/// ([`crate::gpu::manifold::compare`]). Fails only when the device does: a pair too big for it is answered on
/// the CPU.
pub fn manifolds_placed_gpu(
    gpu: &GpuManifolds,
    pairs: &[PlacedPair],
) -> anyhow::Result<Vec<Manifold>> {
    let origins: Vec<_> = pairs.iter().map(|((_, a), _)| a.pose.position).collect();
    let near = |placed: &CentredPose, origin| DPose {
        position: (placed.pose.position - origin) + placed.pose.rotation * placed.centre,
        rotation: placed.pose.rotation,
    };
    let inputs: Vec<PairInput> = pairs
        .iter()
        .zip(&origins)
        .map(|(&((a, a_pose), (b, b_pose)), &o)| {
            PairInput::new(a, near(a_pose, o), b, near(b_pose, o))
        })
        .collect();
    let mut manifolds = run_or_cpu(gpu, &inputs)?;
    for (m, origin) in manifolds.iter_mut().zip(origins) {
        for p in &mut m.points {
            p.point_a += origin;
            p.point_b += origin;
        }
    }
    Ok(manifolds)
}

/// [`GpuManifolds::run`] on `inputs` with the query's default options, but a pair whose two hulls alone exceed
/// what the device binds is answered by the CPU's [`manifold`], as the kernel's other refusals are, rather than
/// failing the batch: a batch read from a table or a JSON file would otherwise lose every pair for one huge
/// hull. The pairs before it were within the limit and go up again without it (at most twice the GPU work,
/// once per oversized pair).
fn run_or_cpu(gpu: &GpuManifolds, inputs: &[PairInput]) -> Result<Vec<Manifold>, GpuError> {
    let QueryOptions {
        precision, config, ..
    } = QueryOptions::default();
    let run = |pairs| gpu.run(pairs, precision, config);
    let mut manifolds = Vec::with_capacity(inputs.len());
    let mut rest = inputs;
    while !rest.is_empty() {
        match run(rest) {
            Ok(batch) => {
                manifolds.extend(batch.manifolds);
                break;
            }
            Err(GpuError::PairTooLarge { pair, .. }) if pair < rest.len() => {
                if pair > 0 {
                    manifolds.extend(run(&rest[..pair])?.manifolds);
                }
                manifolds.push(manifold(&rest[pair], QueryOptions::default()));
                rest = &rest[pair + 1..];
            }
            Err(e) => return Err(e),
        }
    }
    Ok(manifolds)
}
