//! `query --backend gpu` (JSON Lines, columnar files and the Python module): the batch's shape list (each
//! shape once: the JSON reader's listing cache, or a shapes table) goes up as hulls, each with one instance at the origin that every pair with that shape as A shares, and each
//! pair adds one instance: B at its pose relative to A, formed in float64 here, so the GPU computes in the
//! pair-local frame without losing the precision of far-away world coordinates. A pair is then 40 bytes on
//! the way up (one 32-byte instance and two indices). The kernel is the one `kind` needs (no EPA for
//! `distance`, GJK's early exit for `intersection`), and the answers come back in A's frame and go to world
//! coordinates in float64, exactly as on the CPU path. The host's per-pair work (relative poses, world
//! answers) runs on the executor's threads.

use super::answer::PairAnswer;
use super::exec::Executor;
use crate::epa::Penetration;
use crate::gjk::{GjkConfig, GjkResult};
use crate::gpu::{GpuContext, GpuTimings};
use crate::instance::{Instance, Pair};
use crate::pose::{CentredPose, Pose, RelativePose};
use crate::query::{AnswerKind, WorldPenetration, WorldResult};
use crate::shape::ConvexShape;

/// One pair as a batch runs it: two indices into a shape list and the shapes' world poses (each shape's
/// centre kept apart from its pose), whichever reader made it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IndexedPair {
    pub a: u32,
    pub b: u32,
    pub a_pose: CentredPose,
    pub b_pose: CentredPose,
}

/// The instances and index pairs of a batch: instance `s` is shape `s` at the origin (every pair's A), and
/// instance `shapes + k` is pair `k`'s B at its pose relative to A.
fn pair_instances(
    shapes: usize,
    pairs: &[IndexedPair],
    exec: &Executor,
) -> (Vec<Instance>, Vec<Pair>) {
    let mut instances: Vec<Instance> = (0..shapes as u32)
        .map(|shape| Instance {
            shape,
            pose: Pose::IDENTITY,
        })
        .collect();
    instances.reserve(pairs.len());
    exec.map_into(
        pairs,
        |pair| {
            let relative = RelativePose::<f32>::between_centred(&pair.a_pose, &pair.b_pose);
            Instance {
                shape: pair.b,
                pose: Pose::new(relative.position, relative.rotation),
            }
        },
        &mut instances,
    );
    let first = shapes as u32;
    let indices = pairs
        .iter()
        .zip(first..)
        .map(|(pair, b)| [pair.a, b])
        .collect();
    (instances, indices)
}

/// A GPU batch's answers, in each pair's local frame (A's), failures answered again on the CPU.
pub struct GpuLocalAnswers {
    pub results: Vec<GjkResult<f32>>,
    /// The penetration answers, for [`AnswerKind::Penetration`].
    pub penetrations: Option<Vec<Penetration<f32>>>,
    /// The batch's upload, kernels and readback.
    pub timings: GpuTimings,
}

impl GpuLocalAnswers {
    /// Pair `k`'s answer in world coordinates, `pair` being pair `k`.
    #[inline]
    pub fn world(&self, k: usize, pair: &IndexedPair) -> PairAnswer {
        let frame = pair.a_pose.folded();
        (
            WorldResult::from_local(&self.results[k], &frame),
            self.penetrations
                .as_ref()
                .map(|hits| WorldPenetration::from_local(&hits[k], &frame)),
        )
    }
}

