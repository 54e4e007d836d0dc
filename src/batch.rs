//! Many pairs at once on the CPU: the same data layout the GPU narrow phase uploads (shapes, instances with
//! poses, candidate pairs of instance indices), run on all cores with rayon or on one thread.

use crate::epa::Penetration;
use crate::gjk::{GjkConfig, GjkResult, QueryKind};
use crate::instance::{check_indices, IndexError, Instance, Pair};
use crate::pose::RelativePose;
use crate::query::{penetration_relative, query_relative};
use crate::shape::ConvexShape;
use rayon::prelude::*;

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

/// What can stop a CPU batch before it starts.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum BatchError {
    /// An index refers to nothing (see [`IndexError`]).
    #[error(transparent)]
    Index(#[from] IndexError),
    #[error("could not build a pool of {0} threads")]
    ThreadPool(usize),
}

/// Checks every index, so the query loop itself cannot fail.
pub fn validate(
    shapes: &[ConvexShape],
    instances: &[Instance],
    pairs: &[Pair],
) -> Result<(), BatchError> {
    Ok(check_indices(shapes.len(), instances, pairs)?)
}

/// A pair's two shapes and B's pose relative to A, formed in float32 as the GPU forms it.
fn pair_parts<'a>(
    shapes: &'a [ConvexShape],
    instances: &[Instance],
    pair: [u32; 2],
) -> (&'a ConvexShape, &'a ConvexShape, RelativePose<f32>) {
    let ia = &instances[pair[0] as usize];
    let ib = &instances[pair[1] as usize];
    (
        &shapes[ia.shape as usize],
        &shapes[ib.shape as usize],
        RelativePose::between_f32(&ia.pose, &ib.pose),
    )
}

/// Maps every pair in order on the requested threads, collecting into `C` (a `Vec`, or a pair of `Vec`s
/// filled by unzipping).
fn map_pairs<T, C, F>(pairs: &[[u32; 2]], threads: Threads, run: F) -> Result<C, BatchError>
where
    T: Send,
    C: FromIterator<T> + rayon::iter::FromParallelIterator<T> + Send,
    F: Fn(&[u32; 2]) -> T + Sync + Send,
{
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
    map_pairs(pairs, threads, |pair| {
        query_pair(shapes, instances, *pair, kind, config)
    })
}

/// One pair of [`query_batch`] (indices already validated), in A's frame.
pub fn query_pair(
    shapes: &[ConvexShape],
    instances: &[Instance],
    pair: [u32; 2],
    kind: QueryKind,
    config: &GjkConfig,
) -> GjkResult<f32> {
    let (a, b, relative) = pair_parts(shapes, instances, pair);
    query_relative(a, b, &relative, kind, config)
}

/// GJK's distance answers and the penetration answers, one of each per pair.
pub type PenetrationResults = (Vec<GjkResult<f32>>, Vec<Penetration<f32>>);

/// Penetration depth, normal and contacts (EPA after GJK) for every pair, with GJK's distance answer
/// (the same as [`query_batch`] in distance mode); in pair order and in each pair's local frame.
pub fn penetration_batch(
    shapes: &[ConvexShape],
    instances: &[Instance],
    pairs: &[[u32; 2]],
    config: &GjkConfig,
    threads: Threads,
) -> Result<PenetrationResults, BatchError> {
    validate(shapes, instances, pairs)?;
    map_pairs(pairs, threads, |pair| {
        penetration_pair(shapes, instances, *pair, config)
    })
}

/// One pair of [`penetration_batch`] (indices already validated): GJK's distance answer and the
/// penetration answer, in A's frame.
pub fn penetration_pair(
    shapes: &[ConvexShape],
    instances: &[Instance],
    pair: [u32; 2],
    config: &GjkConfig,
) -> (GjkResult<f32>, Penetration<f32>) {
    let (a, b, relative) = pair_parts(shapes, instances, pair);
    penetration_relative(a, b, &relative, config)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{random_scene, MixSpec};

    #[test]
    fn penetration_batch_matches_one_pair_at_a_time() {
        let scene = random_scene(7, 300, &MixSpec::default());
        let config = GjkConfig::default();
        let distances = query_batch(
            &scene.shapes,
            &scene.instances,
            &scene.pairs,
            QueryKind::Distance,
            &config,
            Threads::All,
        )
        .unwrap();
        for threads in [Threads::Single, Threads::All, Threads::Count(2)] {
            let (results, hits) = penetration_batch(
                &scene.shapes,
                &scene.instances,
                &scene.pairs,
                &config,
                threads,
            )
            .unwrap();
            assert_eq!(results, distances, "{threads:?}");
            assert_eq!(hits.len(), scene.pairs.len());
            for (k, &[ia, ib]) in scene.pairs.iter().enumerate() {
                let (x, y) = (&scene.instances[ia as usize], &scene.instances[ib as usize]);
                let (result, hit) = penetration_relative(
                    &scene.shapes[x.shape as usize],
                    &scene.shapes[y.shape as usize],
                    &RelativePose::between_f32(&x.pose, &y.pose),
                    &config,
                );
                assert_eq!(
                    (results[k], hits[k]),
                    (result, hit),
                    "pair {k}, {threads:?}"
                );
            }
        }
        assert!(
            distances.iter().any(|r| r.intersecting) && distances.iter().any(|r| !r.intersecting),
            "the scene should mix overlapping and separated pairs"
        );
    }

    #[test]
    fn penetration_batch_names_a_bad_index() {
        let scene = random_scene(7, 2, &MixSpec::default());
        let err = penetration_batch(
            &scene.shapes,
            &scene.instances,
            &[[0, 99]],
            &GjkConfig::default(),
            Threads::Single,
        )
        .unwrap_err();
        assert_eq!(
            err,
            BatchError::Index(IndexError::BadInstanceIndex {
                pair: 0,
                index: 99,
                instances: scene.instances.len(),
            })
        );
    }
}
