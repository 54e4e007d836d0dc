//! The inspector compares the GPU's answer with the CPU's as the live check does: on every line of the README's
//! sample file it flags no difference, although the CPU answers the sphere-capsule line in closed form (0
//! iterations) where the GPU runs a GJK iteration.

use super::{context, exclusive};
use crate::app::inspector::screenshot::gpu_answer;
use crate::app::inspector::{InspectedPair, Inspector};
use crate::gjk::GjkConfig;
use crate::io::jsonl::parse_line;
use crate::one_pair::trace_penetration;
use crate::pose::RelativePose;

#[test]
fn the_inspector_flags_no_difference_on_the_sample_pairs() {
    let Some(ctx) = context() else { return };
    let _guard = exclusive();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/data/pairs.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let mut checked = 0;
    for (n, line) in text.lines().enumerate() {
        let Ok(pair) = parse_line(line.as_bytes()) else {
            continue;
        };
        let (a, b) = (pair.a.shape.as_ref().clone(), pair.b.shape.as_ref().clone());
        let relative = RelativePose::<f32>::between_centred(&pair.a.pose, &pair.b.pose);
        let trace = trace_penetration(&a, &b, &relative, &GjkConfig::default());
        let gpu = gpu_answer(ctx, &a, &b, &relative);
        let inspector = Inspector::new(InspectedPair {
            label: format!("line {}", n + 1),
            a,
            b,
            relative,
            frame: pair.a.pose.folded(),
            trace,
            epa_trace: None,
            gpu,
            flat: false,
        });
        assert_eq!(
            inspector.gpu_agrees(),
            Some(true),
            "line {}: {:?} against {:?}",
            n + 1,
            inspector.pair.gpu,
            inspector.cpu_answer()
        );
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} lines parsed");
}

/// The sample lines, a deep overlap, and a deep overlap with A turned and moved (where A's local frame and
/// world coordinates differ), as `query` lines.
fn sample_lines() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/data/");
    let mut lines: Vec<String> = ["pairs.jsonl", "overlap.jsonl"]
        .iter()
        .flat_map(|name| {
            let text = std::fs::read_to_string(format!("{dir}{name}")).unwrap();
            text.lines().map(String::from).collect::<Vec<_>>()
        })
        .collect();
    lines.push(
        "{\"a\": {\"points\": [[-1,-1,-1],[1,-1,-1],[-1,1,-1],[1,1,-1],[-1,-1,1],[1,-1,1],[-1,1,1],[1,1,1]], \
         \"position\": [3, -2, 5], \"rotation\": [0.2, 0.3, 0.1, 0.927]}, \
         \"b\": {\"points\": [[0,1,0],[0.9,-0.6,0.4],[-0.8,-0.6,0.5],[0.1,-0.6,-0.9]], \"position\": [3.8, -1.6, 5.3], \
         \"rotation\": [0.1, 0.1, 0.3, 0.943]}}"
            .into(),
    );
    lines
}

/// The inspector on an inspected line, with no GPU answer (what is compared here is the CPU's trace).
fn cpu_inspector(inspected: &crate::cli::Inspected) -> Inspector {
    let pair = &inspected.pair;
    Inspector::new(InspectedPair {
        label: format!("line {}", inspected.line),
        a: pair.a.shape.as_ref().clone(),
        b: pair.b.shape.as_ref().clone(),
        relative: RelativePose::<f32>::between_centred(&pair.a.pose, &pair.b.pose),
        frame: pair.a.pose.folded(),
        trace: inspected.trace.clone(),
        epa_trace: None,
        gpu: crate::app::inspector::GpuVerdict::Unavailable("not asked".into()),
        flat: false,
    })
}

fn v3(v: &serde_json::Value) -> String {
    let c = |i: usize| v[i].as_f64().unwrap();
    format!("({:.4}, {:.4}, {:.4})", c(0), c(1), c(2))
}

