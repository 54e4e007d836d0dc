//! Many pairs at once on the CPU: the same data layout the GPU narrow phase uploads (shapes, instances with
//! poses, candidate pairs of instance indices), run on all cores with rayon or on one thread.

use crate::gjk::{query_relative, GjkConfig, GjkResult, QueryKind};
use crate::pose::{Pose, RelativePose};
use crate::shape::ConvexShape;
use rayon::prelude::*;

/// One placed body: which shape, and where.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Instance {
    pub shape: u32,
    pub pose: Pose,
}

/// How many CPU threads a batch may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Threads {
    /// One thread, no rayon: the single-thread reference figure.
    Single,
    /// Rayon's global pool (all cores, or `RAYON_NUM_THREADS`).
    #[default]
    All,
    /// A dedicated pool of this many threads.
    Count(usize),
}

/// Errors in the batch's index data, naming the offending entry.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum BatchError {
    #[error("instance {instance} refers to shape {shape}, but there are only {shapes} shapes")]
    BadShapeIndex {
        instance: usize,
        shape: u32,
        shapes: usize,
    },
    #[error("pair {pair} refers to instance {index}, but there are only {instances} instances")]
    BadInstanceIndex {
        pair: usize,
        index: u32,
        instances: usize,
    },
    #[error("could not build a pool of {0} threads")]
    ThreadPool(usize),
}

/// Checks every index, so the query loop itself cannot fail.
pub fn validate(
    shapes: &[ConvexShape],
    instances: &[Instance],
    pairs: &[[u32; 2]],
) -> Result<(), BatchError> {
    for (i, inst) in instances.iter().enumerate() {
        if inst.shape as usize >= shapes.len() {
            return Err(BatchError::BadShapeIndex {
                instance: i,
                shape: inst.shape,
                shapes: shapes.len(),
            });
        }
    }
    for (p, pair) in pairs.iter().enumerate() {
        for &index in pair {
            if index as usize >= instances.len() {
                return Err(BatchError::BadInstanceIndex {
                    pair: p,
                    index,
                    instances: instances.len(),
                });
            }
        }
    }
    Ok(())
}

fn one_pair(
    shapes: &[ConvexShape],
    instances: &[Instance],
    pair: [u32; 2],
    kind: QueryKind,
    config: &GjkConfig,
) -> GjkResult<f32> {
    let ia = &instances[pair[0] as usize];
    let ib = &instances[pair[1] as usize];
    let relative = RelativePose::between_f32(&ia.pose, &ib.pose);
    query_relative(
        &shapes[ia.shape as usize],
        &shapes[ib.shape as usize],
        &relative,
        kind,
        config,
    )
}

/// Runs every pair; results are in pair order and in each pair's local frame (A's frame).
pub fn query_batch(
    shapes: &[ConvexShape],
    instances: &[Instance],
    pairs: &[[u32; 2]],
    kind: QueryKind,
    config: &GjkConfig,
    threads: Threads,
) -> Result<Vec<GjkResult<f32>>, BatchError> {
    validate(shapes, instances, pairs)?;
    let run = |pair: &[u32; 2]| one_pair(shapes, instances, *pair, kind, config);
    Ok(match threads {
        Threads::Single => pairs.iter().map(run).collect(),
        Threads::All => pairs.par_iter().with_min_len(64).map(run).collect(),
        Threads::Count(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build()
            .map_err(|_| BatchError::ThreadPool(n))?
            .install(|| pairs.par_iter().with_min_len(64).map(run).collect()),
    })
}
