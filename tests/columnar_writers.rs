//! `gpu-gjk query` on tables as other writers store them: each writer's files in tests/data/columnar/
//! (made by its make_fixtures.py; the README there says which writer and version) give the answers of the
//! pyarrow-written ones, byte for byte; a list column of another layout is read row by row, a row of the
//! wrong length named; and a column the schema does not name (a misspelt pose column) stops the command.

use arrow_array::{
    Array, ArrayRef, FixedSizeListArray, Float64Array, LargeListArray, ListArray, ListViewArray,
    RecordBatch, UInt32Array,
};
use arrow_buffer::{NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field};
use gpu_gjk::io::columnar::{write_table, BatchFormat};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

fn gpu_gjk(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .args(args)
        .output()
        .expect("gpu-gjk runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/columnar")
        .join(name)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpu-gjk-writers-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `query --shapes SHAPES PAIRS --backend cpu`.
fn query(shapes: &Path, pairs: &Path) -> Output {
    gpu_gjk(&[
        "query",
        "--shapes",
        path(shapes),
        path(pairs),
        "--backend",
        "cpu",
    ])
}

#[test]
fn every_writers_tables_give_the_pyarrow_tables_answers() {
    let reference = query(
        &fixture("pyarrow_shapes.arrow"),
        &fixture("pyarrow_pairs.arrow"),
    );
    assert_eq!(reference.status.code(), Some(0), "{}", stderr(&reference));
    assert_eq!(reference.stdout.iter().filter(|&&b| b == b'\n').count(), 8);
    // (writer's file prefix, extension): the column types each stores are listed in the README there.
    let writers = [
        ("pyarrow", "parquet"),
        ("pyarrow_no_schema", "parquet"),
        ("polars", "parquet"),
        ("polars", "arrow"),
        ("duckdb", "parquet"),
        ("list_view", "arrow"),
        ("list_view", "parquet"),
    ];
    for (writer, extension) in writers {
        let shapes = fixture(&format!("{writer}_shapes.{extension}"));
        let pairs = fixture(&format!("{writer}_pairs.{extension}"));
        let out = query(&shapes, &pairs);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{writer} {extension}: {}",
            stderr(&out)
        );
        assert!(
            out.stdout == reference.stdout,
            "{writer} {extension}: the answers differ from pyarrow's:\n{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    // Shapes from one writer and pairs from another.
    let out = query(
        &fixture("polars_shapes.parquet"),
        &fixture("duckdb_pairs.parquet"),
    );
    assert!(out.stdout == reference.stdout, "{}", stderr(&out));
}

fn f64_child() -> Arc<Field> {
    Arc::new(Field::new_list_field(DataType::Float64, true))
}

fn batch(columns: Vec<(&str, ArrayRef)>) -> RecordBatch {
    RecordBatch::try_from_iter(columns).unwrap()
}

fn write(dir: &Path, name: &str, table: RecordBatch) -> PathBuf {
    let file = dir.join(name);
    write_table(&file, BatchFormat::Arrow, &table.schema(), &[table]).unwrap();
    file
}

/// Shapes 1 (the origin) and 2 (the point (1, 0, 0), radius 0.25) as `list<list<float64>>`, and shape 3,
/// whose second point has 2 values.
fn list_shapes(dir: &Path) -> PathBuf {
    let coordinates =
        Float64Array::from(vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0]);
    let points = ListArray::new(
        f64_child(),
        OffsetBuffer::new(vec![0, 3, 6, 9, 11].into()),
        Arc::new(coordinates),
        None,
    );
    let shapes = ListArray::new(
        Arc::new(Field::new_list_field(points.data_type().clone(), true)),
        OffsetBuffer::new(vec![0, 1, 2, 4].into()),
        Arc::new(points),
        None,
    );
    write(
        dir,
        "shapes.arrow",
        batch(vec![
            ("id", Arc::new(UInt32Array::from(vec![1, 2, 3]))),
            ("points", Arc::new(shapes)),
            ("radius", Arc::new(Float64Array::from(vec![0.0, 0.25, 0.0]))),
        ]),
    )
}

#[test]
fn list_rows_of_the_wrong_length_are_error_rows_that_name_row_and_column() {
    let dir = scratch("lengths");
    let shapes = list_shapes(&dir);
    // a_position as large_list: rows of 3, 2, 3, null, 4 and 3 values.
    let positions = LargeListArray::new(
        f64_child(),
        OffsetBuffer::new(vec![0i64, 3, 5, 8, 8, 12, 15].into()),
        Arc::new(Float64Array::from(vec![
            0.0, 0.0, 0.0, 1.0, 2.0, 5.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0, 0.0, 0.0,
        ])),
        Some(NullBuffer::from(vec![true, true, true, false, true, true])),
    );
    // b_rotation as list_view: rows that share values and start anywhere, the last 3 values long.
    let quaternion = [0.0, 0.0, 0.0, 1.0];
    let rotations = ListViewArray::new(
        f64_child(),
        ScalarBuffer::from(vec![4, 0, 0, 0, 0, 1]),
        ScalarBuffer::from(vec![4, 4, 4, 4, 4, 3]),
        Arc::new(Float64Array::from([quaternion, quaternion].concat())),
        None,
    );
    let pairs = write(
        &dir,
        "pairs.arrow",
        batch(vec![
            ("a", Arc::new(UInt32Array::from(vec![1; 6]))),
            ("b", Arc::new(UInt32Array::from(vec![2, 2, 3, 2, 2, 2]))),
            ("a_position", Arc::new(positions)),
            ("b_rotation", Arc::new(rotations)),
        ]),
    );
    let out = query(&shapes, &pairs);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    // The origin and the point (1, 0, 0) with radius 0.25.
    assert_eq!(lines[0]["distance"], 0.75);
    assert_eq!(
        lines[1]["error"],
        "pairs row 1: a_position: expected 3 numbers, got 2"
    );
    assert_eq!(
        lines[2]["error"],
        "pairs row 2: b: shape 3 (shapes row 2: points[1]: expected 3 numbers, got 2)"
    );
    assert_eq!(
        lines[3]["error"],
        "pairs row 3: a_position: expected an array of 3 numbers, got null"
    );
    assert_eq!(
        lines[4]["error"],
        "pairs row 4: a_position: expected 3 numbers, got 4"
    );
    assert_eq!(
        lines[5]["error"],
        "pairs row 5: b_rotation: expected 4 numbers [x, y, z, w], got 3"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_column_of_another_type_is_named_by_its_real_type() {
    let dir = scratch("types");
    let shapes = list_shapes(&dir);
    // A fixed_size_list of the wrong width, and a large_list of integers.
    let wide = FixedSizeListArray::new(
        f64_child(),
        4,
        Arc::new(Float64Array::from(vec![0.0; 4])),
        None,
    );
    let integers = LargeListArray::new(
        Arc::new(Field::new_list_field(DataType::UInt32, true)),
        OffsetBuffer::new(vec![0i64, 3].into()),
        Arc::new(UInt32Array::from(vec![0, 0, 0])),
        None,
    );
    let ids: ArrayRef = Arc::new(UInt32Array::from(vec![1]));
    let cases: [(&str, ArrayRef, &str); 2] = [
        (
            "wide.arrow",
            Arc::new(wide),
            "wide.arrow: column `a_position`: expected fixed_size_list<float64, 3> (or a list of \
             float64, 3 per row), got fixed_size_list<float64, 4>",
        ),
        (
            "integers.arrow",
            Arc::new(integers),
            "integers.arrow: column `a_position`: expected fixed_size_list<float64, 3> (or a list of \
             float64, 3 per row), got large_list<uint32>",
        ),
    ];
    for (name, positions, want) in cases {
        let table = batch(vec![
            ("a", ids.clone()),
            ("b", ids.clone()),
            ("a_position", positions),
        ]);
        let out = query(&shapes, &write(&dir, name, table));
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty());
        assert!(stderr(&out).contains(want), "{}", stderr(&out));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unknown_column_stops_the_command_and_is_named() {
    let dir = scratch("unknown");
    let shapes = list_shapes(&dir);
    // b_position misspelt: read as absent, it would leave B at the origin, inside A.
    let position = FixedSizeListArray::new(
        f64_child(),
        3,
        Arc::new(Float64Array::from(vec![10.0, 0.0, 0.0])),
        None,
    );
    let ids: ArrayRef = Arc::new(UInt32Array::from(vec![1]));
    let table = batch(vec![
        ("a", ids.clone()),
        ("b", Arc::new(UInt32Array::from(vec![2]))),
        ("b_positon", Arc::new(position)),
    ]);
    let pairs = write(&dir, "pairs.arrow", table);
    let out = query(&shapes, &pairs);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let want = format!(
        "{}: the pairs table has an unknown column `b_positon` (did you mean `b_position`? its \
         columns are a, b, a_position, a_rotation, b_position, b_rotation, id)",
        pairs.display()
    );
    assert!(stderr(&out).contains(&want), "{}", stderr(&out));
    // In the shapes table, with no known name near it.
    let points = write(
        &dir,
        "colour.arrow",
        batch(vec![
            ("id", ids.clone()),
            (
                "points",
                Arc::new(ListArray::new(
                    Arc::new(Field::new_list_field(
                        DataType::FixedSizeList(f64_child(), 3),
                        true,
                    )),
                    OffsetBuffer::new(vec![0, 1].into()),
                    Arc::new(FixedSizeListArray::new(
                        f64_child(),
                        3,
                        Arc::new(Float64Array::from(vec![0.0; 3])),
                        None,
                    )),
                    None,
                )),
            ),
            ("colour", ids),
        ]),
    );
    let good_pairs = write(
        &dir,
        "good.arrow",
        batch(vec![
            ("a", Arc::new(UInt32Array::from(vec![1]))),
            ("b", Arc::new(UInt32Array::from(vec![1]))),
        ]),
    );
    let out = query(&points, &good_pairs);
    assert_eq!(out.status.code(), Some(2));
    let want =
        "colour.arrow: the shapes table has an unknown column `colour` (its columns are id, \
                points, radius)";
    assert!(stderr(&out).contains(want), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);
}
