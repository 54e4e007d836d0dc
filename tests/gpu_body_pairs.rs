//! One body's pairs listed on the device (`shaders/body_pairs.wgsl`) equal a CPU filter of the same pair list: a
//! body with no pair, one, many (some written `[j, i]`), more than the list holds (the rest counted), a count word
//! below the buffer (the slots past it are not pairs) and above it (a broad phase that overflowed), and pairs
//! past the invocations' first stride; with each partner's pose and the body's own as the instance records hold
//! them. A body past the scene is refused with a message naming it. On OpenGL and Vulkan (llvmpipe and lavapipe
//! on a machine without a GPU); skipped without an adapter, except under `CI=true`.

mod common;

use common::gpu::{backend_contexts, exclusive};
use glam::{Quat, Vec3};
use gpu_gjk::gpu::body_pairs::{BodyPairs, BodyPairsSource, FoundPairs};
use gpu_gjk::pose::Pose;
use std::collections::BTreeSet;
use wgpu::util::DeviceExt;

const BODIES: u32 = 1_000;

/// The pose of body `i`: distinct positions and turns, so a pose read from the wrong record shows.
fn pose(i: u32) -> Pose {
    let f = i as f32;
    Pose::new(
        Vec3::new(f, -2.0 * f, 0.5 * f + 1e-3),
        Quat::from_rotation_y(0.001 * f).normalize(),
    )
}

/// The instance records (position, hull, rotation), as the narrow phase holds them.
fn instance_words() -> Vec<u32> {
    (0..BODIES)
        .flat_map(|i| {
            let p = pose(i);
            let r = p.rotation.to_array();
            [
                p.position.x.to_bits(),
                p.position.y.to_bits(),
                p.position.z.to_bits(),
                i % 7,
                r[0].to_bits(),
                r[1].to_bits(),
                r[2].to_bits(),
                r[3].to_bits(),
            ]
        })
        .collect()
}

/// A seeded pair list: random pairs of the other bodies (some twice), with body 3 in one pair, body 7 in 40 (every
/// third one written `[j, i]`), body 11 in 200, some of them far down the list, and body 5 in none.
fn pair_list(len: usize) -> Vec<[u32; 2]> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |n: u32| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) % u64::from(n)) as u32
    };
    let special = [3, 5, 7, 11];
    let mut pairs = Vec::with_capacity(len);
    while pairs.len() < len {
        let (a, b) = (next(BODIES), next(BODIES));
        if a != b && !special.contains(&a) && !special.contains(&b) {
            pairs.push([a.min(b), a.max(b)]);
        }
    }
    let mut at = |k: usize, pair: [u32; 2]| {
        let slot = (k * 7_919 + 13) % len;
        pairs[slot] = pair;
    };
    at(0, [3, 500]);
    for k in 0..40u32 {
        let other = 100 + k;
        at(
            1 + k as usize,
            if k % 3 == 0 { [other, 7] } else { [7, other] },
        );
    }
    for k in 0..200u32 {
        at(100 + k as usize, [11, 300 + k]);
    }
    pairs
}

struct Buffers {
    pairs: wgpu::Buffer,
    count: wgpu::Buffer,
    instances: wgpu::Buffer,
}

fn buffers(device: &wgpu::Device, pairs: &[[u32; 2]], count: u32) -> Buffers {
    let storage = |label, contents: &[u8]| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents,
            usage: wgpu::BufferUsages::STORAGE,
        })
    };
    Buffers {
        pairs: storage("test pairs", bytemuck::cast_slice(pairs)),
        count: storage("test pair count", bytemuck::cast_slice(&[count, 0, 0, 0])),
        instances: storage("test instances", bytemuck::cast_slice(&instance_words())),
    }
}

fn find(scan: &BodyPairs, b: &Buffers, body: u32) -> FoundPairs {
    let source = BodyPairsSource {
        pairs: &b.pairs,
        count: &b.count,
        instances: &b.instances,
        bodies: BODIES,
    };
    scan.find(source, body).unwrap()
}

/// The slots of `body`'s pairs among the first `count` of `pairs` (a random list may hold a pair twice: each
/// slot is listed), with each pair written `i < j`.
fn cpu_filter(pairs: &[[u32; 2]], count: usize, body: u32) -> BTreeSet<(u32, [u32; 2])> {
    pairs[..count.min(pairs.len())]
        .iter()
        .enumerate()
        .filter(|(_, p)| p.contains(&body))
        .map(|(slot, &[a, b])| (slot as u32, [a.min(b), a.max(b)]))
        .collect()
}

