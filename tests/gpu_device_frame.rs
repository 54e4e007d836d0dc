//! A batch whose pairs stay on the device dispatches each chunk from the pair count on the device: the indirect
//! dispatch each chunk's first pass writes equals its CPU twin for counts at and around the chunk boundaries and
//! past the buffer, the workgroups go in rows past a (test-sized) dimension limit, and the kernels answer every
//! stored pair exactly once (each of them collides, so the colliding count the device returns is the pair count).
//! On OpenGL and Vulkan (llvmpipe and lavapipe on a machine without a GPU).

mod common;

use common::gpu::{backend_contexts, exclusive};
use glam::Vec3;
use gpu_gjk::gjk::{GjkConfig, QueryKind};
use gpu_gjk::gpu::device_frame::dispatch::chunk_dispatch;
use gpu_gjk::gpu::{ChunkLimits, DevicePairs, NarrowPhase, DEFAULT_MAX_WORK_PER_CHUNK};
use gpu_gjk::instance::Instance;
use gpu_gjk::pose::Pose;
use gpu_gjk::shape::ConvexShape;

/// Most workgroups a row: small, so a chunk of ten workgroups needs four rows.
const MAX_GROUPS: u32 = 3;

#[test]
fn each_chunk_dispatches_what_the_count_on_the_device_leaves_it() {
    let _guard = exclusive();
    for (name, ctx) in backend_contexts() {
        let limits = ChunkLimits {
            max_pairs_per_chunk: 640,
            max_work_per_chunk: DEFAULT_MAX_WORK_PER_CHUNK,
        };
        let mut narrow = NarrowPhase::with_limits(&ctx.device, &ctx.queue, limits);
        narrow.set_max_dispatch_groups(MAX_GROUPS);
        narrow
            .upload_hulls(&[ConvexShape::cuboid(Vec3::ONE).unwrap()])
            .unwrap();
        let body = Instance {
            shape: 0,
            pose: Pose::IDENTITY,
        };
        let instances = [body, body];
        narrow.set_instances(&instances).unwrap();
        narrow.set_body_slots(&[0, 1]).unwrap();
        let chunk = narrow.device_chunk_pairs();
        assert_eq!(chunk, 640, "{name}");
        let capacity = 4 * chunk;
        let storage = |label, bytes, usage| {
            ctx.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | usage,
                mapped_at_creation: false,
            })
        };
        let pairs = storage(
            "pairs",
            u64::from(capacity) * 8,
            wgpu::BufferUsages::COPY_SRC,
        );
        let one_pair: Vec<[u32; 2]> = vec![[0, 1]; capacity as usize];
        ctx.queue
            .write_buffer(&pairs, 0, bytemuck::cast_slice(&one_pair));
        let count = storage("count", 16, wgpu::BufferUsages::COPY_SRC);
        let config = GjkConfig::default();
        for found in [
            0,
            1,
            chunk - 1,
            chunk,
            chunk + 1,
            3 * chunk + 5,
            capacity,
            5 * chunk,
        ] {
            ctx.queue
                .write_buffer(&count, 0, bytemuck::cast_slice(&[found, 0, 0, 0]));
            let on_device = DevicePairs {
                pairs: &pairs,
                count: &count,
                capacity,
            };
            let (_, marked) = narrow
                .submit_marked_from_device(on_device, QueryKind::Intersection, &config, &[], None)
                .unwrap();
            assert!(marked, "{name}");
            narrow.collect_marked().unwrap();
            let frames = narrow.collect_device_frames(true).unwrap();
            let expected: Vec<_> = (0..4)
                .map(|c| chunk_dispatch(found, capacity, c * chunk, chunk, MAX_GROUPS))
                .collect();
            assert_eq!(
                narrow.read_chunk_dispatches().unwrap(),
                expected,
                "{name}: {found} found"
            );
            let frame = &frames[0];
            assert_eq!(frame.found, found, "{name}");
            assert_eq!(frame.overflowed(), found > capacity, "{name}");
            assert_eq!(
                frame.colliding,
                found.min(capacity),
                "{name}: {found} found"
            );
            assert_eq!(frame.failures.count, 0, "{name}");
            assert!(frame.sample.is_none(), "{name}");
        }
        // Readbacks not waited for queue up and come back in order, none lost: an overflow is seen a frame late.
        for found in [capacity + 1, 7] {
            ctx.queue
                .write_buffer(&count, 0, bytemuck::cast_slice(&[found, 0, 0, 0]));
            let on_device = DevicePairs {
                pairs: &pairs,
                count: &count,
                capacity,
            };
            narrow
                .submit_marked_from_device(on_device, QueryKind::Intersection, &config, &[], None)
                .unwrap();
        }
        let frames = narrow.collect_device_frames(true).unwrap();
        let found: Vec<(u32, bool)> = frames.iter().map(|f| (f.found, f.overflowed())).collect();
        assert_eq!(found, [(capacity + 1, true), (7, false)], "{name}");
        assert_eq!(frames[1].blocking_waits, 1, "{name}");
    }
}
