//! Two point cores (sphere against sphere, a point against a sphere), answered straight from the shapes and
//! their relative pose: the same arithmetic as the general path (pair preparation, the closed form, EPA's
//! "cores apart" answer, the certificate, the way back to A's frame), without what the general path builds to
//! serve every shape: the query, the one-point simplex EPA starts from, the certificate's support calls, the
//! tracer and the warm start.
//!
//! Why: a sphere pair's whole answer is a few dozen operations, and the general path's wrapping cost as much
//! again (cachegrind, penetration queries on the mix's 47 sphere pairs: 856 instructions a query on the general
//! path, 644 on this one; parry3d's ball-ball contact took about half our time before). The answers are the
//! same bits as the general path's: every operation below is the one the general path makes, in the same order
//! (`tests` compares every field's bits on hostile pairs). A pair this path cannot finish (cores touching, a
//! certificate that fails) returns `None` and takes the general path, with its float64 repeat.

use super::closed_form::closed_form_of_cores;
use super::frame::{PairPose, Prepared};
use super::solve::certify;
use crate::epa::{cores_apart, Penetration, PenetrationStatus};
use crate::gjk::{GjkConfig, GjkResult, GjkStatus, Simplex};
use crate::real::Real;
use crate::shape::ConvexShape;
use glam::{Mat3A, Vec3A};

