//! `query --kind manifold`'s answer line: the manifold's status, normal and points, in the layout of the other
//! answer lines (`{"key": value, ...}`, a space after each colon and comma, `null` for a non-finite number).
//!
//! `{"status": "penetrating", "normal": [0.0, 1.0, 0.0], "points": [{"point_a": [..], "point_b": [..],
//! "depth": 0.01, "id": 9223372036854775808}, ...]}`: `id` is [`crate::manifold::FeatureId::packed`].

use crate::manifold::Manifold;
use glam::DVec3;
use std::fmt::Write;

/// Appends one manifold line, newline included, to `out`.
pub fn push_manifold(out: &mut Vec<u8>, m: &Manifold) {
    let mut line = String::with_capacity(128 + 160 * m.points.len());
    let _ = write!(
        line,
        "{{\"status\": \"{}\", \"normal\": {}, \"points\": [",
        m.status.name(),
        vector(m.normal)
    );
    for (k, p) in m.points.iter().enumerate() {
        let _ = write!(
            line,
            "{}{{\"point_a\": {}, \"point_b\": {}, \"depth\": {}, \"id\": {}}}",
            if k == 0 { "" } else { ", " },
            vector(p.point_a),
            vector(p.point_b),
            number(p.depth),
            p.id.packed()
        );
    }
    line.push_str("]}\n");
    out.extend_from_slice(line.as_bytes());
}

/// A float as serde_json writes it (`null` when not finite).
fn number(x: f64) -> String {
    serde_json::to_string(&x).unwrap_or_else(|_| "null".into())
}

fn vector(v: DVec3) -> String {
    format!("[{}, {}, {}]", number(v.x), number(v.y), number(v.z))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::epa::PenetrationStatus;
    use crate::manifold::{ContactPoint, FeatureId};

    #[test]
    fn a_manifold_line_is_json_with_every_point() {
        let m = Manifold {
            status: PenetrationStatus::Penetrating,
            normal: DVec3::Y,
            points: vec![ContactPoint {
                point_a: DVec3::new(0.5, 0.5, -0.5),
                point_b: DVec3::new(0.5, 0.49, -0.5),
                depth: 0.01,
                id: FeatureId { a: 2 << 30, b: 3 },
            }],
        };
        let mut out = Vec::new();
        push_manifold(&mut out, &m);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "{\"status\": \"penetrating\", \"normal\": [0.0, 1.0, 0.0], \"points\": [{\"point_a\": [0.5, 0.5, \
             -0.5], \"point_b\": [0.5, 0.49, -0.5], \"depth\": 0.01, \"id\": 9223372036854775811}]}\n"
        );
        let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(parsed["points"][0]["id"].as_u64(), Some((2u64 << 62) | 3));
        // Apart: no points, and a NaN normal written as null.
        let apart = Manifold {
            status: PenetrationStatus::Separated,
            normal: DVec3::NAN,
            points: Vec::new(),
        };
        let mut out = Vec::new();
        push_manifold(&mut out, &apart);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"status\": \"separated\", \"normal\": [null, null, null], \"points\": []}\n"
        );
    }
}
