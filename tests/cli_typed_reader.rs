//! `query`'s typed reader against the field-by-field reader it replaced on good lines: on a generated mix
//! of repeated shapes with bad lines, blank lines, byte order marks and CRLF endings among them, the binary's
//! output must be byte for byte what the field-by-field reader (`parse_line` on each line) followed by the
//! same CPU query and formatter writes (across the blocks `query` streams), and the parsed lines must be
//! equal one by one.

use gpu_gjk::batch::Threads;
use gpu_gjk::io::answers::{write_error, write_result};
use gpu_gjk::io::batch::{query_pair, Executor};
use gpu_gjk::io::jsonl::write_mix_file;
use gpu_gjk::io::jsonl::{parse_input, parse_line, split_lines, ParsedLine};
use gpu_gjk::scenario::MixSpec;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

/// Lines each parser must refuse, or read in a way the typed path does not take, with the field-by-field
/// reader's error (or answer) expected from both.
const ODD_LINES: [&str; 14] = [
    "{nope",
    r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,1e999]]}}"#,
    r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0]], "radius": null}}"#,
    r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0]], "pos": [1,2,3]}}"#,
    r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0]]}, "id": 3.5}"#,
    r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[1e999e5,0,0]]}}"#,
    r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,2e9]]}}"#,
    r#"{"a": {"points": []}, "b": {"points": [[0,0,0]]}}"#,
    r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0]], "rotation": [0,0,0,0]}}"#,
    r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0]], "radius": -0.5}}"#,
    r#"{"a": {"points": [[0,0,0],[1,2]]}, "b": {"points": [[0,0,0]]}}"#,
    // Accepted by the field-by-field reader (the last `a` wins), not by the typed path: same answer.
    r#"{"a": {"points": [[9,9,9]]}, "a": {"points": [[0,0,0]]}, "b": {"points": [[1,0,0]]}}"#,
    r#"[1, 2]"#,
    r#"{"a": {"points": [[0,0,0]]}, "b": {"points": [[0,0,0]], "position": [0,0,1e10]}}"#,
];

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpu-gjk-typed-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A generated mix of `pairs` pairs (shapes repeat across lines) with odd lines, blank lines, byte order
/// marks and CRLF endings mixed in.
fn mixed_input(dir: &std::path::Path, pairs: usize) -> Vec<u8> {
    let clean = dir.join("clean.jsonl");
    let mix = MixSpec {
        library_size: 40,
        hull_points: (8, 96),
        ..MixSpec::default()
    };
    write_mix_file(&clean, 7, pairs, &mix).unwrap();
    let text = std::fs::read(&clean).unwrap();
    let mut out = Vec::new();
    for (i, line) in split_lines(&text).into_iter().enumerate() {
        match i % 23 {
            3 => out.extend_from_slice(b"\xEF\xBB\xBF"),
            5 => out.extend_from_slice(b"\n \t\r\n"),
            _ => {}
        }
        out.extend_from_slice(line);
        out.extend_from_slice(if i % 7 == 0 { b"\r\n" } else { b"\n" });
        if i % 17 == 0 {
            out.extend_from_slice(ODD_LINES[(i / 17) % ODD_LINES.len()].as_bytes());
            out.push(b'\n');
        }
    }
    out
}

/// The output of the field-by-field reader, the CPU query and the formatter, line by line.
fn field_by_field_output(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, line) in split_lines(text).into_iter().enumerate() {
        if line.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r')) {
            out.push(b'\n');
            continue;
        }
        match parse_line(line) {
            Ok(pair) => {
                let (r, hit) = query_pair(&pair, gpu_gjk::query::advanced::AnswerKind::Penetration);
                write_result(&mut out, &r, hit.as_ref()).unwrap();
            }
            Err(message) => write_error(&mut out, &format!("line {}: {message}", i + 1)).unwrap(),
        }
    }
    out
}

#[test]
fn parsed_lines_equal_the_field_by_field_reader_and_repeated_shapes_are_shared() {
    let dir = scratch("parse");
    let text = mixed_input(&dir, 300);
    for threads in [Threads::Single, Threads::All] {
        let parsed = parse_input(&text, &Executor::new(threads).unwrap());
        let lines = split_lines(&text);
        assert_eq!(parsed.len(), lines.len());
        let mut errors = 0;
        for (i, (got, line)) in parsed.iter().zip(&lines).enumerate() {
            let blank = line.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r'));
            let expected = match parse_line(line) {
                _ if blank => ParsedLine::Blank,
                Ok(pair) => ParsedLine::Pair(pair),
                Err(message) => ParsedLine::Error(format!("line {}: {message}", i + 1).into()),
            };
            errors += usize::from(matches!(expected, ParsedLine::Error(_)));
            assert_eq!(*got, expected, "line {}", i + 1);
        }
        assert!(errors >= 10, "only {errors} bad lines in the mix");
        // 300 pairs over a library of 40 shapes: far fewer distinct allocations than shapes read.
        let mut distinct: Vec<*const gpu_gjk::ConvexShape> = parsed
            .iter()
            .filter_map(|l| match l {
                ParsedLine::Pair(p) => Some([Arc::as_ptr(&p.a.shape), Arc::as_ptr(&p.b.shape)]),
                _ => None,
            })
            .flatten()
            .collect();
        distinct.sort();
        distinct.dedup();
        assert!(
            distinct.len() <= 40 + ODD_LINES.len(),
            "{} shapes",
            distinct.len()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn query_output_is_byte_for_byte_the_field_by_field_readers() {
    let dir = scratch("query");
    // Several of the blocks `query` reads, parses, answers and writes at a time (256 KiB on one thread),
    // with odd, blank and CRLF lines in every block and lines cut by the blocks' ends.
    let text = mixed_input(&dir, 3000);
    assert!(text.len() > 8 << 18, "{} bytes", text.len());
    let input = dir.join("mixed.jsonl");
    std::fs::write(&input, &text).unwrap();
    let expected = field_by_field_output(&text);
    for threads in ["1", "0"] {
        let run = Command::new(env!("CARGO_BIN_EXE_gpu-gjk"))
            .args(["query", "--backend", "cpu", "--threads", threads])
            .arg(&input)
            .output()
            .unwrap();
        // Bad lines give exit code 2; the output still answers every line.
        assert_eq!(run.status.code(), Some(2), "threads {threads}");
        assert!(
            run.stdout == expected,
            "threads {threads}: outputs differ at byte {}",
            run.stdout
                .iter()
                .zip(&expected)
                .position(|(a, b)| a != b)
                .unwrap_or(run.stdout.len().min(expected.len()))
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
