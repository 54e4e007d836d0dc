//! A certificate check that needs no other GJK: a separating direction gives a lower bound on the distance
//! (brute-force support functions in f64), and witness points on the shapes give an upper bound. When both
//! bounds meet the answer within the band, the answer is proven, whatever any referee says.

use super::referee::point_to_shape;
use glam::{DQuat, DVec3};
use gpu_gjk::{ConvexShape, GjkResult};

/// `Ok` when the answer is proven within `band`; `Err` with the reason otherwise.
/// `rotation`/`position` place B in A's frame; the result is in A's frame.
pub fn certify(
    a: &ConvexShape,
    b: &ConvexShape,
    rotation: DQuat,
    position: DVec3,
    result: &GjkResult<f32>,
    band: f64,
) -> Result<(), String> {
    let wa = result.witness_a.as_dvec3();
    let wb = result.witness_b.as_dvec3();
    let (ea, eb) = (
        point_to_shape(a, wa),
        point_to_shape(b, rotation.conjugate() * (wb - position)),
    );
    let upper = (wa - wb).length();
    if result.intersecting {
        return if ea <= band && eb <= band && upper <= band {
            Ok(())
        } else {
            Err(format!(
                "intersection not proven: witnesses off by {ea:e} and {eb:e}, apart by {upper:e}"
            ))
        };
    }
    // B moved back by the depth along the normal just touches: a negative depth is the separation.
    let n = result.normal.as_dvec3().normalize();
    let lower =
        -gpu_gjk::validate::depth_along(a, b, &gpu_gjk::RelativePose { rotation, position }, n);
    let d = result.distance as f64;
    if ea.abs() <= band && eb.abs() <= band && lower >= d - band && upper <= d + band {
        Ok(())
    } else {
        Err(format!(
            "distance {d} not proven: lower bound {lower}, upper bound {upper}, witnesses off by {ea:e} and {eb:e}"
        ))
    }
}
