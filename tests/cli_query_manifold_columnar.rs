//! `gpu-gjk query --kind manifold` on columnar batches: the same pairs as JSON Lines, converted to Arrow IPC
//! and Parquet, give the same manifolds, written as JSON Lines (the same bytes, ids echoed) and as a
//! manifolds table (the same numbers, bit for bit); a bad row is an error row that names it. On the GL and
//! Vulkan backends, hostile pairs in both orders give the CPU's manifolds within the GPU manifolds' band, and
//! the helper behind them answers a pair too big for the device on the CPU without losing the others.

mod common;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int64Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use glam::Vec3;
use gpu_gjk::gpu::manifold::compare::POINT_BAND;
use gpu_gjk::gpu::manifold::GpuManifolds;
use gpu_gjk::io::batch::{manifold_placed, manifolds_placed_gpu, PlacedPair};
use gpu_gjk::io::columnar::{manifolds_schema, read_table, BatchFormat};
use gpu_gjk::{CentredPose, ConvexShape, DPose};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const CUBE: &str = "[[-0.5,-0.5,-0.5],[0.5,-0.5,-0.5],[-0.5,0.5,-0.5],[0.5,0.5,-0.5],[-0.5,-0.5,0.5],[0.5,-0.5,0.5],\
                    [-0.5,0.5,0.5],[0.5,0.5,0.5]]";
const SLAB: &str =
    "[[-2,-0.5,-2],[2,-0.5,-2],[-2,0.5,-2],[2,0.5,-2],[-2,-0.5,2],[2,-0.5,2],[-2,0.5,2],[2,0.5,2]]";

