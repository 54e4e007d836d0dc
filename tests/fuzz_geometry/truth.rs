//! The exact answer for one ordered pair ([`Truth`]): the referees of `common/exact.rs` (Wolfe's minimum-norm
//! point of the Minkowski difference, the separating-axis test for two boxes, the closed form for a box and a
//! point) cross-checked where two apply, with the input rounding each library path is allowed. The tests at
//! the end hold the referees themselves to closed forms.

use crate::common::exact::{self, box_point_signed_distance, separating_axis_test, MinNorm, Obb};
use crate::model::{Kind, Solid};
use crate::{BAND, EPS32, EPS64};
use glam::{DQuat, DVec3};
use gpu_gjk::DPose;

/// The exact answer for one ordered pair, in A's local frame, with the tolerances of each path.
pub(crate) struct Truth {
    pub(crate) scale: f64,
    /// Signed surface distance (negative: minus the penetration depth) where it is known exactly.
    pub(crate) signed: Option<f64>,
    /// An upper bound on the signed distance (equal to it where known; `-radii` plus a hair where the cores
    /// overlap by an unknown depth).
    pub(crate) signed_upper: f64,
    /// The cores' least-norm vector from A to B (Wolfe on the Minkowski difference).
    pub(crate) core: MinNorm,
    pub(crate) radii: f64,
    pub(crate) rel_rot: DQuat,
    pub(crate) rel_pos: DVec3,
    /// Input rounding of `gjk::query` / the GPU (relative pose formed in float32 from float32 poses).
    pub(crate) slack_world: f64,
    /// Input rounding of `query_relative` (relative pose formed in float64, rounded to float32).
    pub(crate) slack_rel: f64,
    /// Input rounding of `query_f64`.
    pub(crate) slack_wide: f64,
}

impl Truth {
    pub(crate) fn of(a: &Solid, pose_a: &DPose, b: &Solid, pose_b: &DPose) -> Result<Self, String> {
        let inv = pose_a.rotation.conjugate();
        let rel_rot = inv * pose_b.rotation;
        let rel_pos = inv * (pose_b.position - pose_a.position);
        let pa = a.local_points();
        let pb: Vec<DVec3> = b
            .local_points()
            .into_iter()
            .map(|p| rel_rot * p + rel_pos)
            .collect();
        let core = exact::hull_hull(&pa, &pb);
        let radii = (a.radius + b.radius) as f64;
        let scale = a.bound().max(b.bound());
        let magnitude = pa.iter().chain(&pb).map(|p| p.length()).fold(0.0, f64::max);
        let (ca, cb) = (a.centre().length(), b.centre().length());
        let slack_world = 4.0 * EPS32 * ((pose_b.position - pose_a.position).length() + ca + cb);
        let slack_rel = 4.0 * EPS32 * (rel_pos.length() + ca + cb);
        let slack_wide = 64.0 * EPS64 * (magnitude + pose_a.position.length() + ca + cb);
        if core.gap() > 1e-3 * (BAND * scale + slack_wide) {
            return Err(format!(
                "exact referee could not certify the core distance: {core:?}"
            ));
        }
        // Below this the cores are taken to touch or overlap: Wolfe stops at 1e-14 of the largest point.
        let zero = 1e-12 * magnitude;
        let consistency = 1e-6 * scale + 1e-11 * magnitude;
        let mut signed = (core.upper > zero).then_some(core.upper - radii);
        match (a.kind, b.kind) {
            (
                Kind::Box {
                    centre: c1,
                    half: h1,
                },
                Kind::Box {
                    centre: c2,
                    half: h2,
                },
            ) if radii == 0.0 => {
                let sat = separating_axis_test(
                    &Obb {
                        centre: c1,
                        rotation: DQuat::IDENTITY,
                        half: h1,
                    },
                    &Obb {
                        centre: rel_rot * c2 + rel_pos,
                        rotation: rel_rot,
                        half: h2,
                    },
                );
                let agrees = if sat.separated {
                    core.lower >= -sat.min_overlap - consistency
                } else {
                    core.upper <= zero + consistency
                };
                if !agrees {
                    return Err(format!(
                        "exact referees disagree: separating axes {sat:?}, Wolfe {core:?}"
                    ));
                }
                if !sat.separated {
                    signed = Some(-sat.min_overlap);
                }
            }
            (Kind::Box { centre, half }, Kind::Ball { centre: cb })
            | (Kind::Ball { centre: cb }, Kind::Box { centre, half }) => {
                // The ball's centre in the box's frame.
                let q = if matches!(a.kind, Kind::Box { .. }) {
                    rel_rot * cb + rel_pos
                } else {
                    rel_rot.conjugate() * (cb - rel_pos)
                };
                let d = box_point_signed_distance(half, q - centre);
                if (d.max(0.0) - core.upper).abs() > consistency {
                    return Err(format!(
                        "exact referees disagree: closed form {d}, Wolfe {core:?}"
                    ));
                }
                signed = Some(d - radii);
            }
            _ => {}
        }
        Ok(Self {
            scale,
            signed,
            signed_upper: signed.unwrap_or(zero - radii),
            core,
            radii,
            rel_rot,
            rel_pos,
            slack_world,
            slack_rel,
            slack_wide,
        })
    }

