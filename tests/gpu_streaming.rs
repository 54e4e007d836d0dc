//! The throughput pipeline: a resident scene whose batches send only their pairs, a ring of chunks with one
//! submission each and a blocking wait only when the ring is full and at the end, and compact records that
//! convert to the full answers. On OpenGL and Vulkan (llvmpipe and lavapipe without a GPU).

mod common;

use common::gpu::{backend_contexts, exclusive};
use gpu_gjk::gpu::{GpuContext, GpuLimits, NarrowPhase, PackedDistance, PackedHit};
use gpu_gjk::scenario::{random_scene, MixSpec, Scene};
use gpu_gjk::{GjkConfig, GjkStatus, Instance, Pose, QueryKind};

/// Bytes of the settings each chunk sends ahead of its pairs.
const PARAMS: u64 = 32;
/// Bytes of the kernel timestamps each chunk reads back with its records (when the adapter has them).
const STAMPS: u64 = 16;

fn scene(pairs: usize) -> Scene {
    random_scene(77, pairs, &MixSpec::default())
}

fn narrow(ctx: &GpuContext, stream_chunk: u32, ring: usize) -> NarrowPhase {
    let limits = GpuLimits {
        stream_chunk,
        ring,
        ..GpuLimits::from_device(&ctx.device.limits())
    };
    NarrowPhase::with_gpu_limits(&ctx.device, &ctx.queue, limits)
}

#[test]
fn a_resident_scene_streams_only_pairs_one_submission_per_chunk() {
    let scene = scene(10_000);
    let config = GjkConfig::default();
    let _turn = exclusive();
    for (backend, ctx) in backend_contexts() {
        let mut np = narrow(ctx, 1024, 3);
        np.upload_hulls(&scene.shapes).unwrap();
        np.set_instances(&scene.instances).unwrap();
        np.distances(&scene.pairs[..100], &config).unwrap();
        let batch = np.distances(&scene.pairs, &config).unwrap();
        let t = batch.timings;
        let chunks = scene.pairs.len().div_ceil(1024) as u32;
        eprintln!("{backend}: {t:?}");
        assert_eq!(
            (t.chunks, t.submissions, t.groups),
            (chunks, chunks, 1),
            "{backend}"
        );
        assert!(
            t.blocking_waits <= 1 + (chunks - 3),
            "{backend}: {} waits for {chunks} chunks in a ring of 3",
            t.blocking_waits
        );
        assert!(
            t.max_in_flight >= 1 && t.max_in_flight <= 3,
            "{backend}: {t:?}"
        );
        let stamps = if np.has_timestamps() { STAMPS } else { 0 };
        let pairs = scene.pairs.len() as u64;
        // Only the pairs (and each chunk's settings) go up; 32 bytes per pair come back.
        let chunk_overhead_up = t.bytes_up - 8 * pairs;
        assert!(
            chunk_overhead_up <= u64::from(chunks) * (PARAMS + 16),
            "{backend}: {t:?}"
        );
        assert_eq!(
            t.bytes_down,
            32 * pairs + u64::from(chunks) * stamps,
            "{backend}"
        );
        if np.has_timestamps() {
            assert!(
                t.kernel_s.is_some_and(|k| k > 0.0 && k <= t.total_s),
                "{backend}: {t:?}"
            );
        }

        let hits = np.hits(&scene.pairs, &config).unwrap();
        assert_eq!(
            hits.timings.bytes_down,
            4 * pairs + u64::from(chunks) * stamps
        );
        let contacts = np.contacts(&scene.pairs, &config).unwrap();
        assert_eq!(
            contacts.timings.bytes_down,
            48 * pairs + u64::from(chunks) * (stamps + 4),
            "{backend}: 48 bytes per pair and the EPA count per chunk"
        );
    }
}

#[test]
fn moved_instances_are_updated_in_place_and_answered_as_if_set_whole() {
    let scene = scene(3000);
    let config = GjkConfig::default();
    // Every instance of the first 500 pairs moves by half a unit along x.
    let moved: Vec<Instance> = scene.instances[..1000]
        .iter()
        .map(|i| Instance {
            shape: i.shape,
            pose: Pose::new(i.pose.position + glam::Vec3::X * 0.5, i.pose.rotation),
        })
        .collect();
    let mut after = scene.instances.clone();
    after[..1000].copy_from_slice(&moved);
    let _turn = exclusive();
    for (backend, ctx) in backend_contexts() {
        let mut np = NarrowPhase::new(&ctx.device, &ctx.queue);
        np.upload_hulls(&scene.shapes).unwrap();
        np.set_instances(&scene.instances).unwrap();
        np.distances(&scene.pairs, &config).unwrap();
        np.update_instances(0, &moved).unwrap();
        let updated = np.distances(&scene.pairs, &config).unwrap();
        let t = updated.timings;
        let updated: Vec<PackedDistance> = updated.records.to_vec();
        assert!(
            t.bytes_up >= 32 * 1000 + 8 * 3000 && t.bytes_up < 32 * 1000 + 8 * 3000 + 1024,
            "{backend}: only the moved instances and the pairs go up: {t:?}"
        );
        np.set_instances(&after).unwrap();
        let whole = np.distances(&scene.pairs, &config).unwrap();
        assert_eq!(updated, whole.records, "{backend}");
        let err = np.update_instances(5990, &moved[..20]).unwrap_err();
        assert!(err.to_string().contains("5990..6010"), "{backend}: {err}");
    }
}

