//! Output lines of `gpu-gjk query`: one JSON object per input line, written as `{"key": value, ...}` with
//! a space after each colon and comma (the layout the documented format shows).

use crate::io::answers::AnswerFields;
use crate::io::pair_id::PairId;
use crate::query::{WorldPenetration, WorldResult};
use serde::Serialize;
use std::io::{self, Write};

#[derive(Serialize)]
struct ErrorLine<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a PairId>,
    error: &'a str,
}

/// Writes one result line, newline included (see [`push_result`]), with one call to `out`.
pub fn write_result(
    out: &mut impl Write,
    r: &WorldResult,
    hit: Option<&WorldPenetration>,
) -> io::Result<()> {
    let mut line = Vec::with_capacity(LINE_CAPACITY);
    push_result(&mut line, r, hit);
    out.write_all(&line)
}

/// Appends one result line, newline included, to `out`: the fields of [`AnswerFields`] (on an
/// intersecting pair the penetration answer whatever its status; without one, GJK's fields only).
///
/// The line is written directly, keys as literals and numbers by the formatters serde_json itself uses
/// (zmij for floats, `null` for a non-finite one; itoa for integers): byte for byte what serialising the
/// fields with serde_json wrote before (the test `lines_are_what_serde_json_writes` holds the two equal),
/// without serde's per-token writes, which profiles of `query` on the `bench --io` mix showed costing about
/// as much as the float formatting. A caller that writes many lines appends them to one buffer and
/// writes that (`AnswerWriter`): measured on the `bench --io` mix, building each line
/// in a zeroed stack buffer and then copying it into the output buffer took about 3% longer.
pub fn push_result(out: &mut Vec<u8>, r: &WorldResult, hit: Option<&WorldPenetration>) {
    push_result_with_id(out, None, r, hit);
}

/// [`push_result`] with the pair's id, when it has one, as the line's first field (`{"id": 7, ...`).
pub fn push_result_with_id(
    out: &mut Vec<u8>,
    id: Option<&PairId>,
    r: &WorldResult,
    hit: Option<&WorldPenetration>,
) {
    let f = AnswerFields::new(r, hit);
    out.reserve(LINE_CAPACITY);
    let mut line = Line { bytes: out };
    line.text("{");
    if let Some(id) = id {
        line.text("\"id\": ");
        id.push_json(line.bytes);
        line.text(", ");
    }
    line.text(if f.intersecting {
        "\"intersecting\": true, \"distance\": "
    } else {
        "\"intersecting\": false, \"distance\": "
    });
    line.number(f.distance);
    line.text(", \"witness_a\": ");
    line.vector(f.witness_a);
    line.text(", \"witness_b\": ");
    line.vector(f.witness_b);
    line.text(", \"normal\": ");
    line.vector(f.normal);
    line.text(", \"iterations\": ");
    line.text(itoa::Buffer::new().format(f.iterations));
    line.text(", \"status\": \"");
    line.text(f.status);
    line.text("\"");
    if let Some(status) = f.penetration_status {
        line.text(", \"penetration_status\": \"");
        line.text(status);
        line.text("\"");
    }
    if let (Some(depth), Some(contact_a), Some(contact_b)) = (f.depth, f.contact_a, f.contact_b) {
        line.text(", \"depth\": ");
        line.number(depth);
        if let Some(upper) = f.depth_upper {
            line.text(", \"depth_upper\": ");
            line.number(upper);
        }
        line.text(", \"contact_a\": ");
        line.vector(contact_a);
        line.text(", \"contact_b\": ");
        line.vector(contact_b);
    }
    line.text("}\n");
}

/// Room for the longest answer line, reserved once per line so the appends do not grow the buffer one
/// by one: 18 floats of at most 24 characters each, a u32, two status names and the keys come to under
/// 750 bytes.
const LINE_CAPACITY: usize = 1024;