    /// Exact surface distance (0 when overlapping).
    pub(crate) fn distance(&self) -> f64 {
        self.signed.map_or(0.0, |s| s.max(0.0))
    }

    /// Whether the exact answer lies within `band` of contact (either flag is then accepted).
    pub(crate) fn in_band(&self, band: f64) -> bool {
        match self.signed {
            Some(s) => s.abs() <= band,
            None => self.signed_upper >= -band,
        }
    }

    /// A point of A's frame in B's local frame.
    pub(crate) fn to_b(&self, p: DVec3) -> DVec3 {
        self.rel_rot.conjugate() * (p - self.rel_pos)
    }

    /// Gap between the shapes along the unit direction `n` (A's frame, from A towards B): negative when
    /// their projections overlap. Moving B by `-gap * n` leaves them touching along `n`.
    pub(crate) fn gap_along(&self, a: &Solid, b: &Solid, n: DVec3) -> f64 {
        let max_a = a.support(n);
        let min_b = -b.support(self.rel_rot.conjugate() * -n) + self.rel_pos.dot(n);
        min_b - max_a - self.radii
    }

    /// The exact least-distance vector between the surfaces, from A to B, when separated.
    pub(crate) fn surface_vector(&self) -> DVec3 {
        self.core.point * (1.0 - self.radii / self.core.upper)
    }
}

/// How far a vector `v` in the convex set A - B with `|v| <= |v*| + delta` can be from the least-norm
/// vector `v*` (`|v - v*|^2 <= |v|^2 - |v*|^2`, from the projection's optimality), with a little extra for
/// witnesses that are themselves `delta` off their shapes.
pub(crate) fn vector_tolerance(distance: f64, delta: f64) -> f64 {
    let d = 3.0 * delta;
    (2.0 * distance * d + d * d).sqrt() + d
}

// ---------------------------------------------------------------------------------------------------------
// The referees against closed forms
// ---------------------------------------------------------------------------------------------------------

/// A small deterministic generator for the referee tests (no shrinking needed: closed forms).
fn lcg(state: &mut u64) -> f64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    ((*state >> 11) as f64) / ((1u64 << 53) as f64) * 2.0 - 1.0
}

fn corners(centre: DVec3, half: DVec3, rotation: DQuat) -> Vec<DVec3> {
    (0..8)
        .map(|i| {
            let s = DVec3::new(
                if i & 1 == 0 { -1.0 } else { 1.0 },
                if i & 2 == 0 { -1.0 } else { 1.0 },
                if i & 4 == 0 { -1.0 } else { 1.0 },
            );
            rotation * (s * half) + centre
        })
        .collect()
}

