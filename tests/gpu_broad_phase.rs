//! The GPU broad phase finds exactly the CPU grid's candidate pairs on the stress scene's boxes, on OpenGL and
//! Vulkan (llvmpipe and lavapipe on a machine without a GPU), and a pair buffer too small for a frame's pairs is
//! reported as an overflow with the size it needed, then grown so that the next frame answers the full set.
//! Without any adapter these tests say they were skipped, except under `CI=true`, where a missing adapter
//! fails the run.

mod common;

use common::gpu::{backend_contexts, exclusive};
use glam::Vec3;
use gpu_gjk::broad_phase::{grid_pairs, world_aabbs, Aabb};
use gpu_gjk::gpu::broad::GpuBroadPhase;
use gpu_gjk::scenario::stress::{StressScene, StressSpec};
use gpu_gjk::shape::ConvexShape;

/// The boxes of the seeded stress scene of `bodies` bodies, after `steps` frames of motion.
fn stress_boxes(bodies: usize, seed: u64, steps: usize) -> Vec<Aabb> {
    let templates = vec![
        ConvexShape::cuboid(Vec3::new(1.0, 0.5, 0.25)).unwrap(),
        ConvexShape::sphere(1.0).unwrap(),
        ConvexShape::cone(1.0, 1.0, 16).unwrap(),
        ConvexShape::cylinder(0.3, 1.0, 16).unwrap(),
    ];
    let mut scene = StressScene::new(
        templates,
        StressSpec {
            seed,
            bodies,
            ..StressSpec::default()
        },
    )
    .unwrap();
    for _ in 0..steps {
        scene.step(1.0 / 30.0);
    }
    world_aabbs(&scene.shapes, &scene.instances())
}

#[test]
fn gpu_pairs_equal_the_cpu_grid_on_seeded_stress_scenes() {
    let contexts = backend_contexts();
    let _guard = exclusive();
    for (name, ctx) in contexts {
        let mut broad = GpuBroadPhase::new(&ctx.device, &ctx.queue);
        for (bodies, seed, steps) in [
            (2_000, 1, 0),
            (2_000, 7, 20),
            (20_000, 3, 0),
            (20_000, 4, 5),
        ] {
            let boxes = stress_boxes(bodies, seed, steps);
            let expected = grid_pairs(&boxes);
            assert!(expected.len() > bodies / 2, "{} pairs", expected.len());
            // The first run may overflow the starting buffer; the grown one then holds every pair.
            let (mut pairs, mut status) = broad.find_pairs(&boxes).unwrap();
            if status.overflowed() {
                (pairs, status) = broad.find_pairs(&boxes).unwrap();
            }
            assert!(!status.overflowed(), "{name}: {status:?}");
            assert_eq!(
                status.found as usize,
                expected.len(),
                "{name}, {bodies} bodies"
            );
            assert!(pairs.iter().all(|[i, j]| i < j));
            assert_eq!(
                status.dispatch,
                [status.stored.div_ceil(64), 1, 1],
                "{name}"
            );
            assert_eq!(pairs, expected, "{name}, {bodies} bodies, seed {seed}");
        }
        // Fewer boxes than before, one box, none: the buffers made for more serve.
        for count in [5, 1, 0] {
            let boxes = stress_boxes(2_000, 1, 0)[..count].to_vec();
            assert_eq!(
                broad.find_pairs(&boxes).unwrap().0,
                grid_pairs(&boxes),
                "{name}, {count} boxes"
            );
        }
    }
}