fn gpu_gjk(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .args(args)
        .output()
        .expect("gpu-gjk runs")
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `input` (JSON Lines) converted into a shapes table and a pairs table in `dir`, both of `extension`'s format.
fn convert(dir: &Path, input: &Path, extension: &str) -> (PathBuf, PathBuf) {
    let shapes = dir.join(format!("shapes.{extension}"));
    let pairs = dir.join(format!("pairs.{extension}"));
    let convert = gpu_gjk(&[
        "convert",
        path(input),
        "--shapes",
        path(&shapes),
        "--pairs",
        path(&pairs),
    ]);
    assert!(convert.status.success(), "{convert:?}");
    (shapes, pairs)
}

fn scratch() -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("gpu-gjk-manifold-columnar-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Resting, rotated, swapped, apart, far from the origin and bad pairs, each with an id.
fn pairs_lines() -> String {
    [
        format!(
            r#"{{"id": 1, "a": {{"points": {SLAB}, "position": [1e8, 0, 0]}}, "b": {{"points": {CUBE}, "position": [1e8, 0.99, 0]}}}}"#
        ),
        format!(
            r#"{{"id": 2, "a": {{"points": {CUBE}, "position": [0, 0.99, 0]}}, "b": {{"points": {SLAB}}}}}"#
        ),
        format!(
            r#"{{"id": 3, "a": {{"points": {SLAB}}}, "b": {{"points": {CUBE}, "position": [0.3, 0.95, -0.2], "rotation": [0, 0.3826834323650898, 0, 0.9238795325112867]}}}}"#
        ),
        r#"{"id": 4, "a": {"points": [[0,0,0]], "radius": -1}, "b": {"points": [[0,0,0]]}}"#.into(),
        r#"{"id": 5, "a": {"points": [[0,0,0]], "radius": 1}, "b": {"points": [[0,0,0]], "radius": 1, "position": [5, 0, 0]}}"#.into(),
        r#"{"id": 6, "a": {"points": [[0,0,0]], "radius": 1}, "b": {"points": [[0,0,0]], "radius": 0.5, "position": [1.2, 0.1, 0]}}"#.into(),
    ]
    .join("\n")
        + "\n"
}

fn stdout_lines(out: &Output) -> Vec<String> {
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn columnar_manifolds_equal_the_json_lines_manifolds() {
    let dir = scratch();
    let input = dir.join("pairs.jsonl");
    std::fs::write(&input, pairs_lines()).unwrap();
    let json = gpu_gjk(&["query", "--kind", "manifold", path(&input)]);
    assert_eq!(json.status.code(), Some(2), "the bad line fails the run");
    let want = stdout_lines(&json);
    assert_eq!(want.len(), 6);
    assert!(want[0].contains("\"points\": [{"), "{}", want[0]);
    for extension in ["arrow", "parquet"] {
        let (shapes, pairs) = convert(&dir, &input, extension);
        let base = [
            "query",
            "--kind",
            "manifold",
            path(&pairs),
            "--shapes",
            path(&shapes),
        ];
        // JSON Lines out: the JSON Lines path's bytes, but for the bad row, named as a table row.
        let lines = gpu_gjk(&base);
        assert_eq!(lines.status.code(), Some(2), "{extension}");
        let got = stdout_lines(&lines);
        assert_eq!(got.len(), want.len(), "{extension}");
        for (k, (g, w)) in got.iter().zip(&want).enumerate() {
            if k == 3 {
                assert!(
                    w.starts_with("{\"id\": 4, \"error\": \"line 4: a.radius"),
                    "{w}"
                );
                assert!(
                    g.starts_with("{\"id\": 4, \"error\": \"pairs row 3: "),
                    "{g}"
                );
                let stderr = String::from_utf8_lossy(&lines.stderr);
                assert!(stderr.contains("pairs row 3: "), "{stderr}");
            } else {
                assert_eq!(g, w, "{extension} row {k}");
            }
        }
        // A table out: the same values as the JSON lines.
        let table = dir.join(format!("answers.{extension}"));
        let mut args = base.to_vec();
        args.extend(["--output", path(&table)]);
        let out = gpu_gjk(&args);
        assert_eq!(out.status.code(), Some(2), "{extension}");
        let format = BatchFormat::from_extension(&table).unwrap();
        let (schema, batches) = read_table(&table, format).unwrap();
        let fields: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        assert_eq!(fields, ["id", "status", "normal", "points", "error"]);
        for (field, expected) in schema
            .fields()
            .iter()
            .skip(1)
            .zip(manifolds_schema().fields())
        {
            assert_eq!(
                field.data_type(),
                expected.data_type(),
                "{extension}: {}",
                field.name()
            );
        }
        let rows: Vec<Value> = batches
            .map(Result::unwrap)
            .flat_map(|batch| (0..batch.num_rows()).map(move |r| row_as_json(&batch, r)))
            .collect();
        assert_eq!(rows.len(), want.len());
        for (k, (row, line)) in rows.iter().zip(&want).enumerate() {
            let line: Value = serde_json::from_str(line).unwrap();
            if k == 3 {
                assert_eq!(row["id"], 4);
                assert!(row["error"].as_str().unwrap().starts_with("pairs row 3: "));
                assert!(row["status"].is_null() && row["points"].is_null(), "{row}");
            } else {
                assert_eq!(row, &line, "{extension} row {k}");
            }
        }
    }
}

/// A manifolds table row as the JSON line would have it (a null normal written as three nulls), its numbers
/// compared exactly: the JSON line's shortest round-trip digits parse back to the same `f64`.
fn row_as_json(batch: &RecordBatch, r: usize) -> Value {
    let col = |name: &str| batch.column_by_name(name).unwrap().clone();
    let vec3 = |array: &dyn Array, i: usize| -> Value {
        let list = array.as_fixed_size_list();
        if list.is_null(i) {
            return serde_json::json!([null, null, null]);
        }
        let values = list.value(i);
        let values = values.as_primitive::<Float64Type>();
        serde_json::json!([values.value(0), values.value(1), values.value(2)])
    };
    let id = col("id").as_primitive::<Int64Type>().value(r);
    let error = col("error");
    if !error.is_null(r) {
        let status = col("status");
        let points = col("points");
        return serde_json::json!({
            "id": id,
            "error": error.as_string::<i32>().value(r),
            "status": if status.is_null(r) { Value::Null } else { "not null".into() },
            "points": if points.is_null(r) { Value::Null } else { "not null".into() },
        });
    }
    let points = col("points");
    let points = points.as_list::<i32>().value(r);
    let points = points.as_struct();
    let point_a = points.column_by_name("point_a").unwrap();
    let point_b = points.column_by_name("point_b").unwrap();
    let depth = points
        .column_by_name("depth")
        .unwrap()
        .as_primitive::<Float64Type>();
    let feature = points
        .column_by_name("feature_id")
        .unwrap()
        .as_primitive::<UInt64Type>();
    let points: Vec<Value> = (0..points.len())
        .map(|i| {
            serde_json::json!({
                "point_a": vec3(point_a.as_ref(), i),
                "point_b": vec3(point_b.as_ref(), i),
                "depth": depth.value(i),
                "feature_id": feature.value(i),
            })
        })
        .collect();
    serde_json::json!({
        "id": id,
        "status": col("status").as_string::<i32>().value(r),
        "normal": vec3(col("normal").as_ref(), r),
        "points": points,
    })
}

/// A shape of the hostile pairs: its points and radius, as a JSON line writes them and as the library reads
/// them (for the pair's scale).
struct Shape {
    points: Vec<[f64; 3]>,
    radius: f64,
}

impl Shape {
    fn cuboid(half: [f64; 3]) -> Self {
        let points = (0..8)
            .map(|k| {
                let sign = |bit: usize| if k >> bit & 1 == 0 { -1.0 } else { 1.0 };
                [sign(0) * half[0], sign(1) * half[1], sign(2) * half[2]]
            })
            .collect();
        Shape {
            points,
            radius: 0.0,
        }
    }

    /// `n` points spread over a sphere of radius `r` (a Fibonacci lattice): a round hull of many faces.
    fn round_hull(n: usize, r: f64) -> Self {
        let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
        let points = (0..n)
            .map(|k| {
                let y = 1.0 - 2.0 * (k as f64 + 0.5) / n as f64;
                let ring = (1.0 - y * y).sqrt();
                let angle = golden * k as f64;
                [r * ring * angle.cos(), r * y, r * ring * angle.sin()]
            })
            .collect();
        Shape {
            points,
            radius: 0.0,
        }
    }

    fn ball(radius: f64) -> Self {
        Shape {
            points: vec![[0.0; 3]],
            radius,
        }
    }

    fn json(&self, position: [f64; 3], rotation: [f64; 4]) -> String {
        format!(
            r#"{{"points": {:?}, "radius": {:?}, "position": {:?}, "rotation": {:?}}}"#,
            self.points, self.radius, position, rotation
        )
    }

    fn bounding_radius(&self) -> f64 {
        let points = self
            .points
            .iter()
            .map(|p| Vec3::from_array(p.map(|x| x as f32)));
        let shape = ConvexShape::new(points.collect(), self.radius as f32).unwrap();
        shape.bounding_radius() as f64
    }
}

const TURN: [f64; 4] = [0.0, 0.0, 0.0, 1.0];

/// A shape at a position and rotation (a quaternion `[x, y, z, w]`).
type Placed<'s> = (&'s Shape, [f64; 3], [f64; 4]);

/// Hostile pairs, each in both orders (ids 2k and 2k + 1), then a bad row: a tilted cube resting on a slab
/// 1e8 from the origin, boxes corner in, a cube on a slab a thousandth as thick as wide, tiny and huge boxes,
/// identical and nested boxes, a round hull of 60 points on a box, a ball on a box and boxes apart (answered on
/// the CPU). Returns the lines and each good pair's scale (its larger bounding radius), by id.
fn hostile_lines() -> (String, Vec<f64>) {
    let cube = Shape::cuboid([0.5; 3]);
    let slab = Shape::cuboid([2.0, 0.5, 2.0]);
    let thin = Shape::cuboid([1.0, 1e-3, 1.0]);
    let small = Shape::cuboid([0.05; 3]);
    let tiny = Shape::cuboid([1e-3, 2e-3, 1e-3]);
    let huge = Shape::cuboid([1e3, 5e2, 1e3]);
    let inner = Shape::cuboid([0.1, 0.2, 0.1]);
    let round = Shape::round_hull(60, 0.7);
    let ball = Shape::ball(0.5);
    let tilt = [0.01, 0.0, 0.004, 1.0];
    let twist = [0.1, 0.2, 0.3, 0.9];
    #[rustfmt::skip]
    let pairs: [(Placed, Placed); 10] = [
        ((&slab, [1e8, 0.0, 0.0], TURN), (&cube, [1e8, 0.98, 0.1], tilt)),
        ((&cube, [0.0; 3], TURN), (&cube, [0.9, 0.6, 0.1], twist)),
        ((&thin, [3.0, -1.0, 2.0], TURN), (&small, [3.1, -1.0 + 1e-3 + 0.0499, 2.2], tilt)),
        ((&tiny, [-5.0, 0.0, 1e3], tilt), (&tiny, [-5.0 + 1.5e-3, 1e-3, 1e3], twist)),
        ((&huge, [0.0; 3], TURN), (&huge, [1.5e3, 9.9e2, 0.0], tilt)),
        ((&cube, [1e3, 1e3, 1e3], TURN), (&cube, [1e3, 1e3, 1e3], TURN)),
        ((&slab, [0.0; 3], TURN), (&inner, [0.2, 0.1, -0.3], twist)),
        ((&slab, [7.0, 0.0, 0.0], TURN), (&round, [7.3, 1.15, 0.2], twist)),
        ((&cube, [0.0; 3], TURN), (&ball, [0.0, 0.9, 0.0], TURN)),
        ((&cube, [0.0; 3], TURN), (&cube, [0.0, 2.0, 0.0], TURN)),
    ];
    let mut lines = String::new();
    let mut scales = Vec::new();
    for ((a, a_at, a_turn), (b, b_at, b_turn)) in pairs {
        let scale = a.bounding_radius().max(b.bounding_radius());
        let (a, b) = (a.json(a_at, a_turn), b.json(b_at, b_turn));
        let id = scales.len();
        lines += &format!("{{\"id\": {id}, \"a\": {a}, \"b\": {b}}}\n");
        lines += &format!("{{\"id\": {}, \"a\": {b}, \"b\": {a}}}\n", id + 1);
        scales.extend([scale, scale]);
    }
    let bad = r#"{"points": [[0,0,0]], "radius": -1}"#;
    lines += &format!(
        "{{\"id\": {}, \"a\": {bad}, \"b\": {}}}\n",
        scales.len(),
        cube.json([0.0; 3], TURN)
    );
    (lines, scales)
}

/// The GPU's manifold row (a table row or a line, as JSON) against the CPU's: the same status, point count and
/// feature ids (points matched by id, then by nearness), the normal, points and depths within the band of the
/// pair's scale. Returns whether any number differs at all (float32 on the GPU, float64 on the CPU).
fn assert_within_band(gpu: &Value, cpu: &Value, scale: f64, what: &str) -> bool {
    let number = |v: &Value| v.as_f64().unwrap();
    let band = POINT_BAND * scale;
    assert_eq!(gpu["status"], cpu["status"], "{what}: {gpu} against {cpu}");
    let (gpu_normal, cpu_normal) = (&gpu["normal"], &cpu["normal"]);
    let mut differs = gpu_normal != cpu_normal;
    if cpu_normal[0].is_number() {
        for axis in 0..3 {
            let gap = (number(&gpu_normal[axis]) - number(&cpu_normal[axis])).abs();
            assert!(
                gap <= POINT_BAND,
                "{what}: normal {gpu_normal} against {cpu_normal}"
            );
        }
    } else {
        assert_eq!(gpu_normal, cpu_normal, "{what}");
    }
    let (gpu_points, cpu_points) = (
        gpu["points"].as_array().unwrap(),
        cpu["points"].as_array().unwrap(),
    );
    assert_eq!(
        gpu_points.len(),
        cpu_points.len(),
        "{what}: {gpu} against {cpu}"
    );
    let gap = |p: &Value, q: &Value, side: &str| -> f64 {
        (0..3)
            .map(|axis| (number(&p[side][axis]) - number(&q[side][axis])).abs())
            .fold(0.0, f64::max)
    };
    let mut used = vec![false; cpu_points.len()];
    for p in gpu_points {
        let q = (0..cpu_points.len())
            .filter(|&c| !used[c] && cpu_points[c]["feature_id"] == p["feature_id"])
            .min_by(|&i, &j| {
                gap(p, &cpu_points[i], "point_b").total_cmp(&gap(p, &cpu_points[j], "point_b"))
            })
            .unwrap_or_else(|| panic!("{what}: GPU point {p} not among the CPU's {cpu}"));
        used[q] = true;
        let q = &cpu_points[q];
        differs |= p != q;
        let depth = (number(&p["depth"]) - number(&q["depth"])).abs();
        let point = gap(p, q, "point_a").max(gap(p, q, "point_b"));
        assert!(
            depth <= band && point <= band,
            "{what}: {p} against {q}: point {point:e}, depth {depth:e}, band {band:e}"
        );
    }
    differs
}

/// Each row of a manifolds table as [`row_as_json`] has it.
fn table_rows(path: &Path) -> (Vec<String>, Vec<Value>) {
    let (schema, batches) = read_table(path, BatchFormat::from_extension(path).unwrap()).unwrap();
    let fields = schema.fields().iter().map(|f| f.name().clone()).collect();
    let rows = batches
        .map(Result::unwrap)
        .flat_map(|batch| (0..batch.num_rows()).map(move |r| row_as_json(&batch, r)))
        .collect();
    (fields, rows)
}

#[test]
fn gpu_backends_answer_columnar_manifolds_within_the_band() {
    let dir = scratch().join("gpu");
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("pairs.jsonl");
    let (lines, scales) = hostile_lines();
    std::fs::write(&input, lines).unwrap();
    let bad_row = scales.len();
    for extension in ["arrow", "parquet"] {
        let (shapes, pairs) = convert(&dir, &input, extension);
        let query = |backend: &str, output: Option<&Path>| -> Option<(Vec<String>, Vec<Value>)> {
            let mut args = vec!["query", "--kind", "manifold", "--backend", backend];
            args.extend([path(&pairs), "--shapes", path(&shapes)]);
            args.extend(output.iter().flat_map(|o| ["--output", path(o)]));
            let out = gpu_gjk(&args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            if stderr.contains("no GPU adapter") {
                assert_ne!(
                    std::env::var("CI").as_deref(),
                    Ok("true"),
                    "CI=true requires an adapter for --backend {backend}: {stderr}"
                );
                eprintln!("SKIPPED --backend {backend}: {stderr}");
                return None;
            }
            // The bad row fails the run, named on stderr; the others are answered.
            assert_eq!(
                out.status.code(),
                Some(2),
                "{backend} {extension}: {stderr}"
            );
            assert!(
                stderr.contains(&format!("pairs row {bad_row}: a: ")),
                "{backend} {extension}: {stderr}"
            );
            Some(match output {
                Some(table) => table_rows(table),
                None => (
                    Vec::new(),
                    stdout_lines(&out)
                        .iter()
                        .map(|l| serde_json::from_str(l).unwrap())
                        .collect(),
                ),
            })
        };
        let cpu_table = dir.join(format!("cpu.{extension}"));
        let (cpu_fields, cpu) = query("cpu", Some(&cpu_table)).unwrap();
        assert_eq!(cpu.len(), scales.len() + 1);
        for backend in ["gl", "vulkan"] {
            let gpu_table = dir.join(format!("{backend}.{extension}"));
            let Some((fields, table)) = query(backend, Some(&gpu_table)) else {
                continue;
            };
            let (_, lines) = query(backend, None).unwrap();
            assert_eq!(fields, cpu_fields, "{backend} {extension}");
            for gpu in [&table, &lines] {
                assert_eq!(gpu.len(), cpu.len(), "{backend} {extension}");
                let mut differs = false;
                for (k, (g, c)) in gpu.iter().zip(&cpu).enumerate() {
                    assert_eq!(g["id"], k, "{backend} {extension}");
                    let what = format!("{backend} {extension} row {k}");
                    if k == bad_row {
                        let error = g["error"].as_str().unwrap();
                        assert!(
                            error.starts_with(&format!("pairs row {k}: a: ")),
                            "{what}: {error}"
                        );
                        assert_eq!(g["error"], c["error"], "{what}");
                        continue;
                    }
                    differs |= assert_within_band(g, c, scales[k], &what);
                }
                // Float32 clipping leaves its mark: had the rows been answered on the CPU, every number would
                // be the CPU's.
                assert!(differs, "{backend} {extension}: the GPU answered no row");
            }
        }
    }
}

/// A pair whose two hulls alone exceed what the device binds (here a kernel limited to 1,000 bytes of hull words,
/// so a 64-point hull is too big) fails a `GpuManifolds` run; the batch helper answers it on the CPU, exactly as
/// the CPU path does, and still sends the pairs before and after it to the GPU.
#[test]
fn a_pair_too_big_for_the_device_is_answered_on_the_cpu() {
    let Some(ctx) = common::gpu::context() else {
        return;
    };
    let _guard = common::gpu::exclusive();
    let tight = GpuManifolds::with_chunks(&ctx.device, &ctx.queue, 7, 1_000);
    let shape = |s: Shape| {
        let points = s
            .points
            .iter()
            .map(|p| Vec3::from_array(p.map(|x| x as f32)));
        ConvexShape::new(points.collect(), 0.0).unwrap()
    };
    let cube = shape(Shape::cuboid([0.5; 3]));
    let big = shape(Shape::round_hull(64, 0.7));
    let at = |shape: &ConvexShape, x: f64, y: f64, turn: [f64; 4]| {
        let rotation = glam::DQuat::from_array(turn).normalize();
        let pose = DPose {
            position: glam::DVec3::new(1e6 + x, y, 0.0),
            rotation,
        };
        CentredPose::new(pose, shape.centre().as_dvec3())
    };
    let poses = [
        (
            at(&cube, 0.0, 0.0, TURN),
            at(&cube, 0.3, 0.95, [0.01, 0.0, 0.004, 1.0]),
        ),
        (
            at(&big, 0.0, 0.0, TURN),
            at(&cube, 0.2, 1.1, [0.1, 0.2, 0.3, 0.9]),
        ),
        (at(&cube, 0.0, 0.0, TURN), at(&big, 0.1, 1.1, TURN)),
        (
            at(&cube, 0.0, 0.0, [0.1, 0.2, 0.3, 0.9]),
            at(&cube, 0.9, 0.6, TURN),
        ),
    ];
    let shapes = [(&cube, &cube), (&big, &cube), (&cube, &big), (&cube, &cube)];
    let placed: Vec<PlacedPair> = shapes
        .iter()
        .zip(&poses)
        .map(|((a, b), (a_pose, b_pose))| ((*a, a_pose), (*b, b_pose)))
        .collect();
    let inputs: Vec<_> = placed
        .iter()
        .map(|((a, a_pose), (b, b_pose))| {
            gpu_gjk::PairInput::new(a, a_pose.folded(), b, b_pose.folded())
        })
        .collect();
    let refused = tight.run(&inputs, Default::default(), Default::default());
    assert!(refused.is_err_and(|e| e.to_string().starts_with("pair 1: ")));

    let gpu = manifolds_placed_gpu(&tight, &placed).unwrap();
    let cpu: Vec<_> = placed.iter().map(|&(a, b)| manifold_placed(a, b)).collect();
    assert_eq!(gpu.len(), cpu.len());
    for k in [1, 2] {
        assert_eq!(
            format!("{:?}", gpu[k]),
            format!("{:?}", cpu[k]),
            "pair {k}: the CPU's own"
        );
    }
    for k in [0, 3] {
        let ids = |m: &gpu_gjk::Manifold| {
            let mut ids: Vec<u64> = m.points.iter().map(|p| p.id.packed()).collect();
            ids.sort_unstable();
            ids
        };
        assert!(!cpu[k].points.is_empty(), "pair {k}");
        assert_eq!(ids(&gpu[k]), ids(&cpu[k]), "pair {k}");
    }
    assert_ne!(
        format!("{:?}", gpu[0]),
        format!("{:?}", cpu[0]),
        "the pairs around the big one were clipped on the GPU"
    );
}
