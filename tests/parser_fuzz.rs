//! Fuzzer for `gpu-gjk query`'s line reader (`io::jsonl::parse_input`: cutting the input into lines and parsing
//! each), with proptest on stable Rust: random bytes, mutated valid lines, numbers of every size, deep nesting,
//! invalid UTF-8, CRLF line ends and byte order marks. The properties are about behaviour, not about how the
//! parser is written, so they hold for any parser that keeps the documented rules:
//!
//! - nothing panics;
//! - one outcome per input line, the lines cut as docs/commands.md says (`\n`, a `\r` before it dropped, the last
//!   newline starting no line, a byte order mark at the start of a line skipped);
//! - a line is blank (spaces and tabs) exactly when it is answered blank;
//! - every other line is a pair or an error whose message starts with `line N: ` for its own N, stays on
//!   one line and is short;
//! - a line's outcome does not depend on the other lines (the good lines of a batch are answered whatever
//!   the bad ones hold), and a valid line keeps its values;
//! - numbers: a coordinate or radius is accepted exactly when its value as written is within the 1e9 limit,
//!   and every refusal names the field; a quaternion is refused only when all zero, and is otherwise unit;
//! - time is linear in the input (separate tests compare 1 MB with 8 MB inputs of one shape, as a ratio),
//!   and a 50 MB line is read.
//!
//! CI runs a short budget with fixed seeds (the whole target well under a minute in debug builds). To fuzz
//! for longer:
//!
//! ```text
//! FUZZ_SECONDS=300 cargo test --release --test parser_fuzz -- --nocapture
//! ```
//!
//! Each property then loops over new seeds until 300 s have passed; without `FUZZ_SEED` the first seed is
//! drawn from the clock, `FUZZ_SEED=n` fixes it (round k uses n + k). A failure prints the seed and the
//! shrunk input.

mod common;

use common::fuzz::Budget;
use gpu_gjk::batch::Threads;
use gpu_gjk::io::batch::Executor;
use gpu_gjk::io::jsonl::{
    parse_input, parse_line, refused_line_id, split_lines, LineError, ParsedLine,
};
use proptest::prelude::*;
use std::time::Instant;

/// The most bytes an error message may have (field names and numbers in messages are cut short).
const MAX_MESSAGE: usize = 400;
/// The coordinate and radius limit, as docs/commands.md documents it.
const LIMIT: f64 = 1e9;

fn parse(input: &[u8]) -> Vec<ParsedLine> {
    let exec = Executor::new(Threads::Single).expect("a single-threaded executor");
    parse_input(input, &exec)
}

/// The documented line rule, written here independently of the crate.
fn expected_lines(input: &[u8]) -> Vec<&[u8]> {
    if input.is_empty() {
        return Vec::new();
    }
    let body = input.strip_suffix(b"\n").unwrap_or(input);
    body.split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .map(|l| l.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(l))
        .collect()
}

/// The lines as the input holds them, before any `\r` or byte order mark is taken off.
fn raw_lines(input: &[u8]) -> Vec<&[u8]> {
    if input.is_empty() {
        return Vec::new();
    }
    input
        .strip_suffix(b"\n")
        .unwrap_or(input)
        .split(|&b| b == b'\n')
        .collect()
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r'))
}

/// The outcome with the line number taken out of an error, to compare a line read alone and in a batch.
fn without_line_number(outcome: &ParsedLine, number: usize) -> Result<ParsedLine, String> {
    match outcome {
        ParsedLine::Error(message) => {
            let prefix = format!("line {number}: ");
            message
                .strip_prefix(&prefix)
                .map(|rest| ParsedLine::Error(rest.to_string().into()))
                .ok_or_else(|| {
                    format!("error for line {number} does not start with {prefix:?}: {message:?}")
                })
        }
        other => Ok(other.clone()),
    }
}

