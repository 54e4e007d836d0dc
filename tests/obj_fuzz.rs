//! Fuzzer for the OBJ loader (`gpu_gjk::shape::load_obj_points`): files of `v` lines whose numbers are drawn
//! from every size a file may hold (ordinary, below float32's smallest normal number, below float64's, beyond
//! the coordinate limit and float32's range, zeros written every way, `nan` and `inf`, words that are no
//! number), with and without a weight `w`, and faces over them. The numbers are built from their digits and
//! exponent, so the fuzzer knows each one's size without reading it the way the loader does. Required:
//!
//! - nothing panics;
//! - a file whose `v` lines are all usable loads, with exactly the points tobj reads (float32, divided by `w` in
//!   float32) of the vertices its faces use;
//! - otherwise the error names the first unusable `v` line: a coordinate (after `w`) beyond +-1e9, or other
//!   than 0 and below 1.1754944e-38, not a number, or not a word that reads as one; a `w` that is 0 in
//!   float32.
//!
//! CI runs a short budget with a fixed seed. `FUZZ_SECONDS=120 cargo test --release --test obj_fuzz --
//! --nocapture` loops over new seeds for 120 s (`FUZZ_SEED=n` fixes the first).

mod common;

use common::fuzz::{fuzz, Budget};
use glam::Vec3;
use gpu_gjk::pose::COORDINATE_LIMIT;
use gpu_gjk::shape::load_obj_points;
use gpu_gjk::GjkError;
use proptest::prelude::*;
use std::collections::HashSet;
use std::path::PathBuf;

/// Files per CI run (fixed seed).
const CI_CASES: u32 = 300;
/// Files per seed in a timed run.
const ROUND_CASES: u32 = 2000;

/// One number as written, and what it is.
#[derive(Clone, Debug)]
struct Number {
    text: String,
    kind: Size,
}

/// A number's size, known from how it was built: `log10` of its magnitude (to within 0.01) when finite and
/// other than 0.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Size {
    Zero,
    Finite {
        log10: f64,
    },
    NotANumber,
    Infinite,
    /// A word no float parser reads.
    Word,
}

/// Digits `d.ddd` (first digit 1-9) times 10^exponent, either sign, written as `d.ddde7`, `d.dddE+7` or
/// `dddde4` (the digits as a whole number, the exponent shifted), or for 10^-41 as a plain decimal with 40
/// zeros after the point (no exponent at all). Sizes near a limit are left out where the vertex is drawn.
fn finite(exponents: impl Strategy<Value = i32>) -> impl Strategy<Value = Number> {
    (1u32..10, 0u32..1000, exponents, any::<bool>(), 0u8..3).prop_map(
        |(lead, rest, exponent, negative, style)| {
            let sign = if negative { "-" } else { "" };
            let log10 = exponent as f64 + (lead as f64 + rest as f64 / 1000.0).log10();
            let text = match style {
                0 => format!("{sign}{lead}.{rest:03}e{exponent}"),
                1 => format!("{sign}{lead}.{rest:03}E{exponent:+}"),
                // Exactly 1e-41 times the digits: 40 zeros after the point, no exponent to find.
                _ if exponent == -41 => format!("{sign}0.{}{lead}{rest:03}", "0".repeat(40)),
                _ => format!("{sign}{lead}{rest:03}e{}", exponent - 3),
            };
            Number {
                text,
                kind: Size::Finite { log10 },
            }
        },
    )
}

fn number() -> impl Strategy<Value = Number> {
    let fixed = |text: &str, kind: Size| {
        Just(Number {
            text: text.to_string(),
            kind,
        })
    };
    // Mostly ordinary numbers, so that many files are usable and one hostile number decides the others.
    prop_oneof![
        24 => finite(-6i32..7),
        2 => finite(prop_oneof![-420i32..-300, -50i32..-30, 30i32..45, 300i32..320]),
        1 => prop_oneof![
            fixed("0", Size::Zero),
            fixed("-0.0", Size::Zero),
            fixed("0e-999", Size::Zero),
            fixed("0.000e45", Size::Zero),
            fixed("nan", Size::NotANumber),
            fixed("inf", Size::Infinite),
            fixed("-inf", Size::Infinite),
            fixed("1.5x", Size::Word),
            fixed("e-5", Size::Word),
        ],
    ]
}

/// A weight: ordinary ones, and ones float32 cannot hold or divide by.
fn weight() -> impl Strategy<Value = Number> {
    let finite = |text: &str, log10: f64| {
        Just(Number {
            text: text.to_string(),
            kind: Size::Finite { log10 },
        })
    };
    prop_oneof![
        finite("1", 0.0),
        finite("2", 2f64.log10()),
        finite("-0.5", -(2f64.log10())),
        finite("1e-20", -20.0),
        finite("1e19", 19.0),
        finite("1e-40", -40.0),
        finite("1e-50", -50.0),
        finite("1e39", 39.0),
        Just(Number {
            text: "0".into(),
            kind: Size::Zero
        }),
        Just(Number {
            text: "inf".into(),
            kind: Size::Infinite
        }),
    ]
}

/// A `v` line: x y z, and a weight or not.
#[derive(Clone, Debug)]
struct Vertex {
    xyz: [Number; 3],
    w: Option<Number>,
}

impl Vertex {
    fn line(&self) -> String {
        let mut words: Vec<&str> = self.xyz.iter().map(|n| n.text.as_str()).collect();
        words.extend(self.w.iter().map(|w| w.text.as_str()));
        format!("v {}", words.join(" "))
    }

