//! One input line of `gpu-gjk query` into a validated pair of placed shapes.
//!
//! The line is read as a generic JSON value and walked by hand, so that every error can name the field it
//! is about (`b.points[2]: expected 3 numbers, got 2`). All checks that the library would make later are
//! made here first with the field path; the library's own checks stay behind them as a backstop.

use super::lexical::shorten;
use super::overflow::{self, overflowed, vanished, SyntaxError, MAX_TOKEN_CHARS};
use super::repeated_keys::first_repeated_key;
use crate::error::GjkError;
use crate::io::pair_id::{PairId, ID_KINDS};
use crate::pose::{CentredPose, DPose, COORDINATE_LIMIT};
use crate::shape::ConvexShape;
use glam::{DQuat, DVec3, Vec3};
use serde_json::{Map, Value};
use std::fmt;
use std::sync::Arc;

/// One shape placed in the world. The shape is shared: lines that repeat a shape (the same points and
/// radius) hold one copy of it (see `typed`).
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedShape {
    pub shape: Arc<ConvexShape>,
    /// The pose of the shape's frame as written and the centre its points were centred about, kept apart
    /// so that a pair's relative pose is formed from exact differences.
    pub pose: CentredPose,
    /// The shape's index in the shape list of the cache that read it, when that cache lists its shapes
    /// ([`super::ShapeCache::listing`]); `None` otherwise.
    pub listed: Option<u32>,
}

/// A parsed input line.
#[derive(Clone, Debug, PartialEq)]
pub struct PairInput {
    pub a: PlacedShape,
    pub b: PlacedShape,
    /// The line's `"id"`, echoed first on its answer line.
    pub id: Option<PairId>,
}

/// The fields a line may have, and those of a shape.
const LINE_FIELDS: [&str; 3] = ["a", "b", "id"];
const SHAPE_FIELDS: [&str; 4] = ["points", "radius", "position", "rotation"];

/// Parses one line (without its newline). The error is the message without the `line N: ` prefix.
pub fn parse_line(line: &[u8]) -> Result<PairInput, String> {
    if line.iter().all(|b| JSON_WHITESPACE.contains(b)) {
        return Err("empty line".into());
    }
    if let Some(message) = only_other_whitespace(line) {
        return Err(message);
    }
    let value = overflow::parse_value(line).map_err(syntax_message)?;
    let Value::Object(fields) = &value else {
        return Err(format!("expected a JSON object, got {}", kind(&value)));
    };
    if let Some(path) = first_repeated_key(line) {
        return Err(format!(
            "{path}: given twice (a key may appear once in an object)"
        ));
    }
    if let Some(unknown) = fields.keys().find(|k| !LINE_FIELDS.contains(&k.as_str())) {
        return Err(unknown_field(&[unknown]));
    }
    let id = id_field(fields)?;
    Ok(PairInput {
        a: placed_shape(fields, "a")?,
        b: placed_shape(fields, "b")?,
        id,
    })
}

/// The line's `"id"`, if it has one.
fn id_field(fields: &Map<String, Value>) -> Result<Option<PairId>, String> {
    let Some(value) = fields.get("id") else {
        return Ok(None);
    };
    // A number beyond float64 is a marker string here (see `overflow`), not a string the line holds.
    let id = match overflowed(value).or_else(|| vanished(value)) {
        Some(_) => Err(format!("expected {ID_KINDS}, got {}", id_kind(value))),
        None => PairId::from_json(value, id_kind),
    };
    id.map(Some).map_err(|e| format!("id: {e}"))
}

/// The id of a line that [`parse_line`] refused, when it is a JSON object whose `"id"` is one, so that its
/// error answer carries it too.
pub fn refused_line_id(line: &[u8]) -> Option<PairId> {
    if first_repeated_key(line).is_some_and(|path| path == "id") {
        return None;
    }
    match overflow::parse_value(line).ok()? {
        Value::Object(fields) => id_field(&fields).ok().flatten(),
        _ => None,
    }
}

/// What an `"id"` value that is no id is: `the number 7.5`, `the number 1e999`, `a boolean`.
fn id_kind(value: &Value) -> String {
    let text = overflowed(value).or_else(|| vanished(value));
    match (value, text) {
        (_, Some(text)) => format!("the number {text}"),
        // 7.0, 1e2, -0 and 1e20 are whole numbers, but not integers as JSON writes them (or out of range).
        (Value::Number(n), None) if n.as_f64().is_some_and(|x| x.fract() == 0.0) => format!(
            "the number {n} (an integer id is written as digits alone, with no fraction, exponent or -0, \
             and is within range)"
        ),
        (Value::Number(n), None) => format!("the number {n}"),
        _ => kind(value).to_string(),
    }
}