/// The answer within `tol`, and its certificate within 1e-9 of the points' size: the lower bound comes from the
/// answer's direction, which rounding tilts by about 1e-16 of the points' size over the distance.
fn assert_certified(m: &MinNorm, expected: f64, tol: f64, what: &str) {
    assert!(
        (m.upper - expected).abs() <= tol && m.lower <= m.upper && m.gap() <= tol.max(1e-9),
        "{what}: Wolfe gave [{}, {}], expected {expected}",
        m.lower,
        m.upper
    );
}

#[test]
fn wolfe_matches_the_closed_form_distance_from_a_point_to_a_box() {
    let mut s = 1;
    for _ in 0..2000 {
        let half = DVec3::new(lcg(&mut s).abs(), lcg(&mut s).abs(), lcg(&mut s).abs()) * 3.0 + 1e-3;
        let q = DVec3::new(lcg(&mut s), lcg(&mut s), lcg(&mut s)) * 5.0;
        let expected = box_point_signed_distance(half, q).max(0.0);
        let m = exact::point_hull(&corners(DVec3::ZERO, half, DQuat::IDENTITY), q);
        assert_certified(&m, expected, 1e-12, &format!("point {q} and box {half}"));
    }
    // Inside, on a face, and a thin slab 1e-6 thick.
    let slab = corners(DVec3::ZERO, DVec3::new(1.0, 1.0, 1e-6), DQuat::IDENTITY);
    assert_certified(
        &exact::point_hull(&slab, DVec3::new(0.3, 0.2, 0.0)),
        0.0,
        1e-15,
        "inside",
    );
    assert_certified(
        &exact::point_hull(&slab, DVec3::new(0.3, 0.2, 2e-6)),
        1e-6,
        1e-15,
        "above",
    );
    assert_certified(
        &exact::point_hull(&slab, DVec3::new(1.0, 0.2, 1e-6)),
        0.0,
        1e-15,
        "on an edge",
    );
}

#[test]
fn wolfe_matches_the_closed_form_distance_between_boxes_apart_along_an_axis() {
    let mut s = 2;
    for _ in 0..2000 {
        let (ha, hb) = (
            DVec3::new(lcg(&mut s).abs(), lcg(&mut s).abs(), lcg(&mut s).abs()) + 0.1,
            DVec3::new(lcg(&mut s).abs(), lcg(&mut s).abs(), lcg(&mut s).abs()) + 0.1,
        );
        let t = DVec3::new(lcg(&mut s), lcg(&mut s), lcg(&mut s)) * 4.0;
        // Axis-aligned boxes: the per-axis gaps are the distance vector.
        let expected = (t.abs() - ha - hb).max(DVec3::ZERO).length();
        let m = exact::hull_hull(
            &corners(DVec3::ZERO, ha, DQuat::IDENTITY),
            &corners(t, hb, DQuat::IDENTITY),
        );
        assert_certified(&m, expected, 1e-12, &format!("boxes {ha} and {hb} at {t}"));
        let sat = separating_axis_test(
            &Obb {
                centre: DVec3::ZERO,
                rotation: DQuat::IDENTITY,
                half: ha,
            },
            &Obb {
                centre: t,
                rotation: DQuat::IDENTITY,
                half: hb,
            },
        );
        assert_eq!(sat.separated, expected > 0.0, "boxes {ha} and {hb} at {t}");
        if expected == 0.0 {
            // Overlapping axis-aligned boxes: the depth is the least per-axis overlap.
            let depth = (ha + hb - t.abs()).min_element();
            assert!(
                (sat.min_overlap - depth).abs() < 1e-12,
                "{sat:?} vs {depth}"
            );
        }
    }
    // Separated along x by exactly 0.25, faces parallel (every pair of face points is closest).
    let m = exact::hull_hull(
        &corners(DVec3::ZERO, DVec3::ONE, DQuat::IDENTITY),
        &corners(DVec3::new(2.25, 0.5, -0.3), DVec3::ONE, DQuat::IDENTITY),
    );
    assert_certified(&m, 0.25, 1e-14, "parallel faces");
    assert!((m.point - DVec3::new(0.25, 0.0, 0.0)).length() < 1e-14);
}

