//! Loading OBJ meshes with tobj, with errors that name the file and the offending line.
//!
//! tobj reports only the kind of a parse error, and passes over some mistakes in silence (a face of two
//! vertices is read as a line and dropped). So the file is first scanned with tobj's rules, plus finite and
//! in-range coordinates and faces of at least three corners, and the first offending line is named; tobj
//! then reads it. Bytes that are not UTF-8 are an error only where they matter: in a comment or a name
//! they are read as U+FFFD, while in a `v` or `f` line they make that line's numbers unreadable. A leading
//! UTF-8 byte-order mark (as Windows editors write) is dropped before either reads the file: left in, it
//! glues itself to the first keyword, which hides a first `v` line and shifts every face index after it.

use crate::error::GjkError;
use crate::pose::COORDINATE_LIMIT;
use glam::{DVec3, Vec3};
use std::path::Path;

/// All vertex positions used by the faces of every object in an OBJ file.
///
/// Errors are [`GjkError::Obj`], with the 1-based line number where one can be named: a missing or
/// unreadable file, a malformed `v`, `vt`, `vn` or `f` line, a face index out of range, a NaN, infinite or
/// out-of-range coordinate, one other than 0 too small for float32, or a file with no faces.
pub fn load_obj_points(path: &Path) -> Result<Vec<Vec3>, GjkError> {
    let options = tobj::LoadOptions {
        single_index: false,
        triangulate: false,
        ignore_points: true,
        ignore_lines: true,
    };
    let models = load_obj_models(path, &options)?;
    Ok(models
        .iter()
        .flat_map(|m| m.mesh.positions.chunks_exact(3))
        .map(|c| Vec3::new(c[0], c[1], c[2]))
        .collect())
}

/// Reads an OBJ file with tobj (materials are not read) after checking what tobj lets through: faces of fewer
/// than three corners, and vertices (every `v` line) that are not finite, beyond the coordinate limit or too
/// small for float32 other than 0 (tobj reads them as 0 or loses their digits), or whose weight `w` float32
/// cannot hold. Errors name the file and, where one can be named, the line; a file whose faces use no vertex is
/// an error too.
pub fn load_obj_models(
    path: &Path,
    options: &tobj::LoadOptions,
) -> Result<Vec<tobj::Model>, GjkError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(obj_error(path, None, "file not found"))
        }
        Err(e) => return Err(obj_error(path, None, format!("cannot read file: {e}"))),
    };
    let bytes = without_bom(&bytes);
    // Every line first, used by a face or not, so that a bad vertex is refused whatever else the file holds.
    // It costs less than this VM's noise: 300,000 vertices and faces loaded in 0.49-0.63 s with it, 0.52-0.73 s
    // when only a problem in tobj's answer started it.
    let scan = scan(bytes);
    if let Some((line, message)) = scan.problem {
        return Err(obj_error(path, Some(line), message));
    }
    let text = String::from_utf8_lossy(bytes);
    let parsed = tobj::load_obj_buf(&mut text.as_bytes(), options, |_| Ok(Default::default()));
    let in_range = |c: &f32| c.is_finite() && c.abs() as f64 <= COORDINATE_LIMIT;
    let usable = parsed.as_ref().is_ok_and(|(models, _materials)| {
        models.iter().any(|m| !m.mesh.positions.is_empty())
            && models.iter().all(|m| m.mesh.positions.iter().all(in_range))
    });
    if usable {
        return Ok(parsed.map(|(models, _)| models).unwrap_or_default());
    }
    let message = match parsed {
        Err(e) => e.to_string(),
        Ok(_) if scan.faces == 0 => format!(
            "no vertices: the file has no `f` faces ({} `v` lines)",
            scan.vertices
        ),
        Ok(_) => "no usable vertices".to_string(),
    };
    Err(obj_error(path, None, message))
}

/// The file's bytes without a leading UTF-8 byte-order mark. It sits before line 1's first word, so the
/// line numbers stay as they are.
fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes)
}

fn obj_error(path: &Path, line: Option<usize>, message: impl Into<String>) -> GjkError {
    GjkError::Obj {
        path: path.to_path_buf(),
        line,
        message: message.into(),
    }
}

struct Scan {
    /// The first problem found: 1-based line number and what is wrong.
    problem: Option<(usize, String)>,
    vertices: usize,
    faces: usize,
}

