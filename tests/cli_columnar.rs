//! `gpu-gjk query` on columnar batches (Arrow IPC and Parquet): the same answers as the JSON Lines path for
//! the same pairs, field by field and bit for bit, the same errors for the same problems (named by table,
//! row and column), the schema kept through Parquet, and `--backend gpu` fed from the tables.

mod common;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, UInt32Type};
use arrow_array::{
    Array, ArrayRef, FixedSizeListArray, Float64Array, Int64Array, ListArray, RecordBatch,
    UInt32Array,
};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field, Schema};
use gpu_gjk::io::columnar::{
    answers_schema, pairs_schema, read_table, shapes_schema, write_table, BatchFormat,
};
use gpu_gjk::io::jsonl::write_mix_file;
use gpu_gjk::scenario::MixSpec;
use serde_json::value::RawValue;
use std::collections::HashMap;
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

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpu-gjk-columnar-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

const POINT: &str = r#"{"points": [[0,0,0]], "radius": 0.5}"#;

/// Lines that break one rule each, with the column the table names it by.
const BAD_LINES: [&str; 8] = [
    r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[1,0,0]], "rotation": [0,0,0,0]}}"#,
    r#"{"a": {"points": [[0,0,0]], "position": [2e9, 0, 0]}, "b": {"points": [[1,0,0]]}}"#,
    r#"{"a": {"points": [[0,0,0]], "radius": -1}, "b": {"points": [[1,0,0]]}}"#,
    r#"{"a": {"points": [[0,0,0]]}, "b": {"points": []}}"#,
    r#"{"a": {"points": [[0,0,0],[0,0,-3e9]]}, "b": {"points": [[1,0,0]]}}"#,
    r#"{"a": {"points": [[0,0,0]], "radius": 2e9}, "b": {"points": [[1,0,0]]}}"#,
    r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[1,0,0]], "position": [0, -1e10, 0]}}"#,
    r#"{"a": {"points": [[0,0,0]], "rotation": [0,0,0,0]}, "b": {"points": [[1,0,0]], "rotation": [0,0,0,0]}}"#,
];

/// A generated mix (shapes from a library, so they repeat) with rotations that need normalising, the bad
/// lines above spread through it, and exact touching and overlapping spheres.
fn mix_with_errors(dir: &Path, pairs: usize) -> PathBuf {
    let mix = dir.join("mix.jsonl");
    let spec = MixSpec {
        library_size: 40,
        hull_points: (4, 64),
        ..MixSpec::default()
    };
    write_mix_file(&mix, 7, pairs, &spec).unwrap();
    let text = std::fs::read_to_string(&mix).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let extra = [
        format!(
            r#"{{"a": {POINT}, "b": {{"points": [[0,0,0]], "radius": 0.5, "position": [1, 0, 0], "rotation": [0, 0, 0, 2]}}}}"#
        ),
        format!(
            r#"{{"a": {POINT}, "b": {{"points": [[0,0,0]], "radius": 0.5, "position": [0.5, 0, 0], "rotation": [1e154, 1e154, 0, 0]}}}}"#
        ),
    ];
    for (k, line) in BAD_LINES
        .iter()
        .map(|l| l.to_string())
        .chain(extra)
        .enumerate()
    {
        // Spread over the whole batch, so that the chunks the CPU answers and writes at a time (4,096
        // rows) each hold some.
        let at = (k * pairs / 9 + 3).min(lines.len());
        lines.insert(at, line);
    }
    std::fs::write(&mix, lines.join("\n") + "\n").unwrap();
    mix
}

/// `gpu-gjk convert` into `dir`: the shapes and pairs tables of `extension`.
fn convert(mix: &Path, dir: &Path, extension: &str) -> (PathBuf, PathBuf) {
    let shapes = dir.join(format!("shapes.{extension}"));
    let pairs = dir.join(format!("pairs.{extension}"));
    let out = run_convert(mix, &shapes, &pairs, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    (shapes, pairs)
}

/// `gpu-gjk convert INPUT --shapes SHAPES --pairs PAIRS`, then `more` arguments.
fn run_convert(input: &Path, shapes: &Path, pairs: &Path, more: &[&str]) -> Output {
    let args = [
        "convert",
        path(input),
        "--shapes",
        path(shapes),
        "--pairs",
        path(pairs),
    ];
    gpu_gjk(&[&args[..], more].concat())
}

/// `convert` of `lines` (in a scratch folder named `name`) fails, with `want` in its message.
fn assert_convert_refuses(name: &str, lines: &[&str], want: &str) {
    let dir = scratch(name);
    let input = dir.join("input.jsonl");
    std::fs::write(&input, lines.join("\n") + "\n").unwrap();
    let (shapes, pairs) = (dir.join("shapes.arrow"), dir.join("pairs.arrow"));
    let out = run_convert(&input, &shapes, &pairs, &[]);
    assert!(!out.status.success());
    let message = stderr(&out);
    assert!(message.contains(want), "{message}");
}

#[test]
fn convert_refuses_a_line_that_gives_a_key_twice() {
    let good = r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0]], "position": [3,0,0]}}"#;
    let repeated =
        r#"{"a": {"points": [[0,0,0]], "radius": -1, "radius": 2}, "b": {"points": [[0,0,0]]}}"#;
    assert_convert_refuses(
        "repeated-key",
        &[good, repeated],
        "line 2: a.radius: given twice",
    );
}

