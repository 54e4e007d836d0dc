//! One answer's fields as they are written: the JSON line's, the answers table's and the Python module's.

use crate::gjk::GjkStatus;
use crate::query::{WorldPenetration, WorldResult};

/// The fields of one answer as `query` prints them (and the Python module returns them), in world
/// coordinates: `-0.0` written as `0.0`; on intersecting pairs with a penetration answer, EPA's normal,
/// depth and contacts (whatever EPA's status: a bound hit still leaves the best face found); without a
/// penetration answer (`--kind distance` or `intersection`) GJK's fields alone. `depth_upper` only where
/// EPA did not converge (see [`WorldPenetration::depth_upper`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnswerFields {
    pub intersecting: bool,
    pub distance: f64,
    pub witness_a: [f64; 3],
    pub witness_b: [f64; 3],
    pub normal: [f64; 3],
    pub iterations: u32,
    pub status: &'static str,
    pub penetration_status: Option<&'static str>,
    pub depth: Option<f64>,
    pub depth_upper: Option<f64>,
    pub contact_a: Option<[f64; 3]>,
    pub contact_b: Option<[f64; 3]>,
}

impl AnswerFields {
    pub fn new(r: &WorldResult, hit: Option<&WorldPenetration>) -> Self {
        let contact = hit.filter(|_| r.status == GjkStatus::Intersecting);
        Self {
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
        }
    }
}

/// `-0.0 + 0.0 == +0.0`: keeps `-0.0` (a harmless artefact of rotating zero vectors) out of the answers.
fn clean(x: f64) -> f64 {
    x + 0.0
}

fn clean3(v: glam::DVec3) -> [f64; 3] {
    [clean(v.x), clean(v.y), clean(v.z)]
}