/// The answer of [`super::answer_relative`] (without a warm start) when both cores are single points and
/// apart: GJK's answer and, when `penetration` is asked for, the penetration answer; `None` otherwise. The caller
/// checks both shapes' lengths first, so that other pairs pay two comparisons for this path.
pub(super) fn point_pair_answer(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: impl Into<PairPose>,
    penetration: bool,
    config: &GjkConfig,
) -> Option<(GjkResult<f32>, Option<Penetration<f32>>)> {
    let (view_a, view_b) = (a.support_view(), b.support_view());
    let (&[point_a], &[point_b]) = (view_a.points, view_b.points) else {
        return None;
    };
    let pair = Prepared::placed(a, b, relative.into());
    let unit = pair.unit;
    // As `PairSupport::new` and its support functions place them (a point's support is the point).
    let position_b = Vec3A::from(pair.core.position) * unit;
    let core_a = point_a * unit;
    let core_b = Mat3A::from_quat(pair.core.rotation) * point_b * unit + position_b;
    let radii = [a.radius() * unit, b.radius() * unit];
    let scale = pair.scale * unit;
    let touch = f32::from_f64(config.touch_tolerance) * scale;
    let found = closed_form_of_cores([core_a, core_b], radii, touch)?;
    let result = found.result;
    // The closed form answers `Separated` or `Intersecting`.
    let hit = match (penetration, result.status) {
        (false, _) => None,
        (true, GjkStatus::Separated) => Some(Penetration::none(PenetrationStatus::Separated)),
        (true, _) => {
            // EPA's "cores apart" answer from the one-point simplex's witnesses, then the certificate with the
            // points as their own support points.
            let witnesses = Simplex::<f32>::single(core_a, core_b).witnesses();
            let gap = witnesses.1 - witnesses.0;
            let core_distance = f32::length_squared(gap).sqrt();
            let normal = f32::unplain(result.normal);
            let answer = cores_apart(radii, witnesses.into(), gap, core_distance, normal);
            let certified = certify(answer, [core_a, core_b], radii[0] + radii[1], scale);
            if certified.status != PenetrationStatus::Penetrating {
                return None;
            }
            Some(certified)
        }
    };
    Some((
        pair.gjk_to_local(result),
        hit.map(|h| pair.penetration_to_local(h)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gjk::{BareResult, GjkResult, NoTrace, QueryKind};
    use crate::pose::RelativePose;
    use crate::query::kind::{answer_relative_bare, answer_relative_traced, AnswerKind};
    use glam::{Quat, Vec3};
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;

    /// Every field of an answer as bits (signed zeros and NaN payloads included).
    fn bits(r: &GjkResult<f32>, hit: &Option<Penetration<f32>>) -> Vec<u32> {
        let v = |v: Vec3| [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()];
        let mut out = vec![r.status as u32, r.intersecting as u32, r.distance.to_bits()];
        out.extend(
            v(r.witness_a)
                .into_iter()
                .chain(v(r.witness_b))
                .chain(v(r.normal)),
        );
        out.push(r.iterations);
        if let Some(h) = hit {
            out.extend([h.status as u32, h.depth.to_bits(), h.iterations]);
            out.extend(
                v(h.normal)
                    .into_iter()
                    .chain(v(h.contact_a))
                    .chain(v(h.contact_b)),
            );
        }
        out
    }

    /// A coordinate as hostile users write them: zeros of both signs, tiny and huge, and ordinary values.
    fn coordinate() -> impl Strategy<Value = f32> {
        prop_oneof![
            Just(0.0f32),
            Just(-0.0f32),
            -2.0f32..2.0,
            (-1e8f32..1e8),
            prop::sample::select(vec![1e-30f32, -1e-30, 1e-20, 3e-7, -5e-4, 1e8, -7.5e8]),
        ]
    }

    fn vector() -> impl Strategy<Value = Vec3> {
        (coordinate(), coordinate(), coordinate()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    }

    fn rotation() -> impl Strategy<Value = Quat> {
        prop_oneof![
            Just(Quat::IDENTITY),
            Just(Quat::from_rotation_y(std::f32::consts::PI)),
            (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0).prop_filter_map(
                "a unit quaternion",
                |(x, y, z, w)| {
                    let q = Quat::from_xyzw(x, y, z, w);
                    (q.length() > 0.1).then(|| q.normalize())
                }
            ),
        ]
    }

    fn radius() -> impl Strategy<Value = f32> {
        prop_oneof![Just(0.0f32), 1e-6f32..1e-3, 0.01f32..10.0, 1e3f32..1e7]
    }

    /// A point shape at `point` with `radius`, and B placed relative to A: at random, at the sum of the
    /// radii along a random direction (touching), or on top of A (the cores coincide).
    fn pair() -> impl Strategy<Value = (ConvexShape, ConvexShape, RelativePose<f32>)> {
        let shape = || {
            (vector(), radius())
                .prop_map(|(p, r)| ConvexShape::new(vec![p], r).expect("a point within the limits"))
        };
        let placement = prop_oneof![
            vector(),
            vector().prop_map(|v| v.normalize_or_zero()),
            Just(Vec3::ZERO)
        ];
        (shape(), shape(), rotation(), placement, 0usize..3).prop_map(
            |(a, b, rotation, offset, how)| {
                let touching = offset.normalize_or(Vec3::X) * (a.radius() + b.radius());
                let centre_b = match how {
                    0 => offset,
                    1 => a.centre() + touching,
                    _ => a.centre(),
                };
                let relative = RelativePose {
                    rotation,
                    position: centre_b - rotation * b.centre(),
                };
                (a, b, relative)
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// The point pair's answers are the general path's to the bit, for each kind and for the bare answer;
        /// a pair it declines gets the general path's answer anyway.
        #[test]
        fn point_pairs_answer_the_general_paths_bits((a, b, relative) in pair()) {
            let config = GjkConfig::default();
            for kind in AnswerKind::ALL {
                let general = answer_relative_traced(&a, &b, &relative, kind, &config, None, &mut NoTrace);
                if let Some(fast) = point_pair_answer(&a, &b, &relative, kind == AnswerKind::Penetration, &config) {
                    prop_assert_eq!(bits(&fast.0, &fast.1), bits(&general.0, &general.1), "{:?}", kind);
                }
                let public = super::super::answer_relative(&a, &b, &relative, kind, &config, None);
                prop_assert_eq!(bits(&public.0, &public.1), bits(&general.0, &general.1));
            }
            for kind in [QueryKind::Intersection, QueryKind::Distance] {
                let asked = AnswerKind::of(kind);
                let general =
                    answer_relative_traced(&a, &b, &relative, asked, &config, None, &mut NoTrace);
                let bare = answer_relative_bare(&a, &b, &relative, kind, &config);
                prop_assert_eq!(bare, BareResult::of(&general.0));
                prop_assert_eq!(bare.distance.to_bits(), general.0.distance.to_bits());
            }
        }
    }

    /// The hostile generator reaches every branch: pairs apart, overlapping, and declined (cores touching).
    #[test]
    fn the_generator_reaches_pairs_apart_overlapping_and_declined() {
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let config = GjkConfig::default();
        let (mut apart, mut overlapping, mut declined) = (0, 0, 0);
        for _ in 0..4000 {
            let (a, b, relative) = pair().new_tree(&mut runner).unwrap().current();
            match point_pair_answer(&a, &b, &relative, true, &config) {
                None => declined += 1,
                Some((r, _)) if r.intersecting => overlapping += 1,
                Some(_) => apart += 1,
            }
        }
        assert!(
            apart > 400 && overlapping > 400 && declined > 100,
            "{apart} {overlapping} {declined}"
        );
    }

    /// A hand-computed pair: unit spheres 1.5 apart along x overlap by 0.5, normal +x, contacts on each
    /// sphere's surface.
    #[test]
    fn two_unit_spheres_overlap_by_half() {
        let sphere = ConvexShape::sphere(1.0).unwrap();
        let relative = RelativePose {
            rotation: Quat::from_rotation_z(0.3),
            position: Vec3::new(1.5, 0.0, 0.0),
        };
        let config = GjkConfig::default();
        let (r, hit) = point_pair_answer(&sphere, &sphere, &relative, true, &config).unwrap();
        let hit = hit.unwrap();
        assert!(r.intersecting);
        assert_eq!(hit.status, PenetrationStatus::Penetrating);
        assert!((hit.depth - 0.5).abs() < 1e-6);
        assert!((hit.normal - Vec3::X).length() < 1e-6);
        assert!((hit.contact_a - Vec3::X).length() < 1e-6);
        assert!((hit.contact_b - Vec3::new(0.5, 0.0, 0.0)).length() < 1e-6);
        // Apart: 3 apart, 1 between the surfaces.
        let apart = RelativePose {
            position: Vec3::new(0.0, 3.0, 0.0),
            ..relative
        };
        let (r, _) = point_pair_answer(&sphere, &sphere, &apart, false, &config).unwrap();
        assert_eq!(r.status, GjkStatus::Separated);
        assert!((r.distance - 1.0).abs() < 1e-6);
    }
}