/// The bytes JSON takes as whitespace. A line of nothing else is blank (the reader answers it with a blank
/// line); a line of whitespace that includes any other (a form feed) is not JSON, and says so.
const JSON_WHITESPACE: [u8; 4] = [b' ', b'\t', b'\r', b'\n'];

/// `not JSON: the line holds only whitespace, ...` when `line` is whitespace that JSON does not all take as
/// such (a form feed, a vertical tab, a no-break space): blank to the eye, but not a blank line.
fn only_other_whitespace(line: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(line).ok()?;
    if !text.chars().all(char::is_whitespace) {
        return None;
    }
    let other = text
        .chars()
        .find(|c| !c.is_ascii() || !JSON_WHITESPACE.contains(&(*c as u8)))?;
    let name = match other {
        '\u{0B}' => " (vertical tab)",
        '\u{0C}' => " (form feed)",
        '\u{85}' => " (next line)",
        '\u{A0}' => " (no-break space)",
        '\u{2028}' => " (line separator)",
        '\u{2029}' => " (paragraph separator)",
        _ => "",
    };
    Some(format!(
        "not JSON: the line holds only whitespace, and U+{:04X}{name} is not JSON whitespace (a blank line \
         holds only spaces, tabs and carriage returns)",
        other as u32
    ))
}

/// `not JSON: ...`, except that a nesting too deep inside a field the line may not have is that field's
/// error (the same as for any unknown field), and one inside a known field names it.
fn syntax_message(error: SyntaxError) -> String {
    let SyntaxError::TooDeep { keys } = &error else {
        return format!("not JSON: {error}");
    };
    let known =
        |level: usize, names: &[&str]| keys.get(level).is_none_or(|k| names.contains(&k.as_str()));
    if !known(0, &LINE_FIELDS) {
        return unknown_field(&keys[..1]);
    }
    if !known(1, &SHAPE_FIELDS) {
        return unknown_field(&keys[..2]);
    }
    // The field is named by its first two keys (`a.points`); deeper ones are the nesting itself.
    match keys.is_empty() {
        true => format!("not JSON: {error}"),
        false => format!("{}: {error}", keys[..keys.len().min(2)].join(".")),
    }
}

/// `b.pos: unknown field (a shape has points, radius, position and rotation)`.
fn unknown_field(path: &[impl AsRef<str>]) -> String {
    let names: Vec<String> = path.iter().map(|k| field_name(k.as_ref())).collect();
    let expected = if names.len() == 1 {
        "a line has the shapes a and b, and an optional id"
    } else {
        "a shape has points, radius, position and rotation"
    };
    format!("{}: unknown field ({expected})", names.join("."))
}

/// A field path such as `a.points[2][1]`, formatted only when an error needs it (no allocation per
/// coordinate on the good path).
#[derive(Clone, Copy)]
struct Path<'a> {
    shape: &'a str,
    field: Option<&'a str>,
    index: [Option<usize>; 2],
}

impl<'a> Path<'a> {
    fn shape(shape: &'a str) -> Self {
        Self {
            shape,
            field: None,
            index: [None, None],
        }
    }

    fn field(self, field: &'a str) -> Self {
        Self {
            field: Some(field),
            ..self
        }
    }

    fn at(self, i: usize) -> Self {
        let mut next = self;
        match next.index {
            [None, _] => next.index[0] = Some(i),
            _ => next.index[1] = Some(i),
        }
        next
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.shape)?;
        if let Some(field) = self.field {
            write!(f, ".{field}")?;
        }
        for i in self.index.iter().flatten() {
            write!(f, "[{i}]")?;
        }
        Ok(())
    }
}

/// A field name for a message: as written when it is a plain word, else quoted and escaped as JSON (so a
/// message stays on one line), and cut short when long.
fn field_name(name: &str) -> String {
    let plain = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    let short = shorten(name, MAX_TOKEN_CHARS);
    if plain {
        short
    } else {
        serde_json::to_string(&short).expect("a string serialises")
    }
}