#[test]
fn wolfe_matches_the_closed_form_distance_between_spheres_and_capsules() {
    let mut s = 3;
    for _ in 0..2000 {
        // Spheres are single points with radii: the referee sees two points.
        let (ca, cb) = (
            DVec3::new(lcg(&mut s), lcg(&mut s), lcg(&mut s)) * 3.0,
            DVec3::new(lcg(&mut s), lcg(&mut s), lcg(&mut s)) * 3.0,
        );
        let m = exact::hull_hull(&[ca], &[cb]);
        assert_certified(&m, (cb - ca).length(), 1e-12, "sphere centres");
        // Capsule cores are segments: Ericson's closed form.
        let (p1, q1, p2, q2) = (
            DVec3::new(lcg(&mut s), lcg(&mut s), lcg(&mut s)) * 2.0,
            DVec3::new(lcg(&mut s), lcg(&mut s), lcg(&mut s)) * 2.0,
            DVec3::new(lcg(&mut s), lcg(&mut s), lcg(&mut s)) * 2.0,
            DVec3::new(lcg(&mut s), lcg(&mut s), lcg(&mut s)) * 2.0,
        );
        let expected = crate::common::analytic::segment_segment_distance(p1, q1, p2, q2);
        let m = exact::hull_hull(&[p1, q1], &[p2, q2]);
        assert_certified(&m, expected, 1e-9, "segments");
    }
    // A flat ring of 16 points and its copy 0.5 above: stacked discs, parallel faces.
    let ring: Vec<DVec3> = (0..16)
        .map(|i| {
            let a = std::f64::consts::TAU * i as f64 / 16.0;
            DVec3::new(a.cos(), a.sin(), 0.0)
        })
        .collect();
    let shifted: Vec<DVec3> = ring
        .iter()
        .map(|p| *p + DVec3::new(0.0, 0.0, 0.5))
        .collect();
    assert_certified(
        &exact::hull_hull(&ring, &shifted),
        0.5,
        1e-14,
        "stacked discs",
    );
}

#[test]
fn separating_axes_find_the_edge_edge_gap_no_face_shows() {
    // A turned 45 degrees about x, B 45 degrees about y: A's top edge runs along x, B's bottom edge along y,
    // and only their cross product (z) separates them.
    let (qa, qb) = (
        DQuat::from_rotation_x(std::f64::consts::FRAC_PI_4),
        DQuat::from_rotation_y(std::f64::consts::FRAC_PI_4),
    );
    for g in [0.1, 1e-3, -1e-3, -0.01] {
        let cb = DVec3::new(0.0, 0.0, 2.0 * std::f64::consts::SQRT_2 + g);
        let (a, b) = (
            Obb {
                centre: DVec3::ZERO,
                rotation: qa,
                half: DVec3::ONE,
            },
            Obb {
                centre: cb,
                rotation: qb,
                half: DVec3::ONE,
            },
        );
        let sat = separating_axis_test(&a, &b);
        assert_eq!(sat.separated, g > 0.0, "{g}: {sat:?}");
        assert!((sat.min_overlap + g).abs() < 1e-12, "{g}: {sat:?}");
        assert!((sat.axis - DVec3::Z).length() < 1e-9, "{g}: {sat:?}");
        let m = exact::hull_hull(
            &corners(DVec3::ZERO, DVec3::ONE, qa),
            &corners(cb, DVec3::ONE, qb),
        );
        assert_certified(&m, g.max(0.0), 1e-12, "edge-edge");
    }
}