/// Runs pairs that index `shapes` (all indices valid) on the GPU. `kind` picks the kernels: the penetration
/// kernels (GJK, then EPA on overlapping pairs), or GJK alone in distance or intersection mode; the answers
/// have `kind`'s fields, as on the CPU.
pub fn run_indexed_gpu(
    ctx: &GpuContext,
    shapes: &[ConvexShape],
    pairs: &[IndexedPair],
    kind: AnswerKind,
    exec: &Executor,
) -> anyhow::Result<GpuLocalAnswers> {
    let (instances, indices) = pair_instances(shapes.len(), pairs, exec);
    let config = GjkConfig::default();
    // The GPU has no float64 to repeat a pair whose float32 answer failed (a few per million): those few
    // are answered on the CPU, so both backends give the same quality of answer.
    if kind == AnswerKind::Penetration {
        let mut batch = ctx.with_narrow_phase(|narrow| {
            narrow.upload_hulls(shapes)?;
            narrow.run_penetration(&instances, &indices, &config)
        })?;
        batch.resolve_failures_on_cpu(shapes, &instances, &indices, &config);
        return Ok(GpuLocalAnswers {
            results: batch.results,
            penetrations: Some(batch.penetrations),
            timings: batch.timings,
        });
    }
    let gjk_kind = kind.gjk_kind();
    let mut batch = ctx.with_narrow_phase(|narrow| {
        narrow.upload_hulls(shapes)?;
        narrow.run(&instances, &indices, gjk_kind, &config)
    })?;
    batch.resolve_failures_on_cpu(shapes, &instances, &indices, gjk_kind, &config);
    Ok(GpuLocalAnswers {
        results: batch.results,
        penetrations: None,
        timings: batch.timings,
    })
}

/// Runs pairs that index `shapes` on the GPU (`run_indexed_gpu`); returns every answer in world
/// coordinates, in order, and the batch time (upload, compute, readback). A JSON Lines batch comes here
/// with the shape list its reader kept ([`crate::io::jsonl::ShapeCache::listing`]), each shape once.
pub fn answer_indexed_gpu(
    ctx: &GpuContext,
    shapes: &[ConvexShape],
    pairs: &[IndexedPair],
    kind: AnswerKind,
    exec: &Executor,
) -> anyhow::Result<(Vec<PairAnswer>, f64)> {
    let local = run_indexed_gpu(ctx, shapes, pairs, kind, exec)?;
    let answers = exec.map_range(pairs.len(), |k| local.world(k, &pairs[k]));
    Ok((answers, local.timings.total_s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::Threads;
    use crate::pose::DPose;
    use glam::{DQuat, DVec3};

    /// A shape centred at its frame's origin.
    fn at(pose: DPose) -> CentredPose {
        CentredPose::new(pose, DVec3::ZERO)
    }

    /// Each shape has one instance at the origin, shared by the pairs with that shape as A; each pair adds
    /// B at its float64 relative pose, so a pair far from the origin keeps its millimetres.
    #[test]
    fn pairs_share_their_a_instance_and_carry_b_relative_to_a() {
        let far = DVec3::new(1.0e6, -2.0e6, 3.0e6);
        let turn = DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2);
        let pairs = [
            IndexedPair {
                a: 1,
                b: 0,
                a_pose: at(DPose {
                    position: far,
                    rotation: turn,
                }),
                b_pose: at(DPose {
                    position: far + DVec3::new(0.001, 0.0, 0.0),
                    rotation: turn,
                }),
            },
            IndexedPair {
                a: 1,
                b: 2,
                a_pose: at(DPose::IDENTITY),
                b_pose: at(DPose {
                    position: DVec3::new(0.0, 2.0, 0.0),
                    rotation: DQuat::IDENTITY,
                }),
            },
        ];
        let exec = Executor::new(Threads::Count(2)).unwrap();
        let (instances, indices) = pair_instances(3, &pairs, &exec);
        assert_eq!(indices, vec![[1, 3], [1, 4]]);
        assert_eq!(instances.len(), 5);
        for (s, instance) in instances[..3].iter().enumerate() {
            assert_eq!(instance.shape, s as u32);
            assert_eq!(instance.pose, Pose::IDENTITY);
        }
        assert_eq!(instances[3].shape, 0);
        assert_eq!(instances[4].shape, 2);
        // 1 mm along world x is 1 mm along A's -y after A's quarter turn about z.
        let first = instances[3].pose.position;
        assert!(
            (first - glam::Vec3::new(0.0, -0.001, 0.0)).length() < 1e-9,
            "{first}"
        );
        assert!(
            instances[3]
                .pose
                .rotation
                .angle_between(glam::Quat::IDENTITY)
                < 1e-6
        );
        assert_eq!(instances[4].pose.position, glam::Vec3::new(0.0, 2.0, 0.0));
    }
}