#[test]
fn convert_refuses_a_coordinate_that_float64_reads_as_zero() {
    // A quaternion component that small is 0, as in `query`; a coordinate is refused there, so here too.
    let good = r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0]], "position": [3,0,0], "rotation": [1e-400,0,0,1]}}"#;
    let vanishing = r#"{"a": {"points": [[0,0,0],[1e-400,0,0]]}, "b": {"points": [[0,0,0]]}}"#;
    let dir = scratch("vanishing-rotation");
    let input = dir.join("good.jsonl");
    std::fs::write(&input, format!("{good}\n")).unwrap();
    let out = run_convert(
        &input,
        &dir.join("shapes.arrow"),
        &dir.join("pairs.arrow"),
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_convert_refuses(
        "vanishing",
        &[good, vanishing],
        "line 2: a.points[1][0]: 1e-400 is too small for float32",
    );
}

fn read_all(file: &Path, format: BatchFormat) -> (Arc<Schema>, Vec<RecordBatch>) {
    let (schema, batches) = read_table(file, format).unwrap();
    (schema, batches.map(Result::unwrap).collect())
}

/// One JSON answer line as raw fields (numbers kept as written, to be parsed exactly by `str::parse`).
fn raw_fields(line: &str) -> HashMap<String, Box<RawValue>> {
    serde_json::from_str(line).unwrap()
}

fn number(raw: &RawValue) -> f64 {
    raw.get().parse().unwrap()
}

fn triple(raw: &RawValue) -> [f64; 3] {
    let list: Vec<Box<RawValue>> = serde_json::from_str(raw.get()).unwrap();
    [number(&list[0]), number(&list[1]), number(&list[2])]
}

fn column_triple(array: &dyn Array, row: usize) -> Option<[f64; 3]> {
    let list = array.as_fixed_size_list();
    if list.is_null(row) {
        return None;
    }
    let values = list.value(row);
    let values = values.as_primitive::<Float64Type>();
    Some([values.value(0), values.value(1), values.value(2)])
}

fn bits(v: [f64; 3]) -> [u64; 3] {
    v.map(f64::to_bits)
}

/// The message the columnar path gives for the JSON path's `json` (`line N: a.radius: -1 is negative`): the
/// row counted from 0, the column named `a_position`, a shape's own problem named by the shape's row.
fn columnar_message(json: &str, shape_ids: &[[u32; 2]]) -> String {
    let rest = json.strip_prefix("line ").unwrap();
    let (line, rest) = rest.split_once(": ").unwrap();
    let row: usize = line.parse::<usize>().unwrap() - 1;
    let (side, rest) = rest.split_once('.').unwrap();
    let id = shape_ids[row][usize::from(side == "b")];
    if rest.starts_with("points") || rest.starts_with("radius") {
        format!("pairs row {row}: {side}: shape {id} (shapes row {id}: {rest})")
    } else {
        format!("pairs row {row}: {side}_{rest}")
    }
}

/// Every answer row of `table` against the JSON answer line: each field, floats bit for bit, null where the
/// line has no such field; error rows against the JSON error, as the columnar path names the place.
fn assert_table_matches_lines(table: &[RecordBatch], json_lines: &[&str], shape_ids: &[[u32; 2]]) {
    let rows: usize = table.iter().map(RecordBatch::num_rows).sum();
    assert_eq!(rows, json_lines.len());
    let mut line = json_lines.iter();
    let mut errors = 0;
    for batch in table {
        let col = |name: &str| batch.column_by_name(name).unwrap().clone();
        let error = col("error");
        let error = error.as_string::<i32>();
        for r in 0..batch.num_rows() {
            let fields = raw_fields(line.next().unwrap());
            if let Some(message) = fields.get("error") {
                errors += 1;
                let json: String = serde_json::from_str(message.get()).unwrap();
                assert_eq!(error.value(r), columnar_message(&json, shape_ids));
                for name in ["intersecting", "distance", "witness_a", "status", "depth"] {
                    assert!(col(name).is_null(r), "{name} on an error row");
                }
                continue;
            }
            assert!(error.is_null(r), "{}", error.value(r));
            let intersecting = col("intersecting");
            assert_eq!(
                intersecting.as_boolean().value(r).to_string(),
                fields["intersecting"].get()
            );
            let iterations = col("iterations");
            assert_eq!(
                iterations.as_primitive::<UInt32Type>().value(r).to_string(),
                fields["iterations"].get()
            );
            for name in ["status", "penetration_status"] {
                let column = col(name);
                let got = (!column.is_null(r))
                    .then(|| format!("\"{}\"", column.as_string::<i32>().value(r)));
                assert_eq!(got.as_deref(), fields.get(name).map(|v| v.get()), "{name}");
            }
            for name in ["distance", "depth", "depth_upper"] {
                let column = col(name);
                let got = (!column.is_null(r))
                    .then(|| column.as_primitive::<Float64Type>().value(r).to_bits());
                assert_eq!(got, fields.get(name).map(|v| number(v).to_bits()), "{name}");
            }
            for name in ["witness_a", "witness_b", "normal", "contact_a", "contact_b"] {
                let got = column_triple(col(name).as_ref(), r).map(bits);
                assert_eq!(got, fields.get(name).map(|v| bits(triple(v))), "{name}");
            }
        }
    }
    assert_eq!(errors, BAD_LINES.len(), "each bad line is one error row");
}