#[test]
fn an_overflow_is_reported_with_the_needed_size_and_the_next_frame_holds_every_pair() {
    let contexts = backend_contexts();
    let _guard = exclusive();
    let boxes = stress_boxes(2_000, 2, 0);
    let expected = grid_pairs(&boxes);
    for (name, ctx) in contexts {
        let mut broad = GpuBroadPhase::with_capacity(&ctx.device, &ctx.queue, 16);
        let (cut, status) = broad.find_pairs(&boxes).unwrap();
        assert!(status.overflowed(), "{name}: {status:?}");
        assert_eq!(
            status.found as usize,
            expected.len(),
            "{name}: the count keeps counting"
        );
        assert_eq!((status.stored, status.capacity), (16, 16));
        assert_eq!(cut.len(), 16);
        assert_eq!(
            status.dispatch,
            [1, 1, 1],
            "{name}: the dispatch covers the stored pairs only"
        );
        assert!(
            cut.iter().all(|p| expected.binary_search(p).is_ok()),
            "{name}"
        );
        assert_eq!(broad.overflows(), 1);
        assert!(broad.pair_capacity() >= status.found);
        let (pairs, status) = broad.find_pairs(&boxes).unwrap();
        assert!(!status.overflowed(), "{name}: {status:?}");
        assert_eq!(pairs, expected, "{name}");
        assert_eq!(broad.overflows(), 1);
    }
}

#[test]
fn boxes_no_grid_holds_are_refused_naming_the_box() {
    let contexts = backend_contexts();
    let _guard = exclusive();
    let mut boxes = stress_boxes(100, 1, 0);
    boxes[42].min.z = f32::NAN;
    for (name, ctx) in contexts {
        let mut broad = GpuBroadPhase::new(&ctx.device, &ctx.queue);
        let error = broad.find_pairs(&boxes).unwrap_err().to_string();
        assert!(
            error.contains("box 42") && error.contains("not finite"),
            "{name}: {error}"
        );
    }
}

#[test]
fn a_sample_of_slots_reads_back_those_pairs_alone_at_any_scene_size() {
    use gpu_gjk::gpu::broad::sample::PAIR_BYTES;
    let contexts = backend_contexts();
    let _guard = exclusive();
    for (name, ctx) in contexts {
        let mut broad = GpuBroadPhase::new(&ctx.device, &ctx.queue);
        for bodies in [2_000, 8_000] {
            let boxes = stress_boxes(bodies, 5, 3);
            let mut status = broad.run(&boxes).unwrap();
            if status.overflowed() {
                status = broad.run(&boxes).unwrap();
            }
            let all = broad.read_pairs(status.stored).unwrap();
            // Spread slots, a run of consecutive ones (copied as one), the first and the last, out of order.
            let last = status.stored - 1;
            let mut slots: Vec<u32> = (0..40).map(|k| k * (last / 40)).collect();
            slots.extend(100..110);
            slots.extend([last, 0, 7]);
            let sample = broad.read_pair_sample(&status, &slots).unwrap();
            assert_eq!(sample.len(), slots.len(), "{name}, {bodies} bodies");
            assert_eq!(
                sample.len() as u64 * PAIR_BYTES,
                53 * 8,
                "the bytes read back do not grow with the scene"
            );
            for (pair, &slot) in sample.iter().zip(&slots) {
                assert_eq!(*pair, all[slot as usize], "{name}, slot {slot}");
            }
            assert!(broad.read_pair_sample(&status, &[]).unwrap().is_empty());
            let error = broad
                .read_pair_sample(&status, &[3, status.stored])
                .unwrap_err()
                .to_string();
            assert!(
                error.contains(&format!("slot {}", status.stored)) && error.contains("entry 1"),
                "{name}: {error}"
            );
        }
    }
}