/// Checks every line with the rules tobj applies, plus finite and in-range coordinates, and returns the
/// first problem. Face indices may refer to vertices defined later in the file (tobj resolves them when
/// an object ends), so positive indices are checked against the file's total counts.
fn scan(bytes: &[u8]) -> Scan {
    fn first_word(l: &[u8]) -> &[u8] {
        l.split(|b| b.is_ascii_whitespace())
            .find(|w| !w.is_empty())
            .unwrap_or(&[])
    }
    let mut totals = [0usize; 3];
    for line in bytes.split(|&b| b == b'\n') {
        match first_word(line) {
            b"v" => totals[0] += 1,
            b"vt" => totals[1] += 1,
            b"vn" => totals[2] += 1,
            _ => {}
        }
    }
    let mut counts = [0usize; 3];
    let mut faces = 0;
    for (index, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let number = index + 1;
        // Invalid bytes become U+FFFD: harmless in a comment or a name, unreadable in a number.
        let line = String::from_utf8_lossy(raw);
        let mut words = line.split_whitespace();
        let result = match words.next() {
            Some("v") => {
                counts[0] += 1;
                check_vertex(words.collect())
            }
            Some("vt") => {
                counts[1] += 1;
                check_floats("texture coordinate", 2, words.collect())
            }
            Some("vn") => {
                counts[2] += 1;
                check_floats("normal", 3, words.collect())
            }
            Some(keyword @ ("f" | "l")) => {
                faces += usize::from(keyword == "f");
                check_face(keyword, words.collect(), counts, totals)
            }
            Some("usemtl") if words.next().is_none() => {
                Err("`usemtl` needs a material name".into())
            }
            _ => Ok(()),
        };
        if let Err(message) = result {
            return Scan {
                problem: Some((number, message)),
                vertices: totals[0],
                faces,
            };
        }
    }
    Scan {
        problem: None,
        vertices: totals[0],
        faces,
    }
}

fn parse_numbers(words: &[&str]) -> Option<Vec<f32>> {
    words.iter().map(|w| w.parse::<f32>().ok()).collect()
}

fn check_floats(what: &str, n: usize, words: Vec<&str>) -> Result<(), String> {
    let head = &words[..words.len().min(n)];
    match parse_numbers(head) {
        Some(v) if v.len() == n => Ok(()),
        _ => Err(format!(
            "{what} needs {n} numbers, found \"{}\"",
            words.iter().map(|w| shown(w)).collect::<Vec<_>>().join(" ")
        )),
    }
}

