//! `gpu-gjk query --backend gpu` on random mixed pairs against the independent referee (parry3d-f64, with the
//! certificate tie-breaker), through the command line's JSON input and output. Skipped without an adapter,
//! except under `CI=true`.

mod common;

use common::query_cli::query_lines;

use common::certificate::certify;
use common::referee::{referee, relative};
use glam::DVec3;
use gpu_gjk::gjk::pair_scale;
use gpu_gjk::scenario::{random_scene, MixSpec};
use gpu_gjk::{GjkResult, GjkStatus};

/// Pairs per run; `GJK_CLI_GPU_PAIRS=100000` runs the full-size check (about 0.5 GB of JSON).
fn pair_count() -> usize {
    std::env::var("GJK_CLI_GPU_PAIRS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000)
}

fn shape_json(shape: &gpu_gjk::ConvexShape, pose: &gpu_gjk::Pose) -> serde_json::Value {
    serde_json::json!({
        "points": shape.local_points().map(|p| [p.x, p.y, p.z]).collect::<Vec<_>>(),
        "radius": shape.radius(),
        "position": pose.position.to_array(),
        "rotation": pose.rotation.to_array(),
    })
}

fn vec3(v: &serde_json::Value) -> DVec3 {
    let a: Vec<f64> = serde_json::from_value(v.clone()).unwrap();
    DVec3::new(a[0], a[1], a[2])
}

/// Runs `query --backend gpu` on `input`; `None` (after printing `SKIPPED`) when there is no adapter.
fn run_gpu(input: String) -> Option<Vec<serde_json::Value>> {
    run_query(input, &["--backend", "gpu"])
}

/// Runs `query` with `args` on `input`; `None` (after printing `SKIPPED`) when there is no adapter.
fn run_query(input: String, args: &[&str]) -> Option<Vec<serde_json::Value>> {
    query_lines(args, input)
}

/// Checks an intersecting line against the hand-computed depth and normal; contacts must satisfy
/// `contact_a - contact_b = normal * depth`.
fn assert_penetration(r: &serde_json::Value, depth: f64, normal: DVec3) {
    assert_eq!(r["status"], "intersecting", "{r}");
    assert_eq!(r["penetration_status"], "penetrating", "{r}");
    assert!((r["depth"].as_f64().unwrap() - depth).abs() <= 1e-5, "{r}");
    assert!((vec3(&r["normal"]) - normal).length() <= 1e-5, "{r}");
    let gap = vec3(&r["contact_a"]) - vec3(&r["contact_b"]);
    assert!((gap - normal * depth).length() <= 1e-5, "{r}");
}

/// The hand-computed cases of `tests/cli_query.rs` on the GPU: boxes of half extent 0.5 overlapping by 0.5
/// along x (also turned a quarter about z, far from the origin), spheres of radius 1 with centres 1.5 apart
/// along y, and a separated pair.
#[test]
fn query_backend_gpu_gives_hand_computed_penetration() {
    let half_box = "[[-0.5,-0.5,-0.5],[0.5,-0.5,-0.5],[-0.5,0.5,-0.5],[0.5,0.5,-0.5],[-0.5,-0.5,0.5],[0.5,-0.5,0.5],[-0.5,0.5,0.5],[0.5,0.5,0.5]]";
    let s = 0.5f64.sqrt();
    let input = [
        format!(r#"{{"a": {{"points": {half_box}}}, "b": {{"points": {half_box}, "position": [0.5, 0, 0]}}}}"#),
        format!(r#"{{"a": {{"points": {half_box}, "position": [1e4, 1e4, 0], "rotation": [0, 0, {s}, {s}]}}, "b": {{"points": {half_box}, "position": [1e4, 10000.5, 0], "rotation": [0, 0, {s}, {s}]}}}}"#),
        r#"{"a": {"points": [[0,0,0]], "radius": 1, "position": [1, 2, 3]}, "b": {"points": [[0,0,0]], "radius": 1, "position": [1, 3.5, 3]}}"#.to_owned(),
        format!(r#"{{"a": {{"points": {half_box}}}, "b": {{"points": {half_box}, "position": [2, 0, 0]}}}}"#),
    ]
    .join("\n");
    let Some(lines) = run_gpu(input) else {
        return;
    };
    assert_eq!(lines.len(), 4);

    assert_penetration(&lines[0], 0.5, DVec3::X);
    assert!(
        (vec3(&lines[0]["contact_a"]).x - 0.5).abs() <= 1e-5,
        "{}",
        lines[0]
    );
    assert!(vec3(&lines[0]["contact_b"]).x.abs() <= 1e-5, "{}", lines[0]);

    assert_penetration(&lines[1], 0.5, DVec3::Y);
    assert!(
        (vec3(&lines[1]["contact_a"]).y - (1e4 + 0.5)).abs() <= 1e-4,
        "{}",
        lines[1]
    );
    assert!(
        (vec3(&lines[1]["contact_b"]).y - 1e4).abs() <= 1e-4,
        "{}",
        lines[1]
    );

    assert_penetration(&lines[2], 0.5, DVec3::Y);
    let want_a = DVec3::new(1.0, 3.0, 3.0);
    let want_b = DVec3::new(1.0, 2.5, 3.0);
    assert!(
        (vec3(&lines[2]["contact_a"]) - want_a).length() <= 1e-5,
        "{}",
        lines[2]
    );
    assert!(
        (vec3(&lines[2]["contact_b"]) - want_b).length() <= 1e-5,
        "{}",
        lines[2]
    );

    let r = &lines[3];
    assert_eq!(r["status"], "separated", "{r}");
    assert_eq!(r["penetration_status"], "separated", "{r}");
    for key in ["depth", "contact_a", "contact_b"] {
        assert!(r.get(key).is_none(), "{key} in {r}");
    }
}

#[test]
fn query_backend_gpu_agrees_with_the_referee() {
    let pairs = pair_count();
    let (scene, input) = mix_input(424242, pairs);
    let Some(lines) = run_gpu(input) else {
        return;
    };
    assert_eq!(lines.len(), pairs);

    let mut failures = Vec::new();
    for (i, (line, &[ia, ib])) in lines.iter().zip(&scene.pairs).enumerate() {
        let (x, y) = (&scene.instances[ia as usize], &scene.instances[ib as usize]);
        let (a, b) = (
            &scene.shapes[x.shape as usize],
            &scene.shapes[y.shape as usize],
        );
        let (pa, pb) = (x.pose.to_f64(), y.pose.to_f64());
        let band = 1e-4 * pair_scale(a.bounding_radius(), b.bounding_radius()) as f64;
        let status = line["status"].as_str().unwrap();
        let intersecting = line["intersecting"].as_bool().unwrap();
        let distance = line["distance"].as_f64().unwrap();
        if status == "max_iterations" {
            failures.push(format!("pair {i}: max_iterations"));
            continue;
        }
        let truth = referee(a, &pa, b, &pb);
        let expected = truth.signed_distance.unwrap_or(0.0).max(0.0);
        let flag_ok = match truth.signed_distance {
            Some(sd) if sd.abs() > band => intersecting == (sd < 0.0),
            _ => true,
        };
        if flag_ok && (distance - expected).abs() <= band {
            continue;
        }
        // The referee can be wrong; our answer must then carry a certificate (in A's frame).
        let to_local = |w: DVec3| pa.rotation.conjugate() * (w - pa.position);
        let local = GjkResult::<f32> {
            status: if intersecting {
                GjkStatus::Intersecting
            } else {
                GjkStatus::Separated
            },
            intersecting,
            distance: distance as f32,
            witness_a: to_local(vec3(&line["witness_a"])).as_vec3(),
            witness_b: to_local(vec3(&line["witness_b"])).as_vec3(),
            normal: (pa.rotation.conjugate() * vec3(&line["normal"])).as_vec3(),
            iterations: 0,
        };
        let (rot, pos) = relative(&pa, &pb);
        if certify(a, b, rot, pos, &local, band).is_err() {
            failures.push(format!(
                "pair {i}: GPU says {status} at {distance}, referee {:?}",
                truth.signed_distance
            ));
        }
    }
    eprintln!(
        "query --backend gpu: {pairs} pairs, {} failures",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {pairs} pairs fail:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}

/// The random mix's lines, shapes written out on every line.
fn mix_input(seed: u64, pairs: usize) -> (gpu_gjk::scenario::Scene, String) {
    let scene = random_scene(seed, pairs, &MixSpec::default());
    let mut input = String::new();
    for &[ia, ib] in &scene.pairs {
        let (x, y) = (&scene.instances[ia as usize], &scene.instances[ib as usize]);
        let line = serde_json::json!({
            "a": shape_json(&scene.shapes[x.shape as usize], &x.pose),
            "b": shape_json(&scene.shapes[y.shape as usize], &y.pose),
        });
        input.push_str(&line.to_string());
        input.push('\n');
    }
    (scene, input)
}

/// `--kind distance` and `--kind intersection` run GJK alone on the GPU (no EPA pass): the lines have the
/// kind's fields only, as the CPU's, with the same flags, and distance mode the same distances within 1e-4
/// of the pair's size (float32 on both sides, different summation orders).
#[test]
fn query_backend_gpu_answers_each_kind_as_the_cpu_does() {
    let pairs = 3_000;
    let (scene, input) = mix_input(5150, pairs);
    for kind in ["distance", "intersection"] {
        let Some(gpu) = run_query(input.clone(), &["--backend", "gpu", "--kind", kind]) else {
            return;
        };
        let cpu = run_query(input.clone(), &["--backend", "cpu", "--kind", kind]).unwrap();
        assert_eq!(gpu.len(), pairs);
        assert_eq!(cpu.len(), pairs);
        let mut flips = 0;
        for (i, ((g, c), &[ia, ib])) in gpu.iter().zip(&cpu).zip(&scene.pairs).enumerate() {
            for name in ["depth", "penetration_status", "contact_a", "contact_b"] {
                assert!(
                    g.get(name).is_none(),
                    "{kind} pair {i}: GPU line has {name}: {g}"
                );
            }
            let (a, b) = (
                &scene.shapes[scene.instances[ia as usize].shape as usize],
                &scene.shapes[scene.instances[ib as usize].shape as usize],
            );
            let band = 1e-4 * pair_scale(a.bounding_radius(), b.bounding_radius()) as f64;
            let status = g["status"].as_str().unwrap();
            assert!(
                status == "intersecting" || status == "separated",
                "{kind} pair {i}: GPU status {status}: {g}"
            );
            if g["intersecting"] != c["intersecting"] {
                // Only a pair touching within the tolerance may flip between float32 runs.
                flips += 1;
                let d = c["distance"].as_f64().unwrap();
                assert!(d <= band, "{kind} pair {i}: GPU {g} against CPU {c}");
            }
            if kind == "distance" {
                let (gd, cd) = (
                    g["distance"].as_f64().unwrap(),
                    c["distance"].as_f64().unwrap(),
                );
                assert!((gd - cd).abs() <= band, "pair {i}: GPU {gd}, CPU {cd}");
            }
        }
        assert!(flips <= 3, "{kind}: {flips} flags differ");
    }
}