#[test]
fn compact_records_convert_to_the_full_answers() {
    let scene = scene(20_000);
    let config = GjkConfig::default();
    let _turn = exclusive();
    for (backend, ctx) in backend_contexts() {
        let mut np = NarrowPhase::new(&ctx.device, &ctx.queue);
        np.upload_hulls(&scene.shapes).unwrap();
        let full = np
            .run(&scene.instances, &scene.pairs, QueryKind::Distance, &config)
            .unwrap()
            .results;
        let distances = np
            .distances(&scene.pairs, &config)
            .unwrap()
            .records
            .to_vec();
        let mut largest = 0.0f32;
        for (k, (d, f)) in distances.iter().zip(&full).enumerate() {
            let r = d.to_result();
            assert_eq!(
                (
                    r.status,
                    r.intersecting,
                    r.iterations,
                    r.distance,
                    r.witness_a,
                    r.normal
                ),
                (
                    f.status,
                    f.intersecting,
                    f.iterations,
                    f.distance,
                    f.witness_a,
                    f.normal
                ),
                "{backend}: pair {k}"
            );
            if f.intersecting {
                assert_eq!(r.witness_b, f.witness_b, "{backend}: pair {k}");
            } else if f.status == GjkStatus::Separated {
                // Witness B is rebuilt as A + normal * distance: within the rounding of the coordinates.
                let size = f.witness_a.abs().max(f.witness_b.abs()).max_element() + f.distance;
                let error =
                    (r.witness_b - f.witness_b).abs().max_element() / size.max(f32::MIN_POSITIVE);
                largest = largest.max(error);
                assert!(
                    error <= 64.0 * f32::EPSILON,
                    "{backend}: pair {k}: {r:?} vs {f:?}"
                );
            }
        }
        eprintln!("{backend}: rebuilt witness B within {largest:.2e} of the coordinates' size");

        let intersection = np
            .run(
                &scene.instances,
                &scene.pairs,
                QueryKind::Intersection,
                &config,
            )
            .unwrap()
            .results;
        let hits: Vec<PackedHit> = np.hits(&scene.pairs, &config).unwrap().records.to_vec();
        for (k, (h, f)) in hits.iter().zip(&intersection).enumerate() {
            assert_eq!(
                (h.status(), h.intersecting(), h.iterations()),
                (f.status, f.intersecting, f.iterations),
                "{backend}: pair {k}"
            );
        }

        let pen = np
            .run_penetration(&scene.instances, &scene.pairs, &config)
            .unwrap();
        let contacts = np.contacts(&scene.pairs, &config).unwrap();
        assert_eq!(contacts.epa_pairs, pen.epa_pairs, "{backend}");
        for (k, c) in contacts.records.iter().enumerate() {
            let (p, q) = (c.penetration(), pen.penetrations[k]);
            let (g, f) = (c.gjk_result(), pen.results[k]);
            assert_eq!(
                (p.status, p.depth, p.normal, p.iterations),
                (q.status, q.depth, q.normal, q.iterations),
                "{backend}: pair {k}"
            );
            // Contact points mean something only where GJK found an overlap (elsewhere the full answer holds
            // A's centre, what the frame change makes of zero).
            if f.intersecting {
                assert_eq!(
                    (p.contact_a, p.contact_b),
                    (q.contact_a, q.contact_b),
                    "{backend}: pair {k}"
                );
            }
            if f.intersecting {
                assert_eq!(
                    (g.status, g.intersecting, g.iterations, g.distance),
                    (f.status, f.intersecting, f.iterations, f.distance),
                    "{backend}: pair {k}"
                );
            } else {
                assert_eq!(g, f, "{backend}: pair {k}");
            }
        }
    }
}

/// Instances are checked and converted on all threads when there are many: a shape index past the shapes
/// fails the whole set, naming the first bad instance however the work was split, and a good set after it
/// gives the answers of a narrow phase that never saw the bad one.
#[test]
fn many_instances_are_checked_and_the_first_bad_one_is_named() {
    let scene = scene(2_000);
    let config = GjkConfig::default();
    let _turn = exclusive();
    for (backend, ctx) in backend_contexts() {
        let many: Vec<Instance> = (0..100_000)
            .map(|k| scene.instances[k % scene.instances.len()])
            .collect();
        let mut bad = many.clone();
        let shapes = scene.shapes.len() as u32;
        bad[70_001].shape = shapes + 5;
        bad[40_000].shape = shapes;
        let mut np = NarrowPhase::new(&ctx.device, &ctx.queue);
        np.upload_hulls(&scene.shapes).unwrap();
        let error = np.set_instances(&bad).unwrap_err().to_string();
        assert!(
            error.contains(&format!(
                "instance 40000 refers to shape {shapes}, but there are only {shapes} shapes"
            )),
            "{backend}: {error}"
        );
        np.set_instances(&many).unwrap();
        let got: Vec<_> = np
            .distances(&scene.pairs, &config)
            .unwrap()
            .records
            .to_vec();
        let mut fresh = NarrowPhase::new(&ctx.device, &ctx.queue);
        fresh.upload_hulls(&scene.shapes).unwrap();
        fresh.set_instances(&many).unwrap();
        let want = fresh.distances(&scene.pairs, &config).unwrap().records;
        assert!(got == want, "{backend}: answers differ after a refused set");
    }
}
