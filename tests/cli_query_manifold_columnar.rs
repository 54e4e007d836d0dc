//! `gpu-gjk query --kind manifold` on columnar batches: the same pairs as JSON Lines, converted to Arrow IPC
//! and Parquet, give the same manifolds, written as JSON Lines (the same bytes, ids echoed) and as a
//! manifolds table (the same numbers, bit for bit); a bad row is an error row that names it.

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int64Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use gpu_gjk::io::columnar::{manifolds_schema, read_table, BatchFormat};
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
        let shapes = dir.join(format!("shapes.{extension}"));
        let pairs = dir.join(format!("pairs.{extension}"));
        let convert = gpu_gjk(&[
            "convert",
            path(&input),
            "--shapes",
            path(&shapes),
            "--pairs",
            path(&pairs),
        ]);
        assert!(convert.status.success(), "{convert:?}");
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
