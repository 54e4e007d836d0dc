//! The contact manifolds of indexed pairs (two indices into one shape list and two world poses each: a columnar
//! batch's rows, the Python module's), on the executor's CPU threads or on the GPU, in world coordinates.

use super::exec::Executor;
use super::gpu::IndexedPair;
use super::manifold::manifold_placed;
use super::manifold_gpu::{manifolds_placed_gpu, PlacedPair};
use crate::gpu::manifold::GpuManifolds;
use crate::manifold::Manifold;
use crate::shape::ConvexShape;

/// The manifold of each of `pairs` (every index valid in `shapes`), in order: on `gpu` when given
/// ([`manifolds_placed_gpu`]: the CPU's within the GPU manifolds' band), else [`manifold_placed`] on `exec`'s
/// threads. Fails only when the GPU does.
pub fn manifolds_indexed(
    shapes: &[ConvexShape],
    pairs: &[&IndexedPair],
    exec: &Executor,
    gpu: Option<&GpuManifolds>,
) -> anyhow::Result<Vec<Manifold>> {
    match gpu {
        Some(gpu) => {
            let placed: Vec<PlacedPair> = pairs.iter().map(|p| placed(shapes, p)).collect();
            manifolds_placed_gpu(gpu, &placed)
        }
        None => Ok(exec.map(pairs, |p| {
            let (a, b) = placed(shapes, p);
            manifold_placed(a, b)
        })),
    }
}

fn placed<'s>(shapes: &'s [ConvexShape], p: &'s IndexedPair) -> PlacedPair<'s> {
    (
        (&shapes[p.a as usize], &p.a_pose),
        (&shapes[p.b as usize], &p.b_pose),
    )
}