/// One answer line being appended to a buffer.
struct Line<'a> {
    bytes: &'a mut Vec<u8>,
}

impl Line<'_> {
    fn text(&mut self, text: &str) {
        self.bytes.extend_from_slice(text.as_bytes());
    }

    /// As serde_json writes an f64: `null` when not finite.
    fn number(&mut self, x: f64) {
        if x.is_finite() {
            self.text(zmij::Buffer::new().format_finite(x));
        } else {
            self.text("null");
        }
    }

    fn vector(&mut self, v: [f64; 3]) {
        self.text("[");
        self.number(v[0]);
        self.text(", ");
        self.number(v[1]);
        self.text(", ");
        self.number(v[2]);
        self.text("]");
    }
}

/// Writes `{"error": message}`, newline included.
pub fn write_error(out: &mut impl Write, message: &str) -> io::Result<()> {
    let mut line = Vec::new();
    push_error(&mut line, message);
    out.write_all(&line)
}

/// Appends `{"error": message}`, newline included, as serde_json writes it (the message escaped).
pub fn push_error(out: &mut Vec<u8>, message: &str) {
    push_error_with_id(out, None, message);
}

/// [`push_error`] with the pair's id, when it has one, first: `{"id": 7, "error": message}`.
pub fn push_error_with_id(out: &mut Vec<u8>, id: Option<&PairId>, message: &str) {
    push_json(out, &ErrorLine { id, error: message });
}

