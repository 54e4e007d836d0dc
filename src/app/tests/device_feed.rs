//! A scene whose bodies, each with a hull of its own, would not fit one storage binding still leaves its frames'
//! pairs on the device: bodies share their shapes (a few sizes per mesh), so the hulls go up once per mesh and
//! size, and what a frame reads back does not grow with the body count.

use super::{context, exclusive, gpu_broad_simulation};
use crate::app::check_sample::CheckPairs;
use crate::app::sim::Simulation;
use crate::gpu::device_frame::FOLDED_FAILURES;
use crate::gpu::{GpuContext, GpuLimits, NarrowPhase};

/// The vertex pool held to 8 MiB: enough for the demo's meshes at their shared sizes, far from enough for a hull
/// per body at 20,000 bodies (drawn at continuous sizes, as they were, this test fails: those frames read their
/// pairs back), as 100,000 bodies' own hulls were beyond one binding of llvmpipe.
const VERTEX_POOL: u64 = 8 << 20;

fn simulation(ctx: &GpuContext, bodies: usize) -> Simulation {
    let mut limits = GpuLimits::from_device(&ctx.device.limits());
    limits.buffers.vertex_pool = VERTEX_POOL;
    let narrow = NarrowPhase::with_gpu_limits(&ctx.device, &ctx.queue, limits);
    let mut sim = gpu_broad_simulation(ctx, 5, bodies, narrow);
    sim.check_pairs = CheckPairs::Sample { size: 64, seed: 3 };
    sim.answers_wanted = false;
    sim
}

#[test]
fn bodies_beyond_one_binding_of_their_own_hulls_leave_their_pairs_on_the_device() {
    let Some(ctx) = context() else { return };
    let _guard = exclusive();
    let mut per_frame = Vec::new();
    for bodies in [20_000, 40_000] {
        let mut sim = simulation(ctx, bodies);
        for _ in 0..2 {
            let stats = sim.step(1.0 / 60.0).unwrap().clone();
            assert!(stats.marked_on_gpu && stats.checked, "{stats:?}");
            assert!(stats.candidate_pairs > bodies, "{stats:?}");
            // Only the sample's pairs came back to the host, and any pair the GPU listed as a failure (128 bytes
            // each past the first few, which come with the sample).
            let listed = stats.gpu_failures;
            let checked = sim.data.pairs.len();
            assert!(
                (64..=64 + listed).contains(&checked),
                "{bodies} bodies: {stats:?}"
            );
            let rest = 128 * listed.saturating_sub(FOLDED_FAILURES as usize) as u64;
            // Each chunk's kernel timestamps (16 bytes, where the adapter has them): the broad phase and the
            // readback are the frame's other submissions.
            let chunks = u64::from(stats.submissions) - 2;
            let stamps = if sim.gpu_mut().has_timestamps() {
                16 * chunks
            } else {
                0
            };
            per_frame.push(stats.bytes_down - rest - stamps);
        }
        assert_eq!(sim.totals.disagreements, 0, "{:?}", sim.totals);
        assert!(sim.check_description().contains("stay on the GPU"));
    }
    assert!(
        per_frame.iter().all(|&b| b == per_frame[0]),
        "{per_frame:?}"
    );
    assert!(per_frame.iter().all(|&b| b <= 1 << 20), "{per_frame:?}");
}

/// Every pair the GPU answers with a failure status is listed on the device, read back with the sample and
/// checked, whether sampled or not; failures beyond the list's capacity are counted. One GJK iteration a pair
/// forces failures (`max_iterations`) by the thousand.
#[test]
fn every_failure_the_gpu_names_is_listed_checked_or_counted() {
    let Some(ctx) = context() else { return };
    let _guard = exclusive();
    // The reference: the same frame read back whole, every GPU answer on the host.
    let mut whole = simulation(ctx, 3_000);
    whole.answers_wanted = true;
    whole.check_pairs = CheckPairs::All;
    whole.config.max_iterations = 1;
    whole.step(1.0 / 60.0).unwrap();
    let answers = whole.data.gpu_answers.clone().expect("the GPU answered");
    let mut failing: Vec<[u32; 2]> = whole
        .data
        .pairs
        .iter()
        .zip(&answers)
        .filter(|(_, a)| a.status.is_failure())
        .map(|(&p, _)| p)
        .collect();
    failing.sort_unstable();
    assert!(failing.len() > 300, "{} failures", failing.len());
    let all = failing.len();
    for (capacity, listed) in [(2 * all as u32, all), (300, 300)] {
        let mut sim = simulation(ctx, 3_000);
        sim.config.max_iterations = 1;
        sim.gpu_mut().set_failure_capacity(capacity);
        let stats = sim.step(1.0 / 60.0).unwrap().clone();
        assert!(stats.marked_on_gpu && stats.checked, "{stats:?}");
        assert_eq!(stats.gpu_failures, failing.len(), "{stats:?}");
        let totals = &sim.totals;
        assert_eq!(totals.gpu_failures, failing.len() as u64);
        assert_eq!(totals.gpu_failures_listed, listed as u64, "{totals:?}");
        assert_eq!(
            totals.gpu_failure_list_overflow,
            (failing.len() - listed) as u64
        );
        // The check answered the sample and every listed failure (the sample holds some of them already).
        let checked = &sim.data.pairs;
        assert_eq!(totals.pairs_checked, checked.len() as u64);
        assert!(checked.len() >= listed.max(64) && checked.len() <= 64 + listed);
        let failing_checked = checked
            .iter()
            .filter(|p| failing.binary_search(p).is_ok())
            .count();
        assert!(failing_checked >= listed, "{failing_checked} of {listed}");
        assert!(sim
            .check_description()
            .contains(&format!("up to {capacity} a frame")));
    }
}

/// A frame fed on the device answers as the same frame fed from the host: the same candidate pairs, the colliding
/// pairs the GPU counted on the device are the host's count of the GPU's answers, the bodies' marks are the same,
/// and the check finds no disagreement.
#[test]
fn a_frame_fed_on_the_device_answers_as_one_fed_from_the_host() {
    use crate::gjk::GjkStatus;
    let Some(ctx) = context() else { return };
    let _guard = exclusive();
    let mut host = simulation(ctx, 3_000);
    host.answers_wanted = true;
    host.check_pairs = CheckPairs::All;
    let mut device = simulation(ctx, 3_000);
    // The same poses on both: the host's, sent up (the GPU's own motion may round differently).
    device.gpu_scene = false;
    for _ in 0..3 {
        let on_host = host.step(1.0 / 60.0).unwrap().clone();
        let on_device = device.step(1.0 / 60.0).unwrap().clone();
        assert!(
            on_device.marked_on_gpu && on_device.checked,
            "{on_device:?}"
        );
        assert!(!on_host.gpu_deferred, "{on_host:?}");
        assert_eq!(on_device.candidate_pairs, on_host.candidate_pairs);
        let answers = host.data.gpu_answers.as_ref().expect("the GPU answered");
        let colliding = answers
            .iter()
            .filter(|a| a.status == GjkStatus::Intersecting)
            .count();
        assert!(colliding > 100, "{colliding}");
        assert_eq!(on_device.colliding_pairs, colliding, "{on_device:?}");
        if on_host.gpu_failures == 0 {
            assert_eq!(device.read_marks().unwrap(), host.read_marks().unwrap());
        }
        assert_eq!(on_device.disagreements, 0, "{on_device:?}");
    }
    assert_eq!(device.totals.disagreements, 0, "{:?}", device.totals);
}
