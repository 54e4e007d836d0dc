//! One input line of `gpu-gjk query` into a validated pair of placed shapes.
//!
//! The line is read as a generic JSON value and walked by hand, so that every error can name the field it
//! is about (`b.points[2]: expected 3 numbers, got 2`). All checks that the library would make later are
//! made here first with the field path; the library's own checks stay behind them as a backstop.

use super::overflow::{self, overflowed};
use crate::error::GjkError;
use crate::pose::{DPose, COORDINATE_LIMIT};
use crate::shape::ConvexShape;
use glam::{DQuat, DVec3, Vec3};
use serde_json::{Map, Value};
use std::fmt;

/// One shape placed in the world.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedShape {
    pub shape: ConvexShape,
    pub pose: DPose,
}

/// A parsed input line.
#[derive(Clone, Debug, PartialEq)]
pub struct PairInput {
    pub a: PlacedShape,
    pub b: PlacedShape,
}

/// Parses one line (without its newline). The error is the message without the `line N: ` prefix.
pub fn parse_line(line: &[u8]) -> Result<PairInput, String> {
    if line.trim_ascii().is_empty() {
        return Err("empty line".into());
    }
    let value = overflow::parse_value(line).map_err(|e| format!("not JSON: {e}"))?;
    let Value::Object(fields) = &value else {
        return Err(format!("expected a JSON object, got {}", kind(&value)));
    };
    Ok(PairInput {
        a: placed_shape(fields, "a")?,
        b: placed_shape(fields, "b")?,
    })
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

fn placed_shape(fields: &Map<String, Value>, name: &str) -> Result<PlacedShape, String> {
    let path = Path::shape(name);
    let fields = match fields.get(name) {
        None => return Err(format!("{path}: required field is missing")),
        Some(Value::Object(fields)) => fields,
        Some(other) => return Err(format!("{path}: expected an object, got {}", kind(other))),
    };

    let points = points(fields.get("points"), path.field("points"))?;
    let radius = match fields.get("radius") {
        None => 0.0,
        Some(v) => radius(v, path.field("radius"))?,
    };
    let position = match fields.get("position") {
        None => DVec3::ZERO,
        Some(v) => position(v, path.field("position"))?,
    };
    let rotation = match fields.get("rotation") {
        None => DQuat::IDENTITY,
        Some(v) => rotation(v, path.field("rotation"))?,
    };

    let pose = DPose::checked(position, rotation).map_err(|e| library_error(path, e))?;
    // Centre the points in float64 before they are rounded to float32, and fold the centre into the
    // float64 pose: points written far from their origin (world coordinates around 1e6) keep every digit
    // the input gave them.
    let centre = bounding_box_centre(&points);
    let centred: Vec<Vec3> = points.iter().map(|p| (*p - centre).as_vec3()).collect();
    let shape = ConvexShape::new(centred, radius).map_err(|e| library_error(path, e))?;
    let pose = DPose {
        position: pose.position + pose.rotation * centre,
        rotation: pose.rotation,
    };
    Ok(PlacedShape { shape, pose })
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
        let p = numbers::<3>(point, path.at(i))?;
        for (k, &x) in p.iter().enumerate() {
            coordinate_f32(x, path.at(i).at(k))?;
        }
        out.push(DVec3::from_array(p));
    }
    Ok(out)
}

/// Points are stored in float32: a value that overflows there, or that exceeds the coordinate limit the
/// GJK determinants can afford, is refused here with its own path.
fn coordinate_f32(x: f64, path: Path) -> Result<f32, String> {
    let c = x as f32;
    if !c.is_finite() {
        return Err(format!(
            "{path}: {} overflows float32 (not finite after conversion)",
            show(x)
        ));
    }
    if c.abs() as f64 > COORDINATE_LIMIT {
        return Err(format!(
            "{path}: {} is beyond the coordinate limit +-{COORDINATE_LIMIT:e}",
            show(x)
        ));
    }
    Ok(c)
}

fn radius(value: &Value, path: Path) -> Result<f32, String> {
    let r = number(value, path)?;
    if r < 0.0 {
        return Err(format!("{path}: {} is negative", show(r)));
    }
    let r32 = r as f32;
    if !r32.is_finite() {
        return Err(format!("{path}: {} overflows float32", show(r)));
    }
    Ok(r32)
}

fn position(value: &Value, path: Path) -> Result<DVec3, String> {
    let p = numbers::<3>(value, path)?;
    for (k, &x) in p.iter().enumerate() {
        if x.abs() > COORDINATE_LIMIT {
            return Err(format!(
                "{}: {} is beyond the coordinate limit +-{COORDINATE_LIMIT:e}",
                path.at(k),
                show(x)
            ));
        }
    }
    Ok(DVec3::from_array(p))
}

