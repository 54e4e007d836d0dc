//! A picked body on frames fed on the device: the GPU lists its pairs from the pair buffer, and they are the CPU
//! grid's pairs of that body on the CPU scene (which steps by the same rule), for the player, the body with the
//! most pairs, one with none and a spread of others, over several frames; the panel's rows are those pairs,
//! candidates, answered again by the GPU and by the CPU on the GPU's poses, alike; the readbacks count in the
//! frame's bus figures; and a frame on the host takes its pairs from its own.

use super::{context, exclusive, gpu_broad_simulation};
use crate::app::check_sample::CheckPairs;
use crate::app::selection::pair_rows;
use crate::app::sim::{PairsSource, Simulation};
use crate::broad_phase::{grid_pairs, world_aabbs};
use crate::gpu::body_pairs::DEFAULT_BODY_PAIR_CAPACITY;
use crate::gpu::NarrowPhase;
use std::collections::BTreeSet;

const BODIES: usize = 3_000;

/// The CPU grid's pairs of every body of the CPU scene, each `i < j`.
fn cpu_pairs_by_body(sim: &Simulation) -> Vec<BTreeSet<[u32; 2]>> {
    let boxes = world_aabbs(&sim.scene.shapes, &sim.scene.instances());
    let mut by_body = vec![BTreeSet::new(); sim.scene.bodies.len()];
    for [i, j] in grid_pairs(&boxes) {
        let pair = [i.min(j), i.max(j)];
        by_body[i as usize].insert(pair);
        by_body[j as usize].insert(pair);
    }
    by_body
}

#[test]
fn the_picked_bodys_pairs_listed_on_the_gpu_are_the_cpu_grids() {
    let Some(ctx) = context() else { return };
    let _guard = exclusive();
    let mut sim = gpu_broad_simulation(ctx, 5, BODIES, NarrowPhase::new(&ctx.device, &ctx.queue));
    sim.scene.make_player(0);
    sim.check_pairs = CheckPairs::Sample { size: 32, seed: 9 };
    sim.answers_wanted = false;
    sim.picked = Some(0);
    let mut compared = 0;
    let mut answered = 0;
    for frame in 0..6 {
        let stats = sim.step(1.0 / 60.0).unwrap().clone();
        assert!(
            stats.marked_on_gpu,
            "frame {frame}: fed on the device: {stats:?}"
        );
        let cpu = cpu_pairs_by_body(&sim);
        let most = (0..BODIES).max_by_key(|&b| cpu[b].len()).unwrap() as u32;
        let none = (0..BODIES).find(|&b| cpu[b].is_empty()).unwrap() as u32;
        assert!(
            cpu[most as usize].len() >= 4,
            "{}",
            cpu[most as usize].len()
        );
        for body in [0, most, none, 1, 997, 2_999] {
            let relists = sim.data.picked_pairs.as_ref().map(|p| p.body) != Some(body);
            let before = sim.last.clone();
            sim.set_picked(Some(body)).unwrap();
            let after = sim.last.clone();
            let listed = sim.data.picked_pairs.clone().expect("a list");
            assert_eq!(listed.body, body);
            assert_eq!(listed.not_listed, 0);
            let gpu: BTreeSet<[u32; 2]> = listed.pairs.iter().copied().collect();
            assert_eq!(gpu.len(), listed.pairs.len(), "each pair once");
            assert_eq!(gpu, cpu[body as usize], "frame {frame}, body {body}");
            assert_eq!(sim.data.pairs_source(body), PairsSource::Gpu);
            // A fixed readback for the list and 48 bytes a listed pair for its answers (with at most a
            // timestamp pair), in the frame's bus figures (the list of the body picked during the step was read
            // in it).
            if relists {
                let list = 16 + 32 + 48 * u64::from(DEFAULT_BODY_PAIR_CAPACITY);
                let answers = 48 * listed.pairs.len() as u64;
                let down = after.bytes_down - before.bytes_down;
                assert!(
                    (list + answers..=list + answers + 16).contains(&down),
                    "frame {frame}, body {body}: {down} bytes down for {} pairs",
                    listed.pairs.len()
                );
                assert!(after.gpu_blocking_waits > before.gpu_blocking_waits);
            }
            // The panel's rows: those pairs, candidates, each with the GPU's answer, which is the CPU's on the
            // same poses outside the touching band.
            assert_eq!(listed.gpu_answers.len(), listed.pairs.len());
            let rows = pair_rows(&sim.scene, &sim.data, body, sim.kind, &sim.config);
            let shown: BTreeSet<[u32; 2]> = rows.iter().map(|r| r.pair).collect();
            assert_eq!(shown, gpu);
            for row in &rows {
                let answer = row.gpu.expect("the GPU answered every listed pair");
                assert!(row.candidate);
                assert!(
                    answer.intersecting == row.cpu.intersecting || row.cpu.distance < 1e-4,
                    "frame {frame}, pair {:?}: GPU {answer:?}, CPU {:?}",
                    row.pair,
                    row.cpu
                );
            }
            answered += rows.len();
            compared += 1;
        }
        sim.set_picked(Some(0)).unwrap();
    }
    // The inspector's GPU answer on a frame fed on the device: on the poses left there, the same bits as with
    // the frame's instances (the GPU's poses for the picked body and its partners) sent up again.
    let picked = sim.data.picked_pairs.clone().expect("a list");
    let pair = *picked.pairs.first().expect("the player has pairs");
    let resident = sim.gpu_penetration(pair).unwrap();
    sim.pairs_on_device = false;
    let uploaded = sim.gpu_penetration(pair).unwrap();
    sim.pairs_on_device = true;
    assert_eq!(resident, uploaded, "pair {pair:?}");
    assert_eq!(compared, 36);
    assert!(answered > 36, "{answered} rows answered");
    assert_eq!(sim.totals.disagreements, 0, "{:?}", sim.totals);

    // A frame on the host: every pair came back, and the rows read them with the GPU's answers.
    sim.answers_wanted = true;
    sim.step(1.0 / 60.0).unwrap();
    assert!(sim.data.picked_pairs.is_none());
    assert_eq!(sim.data.pairs_source(0), PairsSource::Host);
    let rows = pair_rows(&sim.scene, &sim.data, 0, sim.kind, &sim.config);
    let shown: BTreeSet<[u32; 2]> = rows.iter().map(|r| r.pair).collect();
    assert_eq!(shown, cpu_pairs_by_body(&sim)[0]);
    assert!(rows.iter().all(|r| r.gpu.is_some()));
}
