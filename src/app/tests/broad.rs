//! The demo's frame with the GPU broad phase: the pairs the narrow phase and the check get are the CPU grid's,
//! the bus traffic is what the broad phase says it moves, an overflow is counted and loses no pair, and a
//! sampled check answers a fixed number of pairs per frame with no disagreement.

use super::{context, exclusive, gpu_broad_simulation};
use crate::app::broad::FrameBroadPhase;
use crate::app::check_sample::CheckPairs;
use crate::app::sim::Simulation;
use crate::broad_phase::grid_pairs;
use crate::gpu::broad::GpuBroadPhase;
use crate::gpu::{GpuContext, NarrowPhase};

fn simulation(ctx: &GpuContext, bodies: usize) -> Simulation {
    gpu_broad_simulation(ctx, 21, bodies, NarrowPhase::new(&ctx.device, &ctx.queue))
}

#[test]
fn the_gpu_broad_phase_feeds_the_frame_the_cpu_grids_pairs() {
    let Some(ctx) = context() else { return };
    let _guard = exclusive();
    let mut sim = simulation(ctx, 1500);
    for _ in 0..4 {
        let stats = sim.step(1.0 / 60.0).unwrap().clone();
        let pairs = sim.data.pairs.len() as u64;
        assert_eq!(*sim.data.pairs, grid_pairs(&sim.data.boxes));
        assert!(stats.broad.on_gpu && pairs > 500, "{stats:?}");
        assert_eq!(stats.broad.bytes_up, 32 * 1500 + 32);
        assert_eq!(stats.broad.bytes_down, 16 + 8 * pairs);
        assert_eq!(stats.broad.overflows, 0);
        assert!(
            stats.bytes_down > stats.broad.bytes_down,
            "the narrow phase reads back too"
        );
        assert_eq!(stats.disagreements, 0);
    }
    // A pair buffer of 8 pairs: the first frame overflows, is counted, and still gets every pair.
    sim.broad = FrameBroadPhase::from_gpu(GpuBroadPhase::with_capacity(&ctx.device, &ctx.queue, 8));
    let first = sim.step(1.0 / 60.0).unwrap().clone();
    assert_eq!(first.broad.overflows, 1, "{first:?}");
    assert_eq!(first.broad.submissions, 3);
    assert_eq!(*sim.data.pairs, grid_pairs(&sim.data.boxes));
    let second = sim.step(1.0 / 60.0).unwrap().clone();
    assert_eq!(second.broad.overflows, 0, "{second:?}");
    assert_eq!(*sim.data.pairs, grid_pairs(&sim.data.boxes));
}

#[test]
fn a_sampled_check_answers_a_fixed_number_of_pairs_and_agrees() {
    let Some(ctx) = context() else { return };
    let _guard = exclusive();
    let mut sim = simulation(ctx, 2000);
    sim.check_pairs = CheckPairs::Sample { size: 64, seed: 3 };
    let mut candidates = 0;
    for frame in 1..=5u64 {
        let stats = sim.step(1.0 / 60.0).unwrap().clone();
        candidates += stats.candidate_pairs as u64;
        assert!(stats.checked);
        assert_eq!(sim.totals.frames_checked, frame);
    }
    let totals = &sim.totals;
    assert!(candidates > 5 * 500);
    // 64 per frame, plus any pair the GPU named a failure.
    assert_eq!(
        totals.pairs_checked,
        5 * 64 + totals.gpu_failures,
        "{totals:?}"
    );
    assert_eq!(totals.disagreements, 0, "{totals:?}");
    assert!(sim.check_description().contains("a sample of 64 pairs"));
}

/// Headless frames with the sampled check read back the pair count, the sample's pairs and their records, and
/// nothing else: the same bytes at any scene size.
#[test]
fn pairs_left_on_the_device_read_back_the_same_bytes_at_any_scene_size() {
    let Some(ctx) = context() else { return };
    let _guard = exclusive();
    let mut per_frame = Vec::new();
    for bodies in [2_000, 8_000] {
        let mut sim = simulation(ctx, bodies);
        sim.check_pairs = CheckPairs::Sample { size: 64, seed: 3 };
        sim.answers_wanted = false;
        for _ in 0..3 {
            let stats = sim.step(1.0 / 60.0).unwrap().clone();
            assert!(stats.marked_on_gpu && stats.checked, "{stats:?}");
            assert!(stats.candidate_pairs > bodies / 2, "{stats:?}");
            let listed = stats.gpu_failures as u64;
            let checked = sim.data.pairs.len() as u64;
            assert!((64..=64 + listed).contains(&checked));
            // The count (16), 64 sampled pairs (8 each) and their records (48 each), the poses of every checked
            // pair's bodies (2 x 32 each: the bodies move on the GPU), the failure list's header (16) and its
            // entries (64 each), and the 16-byte timestamp slot of each chunk's readback.
            let chunks = u64::from(stats.submissions) - 6 - u64::from(listed > 0);
            let fixed = 16 + 64 * 56 + 64 * checked + 16 + 64 * listed;
            assert!(
                stats.bytes_down >= fixed && stats.bytes_down <= fixed + 16 * chunks.max(1),
                "{bodies} bodies: {stats:?}"
            );
            per_frame.push(stats.bytes_down - 64 * listed - 64 * (checked - 64));
        }
        assert!(sim.totals.pairs_checked <= 3 * 64 + sim.totals.gpu_failures);
        assert!(sim.totals.pairs_checked >= 3 * 64, "{:?}", sim.totals);
        assert_eq!(sim.totals.disagreements, 0, "{:?}", sim.totals);
        assert!(sim.check_description().contains("stay on the GPU"));
        let marks = sim.read_marks().unwrap().unwrap();
        assert!(marks.iter().any(|&m| m & crate::gpu::MARK_COLLIDING != 0));
    }
    assert!(
        per_frame.iter().all(|&b| b == per_frame[0] && b <= 1 << 20),
        "{per_frame:?}"
    );
}

/// A flipped GPU answer among the sampled pairs is caught by the check.
#[test]
#[cfg(debug_assertions)]
fn a_flipped_answer_left_on_the_device_is_caught_when_sampled() {
    let Some(ctx) = context() else { return };
    let _guard = exclusive();
    let mut sim = simulation(ctx, 2_000);
    sim.check_pairs = CheckPairs::Sample { size: 64, seed: 3 };
    sim.answers_wanted = false;
    sim.flip_gpu_answers = 3;
    let stats = sim.step(1.0 / 60.0).unwrap().clone();
    assert!(stats.checked, "{stats:?}");
    assert_eq!(stats.disagreements, 3, "{stats:?}");
    assert_eq!(sim.data.disputed_pairs.len(), 3);
}