fn placed_shape(fields: &Map<String, Value>, name: &str) -> Result<PlacedShape, String> {
    let path = Path::shape(name);
    let fields = match fields.get(name) {
        None => return Err(format!("{path}: required field is missing")),
        Some(Value::Object(fields)) => fields,
        Some(other) => return Err(format!("{path}: expected an object, got {}", kind(other))),
    };
    if let Some(unknown) = fields.keys().find(|k| !SHAPE_FIELDS.contains(&k.as_str())) {
        return Err(unknown_field(&[name, unknown.as_str()]));
    }

    let points = points(fields.get("points"), path.field("points"))?;
    let radius = match fields.get("radius") {
        None => 0.0,
        Some(v) => radius(v, path.field("radius"))?,
    };
    let position = match fields.get("position") {
        None => DVec3::ZERO,
        Some(v) => coordinates(v, path.field("position"))?,
    };
    let rotation = match fields.get("rotation") {
        None => DQuat::IDENTITY,
        Some(v) => rotation(v, path.field("rotation"))?,
    };

    let pose = DPose::checked(position, rotation).map_err(|e| library_error(path, e))?;
    let (shape, centre) = centred_shape(&points, radius).map_err(|e| library_error(path, e))?;
    Ok(place(Arc::new(shape), centre, pose))
}

/// The shape of `points` centred in float64 before they are rounded to float32, and that centre: points
/// written far from their origin (world coordinates around 1e6) keep every digit the input gave them. A set of
/// more than [`crate::shape::RAW_HULL_MIN_POINTS`] points is searched as its hull ([`ConvexShape::from_points`]).
pub fn centred_shape(points: &[DVec3], radius: f32) -> Result<(ConvexShape, DVec3), GjkError> {
    let centre = bounding_box_centre(points);
    let centred: Vec<Vec3> = points.iter().map(|p| (*p - centre).as_vec3()).collect();
    Ok((ConvexShape::from_points(centred, radius)?, centre))
}

/// A centred shape at `pose`, its centre kept beside the float64 pose.
pub fn place(shape: Arc<ConvexShape>, centre: DVec3, pose: DPose) -> PlacedShape {
    PlacedShape {
        shape,
        pose: CentredPose::new(pose, centre),
        listed: None,
    }
}