/// The properties every input must have; returns the outcomes for further checks.
fn check_input(input: &[u8]) -> Result<Vec<ParsedLine>, String> {
    let parsed = parse(input);
    let lines = expected_lines(input);
    if parsed.len() != lines.len() {
        return Err(format!(
            "{} outcomes for {} lines",
            parsed.len(),
            lines.len()
        ));
    }
    let raw = raw_lines(input);
    for (i, (line, outcome)) in lines.iter().zip(&parsed).enumerate() {
        let number = i + 1;
        if is_blank(line) != (*outcome == ParsedLine::Blank) {
            return Err(format!(
                "line {number} {:?}: {outcome:?}",
                String::from_utf8_lossy(line)
            ));
        }
        if let ParsedLine::Error(message) = outcome {
            if message.contains(['\n', '\r']) || message.len() > MAX_MESSAGE {
                return Err(format!(
                    "line {number}: message not one short line: {message:?}"
                ));
            }
        }
        let in_batch = without_line_number(outcome, number)?;
        // The same line alone, as line 1 (as written: the reader takes its `\r` and mark off once).
        let alone = parse(raw[i]);
        let alone = match alone.as_slice() {
            [] => ParsedLine::Blank,
            [one] => without_line_number(one, 1)?,
            many => return Err(format!("line {number} alone gave {} outcomes", many.len())),
        };
        if alone != in_batch {
            return Err(format!(
                "line {number} depends on its neighbours: alone {alone:?}, in the batch {in_batch:?}"
            ));
        }
    }
    Ok(parsed)
}

// ---------------------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------------------

/// Bytes that make JSON, and bytes that break it (a byte order mark, invalid UTF-8, CR).
const ALPHABET: &[u8] =
    b"{}[]\":,0123456789eE+-. \t\r\nabpoinstradusxyz\\\xEF\xBB\xBF\xFF\xC3\x28\x00";

fn json_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..300),
        prop::collection::vec(prop::sample::select(ALPHABET), 0..300),
    ]
}

/// A valid shape: 1 to 6 points, and each optional field present or not.
#[derive(Clone, Debug)]
struct Shape {
    points: Vec<[i32; 3]>,
    radius: Option<u8>,
    position: Option<[i32; 3]>,
    rotation: Option<[i8; 4]>,
}

impl Shape {
    fn json(&self) -> String {
        let point = |p: &[i32; 3]| format!("[{},{},{}]", p[0], p[1], p[2]);
        let mut fields = vec![format!(
            "\"points\": [{}]",
            self.points.iter().map(point).collect::<Vec<_>>().join(", ")
        )];
        if let Some(r) = self.radius {
            fields.push(format!("\"radius\": {}", f64::from(r) / 4.0));
        }
        if let Some(p) = &self.position {
            fields.push(format!("\"position\": {}", point(p)));
        }
        if let Some(q) = &self.rotation {
            fields.push(format!(
                "\"rotation\": [{},{},{},{}]",
                q[0], q[1], q[2], q[3]
            ));
        }
        format!("{{{}}}", fields.join(", "))
    }
}

fn shape() -> impl Strategy<Value = Shape> {
    let coordinate = -1000i32..1000;
    let point = [coordinate.clone(), coordinate.clone(), coordinate.clone()];
    let quaternion = any::<[i8; 4]>().prop_filter("not all zero", |q| q.iter().any(|&c| c != 0));
    (
        prop::collection::vec(point.clone(), 1..6),
        prop::option::of(any::<u8>()),
        prop::option::of(point),
        prop::option::of(quaternion),
    )
        .prop_map(|(points, radius, position, rotation)| Shape {
            points,
            radius,
            position,
            rotation,
        })
}

fn valid_line() -> impl Strategy<Value = (Shape, Shape)> {
    (shape(), shape())
}

fn pair_json((a, b): &(Shape, Shape)) -> String {
    format!("{{\"a\": {}, \"b\": {}}}", a.json(), b.json())
}

