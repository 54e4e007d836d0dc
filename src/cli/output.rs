//! Output lines of `gpu-gjk query`: one JSON object per input line, written as `{"key": value, ...}` with
//! a space after each colon and comma (the layout the documented format shows).

use super::answer::AnswerFields;
use crate::query::{WorldPenetration, WorldResult};
use serde::Serialize;
use std::io::{self, Write};

/// The answer for one pair, in world coordinates. The depth and contacts are present on intersecting pairs
/// only, where `normal` is EPA's contact normal rather than GJK's.
#[derive(Serialize)]
struct ResultLine {
    intersecting: bool,
    distance: f64,
    witness_a: [f64; 3],
    witness_b: [f64; 3],
    normal: [f64; 3],
    iterations: u32,
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    penetration_status: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    depth: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    contact_a: Option<[f64; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    contact_b: Option<[f64; 3]>,
}

#[derive(Serialize)]
struct ErrorLine<'a> {
    error: &'a str,
}

/// Writes one result line, newline included (the fields of [`AnswerFields`]).
pub fn write_result(
    out: &mut impl Write,
    r: &WorldResult,
    hit: Option<&WorldPenetration>,
) -> io::Result<()> {
    let f = AnswerFields::new(r, hit);
    write_line(
        out,
        &ResultLine {
            intersecting: f.intersecting,
            distance: f.distance,
            witness_a: f.witness_a,
            witness_b: f.witness_b,
            normal: f.normal,
            iterations: f.iterations,
            status: f.status,
            penetration_status: f.penetration_status,
            depth: f.depth,
            contact_a: f.contact_a,
            contact_b: f.contact_b,
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
    use crate::epa::PenetrationStatus;
    use crate::gjk::GjkStatus;
    use glam::DVec3;

    fn written(r: &WorldResult, hit: &WorldPenetration) -> String {
        let mut out = Vec::new();
        write_result(&mut out, r, Some(hit)).unwrap();
        String::from_utf8(out).unwrap()
    }

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
        // A separated pair's penetration fields are not printed, only its status.
        let hit = WorldPenetration {
            status: PenetrationStatus::Separated,
            depth: 0.0,
            normal: DVec3::ZERO,
            contact_a: DVec3::ZERO,
            contact_b: DVec3::ZERO,
        };
        assert_eq!(
            written(&r, &hit),
            "{\"intersecting\": false, \"distance\": 1.0, \"witness_a\": [1.0, 0.5, 0.0], \
             \"witness_b\": [2.0, 0.5, 0.0], \"normal\": [1.0, 0.0, 0.0], \"iterations\": 3, \
             \"status\": \"separated\", \"penetration_status\": \"separated\"}\n"
        );
    }

    #[test]
    fn intersecting_line_layout() {
        let r = WorldResult {
            status: GjkStatus::Intersecting,
            intersecting: true,
            distance: 0.0,
            witness_a: DVec3::new(0.25, 0.0, 0.0),
            witness_b: DVec3::new(0.25, 0.0, 0.0),
            normal: DVec3::ZERO,
            iterations: 4,
        };
        // The normal printed is EPA's, not GJK's; a failed EPA status still prints its best face.
        let hit = WorldPenetration {
            status: PenetrationStatus::MaxIterations,
            depth: 0.5,
            normal: DVec3::new(-0.0, 1.0, 0.0),
            contact_a: DVec3::new(0.0, 0.5, 0.0),
            contact_b: DVec3::new(0.0, 0.0, -0.0),
        };
        assert_eq!(
            written(&r, &hit),
            "{\"intersecting\": true, \"distance\": 0.0, \"witness_a\": [0.25, 0.0, 0.0], \
             \"witness_b\": [0.25, 0.0, 0.0], \"normal\": [0.0, 1.0, 0.0], \"iterations\": 4, \
             \"status\": \"intersecting\", \"penetration_status\": \"epa_max_iterations\", \
             \"depth\": 0.5, \"contact_a\": [0.0, 0.5, 0.0], \"contact_b\": [0.0, 0.0, 0.0]}\n"
        );
    }

    #[test]
    fn error_line_escapes_the_message() {
        let mut out = Vec::new();
        write_error(&mut out, "line 2: not JSON: \"x\"").unwrap();
        assert_eq!(out, b"{\"error\": \"line 2: not JSON: \\\"x\\\"\"}\n");
    }
}
