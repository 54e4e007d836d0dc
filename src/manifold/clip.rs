//! The incident feature clipped against the reference feature's side planes (Sutherland-Hodgman, as Box2D and
//! Bullet do), each surviving point paired with the point of the reference straight across it along the
//! contact normal.
//!
//! The side planes contain the normal, so clipping keeps the part of the incident feature whose shadow along
//! the normal falls on the reference feature: the points it keeps lie on the incident feature, and their
//! partners, moved along the normal onto the reference plane, lie inside the reference feature. Both are on
//! their shapes' surfaces (the cores' features; the radii are added along the features' normals by the
//! caller), whichever shape is the reference.

use super::answer::{code, FeatureKind};
use super::features::Feature;
use glam::DVec3;

/// A point on the incident feature, with its id sides (incident, reference).
#[derive(Clone, Copy, Debug)]
pub(super) struct Clipped {
    pub incident: DVec3,
    pub reference: DVec3,
    pub incident_code: u32,
    pub reference_code: u32,
}

/// What the segment leaving a point of the clipped polygon lies on.
#[derive(Clone, Copy, Debug)]
enum Along {
    /// An edge of the incident feature (its id side).
    IncidentEdge(u32),
    /// The reference's side plane `j`.
    SidePlane(usize),
}

/// A reference side plane: points with `normal . p <= offset` are inside.
struct Side {
    normal: DVec3,
    offset: f64,
    /// The id side of a crossing of an incident edge with this plane.
    crossing: u32,
    /// The length of the reference edge (segment) it stands on.
    length: f64,
}

/// The incident feature clipped to the reference's side planes along `normal` (unit, A towards B in A's
/// frame), each kept point paired with its reference partner.
pub(super) fn clip(reference: &Feature, incident: &Feature, normal: DVec3) -> Vec<Clipped> {
    if reference.points.len() == 2
        && incident.points.len() == 2
        && !parallel(reference, incident, normal)
    {
        // A segment touches a segment crossing it at one point: their closest points (pairing points by their
        // place along the reference would pair points that are not across one another).
        let (on_reference, on_incident) =
            closest_between_segments(&reference.points, &incident.points);
        return vec![Clipped {
            incident: on_incident,
            reference: on_reference,
            incident_code: incident.code,
            reference_code: reference.code,
        }];
    }
    if reference.points.len() == 1 {
        // A vertex against a vertex (two spheres' centres): the pair itself, its radii added by the caller.
        let p = incident.points[0];
        return vec![Clipped {
            incident: p,
            reference: reference.points[0],
            incident_code: incident.code,
            reference_code: reference.code,
        }];
    }
    let Some(sides) = side_planes(reference, normal) else {
        return Vec::new();
    };
    // Incident points, each with the id sides it has while unclipped and the edge that leaves it.
    let n = incident.points.len();
    let mut polygon: Vec<(DVec3, u32, u32, Along)> = (0..n)
        .map(|k| {
            let i = incident.indices[k];
            // A segment's two directions are one edge, named by its first point.
            let edge = if n == 2 { incident.indices[0] } else { i };
            (
                incident.points[k],
                code(FeatureKind::Vertex, i),
                reference.code,
                Along::IncidentEdge(code(FeatureKind::Edge, edge)),
            )
        })
        .collect();
    for (j, side) in sides.iter().enumerate() {
        if polygon.is_empty() {
            break;
        }
        let mut out = Vec::with_capacity(polygon.len() + 2);
        let count = polygon.len();
        for k in 0..count {
            let (p, p_inc, p_ref, along) = polygon[k];
            let (q, ..) = polygon[(k + 1) % count];
            let (dp, dq) = (
                side.normal.dot(p) - side.offset,
                side.normal.dot(q) - side.offset,
            );
            let crossing = || {
                let t = dp / (dp - dq);
                let at = p + (q - p) * t;
                let (inc, reference_side) = match along {
                    Along::IncidentEdge(edge) => (edge, side.crossing),
                    // Two side planes meet at a reference vertex, over the incident face's inside.
                    Along::SidePlane(other) => (
                        incident.code,
                        shared_vertex(reference, other, j).unwrap_or(side.crossing),
                    ),
                };
                (at, inc, reference_side)
            };
            if dp <= 0.0 {
                out.push((p, p_inc, p_ref, along));
                if dq > 0.0 && count > 1 {
                    let (at, inc, r) = crossing();
                    out.push((at, inc, r, Along::SidePlane(j)));
                }
            } else if dq <= 0.0 && count > 1 {
                let (at, inc, r) = crossing();
                out.push((at, inc, r, along));
            }
        }
        polygon = out;
    }
    polygon
        .into_iter()
        .map(|(p, inc, r, _)| Clipped {
            incident: p,
            reference: partner(reference, p, normal),
            incident_code: inc,
            reference_code: r,
        })
        .collect()
}