fn bounding_box_centre(points: &[DVec3]) -> DVec3 {
    let (lo, hi) = points.iter().fold(
        (DVec3::splat(f64::MAX), DVec3::splat(f64::MIN)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    (lo + hi) * 0.5
}

fn points(value: Option<&Value>, path: Path) -> Result<Vec<DVec3>, String> {
    let list = match value {
        None => return Err(format!("{path}: required field is missing")),
        Some(Value::Array(list)) => list,
        Some(other) => {
            return Err(format!(
                "{path}: expected an array of points, got {}",
                kind(other)
            ))
        }
    };
    if list.is_empty() {
        return Err(format!("{path}: empty point list"));
    }
    let mut out = Vec::with_capacity(list.len());
    for (i, point) in list.iter().enumerate() {
        out.push(coordinates(point, path.at(i))?);
    }
    Ok(out)
}

/// One limit for every coordinate, points and positions alike, applied to the number as written (before
/// points are rounded to float32): `|x| <= COORDINATE_LIMIT`, the range the GJK determinants can afford.
fn coordinates(value: &Value, path: Path) -> Result<DVec3, String> {
    let p = numbers::<3>(value, path, Vanished::TooSmall, |x, at| {
        check_coordinate(x, &at)
    })?;
    Ok(DVec3::from_array(p))
}

/// The checks on one number of a coordinate, named `at` in the message; shared with the columnar readers
/// (the Python module) so that a value refused here is refused there with the same words.
pub fn check_coordinate(x: f64, at: &dyn fmt::Display) -> Result<(), String> {
    check_finite(x, at)?;
    if x.abs() > COORDINATE_LIMIT {
        return Err(format!(
            "{at}: {} is beyond the coordinate limit +-{COORDINATE_LIMIT:e}",
            show(x)
        ));
    }
    check_not_tiny(x, at)
}

/// The smallest magnitude a coordinate or radius other than 0 may have: float32's smallest normal number.
/// Below it float32 keeps fewer digits (a radius of 1e-44 read 2% off) or none (1e-46 is 0), and a pair
/// whose whole geometry is that small was answered as touching when it was apart (found by a hostile-input
/// audit), since the answers are computed in float32.
pub const SMALLEST_MAGNITUDE: f64 = f32::MIN_POSITIVE as f64;

/// Whether `x` is 0 or at least [`SMALLEST_MAGNITUDE`] in magnitude, within [`COORDINATE_LIMIT`].
pub fn within_coordinate_range(x: f64) -> bool {
    x == 0.0 || (SMALLEST_MAGNITUDE..=COORDINATE_LIMIT).contains(&x.abs())
}

/// A number other than 0 below [`SMALLEST_MAGNITUDE`] is refused, named `at`.
fn check_not_tiny(x: f64, at: &dyn fmt::Display) -> Result<(), String> {
    if x != 0.0 && x.abs() < SMALLEST_MAGNITUDE {
        return Err(too_small(at, &show(x)));
    }
    Ok(())
}

/// The refusal of a number other than 0 below [`SMALLEST_MAGNITUDE`], `shown` as the message gives it.
fn too_small(at: &dyn fmt::Display, shown: &str) -> String {
    format!(
        "{at}: {shown} is too small for float32, which the answers are computed in (below {:e} other \
         than 0): write 0, or scale the scene up",
        f32::MIN_POSITIVE
    )
}

/// `NaN` and infinities never come out of JSON (serde_json refuses them), but they do out of a float64
/// column.
pub fn check_finite(x: f64, at: &dyn fmt::Display) -> Result<(), String> {
    match x.is_finite() {
        true => Ok(()),
        false => Err(format!("{at}: {x} is not a finite number")),
    }
}

/// The radius has the coordinates' limit (a larger one would overflow the pair's scale).
fn radius(value: &Value, path: Path) -> Result<f32, String> {
    check_radius(number(value, path, Vanished::TooSmall)?, &path)
}

/// A radius as read (finite, not negative, within the limit), rounded to float32.
pub fn check_radius(r: f64, path: &dyn fmt::Display) -> Result<f32, String> {
    check_finite(r, path)?;
    if r < 0.0 {
        return Err(format!("{path}: {} is negative", show(r)));
    }
    if r > COORDINATE_LIMIT {
        return Err(format!(
            "{path}: {} is beyond the radius limit {COORDINATE_LIMIT:e}",
            show(r)
        ));
    }
    check_not_tiny(r, path)?;
    Ok(r as f32)
}

/// A quaternion `[x, y, z, w]`, normalised. Dividing by the largest component first keeps the length
/// from overflowing (`[1e154, 1e154, 0, 0]`) or underflowing (`[1e-170, 0, 0, 0]`): only all zeros has no
/// direction.
fn rotation(value: &Value, path: Path) -> Result<DQuat, String> {
    check_rotation(
        numbers::<4>(value, path, Vanished::Zero, |_, _| Ok(()))?,
        &path,
    )
}

/// A quaternion `[x, y, z, w]` as read, normalised (finite components, not all zero).
pub fn check_rotation(q: [f64; 4], path: &dyn fmt::Display) -> Result<DQuat, String> {
    for (i, x) in q.iter().enumerate() {
        check_finite(*x, &format_args!("{path}[{i}]"))?;
    }
    normalised(DQuat::from_array(q))
        .ok_or_else(|| format!("{path}: zero quaternion (all four components are 0)"))
}

/// `q` divided by its largest component, then normalised; `None` when all four are zero.
pub(crate) fn normalised(q: DQuat) -> Option<DQuat> {
    let largest = q.to_array().into_iter().map(f64::abs).fold(0.0, f64::max);
    (largest != 0.0).then(|| (q / largest).normalize())
}

/// An array of exactly `N` finite numbers, each passing `check` (in order, so the first bad one is named).
fn numbers<const N: usize>(
    value: &Value,
    path: Path,
    vanishing: Vanished,
    check: impl Fn(f64, Path) -> Result<(), String>,
) -> Result<[f64; N], String> {
    let what = if N == 4 { " [x, y, z, w]" } else { "" };
    let list = match value {
        Value::Array(list) if list.len() == N => list,
        Value::Array(list) => {
            return Err(format!(
                "{path}: expected {N} numbers{what}, got {}",
                list.len()
            ))
        }
        other => {
            return Err(format!(
                "{path}: expected an array of {N} numbers{what}, got {}",
                kind(other)
            ))
        }
    };
    let mut out = [0.0; N];
    for (i, (v, x)) in list.iter().zip(&mut out).enumerate() {
        *x = number(v, path.at(i), vanishing)?;
        check(*x, path.at(i))?;
    }
    Ok(out)
}

/// What a number other than 0 that float64 reads as 0 (`1e-400`) stands for in a field.
#[derive(Clone, Copy)]
enum Vanished {
    /// Refused as too small, as `1e-46` is: a coordinate or a radius, which the answers take in float32.
    TooSmall,
    /// 0: a quaternion component, normalised in float64 with the others, where it changes nothing.
    Zero,
}

fn number(value: &Value, path: Path, vanishing: Vanished) -> Result<f64, String> {
    if let Some(text) = overflowed(value) {
        return Err(format!(
            "{path}: {} overflows float64",
            shorten(text, MAX_TOKEN_CHARS)
        ));
    }
    if let Some(text) = vanished(value) {
        return match vanishing {
            Vanished::TooSmall => Err(too_small(&path, &shorten(text, MAX_TOKEN_CHARS))),
            Vanished::Zero => Ok(0.0),
        };
    }
    match value {
        // Without serde_json's arbitrary-precision feature every number converts to f64, and an
        // overflowing one never gets here; the finiteness test is a backstop.
        Value::Number(n) => match n.as_f64() {
            Some(x) if x.is_finite() => Ok(x),
            _ => Err(format!("{path}: {n} is not a finite number")),
        },
        other => Err(format!("{path}: expected a number, got {}", kind(other))),
    }
}

/// Names the field a library validation error is about (normally caught earlier with a finer path).
fn library_error(path: Path, e: GjkError) -> String {
    let field = match e {
        GjkError::EmptyPoints => return format!("{}: empty point list", path.field("points")),
        GjkError::NonFinitePoint { index } | GjkError::PointOutOfRange { index, .. } => {
            path.field("points").at(index)
        }
        GjkError::InvalidRadius { .. } => path.field("radius"),
        GjkError::InvalidPosition { .. } => path.field("position"),
        GjkError::InvalidRotation => path.field("rotation"),
        _ => path,
    };
    format!("{field}: {e}")
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A number for a message: plain when short, in exponent form when huge or tiny (1e300 would otherwise be
/// printed with 300 zeros).
pub(super) fn show(x: f64) -> String {
    let a = x.abs();
    if a != 0.0 && !(1e-4..1e6).contains(&a) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(line: &str) -> String {
        parse_line(line.as_bytes()).unwrap_err()
    }

    const BOX: &str =
        "[[-1,-1,-1],[1,-1,-1],[-1,1,-1],[1,1,-1],[-1,-1,1],[1,-1,1],[-1,1,1],[1,1,1]]";
    const OK: &str = r#"{"points": [[0,0,0]]}"#;

    /// The line with shape A as given and a point as B.
    fn a(shape: &str) -> String {
        err(&format!(r#"{{"a": {shape}, "b": {OK}}}"#))
    }

    /// The line with a point as A and shape B as given.
    fn b(shape: &str) -> String {
        err(&format!(r#"{{"a": {OK}, "b": {shape}}}"#))
    }

    fn with_id(id: &str) -> Result<PairInput, String> {
        parse_line(format!(r#"{{"id": {id}, "a": {OK}, "b": {OK}}}"#).as_bytes())
    }

    #[test]
    fn an_id_is_an_integer_or_a_string() {
        assert_eq!(with_id("7").unwrap().id, Some(PairId::Int(7)));
        assert_eq!(with_id("-7").unwrap().id, Some(PairId::Int(-7)));
        assert_eq!(
            with_id("18446744073709551615").unwrap().id,
            Some(PairId::UInt(u64::MAX))
        );
        assert_eq!(
            with_id(r#""x\"y""#).unwrap().id,
            Some(PairId::Text("x\"y".into()))
        );
        assert_eq!(
            parse_line(format!(r#"{{"a": {OK}, "b": {OK}}}"#).as_bytes())
                .unwrap()
                .id,
            None
        );
        let kinds = "id: expected a string or an integer from -2^63 to 2^64 - 1, got";
        for (id, got) in [
            ("7.5", "the number 7.5"),
            ("7.0", "the number 7.0 (an integer id is written as digits alone, with no fraction, exponent or -0, and is within range)"),
            ("1e999", "the number 1e999"),
            ("true", "a boolean"),
            ("null", "null"),
            ("[1]", "an array"),
            (r#"{"k": 1}"#, "an object"),
        ] {
            assert_eq!(with_id(id).unwrap_err(), format!("{kinds} {got}"), "{id}");
        }
        assert_eq!(
            refused_line_id(br#"{"id": "k", "a": 5}"#),
            Some(PairId::Text("k".into()))
        );
        assert_eq!(refused_line_id(br#"{"id": 1e999, "a": 5}"#), None);
        assert_eq!(refused_line_id(br#"{"id": 1, "id": 2}"#), None);
        assert_eq!(refused_line_id(br#"{"id": 1, "a": "#), None);
        assert_eq!(
            with_id(r#"1, "id": 2"#).unwrap_err(),
            "id: given twice (a key may appear once in an object)"
        );
    }

    #[test]
    fn full_line_with_defaults() {
        let line = format!(
            r#"{{"a": {{"points": {BOX}}}, "b": {{"points": [[0,0,0]], "radius": 0.5,
            "position": [3, 0, 0], "rotation": [0, 0, 0, 2]}}}}"#
        )
        .replace('\n', " ");
        let pair = parse_line(line.as_bytes()).unwrap();
        assert_eq!(pair.a.shape.len(), 8);
        assert_eq!(pair.a.shape.radius(), 0.0);
        assert_eq!(pair.a.pose.folded(), DPose::IDENTITY);
        assert_eq!(pair.b.shape.radius(), 0.5);
        assert_eq!(pair.b.pose.folded().position, DVec3::new(3.0, 0.0, 0.0));
        // The quaternion is normalised.
        assert_eq!(pair.b.pose.pose.rotation, DQuat::IDENTITY);
    }

    #[test]
    fn structural_errors_name_the_field() {
        assert_eq!(err("   "), "empty line");
        assert_eq!(err(" \t\r"), "empty line");
        assert_eq!(
            err("\u{0C}"),
            "not JSON: the line holds only whitespace, and U+000C (form feed) is not JSON whitespace (a \
             blank line holds only spaces, tabs and carriage returns)"
        );
        assert!(err(" \u{0B}").contains("U+000B (vertical tab) is not JSON whitespace"));
        assert!(err("\u{A0}\t").contains("U+00A0 (no-break space) is not JSON whitespace"));
        assert!(err("\u{3000}").contains("U+3000 is not JSON whitespace"));
        assert!(err("{nope").starts_with("not JSON: "), "{}", err("{nope"));
        assert_eq!(err(r#"{"a": NaN}"#), "not JSON: expected value at column 7");
        assert_eq!(err("[1, 2]"), "expected a JSON object, got an array");
        assert_eq!(
            err(r#"{"b": {"points": [[0,0,0]]}}"#),
            "a: required field is missing"
        );
        assert_eq!(
            err(r#"{"a": {"points": [[0,0,0]]}}"#),
            "b: required field is missing"
        );
        assert_eq!(
            err(r#"{"a": 5, "b": {"points": [[0,0,0]]}}"#),
            "a: expected an object, got a number"
        );
        assert_eq!(a(r#"{"radius": 1}"#), "a.points: required field is missing");
        assert_eq!(a(r#"{"points": []}"#), "a.points: empty point list");
        assert_eq!(
            a(r#"{"points": {}}"#),
            "a.points: expected an array of points, got an object"
        );
    }

    #[test]
    fn unknown_fields_are_errors_that_name_them() {
        // A misspelt field would otherwise leave the shape at the origin without a word.
        assert_eq!(
            b(r#"{"points": [[0,0,0]], "pos": [3, 0, 0]}"#),
            "b.pos: unknown field (a shape has points, radius, position and rotation)"
        );
        assert_eq!(
            err(&format!(r#"{{"a": {OK}, "b": {OK}, "key": 7}}"#)),
            "key: unknown field (a line has the shapes a and b, and an optional id)"
        );
        // Odd names are quoted and escaped, so the message stays on one line, and cut short.
        assert_eq!(
            b(r#"{"points": [[0,0,0]], "po\ns": 1}"#),
            r#"b."po\ns": unknown field (a shape has points, radius, position and rotation)"#
        );
        let long = "x".repeat(100);
        assert!(a(&format!(r#"{{"points": [[0,0,0]], "{long}": 1}}"#))
            .starts_with(&format!("a.{}...: unknown field", "x".repeat(40))));
        // An unknown field is an error whatever it holds: an overflowing number, a nesting too deep.
        assert_eq!(
            err(&format!(r#"{{"a": {OK}, "b": {OK}, "x": 1e999}}"#)),
            "x: unknown field (a line has the shapes a and b, and an optional id)"
        );
        let deep = "[".repeat(500);
        assert_eq!(
            err(&format!(r#"{{"a": {{"points": [[0,0,0]], "extra": {deep}"#)),
            "a.extra: unknown field (a shape has points, radius, position and rotation)"
        );
        assert_eq!(
            err(&format!(r#"{{"c": {deep}"#)),
            "c: unknown field (a line has the shapes a and b, and an optional id)"
        );
        // Too deep inside a known field names that field.
        assert_eq!(
            err(&format!(r#"{{"a": {{"points": {deep}"#)),
            "a.points: nested more than 128 levels deep"
        );
    }

    #[test]
    fn value_errors_name_the_field() {
        assert_eq!(
            b(r#"{"points": [[0,0,0],[1,1,1],[1,2]]}"#),
            "b.points[2]: expected 3 numbers, got 2"
        );
        assert_eq!(
            b(r#"{"points": [[0,"x",0]]}"#),
            "b.points[0][1]: expected a number, got a string"
        );
        assert_eq!(
            b(r#"{"points": [7]}"#),
            "b.points[0]: expected an array of 3 numbers, got a number"
        );
        assert_eq!(
            b(r#"{"points": [[0,0,0]], "radius": -1}"#),
            "b.radius: -1 is negative"
        );
        assert_eq!(
            b(r#"{"points": [[0,0,0]], "radius": null}"#),
            "b.radius: expected a number, got null"
        );
        assert_eq!(
            b(r#"{"points": [[0,0,0]], "rotation": [0,0,0,0]}"#),
            "b.rotation: zero quaternion (all four components are 0)"
        );
        assert_eq!(
            b(r#"{"points": [[0,0,0]], "rotation": [0,0,1]}"#),
            "b.rotation: expected 4 numbers [x, y, z, w], got 3"
        );
        assert_eq!(
            b(r#"{"points": [[0,0,0]], "position": [1,2]}"#),
            "b.position: expected 3 numbers, got 2"
        );
        assert_eq!(
            b(r#"{"points": [[0,0,0]], "position": [1,2,1e10]}"#),
            "b.position[2]: 1e10 is beyond the coordinate limit +-1e9"
        );
    }

    #[test]
    fn quaternions_normalise_without_overflow_or_underflow() {
        let rotation = |q: &str| {
            let line = format!(r#"{{"a": {OK}, "b": {{"points": [[0,0,0]], "rotation": {q}}}}}"#);
            parse_line(line.as_bytes()).unwrap().b.pose.pose.rotation
        };
        let half = std::f64::consts::FRAC_1_SQRT_2;
        let q = rotation("[1e154, 1e154, 0, 0]");
        assert!(
            (q.x - half).abs() < 1e-15 && (q.y - half).abs() < 1e-15,
            "{q}"
        );
        assert_eq!(
            rotation("[1e-13, 0, 0, 0]"),
            DQuat::from_xyzw(1.0, 0.0, 0.0, 0.0)
        );
        assert_eq!(rotation("[0, 0, 0, 1e-300]"), DQuat::IDENTITY);
        assert_eq!(rotation("[0, 0, 0, 1e300]"), DQuat::IDENTITY);
    }

    #[test]
    fn one_coordinate_limit_for_points_and_positions() {
        // The limit applies to the number as written: 1000000001 rounds to 1e9 in float32, but it is refused
        // like a position of 1000000000.0001.
        for value in ["1000000001", "1000000000.0001", "-1e300", "1e10"] {
            let point = b(&format!(r#"{{"points": [[0,0,{value}]]}}"#));
            assert!(
                point.starts_with("b.points[0][2]: ")
                    && point.contains("beyond the coordinate limit +-1e9"),
                "{point}"
            );
            let position = b(&format!(
                r#"{{"points": [[0,0,0]], "position": [0,0,{value}]}}"#
            ));
            assert!(
                position.starts_with("b.position[2]: ")
                    && position.contains("beyond the coordinate limit +-1e9"),
                "{position}"
            );
        }
        for value in ["1000000000", "-1e9", "999999999.9999"] {
            let line = format!(
                r#"{{"a": {{"points": [[0,0,{value}]]}}, "b": {{"points": [[0,0,0]], "position": [0,0,{value}]}}}}"#
            );
            assert!(parse_line(line.as_bytes()).is_ok(), "{value}");
        }
        assert_eq!(
            a(r#"{"points": [[0,0,0]], "radius": 1000000001}"#),
            "a.radius: 1.000000001e9 is beyond the radius limit 1e9"
        );
    }

    #[test]
    fn number_errors_say_what_is_wrong() {
        assert_eq!(
            a(r#"{"points": [[0,0,0],[0,1e999,0]]}"#),
            "a.points[1][1]: 1e999 overflows float64"
        );
        assert_eq!(
            a(r#"{"points": [[0,0,0]], "radius": 1e999}"#),
            "a.radius: 1e999 overflows float64"
        );
        assert_eq!(
            a(r#"{"points": [[0,0,0]], "position": [0,-1e999,0]}"#),
            "a.position[1]: -1e999 overflows float64"
        );
        assert_eq!(
            a(r#"{"points": [[0,0,0]], "rotation": [0,0,0,1e999]}"#),
            "a.rotation[3]: 1e999 overflows float64"
        );
        // Not a number at all: named as written, not as an overflow.
        assert_eq!(
            err(r#"{"a": {"points": [[1e999e5,0,0]]}, "b": {"points": [[0,0,0]]}}"#),
            "not JSON: malformed number `1e999e5` at column 20"
        );
        assert_eq!(
            a(r#"{"points": [[1e300,0,0]]}"#),
            "a.points[0][0]: 1e300 is beyond the coordinate limit +-1e9"
        );
        assert_eq!(
            a(r#"{"points": [[0,0,2e9]]}"#),
            "a.points[0][2]: 2e9 is beyond the coordinate limit +-1e9"
        );
        // The first bad number in reading order is the one named.
        assert_eq!(
            a(r#"{"points": [[2e9,1e999,0]]}"#),
            "a.points[0][0]: 2e9 is beyond the coordinate limit +-1e9"
        );
    }

    #[test]
    fn numbers_float32_cannot_hold_are_refused_other_than_zero() {
        let tiny = |field: &str, value: &str| {
            format!(
                "{field}: {value} is too small for float32, which the answers are computed in (below \
                 1.1754944e-38 other than 0): write 0, or scale the scene up"
            )
        };
        // The hostile-input audit's pair: two points 3e-46 apart with radii of 1e-46, answered as touching.
        assert_eq!(
            b(r#"{"points": [[0,0,0]], "radius": 1e-46, "position": [3e-46,0,0]}"#),
            tiny("b.radius", "1e-46")
        );
        assert_eq!(
            b(r#"{"points": [[0,0,0]], "position": [3e-46,0,0]}"#),
            tiny("b.position[0]", "3e-46")
        );
        assert_eq!(
            a(r#"{"points": [[0,0,0],[0,-1e-300,0]]}"#),
            tiny("a.points[1][1]", "-1e-300")
        );
        // Too small for float64 too (read as 0 by serde_json): named as written, not let through as 0.
        assert_eq!(
            a(r#"{"points": [[0,0,0],[1e-400,0,0]]}"#),
            tiny("a.points[1][0]", "1e-400")
        );
        assert_eq!(
            b(r#"{"points": [[0,0,0]], "radius": 0, "position": [0, -2.5E-999, 0]}"#),
            tiny("b.position[1]", "-2.5E-999")
        );
        assert_eq!(
            a(r#"{"points": [[0,0,0]], "radius": 1e-324}"#),
            tiny("a.radius", "1e-324")
        );
        // A float32 subnormal: held, but with fewer digits.
        assert_eq!(
            a(r#"{"points": [[0,0,0]], "radius": 1e-44}"#),
            tiny("a.radius", "1e-44")
        );
        // Zero of either sign, and float32's smallest normal number, are good; a rotation is normalised in
        // float64 and may have tiny components.
        for shape in [
            r#"{"points": [[0,-0,0],[1.1754944e-38,0,0]], "radius": 1.1754944e-38}"#,
            r#"{"points": [[0,0,0]], "position": [-0.0,0,-1.2e-38], "rotation": [0,0,1e-300,1e-300]}"#,
            r#"{"points": [[0,0e-999,0]], "position": [0,0,0], "rotation": [1e-400,0,0,1]}"#,
        ] {
            let line = format!(r#"{{"a": {shape}, "b": {OK}}}"#);
            assert!(parse_line(line.as_bytes()).is_ok(), "{shape}");
        }
    }
}