    /// The point tobj reads (float32, divided by w in float32) when the loader must accept the line, `None`
    /// when it must refuse it: the rules of docs/algorithm.md, decided from how the numbers were built.
    fn expected(&self) -> Option<Vec3> {
        let limit = COORDINATE_LIMIT.log10();
        let tiny = f32::MIN_POSITIVE.log10() as f64;
        let float32_max = f32::MAX.log10() as f64;
        // log10 of |w| (0 without one), when w is usable.
        let w_log10 = match &self.w {
            None => 0.0,
            Some(w) => match w.kind {
                Size::Finite { log10 } if log10 > tiny && log10 < float32_max => log10,
                _ => return None,
            },
        };
        for n in &self.xyz {
            match n.kind {
                Size::Zero => {}
                Size::Finite { log10 } => {
                    let quotient = log10 - w_log10;
                    let refused =
                        log10 < tiny || log10 > float32_max || quotient < tiny || quotient > limit;
                    if refused {
                        return None;
                    }
                }
                Size::NotANumber | Size::Infinite | Size::Word => return None,
            }
        }
        let read = |n: &Number| n.text.parse::<f32>().expect("a usable number reads");
        let w = self.w.as_ref().map_or(1.0, read);
        Some(Vec3::new(read(&self.xyz[0]), read(&self.xyz[1]), read(&self.xyz[2])) / w)
    }

    /// Whether a number's size lies within a tenth of a decade of a limit, where the rules' answer hangs on
    /// digits the fuzzer does not track.
    fn near_a_limit(&self) -> bool {
        let w_log10 = match self.w.as_ref().map(|w| w.kind) {
            Some(Size::Finite { log10 }) => log10,
            _ => 0.0,
        };
        let limits = [
            COORDINATE_LIMIT.log10(),
            f32::MIN_POSITIVE.log10() as f64,
            f32::MAX.log10() as f64,
        ];
        self.xyz.iter().any(|n| match n.kind {
            Size::Finite { log10 } => limits
                .iter()
                .any(|l| (log10 - l).abs() < 0.1 || (log10 - w_log10 - l).abs() < 0.1),
            _ => false,
        })
    }
}

fn vertex() -> impl Strategy<Value = Vertex> {
    (
        [number(), number(), number()],
        prop_oneof![5 => Just(None), 1 => weight().prop_map(Some)],
    )
        .prop_map(|(xyz, w)| Vertex { xyz, w })
        .prop_filter("a size near a limit", |v| !v.near_a_limit())
}

/// An OBJ file: a comment, the vertices, then faces over them (1-based, any vertex).
#[derive(Clone, Debug)]
struct File {
    vertices: Vec<Vertex>,
    faces: Vec<[usize; 3]>,
}

fn file() -> impl Strategy<Value = File> {
    prop::collection::vec(vertex(), 3..12).prop_flat_map(|vertices| {
        let n = vertices.len();
        let faces = prop::collection::vec([0..n, 0..n, 0..n], 1..6);
        (Just(vertices), faces).prop_map(|(vertices, faces)| File { vertices, faces })
    })
}

/// The line number of vertex `k` (0-based) in the written file: after the comment.
fn line_of_vertex(k: usize) -> usize {
    k + 2
}

impl File {
    fn text(&self) -> String {
        let mut text = String::from("# obj_fuzz\n");
        for v in &self.vertices {
            text.push_str(&v.line());
            text.push('\n');
        }
        for f in &self.faces {
            text.push_str(&format!("f {} {} {}\n", f[0] + 1, f[1] + 1, f[2] + 1));
        }
        text
    }
}

/// A file in a fresh temporary folder, removed on drop.
struct TempFile {
    dir: PathBuf,
    path: PathBuf,
}

impl TempFile {
    fn new(text: &str) -> Self {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("gpu-gjk-obj-fuzz-{}-{id}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let path = dir.join("fuzz.obj");
        std::fs::write(&path, text).expect("the file is written");
        Self { dir, path }
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn check(file: &File) -> Result<(), String> {
    let text = file.text();
    let written = TempFile::new(&text);
    let loaded = load_obj_points(&written.path);
    let expected: Vec<Option<Vec3>> = file.vertices.iter().map(Vertex::expected).collect();
    match (expected.iter().position(Option::is_none), loaded) {
        (None, Ok(points)) => {
            let key = |p: &Vec3| p.to_array().map(f32::to_bits);
            let used: HashSet<[u32; 3]> = file
                .faces
                .iter()
                .flatten()
                .map(|&k| key(&expected[k].expect("usable")))
                .collect();
            let got: HashSet<[u32; 3]> = points.iter().map(key).collect();
            if got != used {
                return Err(format!(
                    "loaded {points:?}, expected the points {used:?}\n{text}"
                ));
            }
            Ok(())
        }
        (None, Err(e)) => Err(format!("refused a usable file: {e}\n{text}")),
        (Some(k), Ok(points)) => Err(format!(
            "loaded {points:?}, but line {} must be refused\n{text}",
            line_of_vertex(k)
        )),
        (Some(k), Err(GjkError::Obj { line, message, .. })) => {
            if line == Some(line_of_vertex(k)) {
                Ok(())
            } else {
                Err(format!(
                    "refused at line {line:?} ({message}), expected line {}\n{text}",
                    line_of_vertex(k)
                ))
            }
        }
        (Some(_), Err(e)) => Err(format!("not an OBJ error: {e}\n{text}")),
    }
}

#[test]
fn obj_files_load_exactly_or_name_their_first_unusable_vertex() {
    let budget = Budget {
        ci_cases: CI_CASES,
        round_cases: ROUND_CASES,
        ci_seed: 20261128,
    };
    let passed = fuzz("obj", file(), budget, check);
    eprintln!("fuzz obj: {passed} files passed");
}
