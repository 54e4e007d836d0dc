//! Many pairs at once on the CPU: the same data layout the GPU narrow phase uploads (shapes, instances with
//! poses, candidate pairs of instance indices), run on all cores with rayon or on one thread.

use crate::epa::Penetration;
use crate::gjk::{GjkConfig, GjkResult, QueryKind};
use crate::instance::{check_indices, IndexError, Instance, Pair};
use crate::pose::RelativePose;
use crate::query::{answer_relative, penetration_relative, query_relative, AnswerKind, WarmStart};
use crate::shape::ConvexShape;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

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

/// Maps every item (a pair, or a pair with its warm start) in order on the requested threads, collecting
/// into `C` (a `Vec`, or a pair of `Vec`s filled by unzipping).
fn map_pairs<I, T, C, F>(items: &[I], threads: Threads, run: F) -> Result<C, BatchError>
where
    I: Sync,
    T: Send,
    C: FromIterator<T> + rayon::iter::FromParallelIterator<T> + Send,
    F: Fn(&I) -> T + Sync + Send,
{
    Ok(match threads {
        Threads::Single => items.iter().map(run).collect(),
        Threads::All => items.par_iter().with_min_len(64).map(run).collect(),
        Threads::Count(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build()
            .map_err(|_| BatchError::ThreadPool(n))?
            .install(|| items.par_iter().with_min_len(64).map(run).collect()),
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

/// Per-pair warm starts kept across frames, keyed by the pair's instance indices (in the spirit of Box2D's
/// `b2SimplexCache`): a pair seen again starts GJK along its last separating direction and its hull walks at
/// their last vertices. Pairs absent from a frame are dropped, so the cache holds only the current candidates.
///
/// Two maps take turns: each frame's warm starts go into the map the frame before last used, emptied but
/// with its room kept, so a steady stream of frames allocates nothing. The keys (two indices in one `u64`)
/// are hashed by FxHash, one multiplication. Measured on the demo's pairs (`benches/warm_start_demo.rs`, a
/// quiet machine): warm frames took 0.906-0.914 of the cold time with these maps, 0.916-0.922 with the
/// SipHash map rebuilt every frame that they replace.
#[derive(Clone, Debug, Default)]
pub struct WarmCache {
    entries: FxHashMap<u64, WarmStart>,
    /// The other map, empty, kept for its room.
    spare: FxHashMap<u64, WarmStart>,
}

impl WarmCache {
    /// Pairs remembered.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The warm start of `pair`: a cold one when it was not in the last frame.
    fn start(&self, pair: [u32; 2]) -> WarmStart {
        self.entries
            .get(&pair_key(pair))
            .copied()
            .unwrap_or_default()
    }

    /// Keeps `starts` (one per pair of `pairs`) for the next frame, and forgets the rest.
    fn replace(&mut self, pairs: &[[u32; 2]], starts: Vec<WarmStart>) {
        let mut next = std::mem::take(&mut self.spare);
        next.clear();
        next.extend(pairs.iter().zip(starts).map(|(&p, w)| (pair_key(p), w)));
        self.spare = std::mem::replace(&mut self.entries, next);
    }
}

/// A pair's two instance indices as one map key.
fn pair_key([a, b]: [u32; 2]) -> u64 {
    (u64::from(a) << 32) | u64::from(b)
}

/// [`query_batch`] with warm starts from `cache`, which is then updated with this frame's pairs (and forgets
/// the others). The answers are within the same tolerances as cold ones; `iterations` shows the saving.
pub fn query_batch_warm(
    shapes: &[ConvexShape],
    instances: &[Instance],
    pairs: &[[u32; 2]],
    kind: QueryKind,
    config: &GjkConfig,
    threads: Threads,
    cache: &mut WarmCache,
) -> Result<Vec<GjkResult<f32>>, BatchError> {
    validate(shapes, instances, pairs)?;
    let kind = match kind {
        QueryKind::Intersection => AnswerKind::Intersection,
        QueryKind::Distance => AnswerKind::Distance,
    };
    let known: &WarmCache = cache;
    let (results, starts): (Vec<GjkResult<f32>>, Vec<WarmStart>) =
        map_pairs(pairs, threads, |&pair| {
            let (a, b, relative) = pair_parts(shapes, instances, pair);
            let mut warm = known.start(pair);
            let (result, _) = answer_relative(a, b, &relative, kind, config, Some(&mut warm));
            (result, warm)
        })?;
    cache.replace(pairs, starts);
    Ok(results)
}

/// GJK's distance answers and the penetration answers, one of each per pair.
pub(crate) type PenetrationResults = (Vec<GjkResult<f32>>, Vec<Penetration<f32>>);

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

    fn scale_of(shapes: &[ConvexShape], instances: &[Instance], [ia, ib]: [u32; 2]) -> f32 {
        crate::gjk::pair_scale(
            shapes[instances[ia as usize].shape as usize].bounding_radius(),
            shapes[instances[ib as usize].shape as usize].bounding_radius(),
        )
    }

    /// The scene's instances moved on by `frame` small steps: each instance drifts and turns a little, as
    /// bodies do between two frames of a simulation.
    fn advance(instances: &[Instance], frame: usize) -> Vec<Instance> {
        instances
            .iter()
            .enumerate()
            .map(|(k, instance)| {
                let t = frame as f32;
                let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
                let drift = glam::Vec3::new(0.011, -0.007, 0.005) * (sign * t);
                let turn = glam::Quat::from_axis_angle(
                    glam::Vec3::new(1.0, k as f32 % 3.0, 0.5).normalize(),
                    0.02 * t,
                );
                let mut moved = *instance;
                moved.pose.position += drift;
                moved.pose.rotation = (turn * instance.pose.rotation).normalize();
                moved
            })
            .collect()
    }

    #[test]
    fn warm_starts_answer_as_cold_ones_in_fewer_iterations() {
        let mix = MixSpec {
            scale: (0.5, 2.0),
            ..MixSpec::default()
        };
        let scene = random_scene(11, 400, &mix);
        let config = GjkConfig::default();
        for kind in [QueryKind::Distance, QueryKind::Intersection] {
            let mut cache = WarmCache::default();
            let (mut cold_iterations, mut warm_iterations) = (0u64, 0u64);
            for frame in 0..6 {
                let instances = advance(&scene.instances, frame);
                let cold = query_batch(
                    &scene.shapes,
                    &instances,
                    &scene.pairs,
                    kind,
                    &config,
                    Threads::Single,
                )
                .unwrap();
                let warm = query_batch_warm(
                    &scene.shapes,
                    &instances,
                    &scene.pairs,
                    kind,
                    &config,
                    Threads::All,
                    &mut cache,
                )
                .unwrap();
                assert_eq!(cache.len(), scene.pairs.len());
                if frame == 0 {
                    // An empty cache is a cold start, answer for answer.
                    assert_eq!(warm, cold, "{kind:?}");
                    continue;
                }
                for (k, (w, c)) in warm.iter().zip(&cold).enumerate() {
                    let scale = scale_of(&scene.shapes, &instances, scene.pairs[k]);
                    let near_contact = c.distance.min(w.distance) < 1e-4 * scale;
                    assert!(
                        w.intersecting == c.intersecting || near_contact,
                        "{kind:?} frame {frame} pair {k}: warm {w:?} cold {c:?}"
                    );
                    if kind == QueryKind::Distance {
                        assert!(
                            (w.distance - c.distance).abs() <= 2e-6 * scale,
                            "{kind:?} frame {frame} pair {k}: warm {} cold {} (scale {scale})",
                            w.distance,
                            c.distance
                        );
                    }
                    cold_iterations += u64::from(c.iterations);
                    warm_iterations += u64::from(w.iterations);
                }
            }
            eprintln!("{kind:?}: iterations cold {cold_iterations}, warm {warm_iterations}");
            // Distance queries start along last frame's separating direction (measured 6,150 cold against
            // 5,701 warm iterations here); intersection queries keep only the hull walks' vertices (which save
            // work per support call, not iterations), so they must at least not lose.
            let fewer = match kind {
                QueryKind::Distance => warm_iterations < cold_iterations,
                QueryKind::Intersection => warm_iterations <= cold_iterations,
            };
            assert!(
                fewer,
                "{kind:?}: warm {warm_iterations} iterations, cold {cold_iterations}"
            );
        }
    }

    /// Pairs that leave the candidate list leave the cache; a pair's entry follows the pair, not its position.
    #[test]
    fn the_warm_cache_keeps_only_this_frames_pairs() {
        let scene = random_scene(5, 50, &MixSpec::default());
        let config = GjkConfig::default();
        let mut cache = WarmCache::default();
        let kind = QueryKind::Distance;
        let run = |pairs: &[[u32; 2]], cache: &mut WarmCache| {
            query_batch_warm(
                &scene.shapes,
                &scene.instances,
                pairs,
                kind,
                &config,
                Threads::Single,
                cache,
            )
            .unwrap()
        };
        run(&scene.pairs, &mut cache);
        assert_eq!(cache.len(), 50);
        let mut fewer: Vec<[u32; 2]> = scene.pairs[..20].to_vec();
        fewer.reverse();
        let warm = run(&fewer, &mut cache);
        assert_eq!(cache.len(), 20);
        let cold = query_batch(
            &scene.shapes,
            &scene.instances,
            &fewer,
            kind,
            &config,
            Threads::Single,
        )
        .unwrap();
        for ((w, c), pair) in warm.iter().zip(&cold).zip(&fewer) {
            let scale = scale_of(&scene.shapes, &scene.instances, *pair);
            assert_eq!(w.intersecting, c.intersecting);
            assert!((w.distance - c.distance).abs() <= 2e-6 * scale);
        }
        assert!(query_batch_warm(
            &scene.shapes,
            &scene.instances,
            &[[0, 999]],
            kind,
            &config,
            Threads::Single,
            &mut cache,
        )
        .is_err());
        assert_eq!(
            cache.len(),
            20,
            "a rejected batch leaves the cache as it was"
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