/// The listed slots and pairs (each `i < j`): each slot once, its pair the buffer's, each partner's pose its
/// record's.
fn listed(found: &FoundPairs, pairs: &[[u32; 2]]) -> BTreeSet<(u32, [u32; 2])> {
    let body = found.body;
    assert_eq!(found.pose, pose(body), "body {body}'s own pose");
    let mut set = BTreeSet::new();
    for p in &found.pairs {
        assert_eq!(pairs[p.slot as usize], p.pair, "slot {}", p.slot);
        assert_eq!(p.partner_pose, pose(p.partner(body)), "{:?}", p.pair);
        let [a, b] = p.pair;
        assert!(set.insert((p.slot, [a.min(b), a.max(b)])));
    }
    set
}

#[test]
fn a_bodys_pairs_listed_on_the_device_are_the_cpu_filters() {
    let contexts = backend_contexts();
    let _guard = exclusive();
    for (name, ctx) in contexts {
        let (device, queue) = (&ctx.device, &ctx.queue);
        // More pairs than one stride of the scan's invocations (1,024 workgroups of 64).
        let pairs = pair_list(200_000);
        // Room for the random bodies' pairs, about 400 each.
        let scan = BodyPairs::new(device, queue, 600);
        let whole = buffers(device, &pairs, pairs.len() as u32);
        for body in [5, 3, 7, 11, 0, 999] {
            let found = find(&scan, &whole, body);
            let want = cpu_filter(&pairs, pairs.len(), body);
            assert_eq!(found.found as usize, want.len(), "{name}: body {body}");
            assert_eq!(found.overflow(), 0, "{name}: body {body}");
            assert_eq!(listed(&found, &pairs), want, "{name}: body {body}");
            assert_eq!(found.scanned as usize, pairs.len(), "{name}");
            assert_eq!(found.bytes_down, scan.readback_bytes(), "{name}");
        }
        assert_eq!(find(&scan, &whole, 5).pairs.len(), 0);
        assert_eq!(find(&scan, &whole, 3).pairs.len(), 1);
        assert_eq!(find(&scan, &whole, 11).pairs.len(), 200);

        // A count below the buffer: the slots past it are not read.
        let count = 120_000;
        let partial = buffers(device, &pairs, count as u32);
        for body in [7, 11] {
            let found = find(&scan, &partial, body);
            let want = cpu_filter(&pairs, count, body);
            assert!(want.len() < cpu_filter(&pairs, pairs.len(), body).len());
            assert_eq!(listed(&found, &pairs), want, "{name}: body {body}");
            assert_eq!(found.scanned as usize, count, "{name}");
        }
        // A count past the buffer (an overflowed broad phase): the buffer's pairs are scanned.
        let over = buffers(device, &pairs, 3_000_000);
        let found = find(&scan, &over, 7);
        assert_eq!(found.scanned as usize, pairs.len(), "{name}");
        assert_eq!(listed(&found, &pairs), cpu_filter(&pairs, pairs.len(), 7));
    }
}

#[test]
fn pairs_beyond_the_lists_capacity_are_counted_and_a_body_past_the_scene_is_refused() {
    let contexts = backend_contexts();
    let _guard = exclusive();
    for (name, ctx) in contexts {
        let (device, queue) = (&ctx.device, &ctx.queue);
        let pairs = pair_list(5_000);
        let b = buffers(device, &pairs, pairs.len() as u32);
        let small = BodyPairs::new(device, queue, 8);
        let found = find(&small, &b, 11);
        assert_eq!(found.found, 200, "{name}");
        assert_eq!(found.pairs.len(), 8, "{name}");
        assert_eq!(found.overflow(), 192, "{name}");
        let got = listed(&found, &pairs);
        assert!(
            got.is_subset(&cpu_filter(&pairs, pairs.len(), 11)),
            "{name}"
        );
        // The readback is the list's fixed size, whatever the body has.
        assert_eq!(found.bytes_down, small.readback_bytes());
        assert_eq!(find(&small, &b, 5).bytes_down, small.readback_bytes());

        let source = BodyPairsSource {
            pairs: &b.pairs,
            count: &b.count,
            instances: &b.instances,
            bodies: BODIES,
        };
        let error = small.find(source, BODIES).unwrap_err().to_string();
        assert!(
            error.contains("body 1000") && error.contains("1000 bodies"),
            "{name}: {error}"
        );
        // Instance records that do not cover the bodies named.
        let short = BodyPairsSource {
            bodies: BODIES + 10,
            ..source
        };
        let error = small.find(short, 3).unwrap_err().to_string();
        assert!(error.contains("1010 bodies"), "{name}: {error}");
    }
}
