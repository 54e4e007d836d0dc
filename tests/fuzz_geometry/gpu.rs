//! The GPU fuzz test: batches of pairs from every generator through the GPU on every backend (distance, then
//! penetration), the GPU's failures answered again on the CPU, and every answer held to the CPU's and to the
//! exact answer pair by pair.

use crate::answers::{Answer, Pen};
use crate::checks::{check_answer, check_penetration, excess};
use crate::generators::any_case;
use crate::model::Case;
use crate::runner::fuzz;
use crate::truth::Truth;
use crate::{common, BAND, DEPTH};
use gpu_gjk::batch::{penetration_pair, query_pair};
use gpu_gjk::epa::PenetrationStatus;
use gpu_gjk::gpu::NarrowPhase;
use gpu_gjk::{GjkConfig, Instance, QueryKind};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;

/// Largest number of generated cases in one GPU batch (each case gives 2 pairs, 4 with a twin).
const GPU_BATCH: usize = 400;

/// Runs a batch of generated pairs through the GPU (distance, then penetration), answers its failures again
/// on the CPU, and requires the CPU's flag and distance (and the exact answer's) pair by pair.
pub(crate) fn check_gpu_batch(
    backend: &str,
    np: &mut NarrowPhase,
    cases: &[Case],
    failures: &Mutex<BTreeMap<String, u64>>,
) -> Result<(), String> {
    let config = GjkConfig::default();
    let list: Vec<&Case> = cases
        .iter()
        .flat_map(|c| std::iter::once(c).chain(c.twin.as_deref()))
        .collect();
    let mut shapes = Vec::new();
    let mut instances = Vec::new();
    let mut pairs = Vec::new();
    for (k, c) in list.iter().enumerate() {
        let k = k as u32;
        shapes.extend([c.a.shape.clone(), c.b.shape.clone()]);
        instances.push(Instance {
            shape: 2 * k,
            pose: c.pose_a.to_f32(),
        });
        instances.push(Instance {
            shape: 2 * k + 1,
            pose: c.pose_b.to_f32(),
        });
        pairs.extend([[2 * k, 2 * k + 1], [2 * k + 1, 2 * k]]);
    }
    let e = |e: gpu_gjk::gpu::GpuError| format!("{backend}: {e}\n");
    np.upload_hulls(&shapes).map_err(e)?;
    let mut dist = np
        .run(&instances, &pairs, QueryKind::Distance, &config)
        .map_err(e)?;
    let mut pen = np.run_penetration(&instances, &pairs, &config).map_err(e)?;
    {
        let mut f = failures.lock().unwrap_or_else(|e| e.into_inner());
        for r in &dist.results {
            if r.status.is_failure() {
                *f.entry(format!("{backend} distance: {}", r.status.name()))
                    .or_default() += 1;
            }
        }
        for p in &pen.penetrations {
            if p.status.is_failure() {
                *f.entry(format!("{backend} penetration: {}", p.status.name()))
                    .or_default() += 1;
            }
        }
    }
    dist.resolve_failures_on_cpu(&shapes, &instances, &pairs, QueryKind::Distance, &config);
    pen.resolve_failures_on_cpu(&shapes, &instances, &pairs, &config);

    let mut report = String::new();
    for (p, pair) in pairs.iter().enumerate() {
        let c = list[p / 2];
        let (a, pa, b, pb) = if p % 2 == 0 { c.ordered() } else { c.swapped() };
        let t = Truth::of(a, pa, b, pb)?;
        let band = BAND * t.scale + t.slack_world;
        let gpu: Answer = dist.results[p].into();
        let gpu_pen_gjk: Answer = pen.results[p].into();
        let gpu_pen: Pen = pen.penetrations[p].into();
        let cpu: Answer =
            query_pair(&shapes, &instances, *pair, QueryKind::Distance, &config).into();
        let (cpu_pen_gjk, cpu_pen) = penetration_pair(&shapes, &instances, *pair, &config);
        let (cpu_pen_gjk, cpu_pen): (Answer, Pen) = (cpu_pen_gjk.into(), cpu_pen.into());
        let mut problems = Vec::new();
        check_answer(
            "gpu distance",
            &gpu,
            true,
            t.slack_world,
            &t,
            a,
            b,
            &mut problems,
        );
        check_answer(
            "gpu penetration(gjk)",
            &gpu_pen_gjk,
            true,
            t.slack_world,
            &t,
            a,
            b,
            &mut problems,
        );
        check_penetration(&gpu_pen, &gpu_pen_gjk, &t, a, b, &mut problems);
        for (what, g, c) in [
            ("gpu distance", &gpu, &cpu),
            ("gpu penetration(gjk)", &gpu_pen_gjk, &cpu_pen_gjk),
        ] {
            if g.intersecting != c.intersecting && !t.in_band(band) {
                problems.push(format!(
                    "{what}: flag {} on the GPU, {} on the CPU",
                    g.intersecting, c.intersecting
                ));
            }
            if (g.distance - c.distance).abs() > band {
                problems.push(format!(
                    "{what}: distance {:e} on the GPU, {:e} on the CPU {}",
                    g.distance,
                    c.distance,
                    excess((g.distance - c.distance).abs(), band)
                ));
            }
        }
        let depth_tol = DEPTH * t.scale + t.slack_world;
        if gpu_pen.status == PenetrationStatus::Penetrating
            && cpu_pen.status == PenetrationStatus::Penetrating
            && (gpu_pen.depth - cpu_pen.depth).abs() > depth_tol
        {
            problems.push(format!(
                "gpu penetration: depth {:e} on the GPU, {:e} on the CPU {}",
                gpu_pen.depth,
                cpu_pen.depth,
                excess((gpu_pen.depth - cpu_pen.depth).abs(), depth_tol)
            ));
        }
        if !problems.is_empty() {
            let _ = writeln!(
                report,
                "{backend}: pair {p} ({}, {}): exact signed distance {:?}, pair scale {:e}\n  {}",
                c.label,
                if p % 2 == 0 { "A,B" } else { "B,A" },
                t.signed,
                t.scale,
                problems.join("\n  ")
            );
        }
    }
    if report.is_empty() {
        Ok(())
    } else {
        Err(report)
    }
}