/// Appends `value` in the spaced layout, newline included.
fn push_json(out: &mut Vec<u8>, value: &impl Serialize) {
    let mut ser = serde_json::Serializer::with_formatter(&mut *out, Spaced);
    value
        .serialize(&mut ser)
        .expect("the answer types serialise into memory without fail");
    out.push(b'\n');
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
            depth_upper: None,
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
            depth_upper: Some(0.75),
        };
        assert_eq!(
            written(&r, &hit),
            "{\"intersecting\": true, \"distance\": 0.0, \"witness_a\": [0.25, 0.0, 0.0], \
             \"witness_b\": [0.25, 0.0, 0.0], \"normal\": [0.0, 1.0, 0.0], \"iterations\": 4, \
             \"status\": \"intersecting\", \"penetration_status\": \"epa_max_iterations\", \
             \"depth\": 0.5, \"depth_upper\": 0.75, \"contact_a\": [0.0, 0.5, 0.0], \
             \"contact_b\": [0.0, 0.0, 0.0]}\n"
        );
    }

    /// The serde_json serialisation `write_result` replaced, as the reference for its bytes.
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
        depth_upper: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        contact_a: Option<[f64; 3]>,
        #[serde(skip_serializing_if = "Option::is_none")]
        contact_b: Option<[f64; 3]>,
    }

    fn serde_line(r: &WorldResult, hit: Option<&WorldPenetration>) -> Vec<u8> {
        // The old writer's own -0.0 cleaning, kept with it as the reference.
        let clean = |x: f64| x + 0.0;
        let clean3 = |v: DVec3| [clean(v.x), clean(v.y), clean(v.z)];
        let contact = hit.filter(|_| r.status == GjkStatus::Intersecting);
        let mut out = Vec::new();
        push_json(
            &mut out,
            &ResultLine {
                intersecting: r.intersecting,
                distance: clean(r.distance),
                witness_a: clean3(r.witness_a),
                witness_b: clean3(r.witness_b),
                normal: clean3(contact.map_or(r.normal, |h| h.normal)),
                iterations: r.iterations,
                status: r.status.name(),
                penetration_status: hit.map(|h| h.status.name()),
                depth: contact.map(|h| clean(h.depth)),
                depth_upper: contact.and_then(|h| h.depth_upper).map(clean),
                contact_a: contact.map(|h| clean3(h.contact_a)),
                contact_b: contact.map(|h| clean3(h.contact_b)),
            },
        );
        out
    }

    // rand comes with the `scenario` feature, which `io` alone does not enable.
    #[cfg(feature = "scenario")]
    #[test]
    fn lines_are_what_serde_json_writes() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        let special = [
            0.0,
            -0.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            1e-7,
            123456789012345680.0,
            0.1 + 0.2,
        ];
        let number = |rng: &mut rand_pcg::Pcg64Mcg| match rng.random_range(0..4) {
            0 => special[rng.random_range(0..special.len())],
            1 => f64::from_bits(rng.random()),
            2 => rng.random_range(-1e3..1e3),
            _ => rng.random_range(-1.0..1.0) * 10f64.powi(rng.random_range(-30..30)),
        };
        let gjk = [
            GjkStatus::Separated,
            GjkStatus::Intersecting,
            GjkStatus::MaxIterations,
            GjkStatus::Unresolved,
            GjkStatus::GpuLoopLimit,
        ];
        let epa = [
            PenetrationStatus::Separated,
            PenetrationStatus::Penetrating,
            PenetrationStatus::GjkMaxIterations,
            PenetrationStatus::MaxIterations,
            PenetrationStatus::Overflow,
            PenetrationStatus::Degenerate,
            PenetrationStatus::GjkUnresolved,
            PenetrationStatus::GpuLoopLimit,
        ];
        for _ in 0..20_000 {
            let vector =
                |rng: &mut rand_pcg::Pcg64Mcg| DVec3::new(number(rng), number(rng), number(rng));
            let r = WorldResult {
                status: gjk[rng.random_range(0..gjk.len())],
                intersecting: rng.random(),
                distance: number(&mut rng),
                witness_a: vector(&mut rng),
                witness_b: vector(&mut rng),
                normal: vector(&mut rng),
                iterations: rng.random(),
            };
            let hit = WorldPenetration {
                status: epa[rng.random_range(0..epa.len())],
                depth: number(&mut rng),
                normal: vector(&mut rng),
                contact_a: vector(&mut rng),
                contact_b: vector(&mut rng),
                depth_upper: rng.random_bool(0.5).then(|| number(&mut rng)),
            };
            let hit = rng.random_bool(0.8).then_some(&hit);
            let mut direct = Vec::new();
            write_result(&mut direct, &r, hit).unwrap();
            assert_eq!(
                String::from_utf8(direct).unwrap(),
                String::from_utf8(serde_line(&r, hit)).unwrap()
            );
        }
    }

    #[test]
    fn an_id_comes_first_on_the_answer_and_the_error_line() {
        let r = WorldResult {
            status: GjkStatus::Separated,
            intersecting: false,
            distance: 1.0,
            witness_a: DVec3::ZERO,
            witness_b: DVec3::X,
            normal: DVec3::X,
            iterations: 1,
        };
        let mut plain = Vec::new();
        push_result(&mut plain, &r, None);
        for (id, json) in [
            (PairId::Int(-7), "-7"),
            (PairId::UInt(u64::MAX), "18446744073709551615"),
            (PairId::Text("k\"1".into()), "\"k\\\"1\""),
        ] {
            let mut out = Vec::new();
            push_result_with_id(&mut out, Some(&id), &r, None);
            let expected = format!(
                "{{\"id\": {json}, {}",
                &String::from_utf8_lossy(&plain)[1..]
            );
            assert_eq!(String::from_utf8(out).unwrap(), expected);
            let mut out = Vec::new();
            push_error_with_id(&mut out, Some(&id), "line 1: bad");
            assert_eq!(
                String::from_utf8(out).unwrap(),
                format!("{{\"id\": {json}, \"error\": \"line 1: bad\"}}\n")
            );
        }
    }

    #[test]
    fn error_line_escapes_the_message() {
        let mut out = Vec::new();
        write_error(&mut out, "line 2: not JSON: \"x\"").unwrap();
        assert_eq!(out, b"{\"error\": \"line 2: not JSON: \\\"x\\\"\"}\n");
    }
}
