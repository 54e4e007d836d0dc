//! A pair's `id` through the binary: given on a JSON Lines line or as an `id` column of a pairs table, it is
//! echoed with the pair's answer (first on the answer line, an `id` column of the answers table), on the
//! CPU and the GPU, and carried through `convert`; an id that is not an integer or a string is an error
//! naming its line or its column. GPU runs are skipped without an adapter, except under `CI=true`.

use arrow_array::cast::AsArray;
use arrow_array::types::{Int64Type, UInt64Type};
use arrow_array::{
    Array, ArrayRef, Float64Array, LargeStringArray, RecordBatch, StringArray, UInt64Array,
};
use arrow_schema::{DataType, Field, Schema};
use gpu_gjk::io::columnar::{read_table, write_table, BatchFormat};
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::Arc;

fn gpu_gjk(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gpu-gjk runs");
    let mut input = child.stdin.take().unwrap();
    let text = stdin.to_owned();
    let writer = std::thread::spawn(move || input.write_all(text.as_bytes()));
    let out = child.wait_with_output().unwrap();
    let _ = writer.join().unwrap();
    out
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn lines(out: &Output) -> Vec<Value> {
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}")))
        .collect()
}

/// True (after printing SKIPPED) when `--backend gpu` found no adapter; fails instead under `CI=true`.
fn no_adapter(out: &Output) -> bool {
    let text = stderr(out);
    if !out.status.success() && text.contains("no GPU adapter") {
        assert_ne!(std::env::var("CI").as_deref(), Ok("true"), "{text}");
        eprintln!("SKIPPED: {text}");
        return true;
    }
    false
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpu-gjk-ids-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A unit sphere at the origin and one at (x, 0, 0), with `id` (JSON text) first when given.
fn pair(id: Option<&str>, x: f64) -> String {
    let sides = format!(
        r#""a": {{"points": [[0,0,0]], "radius": 1}}, "b": {{"points": [[0,0,0]], "radius": 1, "position": [{x}, 0, 0]}}"#
    );
    match id {
        Some(id) => format!(r#"{{"id": {id}, {sides}}}"#),
        None => format!("{{{sides}}}"),
    }
}

#[test]
fn json_lines_ids_come_first_on_their_answer_lines_on_the_cpu_and_the_gpu() {
    let input = [
        pair(Some("7"), 3.0),
        // The id after the shapes, and with spaces: still first on the answer line.
        r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[1,0,0]]},  "id" : "pair-8"}"#.to_string(),
        pair(None, 1.0),
        pair(Some("18446744073709551615"), 2.5),
        pair(Some("-3"), 0.5),
        // Ids need not be unique.
        pair(Some("7"), 4.0),
        // A line refused for its shape keeps its id on the error line.
        r#"{"id": "bad-shape", "a": {"points": []}, "b": {"points": [[0,0,0]]}}"#.to_string(),
        // An id that is not one is the line's error.
        pair(Some("1.5"), 3.0),
        pair(Some("true"), 3.0),
        pair(Some(r#"{"k": 1}"#), 3.0),
    ]
    .join("\n")
        + "\n";
    let mut runs = vec![
        vec!["--backend", "cpu"],
        vec!["--backend", "cpu", "--threads", "1"],
    ];
    runs.push(vec!["--backend", "gpu"]);
    for args in runs {
        let out = gpu_gjk(&[&["query"][..], &args].concat(), &input);
        if args[1] == "gpu" && no_adapter(&out) {
            continue;
        }
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let answers = lines(&out);
        assert_eq!(answers.len(), 10, "{args:?}");
        let ids: Vec<Value> = answers.iter().map(|a| a["id"].clone()).collect();
        assert_eq!(ids[0], serde_json::json!(7));
        assert_eq!(ids[1], serde_json::json!("pair-8"));
        assert_eq!(ids[2], Value::Null);
        assert!(answers[2].get("id").is_none(), "{}", answers[2]);
        assert_eq!(ids[3], serde_json::json!(18446744073709551615u64));
        assert_eq!(ids[4], serde_json::json!(-3));
        assert_eq!(ids[5], serde_json::json!(7));
        assert_eq!(ids[6], serde_json::json!("bad-shape"));
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        for (answer, line) in answers.iter().zip(text.lines()) {
            assert_eq!(
                answer.get("id").is_some(),
                line.starts_with(r#"{"id": "#),
                "{line}"
            );
        }
        for (k, answer) in answers.iter().enumerate() {
            assert_eq!(answer.get("error").is_some(), k >= 6, "{answer}");
        }
        assert_eq!(answers[0]["distance"], 1.0);
        assert_eq!(answers[5]["distance"], 2.0);
        assert!(answers[6]["error"]
            .as_str()
            .unwrap()
            .starts_with("line 7: a.points"));
        for (k, got) in [(7, "the number 1.5"), (8, "a boolean"), (9, "an object")] {
            assert_eq!(
                answers[k]["error"],
                format!(
                    "line {}: id: expected a string or an integer from -2^63 to 2^64 - 1, got {got}",
                    k + 1
                ),
                "{args:?}"
            );
            assert!(answers[k].get("id").is_none());
        }
    }
}

/// `convert` then `query`, answers to `answers` (a table or JSON Lines by its name).
fn convert_and_query(dir: &Path, jsonl: &str, answers: &str) -> (PathBuf, PathBuf, Output) {
    let input = dir.join("pairs.jsonl");
    std::fs::write(&input, jsonl).unwrap();
    let (shapes, pairs) = (dir.join("shapes.arrow"), dir.join("pairs.arrow"));
    let out = gpu_gjk(
        &[
            "convert",
            path(&input),
            "--shapes",
            path(&shapes),
            "--pairs",
            path(&pairs),
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = query_tables(&shapes, &pairs, &dir.join(answers));
    (shapes, pairs, out)
}

fn query_tables(shapes: &Path, pairs: &Path, answers: &Path) -> Output {
    gpu_gjk(
        &[
            "query",
            "--backend",
            "cpu",
            path(pairs),
            "--shapes",
            path(shapes),
            "--output",
            path(answers),
        ],
        "",
    )
}

fn table(path: &Path) -> (Arc<Schema>, Vec<RecordBatch>) {
    let (schema, batches) = read_table(path, BatchFormat::Arrow).unwrap();
    (schema, batches.map(Result::unwrap).collect())
}

#[test]
fn convert_carries_ids_into_the_pairs_table_and_query_into_the_answers_table() {
    let dir = scratch("convert");
    let jsonl = [pair(Some("7"), 3.0), pair(None, 1.0), pair(Some("-2"), 2.5)].join("\n");
    let (_, pairs, out) = convert_and_query(&dir, &jsonl, "answers.arrow");
    assert!(out.status.success(), "{}", stderr(&out));
    let (schema, batches) = table(&pairs);
    assert_eq!(
        schema.field_with_name("id").unwrap().data_type(),
        &DataType::Int64
    );
    let (schema, batches_out) = table(&dir.join("answers.arrow"));
    assert_eq!(schema.field(0).name(), "id");
    assert_eq!(schema.field(0).data_type(), &DataType::Int64);
    let ids = batches_out[0].column(0).as_primitive::<Int64Type>();
    assert_eq!(ids.iter().collect::<Vec<_>>(), [Some(7), None, Some(-2)]);
    assert_eq!(batches[0].num_rows(), 3);
    // The same tables answered as JSON Lines: the ids first on their lines.
    let out = query_tables(
        &dir.join("shapes.arrow"),
        &pairs,
        &dir.join("answers.jsonl"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(dir.join("answers.jsonl")).unwrap();
    let answers: Vec<&str> = text.lines().collect();
    assert!(
        answers[0].starts_with(r#"{"id": 7, "intersecting": false"#),
        "{text}"
    );
    assert!(answers[1].starts_with(r#"{"intersecting": true"#), "{text}");
    assert!(answers[2].starts_with(r#"{"id": -2, "#), "{text}");

    // String ids make a utf8 column; ids of both kinds cannot share one.
    let jsonl = [pair(Some(r#""x""#), 3.0), pair(Some(r#""y""#), 1.0)].join("\n");
    let (_, pairs, out) = convert_and_query(&dir, &jsonl, "answers.arrow");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        table(&pairs).0.field_with_name("id").unwrap().data_type(),
        &DataType::Utf8
    );
    let (_, answers) = table(&dir.join("answers.arrow"));
    let ids = answers[0].column(0).as_string::<i32>();
    assert_eq!(ids.iter().collect::<Vec<_>>(), [Some("x"), Some("y")]);
    let input = dir.join("mixed.jsonl");
    std::fs::write(
        &input,
        [pair(Some(r#""x""#), 3.0), pair(Some("1"), 3.0)].join("\n"),
    )
    .unwrap();
    let out = gpu_gjk(
        &[
            "convert",
            path(&input),
            "--shapes",
            path(&dir.join("s.arrow")),
            "--pairs",
            path(&dir.join("p.arrow")),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("line 2: id: an integer here but a string on line 1"),
        "{}",
        stderr(&out)
    );
    // A line whose id is no id stops the conversion with `query`'s error for it.
    std::fs::write(&input, pair(Some("true"), 3.0)).unwrap();
    let out = gpu_gjk(
        &[
            "convert",
            path(&input),
            "--shapes",
            path(&dir.join("s.arrow")),
            "--pairs",
            path(&dir.join("p.arrow")),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("line 1: id: expected a string or an integer"),
        "{}",
        stderr(&out)
    );
}

/// The pairs table at `pairs` with an `id` column `ids` added, written to `name` in `dir`.
fn with_id_column(dir: &Path, pairs: &Path, name: &str, ids: ArrayRef) -> PathBuf {
    let (schema, batches) = table(pairs);
    let mut fields: Vec<Field> = schema.fields().iter().map(|f| f.as_ref().clone()).collect();
    fields.push(Field::new("id", ids.data_type().clone(), true));
    let schema = Arc::new(Schema::new(fields));
    let mut columns = batches[0].columns().to_vec();
    columns.push(ids);
    let batch = RecordBatch::try_new(schema.clone(), columns).unwrap();
    let file = dir.join(name);
    write_table(&file, BatchFormat::Arrow, &schema, &[batch]).unwrap();
    file
}

#[test]
fn an_id_column_keeps_its_type_in_the_answers_and_other_types_are_refused() {
    let dir = scratch("columns");
    let jsonl = [pair(None, 3.0), pair(None, 1.0)].join("\n");
    let (shapes, pairs, out) = convert_and_query(&dir, &jsonl, "plain.arrow");
    assert!(out.status.success(), "{}", stderr(&out));
    // Without ids, no id column.
    assert!(table(&dir.join("plain.arrow"))
        .0
        .field_with_name("id")
        .is_err());
    let answers = dir.join("answers.arrow");
    let big: ArrayRef = Arc::new(UInt64Array::from(vec![Some(u64::MAX), None]));
    let file = with_id_column(&dir, &pairs, "big.arrow", big);
    let out = query_tables(&shapes, &file, &answers);
    assert!(out.status.success(), "{}", stderr(&out));
    let (schema, batches) = table(&answers);
    assert_eq!(schema.field(0).data_type(), &DataType::UInt64);
    let ids = batches[0].column(0).as_primitive::<UInt64Type>();
    assert_eq!(ids.iter().collect::<Vec<_>>(), [Some(u64::MAX), None]);

    let large: ArrayRef = Arc::new(LargeStringArray::from(vec!["p", "q"]));
    let file = with_id_column(&dir, &pairs, "large.arrow", large.clone());
    let out = query_tables(&shapes, &file, &answers);
    assert!(out.status.success(), "{}", stderr(&out));
    let (schema, batches) = table(&answers);
    assert_eq!(schema.field(0).data_type(), &DataType::LargeUtf8);
    assert_eq!(batches[0].column(0).as_ref(), large.as_ref());
    let strings: ArrayRef = Arc::new(StringArray::from(vec!["p", "p"]));
    let file = with_id_column(&dir, &pairs, "strings.arrow", strings);
    let out = query_tables(&shapes, &file, &dir.join("answers.jsonl"));
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(dir.join("answers.jsonl")).unwrap();
    assert!(
        text.lines().all(|l| l.starts_with(r#"{"id": "p", "#)),
        "{text}"
    );

    let floats: ArrayRef = Arc::new(Float64Array::from(vec![1.0, 2.0]));
    let file = with_id_column(&dir, &pairs, "floats.arrow", floats);
    let out = query_tables(&shapes, &file, &answers);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("floats.arrow: column `id`: expected integers or strings"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("got float64"), "{}", stderr(&out));
    assert_eq!(out.stdout.len(), 0);
}