fn shape_ids(pairs: &Path, format: BatchFormat) -> Vec<[u32; 2]> {
    let (_, batches) = read_all(pairs, format);
    let mut ids = Vec::new();
    for batch in &batches {
        let a = batch
            .column_by_name("a")
            .unwrap()
            .as_primitive::<UInt32Type>()
            .clone();
        let b = batch
            .column_by_name("b")
            .unwrap()
            .as_primitive::<UInt32Type>()
            .clone();
        ids.extend(a.values().iter().zip(b.values()).map(|(a, b)| [*a, *b]));
    }
    ids
}

#[test]
fn columnar_answers_equal_the_json_lines_answers_bit_for_bit() {
    let dir = scratch("equal");
    // More rows than one answers chunk (4,096 rows), with bad rows in each chunk.
    let mix = mix_with_errors(&dir, 9000);
    let json_out = gpu_gjk(&["query", path(&mix), "--backend", "cpu", "--threads", "1"]);
    assert_eq!(json_out.status.code(), Some(2), "bad lines fail the run");
    let json_text = String::from_utf8(json_out.stdout).unwrap();
    let json_lines: Vec<&str> = json_text.lines().collect();

    for (extension, format) in [
        ("arrow", BatchFormat::Arrow),
        ("parquet", BatchFormat::Parquet),
    ] {
        let (shapes, pairs) = convert(&mix, &dir, extension);
        let ids = shape_ids(&pairs, format);
        for threads in ["1", "0"] {
            let answers = dir.join(format!("answers-{threads}.{extension}"));
            let args = [
                "query",
                "--shapes",
                path(&shapes),
                path(&pairs),
                "--backend",
                "cpu",
            ];
            let out = gpu_gjk(
                &[
                    &args[..],
                    &["--threads", threads, "--output", path(&answers)],
                ]
                .concat(),
            );
            assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
            let (schema, table) = read_all(&answers, format);
            assert_eq!(schema, answers_schema());
            assert_table_matches_lines(&table, &json_lines, &ids);

            // Without --output: the JSON answer lines, byte for byte where answered.
            let out = gpu_gjk(&[&args[..], &["--threads", threads]].concat());
            let text = String::from_utf8(out.stdout).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines.len(), json_lines.len());
            for (got, want) in lines.iter().zip(&json_lines) {
                if !want.starts_with("{\"error\"") {
                    assert_eq!(got, want);
                }
            }
        }
    }
    // `--kind distance` and `intersection`: the same lines too (no penetration fields).
    let (shapes, pairs) = convert(&mix, &dir, "arrow");
    for kind in ["distance", "intersection"] {
        let json = gpu_gjk(&["query", path(&mix), "--backend", "cpu", "--kind", kind]);
        let table = gpu_gjk(&[
            "query",
            "--shapes",
            path(&shapes),
            path(&pairs),
            "--backend",
            "cpu",
            "--kind",
            kind,
        ]);
        let (json, table) = (
            String::from_utf8(json.stdout).unwrap(),
            String::from_utf8(table.stdout).unwrap(),
        );
        assert_eq!(json.lines().count(), table.lines().count());
        for (want, got) in json.lines().zip(table.lines()) {
            assert!(!want.contains("penetration_status"), "{want}");
            if !want.starts_with("{\"error\"") {
                assert_eq!(got, want);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn parquet_round_trips_the_schema_and_values() {
    let dir = scratch("roundtrip");
    let mix = mix_with_errors(&dir, 50);
    let (arrow_shapes, arrow_pairs) = convert(&mix, &dir, "arrow");
    let (shapes, pairs) = convert(&mix, &dir, "parquet");
    for (ipc, parquet, schema) in [
        (&arrow_shapes, &shapes, shapes_schema()),
        (&arrow_pairs, &pairs, pairs_schema()),
    ] {
        let (ipc_schema, ipc_batches) = read_all(ipc, BatchFormat::Arrow);
        let (parquet_schema, parquet_batches) = read_all(parquet, BatchFormat::Parquet);
        assert_eq!(ipc_schema, schema);
        assert_eq!(parquet_schema, schema);
        assert_eq!(ipc_batches, parquet_batches);
        // And written again from what was read: the same again.
        let again = dir.join("again.parquet");
        write_table(&again, BatchFormat::Parquet, &schema, &parquet_batches).unwrap();
        assert_eq!(read_all(&again, BatchFormat::Parquet).1, parquet_batches);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `batches` written as Parquet with `codec`, as Polars (zstd), pyarrow and Spark (snappy) or older tools
/// (gzip, LZ4) write them.
fn write_parquet(path: &Path, batches: &[RecordBatch], codec: parquet::basic::Compression) {
    let properties = parquet::file::properties::WriterProperties::builder()
        .set_compression(codec)
        .build();
    let file = std::fs::File::create(path).unwrap();
    let mut writer =
        parquet::arrow::ArrowWriter::try_new(file, batches[0].schema(), Some(properties)).unwrap();
    for batch in batches {
        writer.write(batch).unwrap();
    }
    writer.close().unwrap();
}

/// `batches` written as an Arrow IPC file with `codec` (pyarrow's `write_feather` uses LZ4 by default).
fn write_ipc(path: &Path, batches: &[RecordBatch], codec: Option<arrow_ipc::CompressionType>) {
    let options = arrow_ipc::writer::IpcWriteOptions::default()
        .try_with_compression(codec)
        .unwrap();
    let file = std::fs::File::create(path).unwrap();
    let mut writer =
        arrow_ipc::writer::FileWriter::try_new_with_options(file, &batches[0].schema(), options)
            .unwrap();
    for batch in batches {
        writer.write(batch).unwrap();
    }
    writer.finish().unwrap();
}

#[test]
fn tables_compressed_by_other_writers_are_read() {
    use parquet::basic::{Compression, GzipLevel, ZstdLevel};
    let dir = scratch("codecs");
    let mix = mix_with_errors(&dir, 120);
    let (shapes, pairs) = convert(&mix, &dir, "arrow");
    let query = |shapes: &Path, pairs: &Path| {
        let out = gpu_gjk(&[
            "query",
            "--shapes",
            path(shapes),
            path(pairs),
            "--backend",
            "cpu",
        ]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    let expected = query(&shapes, &pairs);
    assert_eq!(expected.lines().count(), 130);
    let (_, shape_batches) = read_all(&shapes, BatchFormat::Arrow);
    let (_, pair_batches) = read_all(&pairs, BatchFormat::Arrow);
    let codecs = [
        Compression::SNAPPY,
        Compression::ZSTD(ZstdLevel::default()),
        Compression::GZIP(GzipLevel::default()),
        Compression::LZ4_RAW,
        Compression::UNCOMPRESSED,
    ];
    for codec in codecs {
        let (s, p) = (dir.join("s.parquet"), dir.join("p.parquet"));
        write_parquet(&s, &shape_batches, codec);
        write_parquet(&p, &pair_batches, codec);
        assert_eq!(query(&s, &p), expected, "parquet {codec:?}");
    }
    for codec in [
        arrow_ipc::CompressionType::LZ4_FRAME,
        arrow_ipc::CompressionType::ZSTD,
    ] {
        let (s, p) = (dir.join("s.feather"), dir.join("p.feather"));
        write_ipc(&s, &shape_batches, Some(codec));
        write_ipc(&p, &pair_batches, Some(codec));
        assert_eq!(query(&s, &p), expected, "ipc {codec:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn vec_column(values: &[Option<[f64; 3]>]) -> ArrayRef {
    let flat: Vec<f64> = values.iter().flat_map(|v| v.unwrap_or([0.0; 3])).collect();
    let nulls = NullBuffer::from(values.iter().map(Option::is_some).collect::<Vec<_>>());
    Arc::new(FixedSizeListArray::new(
        Arc::new(Field::new_list_field(DataType::Float64, true)),
        3,
        Arc::new(Float64Array::from(flat)),
        Some(nulls),
    ))
}

fn quat_column(values: &[[f64; 4]]) -> ArrayRef {
    Arc::new(FixedSizeListArray::new(
        Arc::new(Field::new_list_field(DataType::Float64, true)),
        4,
        Arc::new(Float64Array::from(
            values.iter().flatten().copied().collect::<Vec<_>>(),
        )),
        None,
    ))
}

fn batch(columns: Vec<(&str, ArrayRef)>) -> RecordBatch {
    RecordBatch::try_from_iter(columns).unwrap()
}

/// Three single-point shapes in no particular id order: 30 a unit sphere at the origin, 10 the point (1, 0, 0),
/// 20 the origin.
fn shapes_table(dir: &Path) -> PathBuf {
    let points = vec_column(&[Some([0.0; 3]), Some([1.0, 0.0, 0.0]), Some([0.0; 3])]);
    let lists = ListArray::new(
        Arc::new(Field::new_list_field(points.data_type().clone(), true)),
        OffsetBuffer::new(vec![0, 1, 2, 3].into()),
        points,
        None,
    );
    let table = batch(vec![
        (
            "id",
            Arc::new(UInt32Array::from(vec![30, 10, 20])) as ArrayRef,
        ),
        ("points", Arc::new(lists)),
        ("radius", Arc::new(Float64Array::from(vec![1.0, 0.0, 0.0]))),
    ]);
    let file = dir.join("shapes.arrow");
    write_table(&file, BatchFormat::Arrow, &table.schema(), &[table]).unwrap();
    file
}

#[test]
fn bad_rows_are_error_rows_that_name_table_row_and_column() {
    let dir = scratch("bad-rows");
    let shapes = shapes_table(&dir);
    let nan = f64::NAN;
    let table = batch(vec![
        (
            "a",
            Arc::new(UInt32Array::from(vec![
                Some(10),
                Some(10),
                None,
                Some(10),
                Some(30),
                Some(10),
            ])) as ArrayRef,
        ),
        (
            "b",
            Arc::new(UInt32Array::from(vec![
                Some(20),
                Some(99),
                Some(20),
                Some(20),
                Some(10),
                Some(20),
            ])),
        ),
        (
            "a_position",
            vec_column(&[
                Some([0.0; 3]),
                Some([0.0; 3]),
                Some([0.0; 3]),
                Some([0.0, nan, 0.0]),
                Some([0.0; 3]),
                None,
            ]),
        ),
        ("a_rotation", quat_column(&[[0.0, 0.0, 0.0, 1.0]; 6])),
    ]);
    let pairs = dir.join("pairs.arrow");
    write_table(
        &pairs,
        BatchFormat::Arrow,
        &table.schema(),
        std::slice::from_ref(&table),
    )
    .unwrap();
    // The same rows as an IPC stream, with a name that does not say the format, and the rows cut into two
    // record batches (the row numbers count on across them).
    let stream = dir.join("pairs.bin");
    let mut writer = arrow_ipc::writer::StreamWriter::try_new(
        std::fs::File::create(&stream).unwrap(),
        &table.schema(),
    )
    .unwrap();
    writer.write(&table.slice(0, 2)).unwrap();
    writer.write(&table.slice(2, 4)).unwrap();
    writer.finish().unwrap();
    let streamed = gpu_gjk(&[
        "query",
        "--shapes",
        path(&shapes),
        path(&stream),
        "--format",
        "arrow",
        "--backend",
        "cpu",
    ]);
    let out = gpu_gjk(&[
        "query",
        "--shapes",
        path(&shapes),
        path(&pairs),
        "--backend",
        "cpu",
    ]);
    assert_eq!(streamed.stdout, out.stdout);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    // Points 1 apart along x; b has no pose columns, so it sits at its point.
    assert_eq!(lines[0]["distance"], 1.0);
    assert_eq!(lines[1]["error"], "pairs row 1: b: no shape has id 99");
    assert_eq!(
        lines[2]["error"],
        "pairs row 2: a: expected a shape id, got null"
    );
    assert_eq!(
        lines[3]["error"],
        "pairs row 3: a_position[1]: NaN is not a finite number"
    );
    // The unit sphere and the point (1, 0, 0): touching, depth 0, contact on the sphere at (1, 0, 0).
    assert_eq!(lines[4]["intersecting"], true);
    assert_eq!(lines[4]["depth"], 0.0);
    assert_eq!(lines[4]["contact_a"], serde_json::json!([1.0, 0.0, 0.0]));
    assert_eq!(
        lines[5]["error"],
        "pairs row 5: a_position: expected an array of 3 numbers, got null"
    );
    let errors = stderr(&out);
    assert!(
        errors.contains("pairs row 1: b: no shape has id 99"),
        "{errors}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A table's columns by name.
type Columns<'a> = Vec<(&'a str, ArrayRef)>;

#[test]
fn unreadable_tables_name_the_file_row_and_column() {
    let dir = scratch("bad-tables");
    let shapes = shapes_table(&dir);
    let good_pairs = batch(vec![
        ("a", Arc::new(UInt32Array::from(vec![10])) as ArrayRef),
        ("b", Arc::new(UInt32Array::from(vec![20]))),
    ]);
    let pairs = dir.join("pairs.arrow");
    write_table(
        &pairs,
        BatchFormat::Arrow,
        &good_pairs.schema(),
        &[good_pairs],
    )
    .unwrap();
    let run = |shapes: &Path| {
        let out = gpu_gjk(&["query", "--shapes", path(shapes), path(&pairs)]);
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty());
        stderr(&out)
    };
    let points = vec_column(&[Some([0.0; 3]), Some([1.0, 0.0, 0.0])]);
    let lists: ArrayRef = Arc::new(ListArray::new(
        Arc::new(Field::new_list_field(points.data_type().clone(), true)),
        OffsetBuffer::new(vec![0, 1, 2].into()),
        points,
        None,
    ));
    // (file, its columns, what the error must say)
    let cases: [(&str, Columns, &str); 4] = [
        (
            "twice.arrow",
            vec![
                ("id", Arc::new(UInt32Array::from(vec![4, 4]))),
                ("points", lists.clone()),
            ],
            "twice.arrow: shapes row 1: id: 4 is also the id of row 0",
        ),
        (
            "null.arrow",
            vec![
                ("id", Arc::new(UInt32Array::from(vec![Some(4), None]))),
                ("points", lists.clone()),
            ],
            "null.arrow: shapes row 1: id: null",
        ),
        (
            "signed.arrow",
            vec![
                ("id", Arc::new(Int64Array::from(vec![1, 2]))),
                ("points", lists),
            ],
            "signed.arrow: column `id`: expected uint32, got int64",
        ),
        (
            "no-points.arrow",
            vec![("id", Arc::new(UInt32Array::from(vec![1, 2])))],
            "no-points.arrow: the shapes table has no `points` column (it has: id)",
        ),
    ];
    for (name, columns, expected) in cases {
        let table = batch(columns);
        let file = dir.join(name);
        write_table(&file, BatchFormat::Arrow, &table.schema(), &[table]).unwrap();
        let errors = run(&file);
        assert!(errors.contains(expected), "{name}: {errors}");
    }
    // Usage: a table without --shapes, --shapes on JSON Lines, an answers table for JSON Lines.
    let out = gpu_gjk(&["query", path(&pairs)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("needs its shapes table: add --shapes FILE"),
        "{}",
        stderr(&out)
    );
    let out = gpu_gjk(&["query", "--shapes", path(&shapes), "-"]);
    assert!(
        stderr(&out).contains("--shapes is for a columnar pairs table"),
        "{}",
        stderr(&out)
    );
    let out = gpu_gjk(&["query", "-", "--output", path(&dir.join("a.parquet"))]);
    assert!(
        stderr(&out).contains("an answers table answers a columnar batch"),
        "{}",
        stderr(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--backend gpu` on the tables: the pairs go up from the columns, and the answers are those the GPU gives
/// for the same batch read as JSON Lines (the same shapes in the same order, the same poses).
#[test]
fn gpu_backend_on_tables_answers_as_on_json_lines() {
    let _guard = common::gpu::exclusive();
    let dir = scratch("gpu");
    let mix = mix_with_errors(&dir, 200);
    let (shapes, pairs) = convert(&mix, &dir, "arrow");
    let json = gpu_gjk(&["query", path(&mix), "--backend", "gpu"]);
    let errors = stderr(&json);
    if !json.status.success() && errors.contains("no GPU adapter") {
        assert_ne!(
            std::env::var("CI").as_deref(),
            Ok("true"),
            "CI=true requires an adapter: {errors}"
        );
        eprintln!("SKIPPED: {errors}");
        return;
    }
    let table = gpu_gjk(&[
        "query",
        "--shapes",
        path(&shapes),
        path(&pairs),
        "--backend",
        "gpu",
    ]);
    assert_eq!(table.status.code(), Some(2), "{}", stderr(&table));
    let want = String::from_utf8(json.stdout).unwrap();
    let got = String::from_utf8(table.stdout).unwrap();
    let want: Vec<&str> = want.lines().collect();
    let got: Vec<&str> = got.lines().collect();
    assert_eq!(got.len(), want.len());
    let mut answered = 0;
    for (g, w) in got.iter().zip(&want) {
        if w.starts_with("{\"error\"") {
            assert!(g.starts_with("{\"error\": \"pairs row "), "{g}");
        } else {
            assert_eq!(g, w);
            answered += 1;
        }
    }
    assert_eq!(answered, want.len() - BAD_LINES.len());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `bench --io` times the two table formats beside JSON Lines: a row each per thread setting, in the table
/// and the `--json` figures, with the stages adding up to the total.
#[test]
fn bench_io_has_arrow_and_parquet_rows() {
    let dir = scratch("bench-io");
    let json = dir.join("io.json");
    let out = gpu_gjk(&[
        "bench",
        "--io",
        "--pairs",
        "300",
        "--max-hull-points",
        "16",
        "--repeat",
        "1",
        "--json",
        path(&json),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = String::from_utf8(out.stdout).unwrap();
    for row in ["file to answers, Arrow IPC", "file to answers, Parquet"] {
        assert_eq!(table.matches(row).count(), 2, "{table}");
    }
    let document: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert!(document["arrow_ipc_bytes"].as_u64().unwrap() > 0);
    assert!(document["parquet_bytes"].as_u64().unwrap() > 0);
    let records = document["io"].as_array().unwrap();
    for format in ["Arrow IPC", "Parquet"] {
        for threads in ["1", "all"] {
            let record = records
                .iter()
                .find(|r| {
                    r["path"] == format!("file to answers, {format}") && r["threads"] == threads
                })
                .unwrap_or_else(|| panic!("no {format} record for {threads}: {document}"));
            let stage = |name: &str| record[name].as_f64().unwrap();
            let total = stage("total_s");
            assert!(total > 0.0, "{record}");
            assert!(
                (stage("read_parse_s") + stage("compute_s") + stage("write_s") - total).abs()
                    < 1e-9,
                "{record}"
            );
            assert!(
                (stage("pairs_per_s") * total - 300.0).abs() < 1e-6,
                "{record}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A pairs table without a single null (the reader's fast path, which reads such batches straight from
/// the value buffers) whose rows each break one value rule, on either side: each is an error row with the
/// message the checked path gives, and the good rows among them are answered, extreme quaternions included.
#[test]
fn bad_values_in_a_table_without_nulls_are_named() {
    let dir = scratch("bad-values");
    let shapes = shapes_table(&dir);
    let (nan, inf) = (f64::NAN, f64::INFINITY);
    let identity = [0.0, 0.0, 0.0, 1.0];
    // (a, b, a_position, a_rotation, b_position, b_rotation, expected: the distance or the error)
    type Row = (
        u32,
        u32,
        [f64; 3],
        [f64; 4],
        [f64; 3],
        [f64; 4],
        Result<f64, &'static str>,
    );
    let origin = [0.0; 3];
    let rows: [Row; 10] = [
        (10, 20, origin, identity, origin, identity, Ok(1.0)),
        (
            10,
            20,
            [0.0, nan, 0.0],
            identity,
            origin,
            identity,
            Err("pairs row 1: a_position[1]: NaN is not a finite number"),
        ),
        (
            10,
            20,
            origin,
            identity,
            origin,
            [0.0, 0.0, 0.0, inf],
            Err("pairs row 2: b_rotation[3]: inf is not a finite number"),
        ),
        (
            10,
            20,
            origin,
            [nan, 0.0, 0.0, 1.0],
            origin,
            identity,
            Err("pairs row 3: a_rotation[0]: NaN is not a finite number"),
        ),
        (
            10,
            20,
            origin,
            identity,
            [0.0, 0.0, -inf],
            identity,
            Err("pairs row 4: b_position[2]: -inf is not a finite number"),
        ),
        (
            10,
            20,
            origin,
            identity,
            [2e9, 0.0, 0.0],
            identity,
            Err("pairs row 5: b_position[0]: 2e9 is beyond the coordinate limit +-1e9"),
        ),
        (
            7,
            20,
            origin,
            identity,
            origin,
            identity,
            Err("pairs row 6: a: no shape has id 7"),
        ),
        (
            10,
            20,
            origin,
            identity,
            origin,
            [0.0; 4],
            Err("pairs row 7: b_rotation: zero quaternion (all four components are 0)"),
        ),
        // Half a turn about z, written with a huge component: the point (1, 0, 0) goes to (-1, 0, 0).
        (
            10,
            20,
            [5.0, 0.0, 0.0],
            [0.0, 0.0, 1e300, 0.0],
            [5.0, 0.0, 0.0],
            identity,
            Ok(1.0),
        ),
        (
            10,
            20,
            origin,
            [0.0, 0.0, 0.0, 1e-310],
            origin,
            [0.0, 0.0, 0.0, 1e-310],
            Ok(1.0),
        ),
    ];
    let table = batch(vec![
        (
            "a",
            Arc::new(UInt32Array::from(rows.map(|r| r.0).to_vec())) as ArrayRef,
        ),
        ("b", Arc::new(UInt32Array::from(rows.map(|r| r.1).to_vec()))),
        ("a_position", vec_column(&rows.map(|r| Some(r.2)))),
        ("a_rotation", quat_column(&rows.map(|r| r.3))),
        ("b_position", vec_column(&rows.map(|r| Some(r.4)))),
        ("b_rotation", quat_column(&rows.map(|r| r.5))),
    ]);
    let pairs = dir.join("pairs.arrow");
    write_table(&pairs, BatchFormat::Arrow, &table.schema(), &[table]).unwrap();
    let out = gpu_gjk(&[
        "query",
        "--shapes",
        path(&shapes),
        path(&pairs),
        "--backend",
        "cpu",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), rows.len());
    for (k, (line, row)) in lines.iter().zip(&rows).enumerate() {
        match row.6 {
            Ok(distance) => assert_eq!(line["distance"], distance, "row {k}: {line}"),
            Err(message) => assert_eq!(line["error"], message, "row {k}: {line}"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Asserts `out` failed with exit code 2 and a message holding every one of `want`.
fn assert_refused(out: &Output, want: &[&str]) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    for w in want {
        assert!(err.contains(w), "`{w}` missing from: {err}");
    }
}

#[test]
fn query_refuses_an_output_that_is_one_of_its_tables() {
    let dir = scratch("output-is-table");
    let mix = mix_with_errors(&dir, 20);
    let (shapes, pairs) = convert(&mix, &dir, "parquet");
    let (shapes_bytes, pairs_bytes) = (
        std::fs::read(&shapes).unwrap(),
        std::fs::read(&pairs).unwrap(),
    );
    for (output, what) in [(&pairs, "the input"), (&shapes, "the shapes table")] {
        let out = gpu_gjk(&[
            "query",
            "--shapes",
            path(&shapes),
            path(&pairs),
            "--backend",
            "cpu",
            "--output",
            path(output),
        ]);
        assert_refused(&out, &["--output", path(output), what, "same file"]);
        assert!(out.stdout.is_empty());
        assert_eq!(std::fs::read(&shapes).unwrap(), shapes_bytes);
        assert_eq!(std::fs::read(&pairs).unwrap(), pairs_bytes);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn convert_refuses_tables_named_as_each_other_or_as_the_input() {
    let dir = scratch("convert-same");
    let mix = mix_with_errors(&dir, 20);
    let mix_bytes = std::fs::read(&mix).unwrap();
    let same = dir.join("same.arrow");
    let out = run_convert(&mix, &same, &same, &[]);
    assert_refused(&out, &["--pairs", "same file as --shapes", path(&same)]);
    assert!(!same.exists(), "nothing was written");
    // The input as a table, with --format since its name says JSON Lines.
    for flag in ["--shapes", "--pairs"] {
        let other = dir.join("other.arrow");
        let (shapes, pairs) = if flag == "--shapes" {
            (&mix, &other)
        } else {
            (&other, &mix)
        };
        let out = run_convert(&mix, shapes, pairs, &["--format", "arrow"]);
        assert_refused(&out, &[flag, "same file as the input", path(&mix)]);
        assert_eq!(std::fs::read(&mix).unwrap(), mix_bytes);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn convert_writes_each_table_in_the_format_its_name_says() {
    let dir = scratch("convert-mixed");
    let mix = mix_with_errors(&dir, 30);
    let (shapes, pairs) = (dir.join("m.arrow"), dir.join("m.parquet"));
    let out = run_convert(&mix, &shapes, &pairs, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(&std::fs::read(&shapes).unwrap()[..6], b"ARROW1");
    assert_eq!(&std::fs::read(&pairs).unwrap()[..4], b"PAR1");
    // `query` reads the mixed pair and answers as on the JSON lines.
    let json = gpu_gjk(&["query", path(&mix), "--backend", "cpu"]);
    let table = gpu_gjk(&[
        "query",
        "--shapes",
        path(&shapes),
        path(&pairs),
        "--backend",
        "cpu",
    ]);
    assert_eq!(table.status.code(), Some(2), "{}", stderr(&table));
    let (json, table) = (
        String::from_utf8(json.stdout).unwrap(),
        String::from_utf8(table.stdout).unwrap(),
    );
    assert_eq!(json.lines().count(), table.lines().count());
    for (want, got) in json.lines().zip(table.lines()) {
        if !want.starts_with("{\"error\"") {
            assert_eq!(got, want);
        }
    }

    // --format that a name contradicts, --format jsonl, and a table named as JSON Lines are refused.
    let run = |shapes: &str, pairs: &str, format: &[&str]| {
        run_convert(&mix, &dir.join(shapes), &dir.join(pairs), format)
    };
    let out = run("s.arrow", "p.arrow", &["--format", "parquet"]);
    assert_refused(
        &out,
        &[
            "--shapes",
            "s.arrow",
            "says Arrow IPC",
            "--format says Parquet",
        ],
    );
    let out = run("s.bin", "p.bin", &["--format", "jsonl"]);
    assert_refused(
        &out,
        &["--format jsonl", "not a table format", "arrow", "parquet"],
    );
    let out = run("s.arrow", "p.jsonl", &[]);
    assert_refused(&out, &["--pairs", "p.jsonl", "says JSON Lines"]);
    let out = run("s.bin", "p.bin", &[]);
    assert_refused(&out, &["s.bin", "p.bin", "--format arrow|parquet"]);
    for name in ["s.arrow", "p.arrow", "s.bin", "p.bin", "p.jsonl"] {
        assert!(!dir.join(name).exists(), "{name} was written");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `convert` and `query` read a line by one set of rules: a line `query` refuses is either a row `query`
/// refuses too, or refused by `convert` with `query`'s words for it, naming the line. A position of 1e-320
/// (float64 holds it, `query` refuses it as too small for float32) was converted into a row the tables
/// answered.
#[test]
fn convert_refuses_a_line_query_refuses_unless_its_row_is_refused_too() {
    let dir = scratch("convert-verdicts");
    let good = r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[1,0,0]]}}"#;
    let others = [
        r#"{"a": {"points": [[0,0,0]], "position": [1e-320, 0, 0]}, "b": {"points": [[1,0,0]]}}"#,
        r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[1,0,0]], "position": [0, 0, -4e-310]}}"#,
        r#"{"a": {"points": [[0,0,0]], "radius": 1e-40}, "b": {"points": [[1,0,0]]}}"#,
        r#"{"a": {"points": [[0,0,1e-45]]}, "b": {"points": [[1,0,0]]}}"#,
        "\u{0C}",
    ];
    let (shapes, pairs) = (dir.join("shapes.arrow"), dir.join("pairs.arrow"));
    for (k, bad) in BAD_LINES.iter().chain(&others).enumerate() {
        let input = dir.join(format!("line-{k}.jsonl"));
        std::fs::write(&input, format!("{good}\n{bad}\n{good}\n")).unwrap();
        let _ = (std::fs::remove_file(&shapes), std::fs::remove_file(&pairs));
        let query = gpu_gjk(&["query", path(&input), "--backend", "cpu"]);
        let answers = String::from_utf8(query.stdout).unwrap();
        let refusal = answers.lines().nth(1).unwrap();
        let why: serde_json::Value = serde_json::from_str(refusal).unwrap();
        let why = why["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{bad}: {refusal}"));
        assert!(why.starts_with("line 2: "), "{why}");

        let converted = run_convert(&input, &shapes, &pairs, &[]);
        if converted.status.success() {
            let table = gpu_gjk(&[
                "query",
                "--shapes",
                path(&shapes),
                path(&pairs),
                "--backend",
                "cpu",
            ]);
            let text = String::from_utf8(table.stdout).unwrap();
            let row = text.lines().nth(1).unwrap();
            assert!(
                row.starts_with(r#"{"error": "pairs row 1: "#),
                "{bad}: {row}"
            );
        } else {
            let err = stderr(&converted);
            assert!(
                err.contains(&format!("{}: {why}", path(&input))),
                "{bad}: {err}"
            );
            assert!(
                !shapes.exists() && !pairs.exists(),
                "{bad}: no table written"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