#[test]
fn the_picture_and_the_terminal_number_steps_and_expansions_alike_in_world_coordinates() {
    use crate::app::inspector::panel::describe;
    use crate::app::inspector::Step;
    use crate::cli::{inspect_pair, inspect_table, trace_value};
    for (n, line) in sample_lines().iter().enumerate() {
        let pair = parse_line(line.as_bytes()).unwrap();
        let inspected = inspect_pair(n + 1, pair);
        let table = inspect_table(&inspected);
        let trace = trace_value(&inspected).unwrap();
        let mut inspector = cpu_inspector(&inspected);
        assert!(table.lines().next().unwrap().contains("world coordinates"));
        assert!(trace["frame"]
            .as_str()
            .unwrap()
            .starts_with("world coordinates"));
        let steps: Vec<&serde_json::Value> = trace["gjk"]
            .as_array()
            .unwrap()
            .iter()
            .chain(trace["epa"].as_array().unwrap())
            .collect();
        assert_eq!(steps.len(), inspector.step_count(), "line {}", n + 1);
        for (k, record) in steps.iter().enumerate() {
            inspector.seek(k);
            let text = describe(&inspector);
            assert_eq!(record["step"], k, "line {}", n + 1);
            assert!(
                text[0].starts_with(&format!("step {k} of 0 to {}", steps.len() - 1))
                    && text[0].contains("world coordinates"),
                "{text:?}"
            );
            // The table has the step's row: its step and iteration columns.
            let row = format!("{k:>4} {:>4} ", record["iteration"].as_u64().unwrap());
            assert!(
                table.contains(&row),
                "line {}: no row {row:?}\n{table}",
                n + 1
            );
            match inspector.current() {
                Some(Step::Gjk(_)) => {
                    let s = &record["support"];
                    let support = format!(
                        "support w = a − b: {} − {} = {}",
                        v3(&s["a"]),
                        v3(&s["b"]),
                        v3(&s["w"])
                    );
                    assert!(
                        text.contains(&support),
                        "line {} step {k}: {text:?} against the trace's {support}",
                        n + 1
                    );
                }
                Some(Step::Epa(_)) => {
                    let expansions = inspected.trace.penetration.unwrap().iterations;
                    let it = record["iteration"].as_u64().unwrap();
                    let said = if it == 0 {
                        format!("{expansions} expansion")
                    } else {
                        format!("expansion {it} of {expansions} (try 1 of 1)")
                    };
                    assert!(text[1].contains(&said), "line {}: {text:?}", n + 1);
                    assert!(
                        table.contains(&format!("try 1 of 1: {expansions} expansion")),
                        "line {}: {table}",
                        n + 1
                    );
                    assert_eq!(trace["runs"][0]["epa_expansions"][0], expansions);
                    assert!(text[2].contains(&format!("normal {}", v3(&record["normal"]))));
                }
                None => unreachable!(),
            }
        }
    }
}

#[test]
fn radii_are_drawn_where_the_distance_is_measured_and_zoom_keeps_the_origin_and_simplex() {
    use crate::app::inspector::panel::zoom_view;
    use crate::cli::inspect_pair;
    for (n, line) in sample_lines().iter().enumerate() {
        let inspected = inspect_pair(n + 1, parse_line(line.as_bytes()).unwrap());
        let mut inspector = cpu_inspector(&inspected);
        let (result, _) = inspector.cpu_answer();
        let radii = inspected.pair.a.shape.radius() + inspected.pair.b.shape.radius();
        match &inspector.swept {
            Some(swept) => {
                assert!(radii > 0.0);
                // The outline of A - B with the radii, a polyhedron just inside the round surface: the origin
                // is outside its faces' planes by at most the answer's distance, give or take its facets.
                let outside = swept
                    .triangles
                    .iter()
                    .map(|&[i, j, k]| {
                        let [a, b, c] = [i, j, k].map(|m| swept.vertices[m as usize]);
                        -(b - a).cross(c - a).normalize().dot(a)
                    })
                    .fold(f32::MIN, f32::max);
                if !result.intersecting {
                    let d = result.distance;
                    assert!(
                        (outside - d).abs() <= 0.05 * radii,
                        "line {}: the origin is {outside} outside, the distance {d}",
                        n + 1
                    );
                }
            }
            None => assert_eq!(radii, 0.0, "line {}", n + 1),
        }
        // Zoomed in far, the origin and the current step's closest point stay in the view.
        for step in 0..inspector.step_count() {
            inspector.seek(step);
            inspector.reset_view();
            let before = inspector.camera.position.distance(inspector.focus());
            zoom_view(&mut inspector, 12.0);
            let after = inspector.camera.position.distance(inspector.focus());
            assert!(after < before, "line {}: the wheel zooms in", n + 1);
            let view_proj = inspector.camera.view_proj(1.3);
            for p in [glam::Vec3::ZERO, 2.0 * inspector.focus()] {
                let clip = view_proj * p.extend(1.0);
                let ndc = clip.truncate() / clip.w;
                assert!(
                    clip.w > 0.0 && ndc.x.abs() <= 1.0 && ndc.y.abs() <= 1.0,
                    "line {} step {step}: {p} leaves the view at {ndc}",
                    n + 1
                );
            }
        }
    }
}

#[test]
fn a_flat_pair_is_seen_along_its_plane_and_a_pair_with_radii_from_the_side() {
    use crate::cli::inspect_pair;
    let square = "[[-1,-1,0],[1,-1,0],[-1,1,0],[1,1,0]]";
    let line = format!(
        "{{\"a\": {{\"points\": {square}}}, \"b\": {{\"points\": [[0,1,0],[1,-1,0],[-1,-1,0]], \
         \"position\": [1.5, 0.5, 0], \"rotation\": [0, 0, 0.38268343, 0.92387953]}}}}"
    );
    let flat = cpu_inspector(&inspect_pair(1, parse_line(line.as_bytes()).unwrap()));
    let normal = flat
        .plane_normal
        .expect("two polygons in z = 0 are seen along z");
    assert!(normal.z.abs() > 0.999, "{normal}");
    let forward = flat.camera.forward();
    assert!(
        forward.z.abs() > 0.99,
        "the camera looks along z: {forward}"
    );
    // The sample's triangle and sphere: A - B's core is flat but the distance runs out of its plane.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/data/pairs.jsonl"
    ))
    .unwrap();
    let line4 = text.lines().nth(3).unwrap();
    let side = cpu_inspector(&inspect_pair(4, parse_line(line4.as_bytes()).unwrap()));
    assert!(side.plane_normal.is_none() && side.swept.is_some());
}
