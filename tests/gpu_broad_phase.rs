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

/// A narrow phase fed on the device answers the broad phase's pairs where they lie, dispatched from the count on
/// the device: the same marks as the host-fed one, the records of the sample the device draws at the slots its
/// CPU twin names, with the poses the GPU answered them on, and the colliding pairs counted; one readback, one
/// wait. Chunks of 1,000 pairs with at most 3 workgroups a row run every chunk as rows, and answer the same.
#[test]
fn the_narrow_phase_fed_on_the_device_marks_the_bodies_as_the_host_fed_one() {
    use gpu_gjk::gjk::{GjkConfig, GjkStatus, QueryKind};
    use gpu_gjk::gpu::device_frame::sample::sample_slots;
    use gpu_gjk::gpu::layout::GpuResult;
    use gpu_gjk::gpu::{ChunkLimits, DevicePairs, NarrowPhase, SampleDraw, MARK_COLLIDING};
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
        let host_pairs = broad.read_pairs(status.stored).unwrap();
        for rows in [false, true] {
            let mut narrow = if rows {
                let limits = ChunkLimits {
                    max_pairs_per_chunk: 1_000,
                    ..NarrowPhase::new(&ctx.device, &ctx.queue).limits()
                };
                let mut narrow = NarrowPhase::with_limits(&ctx.device, &ctx.queue, limits);
                narrow.set_max_dispatch_groups(3);
                narrow
            } else {
                NarrowPhase::new(&ctx.device, &ctx.queue)
            };
            narrow.upload_hulls(&scene.shapes).unwrap();
            narrow.set_instances(&instances).unwrap();
            narrow.set_body_slots(&slots).unwrap();
            for kind in [QueryKind::Intersection, QueryKind::Distance] {
                let host_records: Vec<GpuResult> = narrow
                    .full_results_marked(&host_pairs, kind, &config, &[])
                    .unwrap()
                    .0
                    .records
                    .to_vec();
                let host_marks = narrow.body_marks().unwrap().read().unwrap();
                let (pairs, count) = broad.buffers().unwrap();
                let on_device = DevicePairs {
                    pairs,
                    count,
                    capacity: status.capacity,
                };
                let draw = SampleDraw {
                    size: 34,
                    seed: 7,
                    frame: 3,
                };
                let (submitted, marked) = narrow
                    .submit_marked_from_device(on_device, kind, &config, &[], Some(draw))
                    .unwrap();
                assert!(marked, "{name}");
                let collected = narrow.collect_marked().unwrap().unwrap();
                assert!(collected.records.is_empty());
                let collected = collected.timings;
                // Timestamps at most (16 bytes a chunk): no record, no pair, and no wait for a count.
                let down = submitted.bytes_down + collected.bytes_down;
                assert!(
                    down <= 16 * u64::from(submitted.chunks),
                    "{name}: {down} bytes"
                );
                assert!(
                    submitted.bytes_up < 1024 * u64::from(submitted.chunks),
                    "{name}"
                );
                let frames = narrow.collect_device_frames(true).unwrap();
                assert_eq!(frames.len(), 1, "{name}");
                let frame = &frames[0];
                assert_eq!(
                    (frame.found, frame.blocking_waits),
                    (status.found, 1),
                    "{name}"
                );
                let host_colliding = host_records
                    .iter()
                    .filter(|r| r.to_result().status == GjkStatus::Intersecting)
                    .count();
                assert_eq!(frame.colliding as usize, host_colliding, "{name}, {kind:?}");
                let sample = frame.sample.as_ref().expect("a sampled frame");
                let drawn = sample_slots(7, 3, 34, status.stored);
                assert_eq!(sample.len(), drawn.len(), "{name}");
                for (entry, &slot) in sample.iter().zip(&drawn) {
                    let [a, b] = host_pairs[slot as usize];
                    assert_eq!(entry.pair, [a, b], "{name}, slot {slot}");
                    assert_eq!(
                        bytemuck::bytes_of(&entry.record),
                        bytemuck::bytes_of(&host_records[slot as usize]),
                        "{name}, {kind:?}, slot {slot}"
                    );
                    let poses = [instances[a as usize].pose, instances[b as usize].pose];
                    assert_eq!(entry.poses, poses, "{name}, slot {slot}");
                }
                let device_marks = narrow.body_marks().unwrap().read().unwrap();
                let colliding = device_marks
                    .iter()
                    .filter(|&&m| m & MARK_COLLIDING != 0)
                    .count();
                assert!(colliding > bodies / 10, "{name}: {colliding} colliding");
                assert_eq!(device_marks, host_marks, "{name}, {kind:?}, rows {rows}");
                if rows {
                    let dispatches = narrow.read_chunk_dispatches().unwrap();
                    assert!(dispatches.iter().any(|d| d.groups[1] > 1), "{dispatches:?}");
                }
            }
        }
        // A capacity past the buffer is refused.
        let mut narrow = NarrowPhase::new(&ctx.device, &ctx.queue);
        narrow.upload_hulls(&scene.shapes).unwrap();
        narrow.set_instances(&instances).unwrap();
        narrow.set_body_slots(&slots).unwrap();
        let (pairs, count) = broad.buffers().unwrap();
        let too_many = (pairs.size() / 8 + 1) as u32;
        let on_device = DevicePairs {
            pairs,
            count,
            capacity: too_many,
        };
        let error = narrow
            .submit_marked_from_device(on_device, QueryKind::Intersection, &config, &[], None)
            .unwrap_err()
            .to_string();
        assert!(
            error.contains(&format!("{too_many} pairs")),
            "{name}: {error}"
        );
    }
}
