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

/// Headless frames with the sampled check read back one buffer: the pair count, the failure list's header and
/// first entries, and the sample's entries (pair, record and poses); nothing else, the same bytes at any scene
/// size, in one blocking wait (a second only when the GPU listed more failures than that buffer carries).
#[test]
fn pairs_left_on_the_device_read_back_the_same_bytes_at_any_scene_size() {
    use crate::gpu::device_frame::FOLDED_FAILURES;
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
            let more = listed > u64::from(FOLDED_FAILURES);
            // The count (16), the failure list's header (16) and first entries (128 each), 64 sampled entries
            // (128 each), the entries past those when listed, and the 16-byte timestamp slot of each chunk.
            let fixed = 32 + 128 * u64::from(FOLDED_FAILURES) + 64 * 128;
            let rest = if more {
                128 * (listed - u64::from(FOLDED_FAILURES))
            } else {
                0
            };
            let chunks = u64::from(stats.submissions).saturating_sub(2);
            assert!(
                stats.bytes_down >= fixed + rest
                    && stats.bytes_down <= fixed + rest + 16 * chunks.max(1),
                "{bodies} bodies: {stats:?}"
            );
            assert_eq!(stats.gpu_blocking_waits, 1 + u32::from(more), "{stats:?}");
            per_frame.push(stats.bytes_down - rest);
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

/// A frame fed on the device whose pairs outgrow the pair buffer is counted as an overflow when its count comes
/// back, with every pair found reported, and the buffer grows: the next frame holds them all.
#[test]
fn an_overflow_on_the_device_is_counted_and_the_buffer_grows() {
    let Some(ctx) = context() else { return };
    let _guard = exclusive();
    let mut sim = simulation(ctx, 2_000);
    sim.check_pairs = CheckPairs::Sample { size: 64, seed: 3 };
    sim.answers_wanted = false;
    sim.broad = FrameBroadPhase::from_gpu(GpuBroadPhase::with_capacity(&ctx.device, &ctx.queue, 8));
    let first = sim.step(1.0 / 60.0).unwrap().clone();
    assert!(first.marked_on_gpu && first.checked, "{first:?}");
    assert_eq!(first.broad.overflows, 1, "{first:?}");
    assert!(first.candidate_pairs > 500, "{first:?}");
    // The frame answered the 8 pairs that fit: its sample is those 8.
    let checked = sim.data.pairs.len();
    assert!((8..=8 + first.gpu_failures).contains(&checked), "{checked}");
    let second = sim.step(1.0 / 60.0).unwrap().clone();
    assert_eq!(second.broad.overflows, 0, "{second:?}");
    assert!(second.candidate_pairs > 500, "{second:?}");
    assert!(sim.data.pairs.len() >= 64, "{}", sim.data.pairs.len());
    assert_eq!(sim.totals.disagreements, 0, "{:?}", sim.totals);
}