/// `v x y z`, `v x y z w` (divided by w) or `v x y z r g b`, as tobj reads them.
///
/// The range is checked on the numbers as written (in float64): tobj reads them as float32, where `1e39`
/// becomes infinite, and a finite coordinate beyond the limit is then named as such, not as NaN or infinity.
fn check_vertex(words: Vec<&str>) -> Result<(), String> {
    let found = || {
        let shown: Vec<String> = words.iter().map(|w| shown(w)).collect();
        format!("\"{}\"", shown.join(" "))
    };
    let head: Option<Vec<f64>> = words.iter().take(3).map(|w| w.parse().ok()).collect();
    let xyz = match head {
        Some(v) if v.len() == 3 => DVec3::new(v[0], v[1], v[2]),
        _ => return Err(format!("vertex needs 3 numbers, found {}", found())),
    };
    let (written, weight) = match words.len() {
        3 | 6 => (xyz, 1.0),
        4 => {
            let w = words[3]
                .parse::<f64>()
                .map_err(|_| format!("vertex weight w is not a number: \"{}\"", words[3]))?;
            check_weight(w, words[3]).map_err(|problem| format!("{problem}: {}", found()))?;
            (xyz / w, w)
        }
        n => {
            return Err(format!(
                "vertex needs 3 numbers (x y z), 4 (x y z w) or 6 (x y z r g b), found {n}: {}",
                found()
            ))
        }
    };
    // A number written with digits that float64 cannot hold (`1e400`, a million digits) is finite as written:
    // it is named for what it is, beyond the limit, not as an infinity.
    for (word, x) in words.iter().zip(xyz.to_array()) {
        if !x.is_finite() && !written_non_finite(word) {
            return Err(format!(
                "vertex coordinate beyond +-{COORDINATE_LIMIT:e} ({} is beyond float64's range too, not \
                 infinite as written): {}",
                shown(word),
                found()
            ));
        }
    }
    if !written.is_finite() {
        return Err(format!(
            "vertex has a non-finite coordinate (NaN or infinite): {}",
            found()
        ));
    }
    if written.abs().max_element() > COORDINATE_LIMIT {
        return Err(format!(
            "vertex coordinate beyond +-{COORDINATE_LIMIT:e}: {}",
            found()
        ));
    }
    // tobj reads in float32, where `1e-46` is 0 and `1e-40` loses its digits: a mesh written that small
    // would collapse without a word. The JSON Lines reader refuses the same numbers in the same words. Each
    // of x, y and z counts as written (tobj reads it before dividing) and divided by w.
    for ((word, coordinate), quotient) in words.iter().zip(xyz.to_array()).zip(written.to_array()) {
        let written_nonzero = coordinate != 0.0 || has_nonzero_digit(word);
        let tiny = |x: f64| x.abs() < f32::MIN_POSITIVE as f64;
        if written_nonzero && (tiny(coordinate) || tiny(quotient)) {
            let shown = match weight == 1.0 || tiny(coordinate) {
                true => word.to_string(),
                false => format!("{word} / w = {quotient:e}"),
            };
            return Err(format!(
                "vertex coordinate {}: {}",
                too_small(&shown),
                found()
            ));
        }
    }
    // Within the limit as written, but tobj divides in float32, where x and w can overflow first (x = 1e39,
    // w = 1e31).
    if !(xyz.as_vec3() / weight as f32).is_finite() {
        return Err(format!(
            "vertex coordinate beyond float32's range (x y z and w are read and divided in float32): {}",
            found()
        ));
    }
    Ok(())
}

/// A weight `w` (tobj reads it, and divides x, y and z by it, in float32): 0 there is refused as tobj refuses
/// it (`1e-50` too), and so are one beyond float32's range or not a number (the point would be 0 or NaN) and
/// one other than 0 below float32's smallest normal number (a quotient without its digits).
fn check_weight(w: f64, word: &str) -> Result<(), String> {
    let read = w as f32;
    if read == 0.0 {
        Err("vertex has weight w = 0".into())
    } else if !read.is_finite() {
        Err(format!(
            "vertex weight w {word} is not a finite float32 number (beyond +-{:e}, infinite or NaN), \
             which tobj reads and divides by",
            f32::MAX
        ))
    } else if w.abs() < f32::MIN_POSITIVE as f64 {
        Err(format!("vertex weight w {}", too_small(word)))
    } else {
        Ok(())
    }
}

/// Whether `word` is written as a NaN or an infinity (`nan`, `inf`, `-Infinity`), which Rust's float parser
/// reads as such.
fn written_non_finite(word: &str) -> bool {
    let unsigned = word.trim_start_matches(['+', '-']).to_ascii_lowercase();
    matches!(unsigned.as_str(), "nan" | "inf" | "infinity")
}

/// `word` as a message shows it: whole when short, else its start, its end and its length, so that a number
/// of a million digits is not copied into the message.
fn shown(word: &str) -> String {
    const LONGEST: usize = 64;
    let count = word.chars().count();
    if count <= LONGEST {
        return word.to_string();
    }
    let head: String = word.chars().take(20).collect();
    let tail: String = word.chars().skip(count - 8).collect();
    format!("{head}...{tail} ({count} characters)")
}

/// The refusal of `shown`, a number other than 0 below float32's smallest normal number.
fn too_small(shown: &str) -> String {
    format!(
        "{shown} is too small for float32, which tobj reads and the answers are computed in (below {:e} \
         other than 0): write 0, or scale the mesh up",
        f32::MIN_POSITIVE
    )
}

/// Whether a number as written has a digit 1-9 before its exponent: other than 0, even where float64 reads
/// it as 0 (`1e-400`).
fn has_nonzero_digit(word: &str) -> bool {
    word.bytes()
        .take_while(|b| !matches!(b, b'e' | b'E'))
        .any(|b| matches!(b, b'1'..=b'9'))
}

