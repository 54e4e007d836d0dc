//! What binning pairs by work does to SIMT efficiency, from the counting kernel's per-pair counts:
//! `cargo run --release --example gpu_work_bins [PAIRS [MAX_HULL_POINTS]]` (defaults 20,000 and 64).
//!
//! Counts the GJK kernel's work on `bench`'s default mix (seed 1) once, then takes SIMT efficiency over the same
//! counts in three orders: the order given, binned by work as `NarrowPhase` dispatches by default
//! (`NarrowPhase::dispatch_order`: sphere and capsule pairs, then both shapes' hull-size classes), and sorted by
//! the counts themselves (a bound no binning reaches). The order changes which pairs share a group of 32, not any
//! pair's work.
use gpu_gjk::gpu::{simt_efficiency, BackendChoice, GpuContext, NarrowPhase, PairWork};
use gpu_gjk::scenario::{random_scene, MixSpec};
use gpu_gjk::{GjkConfig, QueryKind};

fn main() {
    let mut args = std::env::args().skip(1);
    let pairs: usize = args.next().map_or(20_000, |t| t.parse().expect("PAIRS"));
    let max_points: usize = args
        .next()
        .map_or(64, |t| t.parse().expect("MAX_HULL_POINTS"));
    let mix = MixSpec {
        hull_points: (8, max_points.max(8)),
        ..MixSpec::default()
    };
    let scene = random_scene(1, pairs, &mix);
    let ctx = GpuContext::new(BackendChoice::Auto).unwrap_or_else(|e| {
        eprintln!("no GPU adapter: {e}");
        std::process::exit(2)
    });
    let mut np = NarrowPhase::new(&ctx.device, &ctx.queue);
    np.upload_hulls(&scene.shapes).expect("hulls fit");
    for kind in [QueryKind::Distance, QueryKind::Intersection] {
        let work = np
            .count_work(&scene.instances, &scene.pairs, kind, &GjkConfig::default())
            .expect("a counting batch");
        let binned: Vec<usize> = np
            .dispatch_order(&scene.pairs)
            .into_iter()
            .map(|k| k as usize)
            .collect();
        let mut oracle: Vec<usize> = (0..work.len()).collect();
        oracle.sort_by_key(|&k| (work[k].vertex_reads, work[k].gjk_steps));
        let efficiency = |order: &[usize], field: fn(&PairWork) -> u32| {
            simt_efficiency(order.iter().map(|&k| field(&work[k])))
        };
        let dispatched: Vec<usize> = (0..work.len()).collect();
        for (name, order) in [
            ("in the order given", &dispatched),
            ("binned by work", &binned),
            ("sorted by the counts", &oracle),
        ] {
            println!(
                "{kind:?}, {name}: SIMT efficiency {:.3} of GJK steps, {:.3} of support reads",
                efficiency(order, |w| w.gjk_steps),
                efficiency(order, |w| w.vertex_reads)
            );
        }
    }
}