/// Snippets a mutation inserts: overflowing, malformed and tiny numbers, nesting, unknown fields, invalid
/// UTF-8, a byte order mark, line ends.
const SNIPPETS: &[&[u8]] = &[
    b"1e999",
    b"-1e999",
    b"1e999e5",
    b"1e-999",
    b"0.0000000000001",
    b"1000000001",
    b"99999999999999999999999999999999999999999",
    b"[[[[[[[[[[",
    b"{\"x\": ",
    b"\"pos\": [1,2,3], ",
    b"\xFF",
    b"\xEF\xBB\xBF",
    b"\r\n",
    b"\n",
    b"\"",
    b"\\",
    b"NaN",
    b",",
];

#[derive(Clone, Debug)]
enum Mutation {
    Insert(usize, usize),
    Delete(usize),
    Replace(usize, u8),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 0..SNIPPETS.len()).prop_map(|(at, s)| Mutation::Insert(at, s)),
        any::<usize>().prop_map(Mutation::Delete),
        (any::<usize>(), prop::sample::select(ALPHABET))
            .prop_map(|(at, b)| Mutation::Replace(at, b)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn mutate(mut bytes: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        let len = bytes.len().max(1);
        match *m {
            Mutation::Insert(at, s) => {
                let at = at % (bytes.len() + 1);
                bytes.splice(at..at, SNIPPETS[s].iter().copied());
            }
            Mutation::Delete(at) if !bytes.is_empty() => {
                bytes.remove(at % len);
            }
            Mutation::Replace(at, b) if !bytes.is_empty() => bytes[at % len] = b,
            Mutation::Truncate(at) => bytes.truncate(at % (bytes.len() + 1)),
            _ => {}
        }
    }
    bytes
}

/// A number as text: its value and how it is written (plain, exponent, many digits, overflowing).
fn number_text() -> impl Strategy<Value = String> {
    prop_oneof![
        (-2000.0f64..2000.0).prop_map(|x| format!("{x}")),
        (any::<i32>(), -400i32..400).prop_map(|(m, e)| format!("{m}e{e}")),
        (1u32..10, 0usize..320, any::<bool>()).prop_map(|(d, zeros, neg)| {
            format!("{}{d}{}", if neg { "-" } else { "" }, "0".repeat(zeros))
        }),
        (1u32..10, 0usize..40).prop_map(|(d, zeros)| format!("0.{}{d}", "0".repeat(zeros))),
        prop::sample::select(vec![
            "1e9",
            "-1e9",
            "1000000000",
            "1000000001",
            "1000000000.0001",
            "999999999.9999",
            "1e999",
            "-1e999",
            "0",
            "-0",
            "1e-400",
            "4.9e-324",
        ])
        .prop_map(str::to_string),
    ]
}

// ---------------------------------------------------------------------------------------------------------
// The runner: proptest with shrinking, fixed seeds in CI, FUZZ_SECONDS / FUZZ_SEED for longer runs
// ---------------------------------------------------------------------------------------------------------

/// [`common::fuzz::fuzz`] with this target's budget: `ci_cases` from a seed of its own per property in CI,
/// 2,000 per seed in a timed run.
fn fuzz<S>(name: &str, strategy: S, ci_cases: u32, check: impl Fn(&S::Value) -> Result<(), String>)
where
    S: Strategy,
    S::Value: std::fmt::Debug,
{
    let name_hash = name.bytes().fold(0xcbf29ce484222325u64, |h, c| {
        (h ^ c as u64).wrapping_mul(0x100000001b3)
    });
    let budget = Budget {
        ci_cases,
        round_cases: 2000,
        ci_seed: 20260601 ^ name_hash,
    };
    common::fuzz::fuzz(&format!("parser {name}"), strategy, budget, check);
}

// ---------------------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------------------

#[test]
fn random_bytes_never_panic_and_every_line_is_answered() {
    let input = prop::collection::vec(json_bytes(), 1..6).prop_map(|lines| lines.join(&b'\n'));
    fuzz("random_bytes", input, 400, |input| {
        check_input(input).map(|_| ())
    });
}