/// `f` and `l` elements: `v`, `v/vt`, `v//vn` or `v/vt/vn`, 1-based, negative counting back from the last
/// element defined so far.
fn check_face(
    keyword: &str,
    words: Vec<&str>,
    counts: [usize; 3],
    totals: [usize; 3],
) -> Result<(), String> {
    const NAMES: [&str; 3] = ["vertex", "texture coordinate", "normal"];
    let element = if keyword == "f" { "face" } else { "line" };
    if words.is_empty() {
        return Err(format!("{element} has no vertex"));
    }
    if keyword == "f" && words.len() < 3 {
        return Err(format!(
            "face has {} corner{} (\"{}\"); a face needs at least 3",
            words.len(),
            if words.len() == 1 { "" } else { "s" },
            words.join(" ")
        ));
    }
    for word in &words {
        let parts: Vec<&str> = word.split('/').collect();
        if parts.len() > 3 {
            return Err(format!(
                "{element} corner \"{word}\" has more than 3 indices (v/vt/vn)"
            ));
        }
        for (k, part) in parts.iter().enumerate() {
            if part.is_empty() {
                if k == 0 {
                    return Err(format!("{element} corner \"{word}\" has no vertex index"));
                }
                continue;
            }
            let Ok(i) = part.parse::<isize>() else {
                return Err(format!(
                    "{element} corner \"{word}\": {} index \"{part}\" is not an integer",
                    NAMES[k]
                ));
            };
            // Like tobj: indices of `l` elements are not resolved (lines are ignored), and texture or
            // normal indices only when the file has texture coordinates or normals.
            if keyword == "l" || (k > 0 && totals[k] == 0) {
                continue;
            }
            let valid = match i {
                0 => false,
                i if i > 0 => i as usize <= totals[k],
                i => i.unsigned_abs() <= counts[k],
            };
            if !valid {
                let defined = if i < 0 { counts[k] } else { totals[k] };
                return Err(format!(
                    "{element} corner \"{word}\": {} index {i} is out of range ({defined} defined{})",
                    NAMES[k],
                    if i == 0 { "; OBJ indices start at 1" } else { "" }
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// A file in a fresh temporary folder, removed on drop.
    struct TempObj {
        dir: PathBuf,
        path: PathBuf,
    }

    impl TempObj {
        fn new(name: &str, text: &str) -> Self {
            let dir =
                std::env::temp_dir().join(format!("gpu-gjk-obj-{}-{name}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join(format!("{name}.obj"));
            std::fs::write(&path, text).unwrap();
            Self { dir, path }
        }
    }

    impl Drop for TempObj {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }

    const TETRA: &str = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";

    fn error_of(name: &str, text: &str) -> (Option<usize>, String, String) {
        let file = TempObj::new(name, text);
        let err = load_obj_points(&file.path).unwrap_err();
        let shown = err.to_string();
        match err {
            GjkError::Obj {
                path,
                line,
                message,
            } => {
                assert_eq!(path, file.path);
                (line, message, shown)
            }
            other => panic!("not an OBJ error: {other:?}"),
        }
    }

    #[test]
    fn valid_file_loads() {
        let file = TempObj::new("valid", TETRA);
        let points = load_obj_points(&file.path).unwrap();
        assert_eq!(points.len(), 4);
        assert!(points.contains(&Vec3::new(0.0, 0.0, 1.0)));
    }

    #[test]
    fn missing_file_is_named() {
        let path = std::env::temp_dir().join("gpu-gjk-obj-does-not-exist/none.obj");
        let err = load_obj_points(&path).unwrap_err();
        assert_eq!(
            err,
            GjkError::Obj {
                path: path.clone(),
                line: None,
                message: "file not found".into()
            }
        );
        assert_eq!(
            err.to_string(),
            format!("{}: file not found", path.display())
        );
    }

    #[test]
    fn malformed_vertex_reports_its_line() {
        let text = "# comment\nv 0 0 0\nv 1 0 0\nv 1.0 abc\nv 0 0 1\nf 1 2 3\n";
        let (line, message, shown) = error_of("malformed", text);
        assert_eq!(line, Some(4));
        assert_eq!(message, "vertex needs 3 numbers, found \"1.0 abc\"");
        assert!(shown.ends_with("malformed.obj:4: vertex needs 3 numbers, found \"1.0 abc\""));
    }

    #[test]
    fn nan_and_infinite_vertices_report_their_line() {
        let text = "v 0 0 0\nv 1 0 0\nv 0 NaN 0\nv 0 0 1\nf 1 2 3\nf 1 3 4\n";
        let (line, message, _) = error_of("nan", text);
        assert_eq!(line, Some(3));
        assert!(message.contains("non-finite"), "{message}");

        // A million digits: finite as written, beyond float64; named as beyond the limit, and not copied.
        let huge = format!("1{}", "0".repeat(1_000_000));
        let text = format!("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 {huge} 1\nf 1 2 3\nf 1 3 4\n");
        let (line, message, _) = error_of("huge", &text);
        assert_eq!(line, Some(4));
        assert_eq!(
            message,
            "vertex coordinate beyond +-1e9 (10000000000000000000...00000000 (1000001 characters) is beyond \
             float64's range too, not infinite as written): \"0 10000000000000000000...00000000 (1000001 \
             characters) 1\""
        );
        let (_, message, _) = error_of("e400", "v 1e400 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
        assert!(
            message.starts_with("vertex coordinate beyond +-1e9 (1e400 is"),
            "{message}"
        );

        let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 inf\nf 1 2 3\nf 1 3 4\n";
        assert_eq!(error_of("inf", text).0, Some(4));

        // Finite in the file, but overflows float32: beyond the limit, not NaN or infinite.
        let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1e39\nf 1 2 3\nf 1 3 4\n";
        let (line, message, shown) = error_of("overflow", text);
        assert_eq!(line, Some(4));
        assert_eq!(message, "vertex coordinate beyond +-1e9: \"0 0 1e39\"");
        assert!(
            shown.contains("overflow.obj:4: vertex coordinate beyond"),
            "{shown}"
        );

        // Within the limit once divided by w, but x and w overflow float32, where tobj divides.
        let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1e39 0 0 1e31\nf 1 2 3\nf 1 3 4\n";
        let (line, message, _) = error_of("overflow_w", text);
        assert_eq!(line, Some(4));
        assert!(message.contains("beyond float32's range"), "{message}");

        // Within the limit once divided by w, in float32 too: loads.
        let file = TempObj::new(
            "big_w",
            "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1e30 0 0 1e29\nf 1 2 4\n",
        );
        let points = load_obj_points(&file.path).unwrap();
        assert!(
            points.iter().any(|p| (p.x - 10.0).abs() < 1e-4),
            "{points:?}"
        );

        let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 5e9\nf 1 2 3\nf 1 3 4\n";
        let (line, message, _) = error_of("huge", text);
        assert_eq!(line, Some(4));
        assert!(message.contains("beyond"), "{message}");
    }

    #[test]
    fn coordinates_float32_cannot_hold_other_than_zero_report_their_line() {
        let tiny = |v: &str| format!("v 0 0 0\nv 1 0 0\nv 0 1 0\n{v}\nf 1 2 3\nf 1 3 4\n");
        // 0 in float32 (below its smallest subnormal), a subnormal that loses its digits, a number float64
        // itself reads as 0, and one that is small only once divided by w: each would move the vertex to 0.
        for (v, shown) in [
            ("v 0 0 1e-46", "1e-46"),
            ("v -1e-40 0 1", "-1e-40"),
            ("v 0 1e-400 1", "1e-400"),
            ("v 1e-20 0 0 1e19", "1e-20 / w = 1e-39"),
            (
                "v 0 0 0.00000000000000000000000000000000000000001",
                "0.00000000000000000000000000000000000000001",
            ),
        ] {
            let (line, message, _) = error_of("tiny", &tiny(v));
            assert_eq!(line, Some(4), "{v}");
            assert_eq!(
                message,
                format!(
                    "vertex coordinate {shown} is too small for float32, which tobj reads and the answers \
                     are computed in (below 1.1754944e-38 other than 0): write 0, or scale the mesh up: \
                     \"{}\"",
                    &v[2..]
                ),
                "{v}"
            );
        }
        // Zeros of either sign and the smallest normal float32 load as written; so do ordinary numbers with a
        // negative exponent (the file is scanned, and nothing is wrong).
        let file = TempObj::new(
            "small",
            "v 0 0 0\nv 5E-1 2.5e-3 0\nv 0 1 0\nv -0.0 0e-999 1.1754944e-38\nf 1 2 3\nf 1 3 4\n",
        );
        let points = load_obj_points(&file.path).unwrap();
        assert!(
            points.contains(&Vec3::new(0.0, 0.0, f32::MIN_POSITIVE)),
            "{points:?}"
        );
        assert!(points.contains(&Vec3::new(0.5, 0.0025, 0.0)), "{points:?}");
    }

    #[test]
    fn a_weight_float32_cannot_hold_or_divide_by_reports_its_line() {
        let with = |v: &str| format!("v 0 0 0\nv 1 0 0\nv 0 1 0\n{v}\nf 1 2 3\nf 1 3 4\n");
        // tobj would divide by infinity (the point 0) or NaN, or by a subnormal float32 (digits lost); a
        // coordinate read before the division may be too small on its own.
        for (v, expected) in [
            (
                "v 1e35 0 0 1e39",
                "vertex weight w 1e39 is not a finite float32 number (beyond +-3.4028235e38, infinite or \
                 NaN), which tobj reads and divides by: \"1e35 0 0 1e39\"",
            ),
            (
                "v 1 2 3 inf",
                "vertex weight w inf is not a finite float32 number (beyond +-3.4028235e38, infinite or NaN), \
                 which tobj reads and divides by: \"1 2 3 inf\"",
            ),
            (
                "v 1 0 0 -1e-40",
                "vertex weight w -1e-40 is too small for float32, which tobj reads and the answers are \
                 computed in (below 1.1754944e-38 other than 0): write 0, or scale the mesh up: \
                 \"1 0 0 -1e-40\"",
            ),
            (
                "v 1e-40 0 0 1e-5",
                "vertex coordinate 1e-40 is too small for float32, which tobj reads and the answers are \
                 computed in (below 1.1754944e-38 other than 0): write 0, or scale the mesh up: \
                 \"1e-40 0 0 1e-5\"",
            ),
            ("v 0 0 1 1e-50", "vertex has weight w = 0: \"0 0 1 1e-50\""),
        ] {
            let (line, message, _) = error_of("weight", &with(v));
            assert_eq!((line, message.as_str()), (Some(4), expected), "{v}");
        }
        // An ordinary weight divides the point, on the path that scans the file for weights.
        let file = TempObj::new("weight", &with("v 2 4 6 2"));
        let points = load_obj_points(&file.path).unwrap();
        assert!(points.contains(&Vec3::new(1.0, 2.0, 3.0)), "{points:?}");
    }

    #[test]
    fn file_without_vertices_is_rejected() {
        let (line, message, _) = error_of("empty", "# nothing here\no empty\n");
        assert_eq!(line, None);
        assert!(message.starts_with("no vertices"), "{message}");

        // Vertices but no face using them.
        let (line, message, _) = error_of("cloud", "v 0 0 0\nv 1 0 0\n");
        assert_eq!(line, None);
        assert_eq!(
            message,
            "no vertices: the file has no `f` faces (2 `v` lines)"
        );
    }

    #[test]
    fn bad_faces_report_their_line() {
        let base = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
        let (line, message, _) = error_of("face_range", &format!("{base}f 1 2 3\nf 1 2 7\n"));
        assert_eq!(line, Some(5));
        assert!(
            message.contains("index 7 is out of range (3 defined)"),
            "{message}"
        );

        let (line, message, _) = error_of("face_zero", &format!("{base}f 0 1 2\n"));
        assert_eq!(line, Some(4));
        assert!(message.contains("start at 1"), "{message}");

        let (line, message, _) = error_of("face_word", &format!("{base}f 1 x 3\n"));
        assert_eq!(line, Some(4));
        assert!(message.contains("\"x\" is not an integer"), "{message}");

        let (line, _, _) = error_of("face_negative", &format!("{base}f -1 -2 -4\n"));
        assert_eq!(line, Some(4));

        // Negative (relative) indices within range are fine.
        let file = TempObj::new("face_relative", &format!("{base}f -3 -2 -1\n"));
        assert_eq!(load_obj_points(&file.path).unwrap().len(), 3);
    }

    #[test]
    fn other_malformed_lines_report_their_line() {
        let (line, message, _) = error_of("normal", &format!("vn 0 1\n{TETRA}"));
        assert_eq!(line, Some(1));
        assert!(message.starts_with("normal needs 3 numbers"), "{message}");

        let (line, message, _) = error_of("weight", &format!("{TETRA}v 1 1 1 0\n"));
        assert_eq!(line, Some(9));
        assert!(message.contains("w = 0"), "{message}");

        let (line, message, _) = error_of("five", &format!("v 1 1 1 1 1\n{TETRA}"));
        assert_eq!(line, Some(1));
        assert!(message.contains("found 5"), "{message}");

        let file = TempObj::new("utf8", "x");
        std::fs::write(&file.path, b"v 0 0 0\nv 1 \xff 0\n").unwrap();
        let err = load_obj_points(&file.path).unwrap_err();
        assert!(matches!(err, GjkError::Obj { line: Some(2), .. }), "{err}");
    }

    #[test]
    fn bytes_that_are_not_utf8_in_comments_and_names_are_harmless() {
        let file = TempObj::new("latin1", "x");
        let mut text = b"# caf\xe9 au lait\no cub\xe9\n".to_vec();
        text.extend_from_slice(TETRA.as_bytes());
        std::fs::write(&file.path, text).unwrap();
        assert_eq!(load_obj_points(&file.path).unwrap().len(), 4);
    }

    /// The models of `text` with and without a leading byte-order mark, read with `options`.
    fn models_with_and_without_bom(
        name: &str,
        text: &str,
        options: &tobj::LoadOptions,
    ) -> [Vec<tobj::Model>; 2] {
        let plain = TempObj::new(&format!("{name}_plain"), text);
        let marked = TempObj::new(&format!("{name}_bom"), "x");
        std::fs::write(
            &marked.path,
            [b"\xef\xbb\xbf".as_slice(), text.as_bytes()].concat(),
        )
        .unwrap();
        [&plain, &marked].map(|file| load_obj_models(&file.path, options).unwrap())
    }

    #[test]
    fn a_byte_order_mark_changes_no_point_and_no_face() {
        // With the mark glued to it, tobj skipped the first `v` line, so this file was refused (face index
        // 4 of 3) and the five-vertex one below loaded with every face index shifted by one.
        let separate = tobj::LoadOptions {
            ignore_points: true,
            ignore_lines: true,
            ..Default::default()
        };
        let single = tobj::LoadOptions {
            single_index: true,
            triangulate: true,
            ..separate
        };
        let five = format!("v 9 9 9\n{TETRA}");
        for (name, text) in [("tetra", TETRA), ("five", five.as_str())] {
            for options in [&separate, &single] {
                let [plain, marked] = models_with_and_without_bom(name, text, options);
                assert_eq!(plain.len(), marked.len());
                for (a, b) in plain.iter().zip(&marked) {
                    assert_eq!(a.mesh.positions, b.mesh.positions, "{name}");
                    assert_eq!(a.mesh.indices, b.mesh.indices, "{name}");
                }
            }
        }
        let file = TempObj::new("bom_points", "x");
        std::fs::write(
            &file.path,
            [b"\xef\xbb\xbf".as_slice(), TETRA.as_bytes()].concat(),
        )
        .unwrap();
        let points = load_obj_points(&file.path).unwrap();
        assert_eq!(points.len(), 4);
        assert!(points.contains(&Vec3::ZERO));
    }

    #[test]
    fn a_byte_order_mark_keeps_the_line_numbers() {
        let file = TempObj::new("bom_line", "x");
        std::fs::write(
            &file.path,
            b"\xef\xbb\xbfv 0 0 0\nv 1 0 0\nv 0 1 zero\nf 1 2 3\n",
        )
        .unwrap();
        let err = load_obj_points(&file.path).unwrap_err();
        assert!(matches!(err, GjkError::Obj { line: Some(3), .. }), "{err}");
    }

    #[test]
    fn faces_of_fewer_than_three_corners_name_their_line() {
        // tobj reads `f 1 2` as a line and drops it without a word.
        let (line, message, _) = error_of("two", &format!("{TETRA}f 1 2\n"));
        assert_eq!(line, Some(9));
        assert_eq!(
            message,
            "face has 2 corners (\"1 2\"); a face needs at least 3"
        );
        let (line, message, _) = error_of("one", &format!("f 1\n{TETRA}"));
        assert_eq!(line, Some(1));
        assert!(message.starts_with("face has 1 corner "), "{message}");
    }
}
