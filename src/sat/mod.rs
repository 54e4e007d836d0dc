//! The separating axis test between convex polyhedra, beside GJK and EPA: the second algorithm, for pairs of
//! solid hulls without radius.
//!
//! Two convex polyhedra are apart exactly when some face normal of either, or some cross product of an edge of
//! each, separates them; overlapping, the smallest overlap over those axes is the penetration depth (the
//! Minkowski difference's faces are exactly the faces of each and the edge pairs that form a face of it). Of the
//! edge pairs, only those whose arcs cross on the Gauss map form a face (Gregorius, "The Separating Axis Test
//! between Convex Polyhedra", GDC 2013): the test reads the four face normals around the two edges and skips
//! the cross product, and with it the two support values, of every other pair.
//!
//! Everything is in float64 in A's local frame, from the faces of [`crate::shape::ConvexShape::faces`], kept on
//! each shape as its [`crate::shape::ConvexShape::polyhedron`].

pub mod compare;

use crate::query::PairInput;
use glam::{DMat3, DVec3};
use std::cell::RefCell;

/// Which axis decided a [`SatAnswer`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SatAxis {
    /// A face of A (its index in A's faces).
    FaceA(u32),
    /// A face of B.
    FaceB(u32),
    /// An edge of A (by its two core points) across an edge of B.
    Edges([u32; 2], [u32; 2]),
}

/// The separating axis test's answer for one pair, in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatAnswer {
    /// The shapes overlap or touch (the largest separation is not positive).
    pub intersecting: bool,
    /// The largest separation over the axes: the gap along the best axis when apart (a lower bound on the
    /// distance), minus the penetration depth when overlapping.
    pub separation: f64,
    /// The unit axis of that separation, from A towards B.
    pub normal: DVec3,
    pub axis: SatAxis,
}

thread_local! {
    /// Per thread, reused from query to query: B's face normals against the plane of one of A's edge arcs.
    static FACE_SIDES: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
}

/// The separating axis test on a pair of solid hulls without radius; `None` for any other pair (a radius, a
/// flat or collinear core, a single point).
///
/// Everything is computed in A's local frame, B's points and normals read in B's own frame through the
/// rotation between them: each shape's [`crate::shape::Polyhedron`] is built once and kept on it, so a query allocates and
/// hashes nothing. The lowest vertex along each face normal is found by climbing the other hull's edges from
/// the last one's, and an edge pair is rejected by the signs of two dot products read from a table of B's face
/// normals against A's edge arc before any cross product.
pub fn separating_axis(input: &PairInput) -> Option<SatAnswer> {
    let a = input.a.polyhedron()?;
    let b = input.b.polyhedron()?;
    let inverse = input.pose_a.rotation.inverse();
    // B's local frame to A's: `turn * p + shift`; `back` is the inverse rotation.
    let turn = DMat3::from_quat(inverse * input.pose_b.rotation);
    let back = turn.transpose();
    let shift = inverse * (input.pose_b.position - input.pose_a.position);
    let mut best = SatAnswer {
        intersecting: false,
        separation: f64::MIN,
        normal: DVec3::ZERO,
        axis: SatAxis::FaceA(0),
    };
    let mut consider = |separation: f64, normal: DVec3, axis: SatAxis| {
        if separation > best.separation {
            best = SatAnswer {
                intersecting: false,
                separation,
                normal,
                axis,
            };
        }
    };
    let mut start = 0;
    for (k, &(normal, offset)) in a.planes.iter().enumerate() {
        let low = b.lowest(back * normal, &mut start) + normal.dot(shift);
        consider(low - offset, normal, SatAxis::FaceA(k as u32));
    }
    let mut start = 0;
    for (k, &(normal, offset)) in b.planes.iter().enumerate() {
        let normal = turn * normal;
        let offset = offset + normal.dot(shift);
        consider(
            a.lowest(normal, &mut start) - offset,
            -normal,
            SatAxis::FaceB(k as u32),
        );
    }
    FACE_SIDES.with_borrow_mut(|sides| {
        sides.clear();
        sides.resize(b.planes.len(), 0.0);
        for ea in &a.edges {
            // A's arc and its plane in B's frame; B's normals turned round are the Gauss map of -B.
            let [n1, n2] = ea.normals.map(|n| back * n);
            let n2_x_n1 = back * ea.normals_cross;
            for (side, &(m, _)) in sides.iter_mut().zip(&b.planes) {
                *side = m.dot(n2_x_n1);
            }
            for eb in &b.edges {
                let [f1, f2] = eb.faces;
                // c . (b x a) and d . (b x a) for c = -m1, d = -m2: of opposite signs when B's arc crosses
                // A's plane.
                let (cba, dba) = (-sides[f1 as usize], -sides[f2 as usize]);
                if cba * dba >= 0.0 {
                    continue;
                }
                if !arcs_cross_rest(n1, n2, eb.normals_cross, cba) {
                    continue;
                }
                let (pa, qa) = (a.points[ea.ends[0] as usize], ea.vector);
                let eb_vector = turn * eb.vector;
                let axis = qa.cross(eb_vector);
                let length = axis.length();
                // Parallel edges: their plane is a face's, tested above.
                if length <= 1e-12 * qa.length() * eb_vector.length() {
                    continue;
                }
                let mut axis = axis / length;
                if axis.dot(pa - a.mean) < 0.0 {
                    axis = -axis;
                }
                let pb = turn * b.points[eb.ends[0] as usize] + shift;
                consider(axis.dot(pb - pa), axis, SatAxis::Edges(ea.ends, eb.ends));
            }
        }
    });
    best.intersecting = best.separation <= 0.0;
    best.normal = input.pose_a.rotation * best.normal;
    Some(best)
}

/// The rest of Gregorius' test that the arcs `a`-`b` and `c`-`d` of the Gauss map cross, once `c` and `d` lie
/// on either side of the plane of `a`-`b` (`cba = c . (b x a)`), with everything in B's frame: `a`, `b` are
/// A's normals, `c`, `d` B's turned round, so that `d x c = m2 x m1` (`m_x_m`).
fn arcs_cross_rest(a: DVec3, b: DVec3, m_x_m: DVec3, cba: f64) -> bool {
    let adc = a.dot(m_x_m);
    let bdc = b.dot(m_x_m);
    adc * bdc < 0.0 && cba * bdc > 0.0
}

#[cfg(test)]
mod tests;
