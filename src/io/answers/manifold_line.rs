//! `query --kind manifold`'s answer line: the manifold's status, normal and points, in the layout of the other
//! answer lines (`{"key": value, ...}`, a space after each colon and comma, `null` for a non-finite number).
//!
//! `{"status": "penetrating", "normal": [0.0, 1.0, 0.0], "points": [{"point_a": [..], "point_b": [..],
//! "depth": 0.01, "feature_id": 9223372036854775808}, ...]}`: `feature_id` is
//! [`crate::manifold::FeatureId::packed`]. A line whose pair carries an `"id"` gets it back first, as the other
//! kinds' lines do.

use crate::io::pair_id::PairId;
use crate::manifold::Manifold;
use glam::DVec3;
use std::fmt::Write;

/// Appends one manifold line, newline included, to `out`, the pair's id first when it has one.
pub fn push_manifold(out: &mut Vec<u8>, id: Option<&PairId>, m: &Manifold) {
    out.push(b'{');
    if let Some(id) = id {
        out.extend_from_slice(b"\"id\": ");
        id.push_json(out);
        out.extend_from_slice(b", ");
    }
    let mut line = String::with_capacity(128 + 160 * m.points.len());
    let _ = write!(
        line,
        "\"status\": \"{}\", \"normal\": {}, \"points\": [",
        m.status.name(),
        vector(m.normal)
    );
    for (k, p) in m.points.iter().enumerate() {
        let _ = write!(
            line,
            "{}{{\"point_a\": {}, \"point_b\": {}, \"depth\": {}, \"feature_id\": {}}}",
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
        push_manifold(&mut out, None, &m);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "{\"status\": \"penetrating\", \"normal\": [0.0, 1.0, 0.0], \"points\": [{\"point_a\": [0.5, 0.5, \
             -0.5], \"point_b\": [0.5, 0.49, -0.5], \"depth\": 0.01, \"feature_id\": 9223372036854775811}]}\n"
        );
        let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            parsed["points"][0]["feature_id"].as_u64(),
            Some((2u64 << 62) | 3)
        );
        // Apart: no points, and a NaN normal written as null.
        let apart = Manifold {
            status: PenetrationStatus::Separated,
            normal: DVec3::NAN,
            points: Vec::new(),
        };
        let mut out = Vec::new();
        push_manifold(&mut out, None, &apart);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"status\": \"separated\", \"normal\": [null, null, null], \"points\": []}\n"
        );
        // The pair's id comes first, as on the other kinds' lines.
        let mut out = Vec::new();
        push_manifold(&mut out, Some(&PairId::Text("run-4".into())), &apart);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"id\": \"run-4\", \"status\": \"separated\", \"normal\": [null, null, null], \"points\": []}\n"
        );
    }
}