fn rotation(value: &Value, path: Path) -> Result<DQuat, String> {
    let q = DQuat::from_array(numbers::<4>(value, path)?);
    // The same test as `DPose::checked`, made here so the message can say which way it failed.
    let len = q.length();
    if !len.is_finite() {
        return Err(format!("{path}: quaternion length overflows"));
    }
    if len < 1e-12 {
        return Err(format!("{path}: zero quaternion"));
    }
    Ok(q)
}

/// An array of exactly `N` finite numbers.
fn numbers<const N: usize>(value: &Value, path: Path) -> Result<[f64; N], String> {
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
        *x = number(v, path.at(i))?;
    }
    Ok(out)
}

fn number(value: &Value, path: Path) -> Result<f64, String> {
    if let Some(text) = overflowed(value) {
        return Err(format!("{path}: {text} is not a finite number"));
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
fn show(x: f64) -> String {
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

    #[test]
    fn full_line_with_defaults_and_unknown_fields() {
        let line = format!(
            r#"{{"a": {{"points": {BOX}, "colour": "red"}}, "b": {{"points": [[0,0,0]], "radius": 0.5,
            "position": [3, 0, 0], "rotation": [0, 0, 0, 2]}}, "id": 7}}"#
        )
        .replace('\n', " ");
        let pair = parse_line(line.as_bytes()).unwrap();
        assert_eq!(pair.a.shape.len(), 8);
        assert_eq!(pair.a.shape.radius(), 0.0);
        assert_eq!(pair.a.pose, DPose::IDENTITY);
        assert_eq!(pair.b.shape.radius(), 0.5);
        assert_eq!(pair.b.pose.position, DVec3::new(3.0, 0.0, 0.0));
        // The quaternion is normalised.
        assert_eq!(pair.b.pose.rotation, DQuat::IDENTITY);
    }

    #[test]
    fn structural_errors_name_the_field() {
        assert_eq!(err("   "), "empty line");
        assert!(err("{nope").starts_with("not JSON: "), "{}", err("{nope"));
        assert!(err(r#"{"a": NaN}"#).starts_with("not JSON: expected value at column 7"));
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
        assert_eq!(
            err(r#"{"a": {"radius": 1}, "b": {"points": [[0,0,0]]}}"#),
            "a.points: required field is missing"
        );
        assert_eq!(
            err(r#"{"a": {"points": []}, "b": {"points": [[0,0,0]]}}"#),
            "a.points: empty point list"
        );
        assert_eq!(
            err(r#"{"a": {"points": {}}, "b": {"points": [[0,0,0]]}}"#),
            "a.points: expected an array of points, got an object"
        );
    }

    #[test]
    fn value_errors_name_the_field() {
        let ok = r#"{"points": [[0,0,0]]}"#;
        let b = |shape: &str| err(&format!(r#"{{"a": {ok}, "b": {shape}}}"#));
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
            "b.rotation: zero quaternion"
        );
        assert_eq!(
            b(r#"{"points": [[0,0,0]], "rotation": [0,0,1]}"#),
            "b.rotation: expected 4 numbers [x, y, z, w], got 3"
        );
        assert_eq!(
            b(r#"{"points": [[0,0,0]], "rotation": [1e300,1e300,0,0]}"#),
            "b.rotation: quaternion length overflows"
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
    fn non_finite_and_overflowing_numbers_name_the_field() {
        let ok = r#"{"points": [[0,0,0]]}"#;
        let a = |shape: &str| err(&format!(r#"{{"a": {shape}, "b": {ok}}}"#));
        assert_eq!(
            a(r#"{"points": [[0,0,0],[0,1e999,0]]}"#),
            "a.points[1][1]: 1e999 is not a finite number"
        );
        assert_eq!(
            a(r#"{"points": [[0,0,0]], "radius": 1e999}"#),
            "a.radius: 1e999 is not a finite number"
        );
        assert_eq!(
            a(r#"{"points": [[0,0,0]], "position": [0,-1e999,0]}"#),
            "a.position[1]: -1e999 is not a finite number"
        );
        assert_eq!(
            a(r#"{"points": [[0,0,0]], "rotation": [0,0,0,1e999]}"#),
            "a.rotation[3]: 1e999 is not a finite number"
        );
        assert_eq!(
            a(r#"{"points": [[1e300,0,0]]}"#),
            "a.points[0][0]: 1e300 overflows float32 (not finite after conversion)"
        );
        assert_eq!(
            a(r#"{"points": [[0,0,2e9]]}"#),
            "a.points[0][2]: 2e9 is beyond the coordinate limit +-1e9"
        );
        assert_eq!(
            a(r#"{"points": [[0,0,0]], "radius": 1e300}"#),
            "a.radius: 1e300 overflows float32"
        );
        // An overflowing number in a field nobody reads is ignored like the field.
        assert!(parse_line(format!(r#"{{"a": {ok}, "b": {ok}, "x": 1e999}}"#).as_bytes()).is_ok());
    }
}
