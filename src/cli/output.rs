//! Output lines of `gpu-gjk query`: one JSON object per input line, written as `{"key": value, ...}` with
//! a space after each colon and comma (the layout the documented format shows).

use crate::gjk::WorldResult;
use serde::Serialize;
use std::io::{self, Write};

/// The answer for one pair, in world coordinates.
#[derive(Serialize)]
struct ResultLine {
    intersecting: bool,
    distance: f64,
    witness_a: [f64; 3],
    witness_b: [f64; 3],
    normal: [f64; 3],
    iterations: u32,
    status: &'static str,
}

#[derive(Serialize)]
struct ErrorLine<'a> {
    error: &'a str,
}

/// `-0.0 + 0.0 == +0.0`: keeps `-0.0` (a harmless artefact of rotating zero vectors) out of the output.
fn clean(x: f64) -> f64 {
    x + 0.0
}

fn clean3(v: glam::DVec3) -> [f64; 3] {
    [clean(v.x), clean(v.y), clean(v.z)]
}

/// Writes one result line, newline included.
pub fn write_result(out: &mut impl Write, r: &WorldResult) -> io::Result<()> {
    write_line(
        out,
        &ResultLine {
            intersecting: r.intersecting,
            distance: clean(r.distance),
            witness_a: clean3(r.witness_a),
            witness_b: clean3(r.witness_b),
            normal: clean3(r.normal),
            iterations: r.iterations,
            status: r.status.name(),
        },
    )
}

/// Writes `{"error": message}`, newline included.
pub fn write_error(out: &mut impl Write, message: &str) -> io::Result<()> {
    write_line(out, &ErrorLine { error: message })
}

fn write_line(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(&mut *out, Spaced);
    value.serialize(&mut ser).map_err(io::Error::from)?;
    out.write_all(b"\n")
}

/// serde_json's compact layout with `", "` and `": "` separators.
struct Spaced;

impl serde_json::ser::Formatter for Spaced {
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gjk::GjkStatus;
    use glam::DVec3;

    #[test]
    fn result_line_layout() {
        let r = WorldResult {
            status: GjkStatus::Separated,
            intersecting: false,
            distance: 1.0,
            witness_a: DVec3::new(1.0, 0.5, -0.0),
            witness_b: DVec3::new(2.0, 0.5, 0.0),
            normal: DVec3::X,
            iterations: 3,
        };
        let mut out = Vec::new();
        write_result(&mut out, &r).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"intersecting\": false, \"distance\": 1.0, \"witness_a\": [1.0, 0.5, 0.0], \
             \"witness_b\": [2.0, 0.5, 0.0], \"normal\": [1.0, 0.0, 0.0], \"iterations\": 3, \
             \"status\": \"separated\"}\n"
        );
    }

    #[test]
    fn error_line_escapes_the_message() {
        let mut out = Vec::new();
        write_error(&mut out, "line 2: not JSON: \"x\"").unwrap();
        assert_eq!(out, b"{\"error\": \"line 2: not JSON: \\\"x\\\"\"}\n");
    }
}