/// The narrow phase reads the broad phase's pairs where they lie: the bodies' marks are those of the same pairs
/// sent from the host, and no per-pair byte comes back.
#[test]
fn the_narrow_phase_fed_on_the_device_marks_the_bodies_as_the_host_fed_one() {
    use gpu_gjk::gjk::{GjkConfig, QueryKind};
    use gpu_gjk::gpu::layout::GpuResult;
    use gpu_gjk::gpu::{NarrowPhase, MARK_COLLIDING};
    let contexts = backend_contexts();
    let _guard = exclusive();
    let bodies = 2_000;
    let templates = vec![
        ConvexShape::cuboid(Vec3::new(1.0, 0.5, 0.25)).unwrap(),
        ConvexShape::sphere(1.0).unwrap(),
        ConvexShape::cone(1.0, 1.0, 16).unwrap(),
    ];
    let scene = StressScene::new(
        templates,
        StressSpec {
            seed: 9,
            bodies,
            ..StressSpec::default()
        },
    )
    .unwrap();
    let instances = scene.instances();
    let boxes = world_aabbs(&scene.shapes, &instances);
    let slots: Vec<u32> = (0..bodies as u32).rev().collect();
    let config = GjkConfig::default();
    for (name, ctx) in contexts {
        let mut broad = GpuBroadPhase::new(&ctx.device, &ctx.queue);
        let mut status = broad.run(&boxes).unwrap();
        if status.overflowed() {
            status = broad.run(&boxes).unwrap();
        }
        let count = status.stored as usize;
        let mut narrow = NarrowPhase::new(&ctx.device, &ctx.queue);
        narrow.upload_hulls(&scene.shapes).unwrap();
        narrow.set_instances(&instances).unwrap();
        narrow.set_body_slots(&slots).unwrap();
        for kind in [QueryKind::Intersection, QueryKind::Distance] {
            let host_pairs = broad.read_pairs(status.stored).unwrap();
            let host_records: Vec<GpuResult> = narrow
                .full_results_marked(&host_pairs, kind, &config, &[])
                .unwrap()
                .0
                .records
                .to_vec();
            let host_marks = narrow.body_marks().unwrap().read().unwrap();
            let (pairs, _) = broad.buffers().unwrap();
            // Spread pairs, a run, the first and the last: their records come back, nothing else.
            let mut sample: Vec<u32> = (0..30).map(|k| k * (count as u32 / 31) + 3).collect();
            sample.extend([0, 1, 2, count as u32 - 1]);
            sample.sort_unstable();
            let (submitted, marked) = narrow
                .submit_marked_from_device(pairs, count, kind, &config, &[], &sample)
                .unwrap();
            assert!(marked, "{name}");
            let collected = narrow.collect_marked().unwrap().unwrap();
            assert!(collected.records.is_empty());
            let collected = collected.timings;
            // Timestamps at most (16 bytes a chunk): no record, no pair.
            let down = submitted.bytes_down + collected.bytes_down;
            assert!(
                down <= 16 * u64::from(submitted.chunks),
                "{name}: {down} bytes"
            );
            assert!(
                submitted.bytes_up < 1024 * u64::from(submitted.chunks),
                "{name}"
            );
            let sampled = narrow.read_record_sample().unwrap();
            assert_eq!(sampled.len(), sample.len());
            for (record, &k) in sampled.iter().zip(&sample) {
                assert_eq!(
                    bytemuck::bytes_of(record),
                    bytemuck::bytes_of(&host_records[k as usize]),
                    "{name}, {kind:?}, pair {k}"
                );
            }
            let device_marks = narrow.body_marks().unwrap().read().unwrap();
            let colliding = device_marks
                .iter()
                .filter(|&&m| m & MARK_COLLIDING != 0)
                .count();
            assert!(colliding > bodies / 10, "{name}: {colliding} colliding");
            assert_eq!(device_marks, host_marks, "{name}, {kind:?}");
        }
        // A count past the buffer is refused.
        let (pairs, _) = broad.buffers().unwrap();
        let too_many = (pairs.size() / 8 + 1) as usize;
        let error = narrow
            .submit_marked_from_device(pairs, too_many, QueryKind::Intersection, &config, &[], &[])
            .unwrap_err()
            .to_string();
        assert!(
            error.contains(&format!("{too_many} pairs")),
            "{name}: {error}"
        );
    }
}