#[test]
fn mutated_valid_lines_leave_the_untouched_lines_answered() {
    let input = (
        prop::collection::vec(valid_line(), 1..6),
        prop::collection::vec(mutation(), 0..4),
        any::<bool>(),
        any::<bool>(),
    );
    fuzz(
        "mutated_lines",
        input,
        300,
        |(pairs, mutations, crlf, bom)| {
            let lines: Vec<String> = pairs.iter().map(pair_json).collect();
            let end = if *crlf { "\r\n" } else { "\n" };
            let mut text = if *bom {
                b"\xEF\xBB\xBF".to_vec()
            } else {
                Vec::new()
            };
            text.extend_from_slice(lines.join(end).as_bytes());
            text.extend_from_slice(end.as_bytes());
            // Unmutated: every line is a pair with the values written.
            let parsed = check_input(&text)?;
            for (i, ((a, b), outcome)) in pairs.iter().zip(&parsed).enumerate() {
                let ParsedLine::Pair(pair) = outcome else {
                    return Err(format!("valid line {} refused: {outcome:?}", i + 1));
                };
                for (shape, placed) in [(a, &pair.a), (b, &pair.b)] {
                    let radius = shape.radius.map_or(0.0, |r| f32::from(r) / 4.0);
                    let position = shape.position.map_or([0.0; 3], |p| p.map(f64::from));
                    let centre = {
                        let lo = (0..3).map(|k| shape.points.iter().map(|p| p[k]).min().unwrap());
                        let hi = (0..3).map(|k| shape.points.iter().map(|p| p[k]).max().unwrap());
                        lo.zip(hi)
                            .map(|(l, h)| f64::from(l + h) / 2.0)
                            .collect::<Vec<_>>()
                    };
                    if placed.shape.radius() != radius || placed.shape.len() != shape.points.len() {
                        return Err(format!(
                            "line {}: shape {shape:?} read as {placed:?}",
                            i + 1
                        ));
                    }
                    // The points are centred about `centre`, kept beside the pose: the pose of the centred
                    // points is position + R * centre.
                    let folded = placed.pose.folded();
                    let expect = glam::DVec3::from_array(position)
                        + folded.rotation * glam::DVec3::new(centre[0], centre[1], centre[2]);
                    if (folded.position - expect).length() > 1e-9 * (1.0 + expect.length()) {
                        return Err(format!(
                            "line {}: position {} for {shape:?}",
                            i + 1,
                            folded.position
                        ));
                    }
                    if (folded.rotation.length() - 1.0).abs() > 1e-12 {
                        return Err(format!("line {}: rotation not unit", i + 1));
                    }
                }
            }
            // Mutated: whatever it holds, every line untouched by the mutations is still the same pair.
            let mutated = mutate(text.clone(), mutations);
            let outcomes = check_input(&mutated)?;
            for (line, outcome) in expected_lines(&mutated).iter().zip(&outcomes) {
                if let Some(k) = lines.iter().position(|l| l.as_bytes() == *line) {
                    if outcome != &parsed[k] {
                        return Err(format!(
                            "untouched line {line:?} became {outcome:?}",
                            line = lines[k]
                        ));
                    }
                }
            }
            Ok(())
        },
    );
}

/// A point list of generated numbers, with or without spaces around its tokens.
fn point_list_text(points: &[[String; 3]], spaced: bool) -> String {
    let gap = if spaced { " " } else { "" };
    let point =
        |p: &[String; 3]| format!("[{gap}{}{gap},{gap}{}{gap},{gap}{}{gap}]", p[0], p[1], p[2]);
    let list: Vec<String> = points.iter().map(point).collect();
    format!("[{gap}{}{gap}]", list.join(&format!("{gap},{gap}")))
}