#[test]
fn gpu_answers_to_fuzzed_pairs_match_the_cpu_and_the_exact_answer_after_resolving_failures() {
    // Every backend a correctness test must cover (OpenGL and Vulkan; llvmpipe and lavapipe without a GPU),
    // each batch on each; a missing backend is skipped with a message, or fails the run under CI=true.
    let _turn = common::gpu::exclusive();
    let backends = common::gpu::backend_contexts();
    if backends.is_empty() {
        eprintln!("SKIPPED: the GPU fuzz test needs an adapter");
        return;
    }
    let phases: Vec<(&str, RefCell<NarrowPhase>)> = backends
        .iter()
        .map(|(name, ctx)| {
            (
                *name,
                RefCell::new(NarrowPhase::new(&ctx.device, &ctx.queue)),
            )
        })
        .collect();
    let failures = Mutex::new(BTreeMap::new());
    fuzz(
        "gpu batches",
        proptest::collection::vec(any_case(), 1..=GPU_BATCH),
        24,
        20,
        |batch: &Vec<Case>| {
            let mut out = vec!["batches".to_string()];
            out.extend(batch.iter().map(|c| {
                format!(
                    "cases in batches: {}",
                    c.label.split('/').next().unwrap_or("?")
                )
            }));
            out
        },
        |batch| {
            let mut report = String::new();
            for (name, np) in &phases {
                if let Err(e) = check_gpu_batch(name, &mut np.borrow_mut(), batch, &failures) {
                    report.push_str(&e);
                }
            }
            if report.is_empty() {
                Ok(())
            } else {
                Err(report)
            }
        },
    );
    eprintln!(
        "gpu batches: failure statuses the GPU returned, answered again on the CPU: {:?}",
        failures.lock().unwrap_or_else(|e| e.into_inner())
    );
}