/// The closest points of segments `p` and `q` (Ericson, Real-Time Collision Detection, 5.1.9), the one on `p`
/// first.
fn closest_between_segments(p: &[DVec3], q: &[DVec3]) -> (DVec3, DVec3) {
    let (d1, d2, r) = (p[1] - p[0], q[1] - q[0], p[0] - q[0]);
    let (a, e, f) = (d1.length_squared(), d2.length_squared(), d2.dot(r));
    let (c, b) = (d1.dot(r), d1.dot(d2));
    let denominator = a * e - b * b;
    let mut s = if denominator > 0.0 {
        ((b * f - c * e) / denominator).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut t = if e > 0.0 { (b * s + f) / e } else { 0.0 };
    if t < 0.0 {
        t = 0.0;
        s = if a > 0.0 {
            (-c / a).clamp(0.0, 1.0)
        } else {
            0.0
        };
    } else if t > 1.0 {
        t = 1.0;
        s = if a > 0.0 {
            ((b - c) / a).clamp(0.0, 1.0)
        } else {
            0.0
        };
    }
    (p[0] + d1 * s, q[0] + d2 * t)
}

/// Segments (edges) whose shadows along the normal are parallel within this sine touch along a length.
const PARALLEL_SINE: f64 = 0.05;

/// Whether the incident feature is a segment whose shadow along `normal` runs along the reference segment's.
fn parallel(reference: &Feature, incident: &Feature, normal: DVec3) -> bool {
    let shadow = |f: &Feature| {
        let along = f.points[1] - f.points[0];
        (along - normal * along.dot(normal)).normalize_or_zero()
    };
    incident.points.len() == 2
        && shadow(reference).cross(shadow(incident)).length() <= PARALLEL_SINE
}

/// The reference vertex between side planes `a` and `b` of a polygon, when they are neighbours.
fn shared_vertex(reference: &Feature, a: usize, b: usize) -> Option<u32> {
    let n = reference.points.len();
    if n < 3 {
        return None;
    }
    let vertex = if (a + 1) % n == b {
        b
    } else if (b + 1) % n == a {
        a
    } else {
        return None;
    };
    Some(code(FeatureKind::Vertex, reference.indices[vertex]))
}

/// Side planes whose edge is shorter than this fraction of the coordinates' size are rounding, not edges.
pub(crate) const EDGE_MIN_FRACTION: f64 = 1e-9;

/// The planes through the reference's edges (a segment's ends) that contain the normal, facing out, without
/// those of edges lost to rounding; `None` when too few are left to bound anything (a polygon a billionth of
/// its coordinates' size, collapsed in A's frame).
fn side_planes(reference: &Feature, normal: DVec3) -> Option<Vec<Side>> {
    let r = &reference.points;
    let size = r.iter().map(|p| p.abs().max_element()).fold(0.0, f64::max);
    let sides = all_side_planes(reference, normal);
    let kept: Vec<Side> = sides
        .into_iter()
        .filter(|s| s.length > EDGE_MIN_FRACTION * size)
        .collect();
    (kept.len() >= r.len().min(3)).then_some(kept)
}

fn all_side_planes(reference: &Feature, normal: DVec3) -> Vec<Side> {
    let r = &reference.points;
    match r.len() {
        1 => Vec::new(),
        2 => {
            let along = r[1] - r[0];
            let length = (along - normal * along.dot(normal)).length();
            let across = (along - normal * along.dot(normal)).normalize_or_zero();
            vec![
                Side {
                    normal: across,
                    offset: across.dot(r[1]),
                    crossing: code(FeatureKind::Vertex, reference.indices[1]),
                    length,
                },
                Side {
                    normal: -across,
                    offset: -across.dot(r[0]),
                    crossing: code(FeatureKind::Vertex, reference.indices[0]),
                    length,
                },
            ]
        }
        n => {
            // Counterclockwise about the reference's normal, which points along `towards`: the outside of edge
            // j is along (r[j + 1] - r[j]) x towards.
            let towards = normal * reference.normal.dot(normal).signum();
            (0..n)
                .map(|j| {
                    let edge = r[(j + 1) % n] - r[j];
                    let side = edge.cross(towards);
                    Side {
                        normal: side,
                        offset: side.dot(r[j]),
                        crossing: code(FeatureKind::Edge, reference.indices[j]),
                        length: edge.length(),
                    }
                })
                .collect()
        }
    }
}

/// The point of the reference feature across `p` along `normal`: on a polygon's plane straight along the
/// normal, on a segment at the same place along it, a vertex itself.
fn partner(reference: &Feature, p: DVec3, normal: DVec3) -> DVec3 {
    let r = &reference.points;
    match r.len() {
        1 => r[0],
        2 => {
            let along = r[1] - r[0];
            let across = along - normal * along.dot(normal);
            let t = ((p - r[0]).dot(across) / along.dot(across)).clamp(0.0, 1.0);
            if t.is_finite() {
                r[0] + along * t
            } else {
                r[0]
            }
        }
        _ => {
            let m = reference.normal;
            p + normal * ((m.dot(r[0]) - m.dot(p)) / m.dot(normal))
        }
    }
}