#[test]
fn every_line_reads_as_the_field_reader_reads_it() {
    // The typed path (with its shape cache, its own number reader and its own point-list reader) must give
    // every line the outcome `parse_line` gives it alone: the same pair to the bit, or the same error. The
    // same point list comes back on later lines with another radius and mutated, so cached lists, shapes
    // built for a second radius and near misses of a cached text are all read.
    let points = prop::collection::vec([number_text(), number_text(), number_text()], 1..4);
    let input = (
        points,
        any::<bool>(),
        number_text(),
        [number_text(), number_text(), number_text()],
        prop::collection::vec(mutation(), 0..3),
        // The pair's id: a number of any kind (most are no id), a plain string, or none.
        prop_oneof![
            number_text().prop_map(Some),
            Just(Some(r#""k-1""#.to_string())),
            Just(None)
        ],
    );
    fuzz(
        "typed_equals_field_reader",
        input,
        400,
        |(points, spaced, radius, position, mutations, id)| {
            let list = point_list_text(points, *spaced);
            let id = id
                .as_ref()
                .map_or(String::new(), |id| format!(r#", "id": {id}"#));
            let line = |radius: &str| {
                format!(
                    r#"{{"a": {{"points": {list}, "radius": {radius}, "position": [{}, {}, {}]}}, "b": {{"points": {list}}}{id}}}"#,
                    position[0], position[1], position[2]
                )
            };
            let first = line(radius).into_bytes();
            // The mutated copy stays bytes: invalid UTF-8 must reach both readers as written.
            let lines = [
                first.clone(),
                line("0.25").into_bytes(),
                first.clone(),
                mutate(first, mutations),
            ];
            let text = lines.join(&b'\n');
            let parsed = parse(&text);
            // The lines as the reader cuts them (a mutation may add a line end or a byte order mark).
            for (i, (line, outcome)) in split_lines(&text).into_iter().zip(&parsed).enumerate() {
                let expected = match parse_line(line) {
                    _ if is_blank(line) => ParsedLine::Blank,
                    Ok(pair) => ParsedLine::Pair(pair),
                    Err(message) => ParsedLine::Error(LineError {
                        message: format!("line {}: {message}", i + 1),
                        id: refused_line_id(line),
                    }),
                };
                if *outcome != expected {
                    let line = String::from_utf8_lossy(line);
                    return Err(format!(
                        "{line}: typed {outcome:?}, field reader {expected:?}"
                    ));
                }
            }
            Ok(())
        },
    );
}

/// Which field a bad number should be reported in, and why.
fn judge(text: &str) -> Option<&'static str> {
    let value: f64 = text.parse().expect("generated numbers parse");
    if value.is_infinite() {
        Some("overflows float64")
    } else if value.abs() > LIMIT {
        Some("beyond the coordinate limit")
    } else if too_small(text) {
        Some("too small for float32")
    } else {
        None
    }
}

/// Other than 0 as written and below float32's smallest normal number (1e-400, which float64 reads as 0,
/// included).
fn too_small(text: &str) -> bool {
    let value: f64 = text.parse().expect("generated numbers parse");
    let mantissa = text.split(['e', 'E']).next().unwrap_or(text);
    let written_zero = !mantissa.bytes().any(|b| matches!(b, b'1'..=b'9'));
    !written_zero && value.abs() < f32::MIN_POSITIVE as f64
}

#[test]
fn numbers_of_every_size_are_judged_by_their_value_as_written() {
    let input = (
        [number_text(), number_text(), number_text()],
        [number_text(), number_text(), number_text()],
        number_text(),
    );
    fuzz("numbers", input, 500, |(point, position, radius)| {
        let line = format!(
            r#"{{"a": {{"points": [[{}, {}, {}]], "radius": {radius}, "position": [{}, {}, {}]}}, "b": {{"points": [[0,0,0]]}}}}"#,
            point[0], point[1], point[2], position[0], position[1], position[2]
        );
        let parsed = check_input(line.as_bytes())?;
        // The first bad field in reading order: points, radius, position.
        let radius_problem = || {
            let r: f64 = radius.parse().unwrap();
            if r.is_infinite() {
                Some("overflows float64")
            } else if r < 0.0 {
                Some("is negative")
            } else if r > LIMIT {
                Some("beyond the radius limit")
            } else if too_small(radius) {
                Some("too small for float32")
            } else {
                None
            }
        };
        let expected = (0..3)
            .find_map(|k| judge(&point[k]).map(|why| (format!("a.points[0][{k}]: "), why)))
            .or_else(|| radius_problem().map(|why| ("a.radius: ".to_string(), why)))
            .or_else(|| {
                (0..3).find_map(|k| {
                    judge(&position[k]).map(|why| (format!("a.position[{k}]: "), why))
                })
            });
        match (&parsed[0], expected) {
            (ParsedLine::Pair(_), None) => Ok(()),
            (ParsedLine::Error(m), Some((path, why)))
                if m.starts_with(&format!("line 1: {path}")) && m.contains(why) =>
            {
                Ok(())
            }
            (outcome, expected) => Err(format!("{line}: got {outcome:?}, expected {expected:?}")),
        }
    });
}

#[test]
fn quaternions_of_every_size_are_unit_unless_all_zero() {
    let input = [number_text(), number_text(), number_text(), number_text()];
    fuzz("quaternions", input, 300, |q| {
        let line = format!(
            r#"{{"a": {{"points": [[0,0,0]], "rotation": [{}, {}, {}, {}]}}, "b": {{"points": [[0,0,0]]}}}}"#,
            q[0], q[1], q[2], q[3]
        );
        let values: Vec<f64> = q.iter().map(|t| t.parse().unwrap()).collect();
        let parsed = check_input(line.as_bytes())?;
        match &parsed[0] {
            ParsedLine::Pair(pair) => {
                let len = pair.a.pose.pose.rotation.length();
                if values.iter().all(|v| *v == 0.0) || (len - 1.0).abs() > 1e-12 {
                    return Err(format!(
                        "{line}: rotation {} of length {len}",
                        pair.a.pose.pose.rotation
                    ));
                }
                Ok(())
            }
            ParsedLine::Error(m) => {
                let overflow = values.iter().any(|v| v.is_infinite());
                let zero = values.iter().all(|v| *v == 0.0);
                let named = m.starts_with("line 1: a.rotation");
                if named && ((overflow && m.contains("overflows")) || (zero && m.contains("zero")))
                {
                    Ok(())
                } else {
                    Err(format!("{line}: {m}"))
                }
            }
            other => Err(format!("{line}: {other:?}")),
        }
    });
}

#[test]
fn nesting_at_any_depth_is_an_error_that_names_the_field() {
    let input = (1usize..3000, 0usize..4, any::<bool>());
    fuzz("nesting", input, 200, |(depth, field, objects)| {
        let open = if *objects { "{\"k\": " } else { "[" };
        let close = if *objects { "}" } else { "]" };
        let nest = format!("{}0{}", open.repeat(*depth), close.repeat(*depth));
        let (line, path) = match field {
            0 => (
                format!(r#"{{"a": {{"points": {nest}}}, "b": {{"points": [[0,0,0]]}}}}"#),
                "a.points",
            ),
            1 => (
                format!(
                    r#"{{"a": {{"points": [[0,0,0]], "extra": {nest}}}, "b": {{"points": [[0,0,0]]}}}}"#
                ),
                "a.extra",
            ),
            2 => (
                format!(
                    r#"{{"a": {{"points": [[0,0,0]]}}, "b": {{"points": [[0,0,0]]}}, "c": {nest}}}"#
                ),
                "c",
            ),
            _ => (nest.clone(), ""),
        };
        let parsed = check_input(line.as_bytes())?;
        let ParsedLine::Error(m) = &parsed[0] else {
            return Err(format!("depth {depth} accepted"));
        };
        let named = match *field {
            0 => m.starts_with(&format!("line 1: {path}")),
            1 | 2 => m.starts_with(&format!("line 1: {path}: unknown field")),
            _ => m.starts_with("line 1: "),
        };
        if named {
            Ok(())
        } else {
            Err(format!("depth {depth}, field {path}: {m}"))
        }
    });
}

// ---------------------------------------------------------------------------------------------------------
// Big inputs and time
// ---------------------------------------------------------------------------------------------------------

/// The best of three times to parse `input`.
fn best_time(input: &[u8]) -> f64 {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            let parsed = parse(input);
            std::hint::black_box(parsed);
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// An input of about `bytes` bytes made of `unit` repeated inside `head` and `tail`.
fn sized(head: &str, unit: &str, tail: &str, bytes: usize) -> Vec<u8> {
    let n = bytes / unit.len();
    let mut out = String::with_capacity(bytes + head.len() + tail.len());
    out.push_str(head);
    for i in 0..n {
        out.push_str(unit);
        if i + 1 < n {
            out.push(',');
        }
    }
    out.push_str(tail);
    out.into_bytes()
}

/// 8 MB takes about 8 times as long as 1 MB for every shape of input; a parser that re-reads a line per
/// number (the old overflow handling: 97 s for 50,000 `1e999` on one line) takes 64 times as long.
#[test]
fn reading_time_is_linear_in_the_input() {
    let ok = r#"{"points": [[0,0,0]]}"#;
    let pair = format!(r#"{{"a": {ok}, "b": {ok}}}"#);
    let points = r#"{"a": {"points": ["#.to_string();
    let shapes: [(&str, String, &str, &str); 6] = [
        (
            "overflowing numbers on one line",
            points.clone(),
            "[1e999,1e999,1e999]",
            "]}}",
        ),
        (
            "overflowing numbers, a malformed one last",
            points.clone(),
            "[1e999,1e999,1e999]",
            ",[1e999e5]]}}",
        ),
        (
            "valid points on one line",
            points.clone(),
            "[1.5,-2.25,3e2]",
            "]}}",
        ),
        (
            "valid points, a malformed number last",
            points,
            "[1.5,-2.25,3e2]",
            ",[1e5e5]]}}",
        ),
        ("short valid lines", String::new(), "", ""),
        ("bad lines", String::new(), "", ""),
    ];
    for (what, head, unit, tail) in shapes {
        let make = |bytes: usize| match what {
            "short valid lines" => format!("{pair}\n")
                .repeat(bytes / (pair.len() + 1))
                .into_bytes(),
            "bad lines" => b"{\"a\": [1e999e5, \xff]}\n".repeat(bytes / 20),
            _ => sized(&head, unit, tail, bytes),
        };
        let (small, large) = (make(1 << 20), make(8 << 20));
        let (t1, t8) = (best_time(&small), best_time(&large));
        let ratio = t8 / t1.max(1e-6);
        eprintln!(
            "{what}: 1 MB {:.1} ms, 8 MB {:.1} ms, ratio {ratio:.1}",
            t1 * 1e3,
            t8 * 1e3
        );
        assert!(
            ratio < 24.0,
            "{what}: 8 MB took {ratio:.1} times as long as 1 MB (linear: 8)"
        );
    }
}

#[test]
fn a_fifty_megabyte_line_is_read() {
    let ok = r#"{"points": [[0,0,0]]}"#;
    let size = 50 << 20;
    // A long string in a field the line may not have: the field is named.
    let line = format!(
        r#"{{"a": {ok}, "b": {ok}, "note": "{}"}}"#,
        "x".repeat(size)
    );
    let parsed = check_input(format!("{line}\n{{\"a\": {ok}, \"b\": {ok}}}\n").as_bytes()).unwrap();
    assert!(
        matches!(&parsed[0], ParsedLine::Error(m) if m.starts_with("line 1: note: unknown field")),
        "{:?}",
        parsed[0]
    );
    assert!(matches!(parsed[1], ParsedLine::Pair(_)));
    // 50 MB of opening brackets, and of bytes that are not UTF-8.
    let deep = "[".repeat(size);
    let parsed = parse(format!(r#"{{"a": {{"points": {deep}"#).as_bytes());
    assert!(
        matches!(&parsed[0], ParsedLine::Error(m) if m.starts_with("line 1: a.points: nested")),
        "{:?}",
        parsed[0]
    );
    let mut garbage = b"{\"a\": \"".to_vec();
    garbage.resize(size, 0xFF);
    let parsed = parse(&garbage);
    assert!(
        matches!(&parsed[0], ParsedLine::Error(m) if m.starts_with("line 1: not JSON")),
        "{:?}",
        parsed[0]
    );
}
