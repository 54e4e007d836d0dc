//! Pairs binned by work before dispatch (`NarrowPhase::set_binning`) change only the order of the work: every
//! record comes back at its pair's index with the bits it has without binning, on every adapter (OpenGL and
//! Vulkan; llvmpipe and lavapipe on a machine without a GPU). The one allowed difference is which pairs a
//! software adapter's shared loop budget cuts (`gpu_loop_limit`), since that follows who shares a group.
//! Without any adapter these tests say they were skipped, except under `CI=true`.

mod common;

use common::gpu::{backend_contexts, exclusive};
use gpu_gjk::gpu::layout::GpuResult;
use gpu_gjk::gpu::{ChunkLimits, NarrowPhase, DEFAULT_MAX_WORK_PER_CHUNK};
use gpu_gjk::scenario::{hostile_scene, random_scene, MixSpec, Scene};
use gpu_gjk::{GjkConfig, GjkStatus, QueryKind};

/// Every output of a batch as bytes per pair, by query: full GJK records of both kinds, packed distances and
/// hits, penetration in full and packed, and the counting kernel's work.
fn outputs(np: &mut NarrowPhase, scene: &Scene) -> Vec<(&'static str, Vec<Vec<u8>>)> {
    let config = GjkConfig::default();
    let per_pair =
        |bytes: &[u8], n: usize| bytes.chunks(bytes.len() / n).map(<[u8]>::to_vec).collect();
    let n = scene.pairs.len();
    np.set_instances(&scene.instances).unwrap();
    let mut all = Vec::new();
    for (name, kind) in [
        ("distance", QueryKind::Distance),
        ("intersection", QueryKind::Intersection),
    ] {
        let records = np.full_results(&scene.pairs, kind, &config).unwrap();
        all.push((name, per_pair(bytemuck::cast_slice(records.records), n)));
    }
    let distances = np.distances(&scene.pairs, &config).unwrap();
    all.push((
        "packed distance",
        per_pair(bytemuck::cast_slice(distances.records), n),
    ));
    let hits = np.hits(&scene.pairs, &config).unwrap();
    all.push((
        "packed hit",
        per_pair(bytemuck::cast_slice(hits.records), n),
    ));
    let contacts = np.contacts(&scene.pairs, &config).unwrap();
    all.push((
        "packed contact",
        per_pair(bytemuck::cast_slice(contacts.records), n),
    ));
    let full = np
        .run_penetration(&scene.instances, &scene.pairs, &config)
        .unwrap();
    all.push((
        "penetration",
        full.penetrations
            .iter()
            .map(|p| format!("{:?}", p.to_bits()).into_bytes())
            .collect(),
    ));
    let work = np
        .count_work(&scene.instances, &scene.pairs, QueryKind::Distance, &config)
        .unwrap();
    all.push((
        "work counts",
        work.iter().map(|w| format!("{w:?}").into_bytes()).collect(),
    ));
    all
}

/// Pairs cut by the loop budget in either run (their records may differ), from the full distance records.
fn loop_cut(binned: &[Vec<u8>], unbinned: &[Vec<u8>]) -> Vec<bool> {
    let cut = |bytes: &Vec<u8>| {
        bytemuck::pod_read_unaligned::<GpuResult>(bytes)
            .to_result()
            .status
            == GjkStatus::GpuLoopLimit
    };
    binned
        .iter()
        .zip(unbinned)
        .map(|(a, b)| cut(a) || cut(b))
        .collect()
}

/// Runs `scene` binned and unbinned on each adapter, with `limits` (small ones split the binned batch into
/// chunks), and compares every output pair by pair; returns the loop-cut pairs seen per backend.
fn compare(scene: &Scene, limits: Option<ChunkLimits>) -> Vec<usize> {
    let _guard = exclusive();
    let mut cut_counts = Vec::new();
    for (backend, ctx) in backend_contexts() {
        let mut np = match limits {
            Some(l) => NarrowPhase::with_limits(&ctx.device, &ctx.queue, l),
            None => NarrowPhase::new(&ctx.device, &ctx.queue),
        };
        np.upload_hulls(&scene.shapes).unwrap();
        assert!(np.binning(), "binning is on by default");
        np.set_instances(&scene.instances).unwrap();
        let order = np.dispatch_order(&scene.pairs);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert!(
            sorted.iter().copied().eq(0..scene.pairs.len() as u32),
            "a permutation"
        );
        assert!(
            order.iter().copied().ne(0..scene.pairs.len() as u32),
            "{backend}: the mixed batch is reordered"
        );
        let binned = outputs(&mut np, scene);
        np.set_binning(false);
        let unbinned_order = np.dispatch_order(&scene.pairs);
        assert!(unbinned_order
            .iter()
            .copied()
            .eq(0..scene.pairs.len() as u32));
        let unbinned = outputs(&mut np, scene);
        let cut = loop_cut(&binned[0].1, &unbinned[0].1);
        for ((name, a), (_, b)) in binned.iter().zip(&unbinned) {
            let differing: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i] && !cut[i]).collect();
            assert!(
                differing.is_empty(),
                "{backend}: {name} records differ binned and unbinned on {} pairs, e.g. pair {}",
                differing.len(),
                differing[0]
            );
        }
        let cut = cut.iter().filter(|&&c| c).count();
        eprintln!(
            "{backend}: {} pairs equal binned and unbinned ({cut} loop-cut)",
            scene.pairs.len()
        );
        cut_counts.push(cut);
    }
    cut_counts
}

/// The default mix (every shape kind, hulls of 8 to 64 points): no pair near the loop budget, so every bit of
/// every output is the same binned and unbinned.
#[test]
fn binned_batches_keep_every_bit_on_the_default_mix() {
    let scene = random_scene(1, 3000, &MixSpec::default());
    for cut in compare(&scene, None) {
        assert_eq!(cut, 0, "the default mix never reaches the loop budget");
    }
}

/// Small chunks: the binned order is split across dispatches and restored across chunks.
#[test]
fn binned_batches_keep_every_bit_across_chunks() {
    let scene = random_scene(7, 1500, &MixSpec::default());
    let limits = ChunkLimits {
        max_pairs_per_chunk: 200,
        max_work_per_chunk: DEFAULT_MAX_WORK_PER_CHUNK,
    };
    compare(&scene, Some(limits));
}

/// The hostile set (thin, flat, huge, tiny, far, identical and nested shapes in both orders, round hulls of
/// hundreds of points): equal except where a software adapter's loop budget cuts a pair.
#[test]
fn binned_batches_keep_every_bit_on_the_hostile_set() {
    compare(&hostile_scene(6), None);
}
