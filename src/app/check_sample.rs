//! Which of a frame's pairs the CPU check answers (`--check-pairs`): all of them, or a fixed-size seeded sample
//! plus every pair the GPU answered with a named failure status, so the check's cost does not grow with the
//! scene. The sample is drawn from the scene's seed and the frame's number: a run gives the same sample on
//! any machine, and the summary says how it was drawn.

use super::check::CheckJob;
use crate::gjk::GjkResult;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::sync::Arc;

/// Pairs a sampled check draws per checked frame unless told otherwise.
pub const DEFAULT_SAMPLE_PAIRS: usize = 1024;

/// Scenes of up to this many bodies are checked whole unless `--check-pairs` says otherwise.
pub const CHECK_ALL_UP_TO_BODIES: usize = 10_000;

/// Which pairs the CPU check answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckPairs {
    All,
    /// `size` pairs drawn without repeats from the generator seeded with `seed` and the frame number, plus
    /// the GPU's named failures.
    Sample {
        size: usize,
        seed: u64,
    },
}

impl CheckPairs {
    /// How the summary and the HUD describe it.
    pub fn describe(self) -> String {
        match self {
            CheckPairs::All => "all pairs".into(),
            CheckPairs::Sample { size, seed } => format!(
                "a sample of {size} pairs per checked frame (PCG64 seeded with {seed} and the frame number) \
                 and every pair the GPU answered with a named failure"
            ),
        }
    }

    /// The seeded draw alone: `size` distinct indices below `count`, unsorted, from the frame's number and
    /// the pair count only; `None` when everything is checked.
    pub fn draw(self, frame: u64, count: usize) -> Option<Vec<usize>> {
        let CheckPairs::Sample { size, seed } = self else {
            return None;
        };
        if size >= count {
            return None;
        }
        let mut rng = Pcg64Mcg::seed_from_u64(seed ^ frame.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        Some(rand::seq::index::sample(&mut rng, count, size).into_vec())
    }

    /// The indices of `job`'s pairs to check, sorted; `gpu` holds the GPU's answers to all of them.
    pub fn pick(self, frame: u64, gpu: &[GjkResult<f32>]) -> Option<Vec<usize>> {
        let count = gpu.len();
        let mut picked = self.draw(frame, count)?;
        picked.extend((0..count).filter(|&k| gpu[k].status.is_failure()));
        picked.sort_unstable();
        picked.dedup();
        Some(picked)
    }
}

/// The job and GPU answers restricted to the pairs `picked`.
pub fn restrict(
    job: &CheckJob,
    gpu: &[GjkResult<f32>],
    picked: &[usize],
) -> (CheckJob, Vec<GjkResult<f32>>) {
    let pairs = picked.iter().map(|&k| job.pairs[k]).collect();
    let answers = picked.iter().map(|&k| gpu[k]).collect();
    (
        CheckJob {
            frame: job.frame,
            shapes: Arc::clone(&job.shapes),
            instances: Arc::clone(&job.instances),
            pairs: Arc::new(pairs),
        },
        answers,
    )
}

/// Adds to a device-fed frame's sample (`pairs`, `gpu`) the pairs the GPU listed as failures (`failed_pairs`,
/// `failed`) that the sample does not hold already (a failure can be sampled too). Returns how many it added.
pub fn add_listed_failures(
    pairs: &mut Vec<[u32; 2]>,
    gpu: &mut Vec<GjkResult<f32>>,
    failed_pairs: &[[u32; 2]],
    failed: &[GjkResult<f32>],
) -> usize {
    let sampled: std::collections::HashSet<[u32; 2]> = pairs.iter().copied().collect();
    let before = pairs.len();
    for (&pair, &answer) in failed_pairs.iter().zip(failed) {
        if !sampled.contains(&pair) {
            pairs.push(pair);
            gpu.push(answer);
        }
    }
    pairs.len() - before
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gjk::GjkStatus;
    use glam::Vec3;

    fn answers(count: usize) -> Vec<GjkResult<f32>> {
        let answer = GjkResult {
            status: GjkStatus::Separated,
            intersecting: false,
            distance: 1.0,
            witness_a: Vec3::ZERO,
            witness_b: Vec3::X,
            normal: Vec3::X,
            iterations: 3,
        };
        vec![answer; count]
    }

    #[test]
    fn the_sample_is_seeded_fixed_in_size_and_takes_every_failure() {
        let sample = CheckPairs::Sample { size: 100, seed: 5 };
        let mut gpu = answers(50_000);
        let a = sample.pick(3, &gpu).unwrap();
        assert_eq!(a.len(), 100);
        assert!(a.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(sample.pick(3, &gpu).unwrap(), a, "the same seed and frame");
        assert_ne!(sample.pick(4, &gpu).unwrap(), a, "another frame");
        assert_ne!(
            CheckPairs::Sample { size: 100, seed: 6 }
                .pick(3, &gpu)
                .unwrap(),
            a
        );
        // The size does not grow with the pairs.
        assert_eq!(sample.pick(3, &answers(5_000_000)).unwrap().len(), 100);
        // Named failures are always checked.
        let failed = GjkStatus::ALL
            .into_iter()
            .find(|s| s.is_failure())
            .expect("a failure status");
        for k in [0, 777, 49_999] {
            gpu[k].status = failed;
        }
        let with_failures = sample.pick(3, &gpu).unwrap();
        for k in [0, 777, 49_999] {
            assert!(with_failures.binary_search(&k).is_ok());
        }
        assert!(with_failures.len() <= 103);
        // Fewer pairs than the sample, or all pairs: everything is checked.
        assert_eq!(sample.pick(3, &answers(100)), None);
        assert_eq!(CheckPairs::All.pick(3, &gpu), None);
    }

    #[test]
    fn listed_failures_join_the_sample_once() {
        let mut pairs = vec![[0, 1], [2, 3]];
        let mut gpu = answers(2);
        let mut failed = answers(2);
        for answer in &mut failed {
            answer.status = GjkStatus::GpuLoopLimit;
        }
        // [2, 3] was sampled already: only [4, 5] joins, with its own answer.
        let added = add_listed_failures(&mut pairs, &mut gpu, &[[2, 3], [4, 5]], &failed);
        assert_eq!(added, 1);
        assert_eq!(pairs, vec![[0, 1], [2, 3], [4, 5]]);
        assert_eq!(gpu[1].status, GjkStatus::Separated);
        assert_eq!(gpu[2].status, GjkStatus::GpuLoopLimit);
        assert_eq!(add_listed_failures(&mut pairs, &mut gpu, &[], &[]), 0);
    }
}
