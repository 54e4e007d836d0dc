//! The hostile families the fuzzer draws pairs from (generators 1 to 5: thin slabs, needles, point sets far
//! from their local origin, coordinates near the limit, identical, nested, tiny and huge shapes), each with
//! what such inputs broke in other libraries and here, and the building blocks they share.

use crate::model::{f32_exact, pose, Case, Kind, Solid};
use crate::{LIMIT, TOUCH};
use glam::{DQuat, DVec3};
use gpu_gjk::DPose;
use proptest::prelude::*;

/// Building blocks shared by the generators: rotations (special ones included), partners, placements.
mod blocks {
    use super::*;

    pub use crate::common::fuzz::log_uniform;
    use crate::common::fuzz::uniform_rotation;

    /// Exactly axis-aligned rotations and half-turns (identity, half-turns about the axes and about a
    /// diagonal, quarter-turns, the 120-degree axis permutation) or a uniformly random one.
    pub fn rotation() -> BoxedStrategy<DQuat> {
        let s = std::f64::consts::FRAC_1_SQRT_2 as f32 as f64; // written as users write it: 0.7071068
        let special = vec![
            [0.0, 0.0, 0.0, 1.0],
            [1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
            [s, s, 0.0, 0.0],
            [s, 0.0, 0.0, s],
            [0.0, s, 0.0, s],
            [0.0, 0.0, s, s],
            [0.5, 0.5, 0.5, 0.5],
        ];
        prop_oneof![
            1 => proptest::sample::select(special).prop_map(|q| DQuat::from_array(q).normalize()),
            2 => uniform_rotation(),
        ]
        .boxed()
    }

    /// A vector with components in `[-1, 1]`.
    pub fn unit_box() -> impl Strategy<Value = DVec3> + Clone {
        (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64).prop_map(|(x, y, z)| DVec3::new(x, y, z))
    }

    /// B, with sizes relative to a reference length given when the case is built.
    #[derive(Clone, Debug)]
    pub enum Partner {
        Point,
        Ball(f64),
        Cube(DVec3),
        /// Points and radius.
        Hull(Vec<DVec3>, f64),
    }

    impl Partner {
        fn name(&self) -> &'static str {
            match self {
                Partner::Point => "point",
                Partner::Ball(_) => "sphere",
                Partner::Cube(_) => "box",
                Partner::Hull(..) => "hull",
            }
        }

        /// The partner at `reference` times its sizes, every coordinate and radius within [`LIMIT`].
        fn solid(&self, reference: f64) -> Solid {
            let limit = |v: DVec3| (v * reference).clamp(DVec3::splat(-LIMIT), DVec3::splat(LIMIT));
            match self {
                Partner::Point => Solid::ball(0.0),
                Partner::Ball(r) => Solid::ball((r * reference).min(LIMIT)),
                Partner::Cube(h) => Solid::cuboid(DVec3::ZERO, limit(*h)),
                Partner::Hull(points, r) => Solid::hull(
                    points.iter().map(|p| limit(*p).as_vec3()).collect(),
                    (r * reference).min(LIMIT) as f32,
                ),
            }
        }
    }

    /// Random hull points (4 to 16 in the unit box) and a radius fraction (0 half the time).
    pub fn hull_points() -> impl Strategy<Value = (Vec<DVec3>, f64)> + Clone {
        (
            proptest::collection::vec(unit_box(), 4..=16),
            prop_oneof![Just(0.0), 0.0..0.3f64],
        )
    }

    /// A point, a sphere or a box (and a hull when `hulls`), sizes drawn from `size`.
    pub fn partner<S>(size: S, hulls: bool) -> BoxedStrategy<Partner>
    where
        S: Strategy<Value = f64> + Clone + 'static,
    {
        let base = prop_oneof![
            Just(Partner::Point),
            size.clone().prop_map(Partner::Ball),
            (size.clone(), size.clone(), size.clone())
                .prop_map(|(x, y, z)| Partner::Cube(DVec3::new(x, y, z))),
        ];
        if hulls {
            prop_oneof![
                3 => base,
                1 => (hull_points(), size).prop_map(|((p, r), s)| {
                    Partner::Hull(p.into_iter().map(|q| q * s).collect(), r * s)
                }),
            ]
            .boxed()
        } else {
            base.boxed()
        }
    }

    /// Where B's centre goes relative to the box A (in A's frame).
    #[derive(Clone, Debug)]
    pub enum Place {
        /// A's centre exactly.
        Centre,
        /// `u * half`, u in (-1, 1)^3: an interior point.
        Interior(DVec3),
        /// B's surface `tol_units` touching tolerances beyond a point of A's face (negative: inside), the
        /// face point at `uv` (each in [-1, 1], often exactly on an edge or corner).
        Surface {
            axis: usize,
            positive: bool,
            uv: [f64; 2],
            tol_units: f64,
        },
        /// B's surface `gap` pair scales beyond a point of A's face.
        Outside {
            axis: usize,
            positive: bool,
            uv: [f64; 2],
            gap: f64,
        },
        /// B wholly inside A, at `u` of the room left.
        Nested(DVec3),
    }

    impl Place {
        fn name(&self) -> &'static str {
            match self {
                Place::Centre => "centre",
                Place::Interior(_) => "interior",
                Place::Surface { tol_units, .. } if *tol_units < 0.0 => "surface-inside",
                Place::Surface { .. } => "surface-outside",
                Place::Outside { .. } => "outside",
                Place::Nested(_) => "nested",
            }
        }
    }

    fn face_coordinate() -> impl Strategy<Value = f64> + Clone {
        prop_oneof![3 => -1.0..1.0f64, 1 => Just(1.0), 1 => Just(-1.0), 1 => Just(0.0)]
    }

    /// Inside (the centre or a random interior point), near the surface (inside or outside by 1e-3 to 10
    /// touching tolerances, on faces, edges and corners) or clearly outside (1e-3 to 3 pair scales).
    pub fn place() -> BoxedStrategy<Place> {
        let inside = (-0.999..0.999f64, -0.999..0.999f64, -0.999..0.999f64)
            .prop_map(|(x, y, z)| Place::Interior(DVec3::new(x, y, z)));
        let surface = (
            0..3usize,
            any::<bool>(),
            face_coordinate(),
            face_coordinate(),
            any::<bool>(),
            -3.0..1.0f64,
        )
            .prop_map(|(axis, positive, u, v, inside, e)| Place::Surface {
                axis,
                positive,
                uv: [u, v],
                tol_units: if inside { -1.0 } else { 1.0 } * 10f64.powf(e),
            });
        let outside = (
            0..3usize,
            any::<bool>(),
            face_coordinate(),
            face_coordinate(),
            -3.0..0.5f64,
        )
            .prop_map(|(axis, positive, u, v, e)| Place::Outside {
                axis,
                positive,
                uv: [u, v],
                gap: 10f64.powf(e),
            });
        prop_oneof![
            1 => Just(Place::Centre),
            2 => inside,
            5 => surface,
            2 => outside,
        ]
        .boxed()
    }

    /// A box A and a partner B placed relative to it.
    #[derive(Clone, Debug)]
    pub struct BoxPair {
        pub family: &'static str,
        pub half_a: DVec3,
        pub rotation_a: DQuat,
        pub position_a: DVec3,
        pub partner: Partner,
        /// Length the partner's sizes are multiplied by.
        pub reference: f64,
        pub rotation_b: DQuat,
        pub place: Place,
    }

    impl BoxPair {
        pub fn build(&self) -> Case {
            let a = Solid::cuboid(DVec3::ZERO, self.half_a);
            let b = self.partner.solid(self.reference);
            let Kind::Box { half: ha, .. } = a.kind else {
                unreachable!()
            };
            let pose_a = pose(self.position_a, self.rotation_a);
            let scale = a.bound().max(b.bound());
            let tol = TOUCH * scale;
            // B's rotation in A's frame, and how far B reaches from its centre along a direction of A's frame.
            let rel = pose_a.rotation.conjugate() * self.rotation_b.normalize();
            let cb = b.centre();
            let reach = |n: DVec3| {
                b.support(rel.conjugate() * n) - cb.dot(rel.conjugate() * n) + b.radius as f64
            };
            let face = |axis: usize, positive: bool, uv: [f64; 2]| {
                let mut p = [0.0; 3];
                let (j, k) = ((axis + 1) % 3, (axis + 2) % 3);
                p[axis] = if positive { ha[axis] } else { -ha[axis] };
                p[j] = uv[0] * ha[j];
                p[k] = uv[1] * ha[k];
                let mut n = DVec3::ZERO;
                n[axis] = if positive { 1.0 } else { -1.0 };
                (DVec3::from_array(p), n)
            };
            let target = match &self.place {
                Place::Centre => DVec3::ZERO,
                Place::Interior(u) => *u * ha,
                Place::Surface {
                    axis,
                    positive,
                    uv,
                    tol_units,
                } => {
                    let (f, n) = face(*axis, *positive, *uv);
                    f + n * (reach(-n) + tol_units * tol)
                }
                Place::Outside {
                    axis,
                    positive,
                    uv,
                    gap,
                } => {
                    let (f, n) = face(*axis, *positive, *uv);
                    f + n * (reach(-n) + gap * scale)
                }
                Place::Nested(u) => {
                    let room = DVec3::new(
                        (ha.x - reach(DVec3::X).max(reach(-DVec3::X))).max(0.0),
                        (ha.y - reach(DVec3::Y).max(reach(-DVec3::Y))).max(0.0),
                        (ha.z - reach(DVec3::Z).max(reach(-DVec3::Z))).max(0.0),
                    );
                    *u * room * 0.99
                }
            };
            // B's local origin sits at target - rel * cb in A's frame.
            let local = target - rel * cb;
            let pose_b = pose(pose_a.position + pose_a.rotation * local, self.rotation_b);
            Case {
                label: format!(
                    "{}/{}/{}",
                    self.family,
                    self.partner.name(),
                    self.place.name()
                ),
                a,
                b,
                pose_a,
                pose_b,
                twin: None,
            }
        }
    }
}

use blocks::{log_uniform, partner, place, rotation, unit_box, BoxPair, Partner, Place};

/// Generator 1, thin slabs: boxes with half extents (s, s, t), t/s from 1e-6 to 1e-1, s from 1e-3 to 1e3,
/// axis-aligned, half-turned or randomly oriented, against a point, a small sphere or a small box inside,
/// near the surface (1e-3 to 10 touching tolerances in or out) or clearly outside.
///
/// What such inputs broke elsewhere (shared/FIELD_NOTES.md): stacked boxes with parallel faces and
/// face-to-face contact at tiny penetration (mujoco_warp #1526, Genesis #3223: the origin on a face of GJK's
/// final tetrahedron, contact dropped); libccd #25 (boxes at z = 0 and 1.9: depth 0 and a NaN direction);
/// raw-physics #6 (`>=` for `>` made touching boxes "not intersecting"); sliver simplices giving zero search
/// directions. What they break here (see the reproducers): `unresolved` from `query_f64` and, after the float64
/// repeat, from the float32 entry points; the iteration bound; `epa_degenerate` at an edge; contacts and
/// witnesses rebuilt from weights on sliver faces; GJK and EPA answers of one `penetration_query` that disagree.
pub(crate) mod slabs {
    use super::*;

    pub fn pairs() -> impl Strategy<Value = Case> {
        (
            log_uniform(-3.0, 3.0),
            log_uniform(-6.0, -1.0),
            rotation(),
            prop_oneof![Just(DVec3::ZERO), unit_box().prop_map(|u| u * 2.0)],
            partner(log_uniform(-4.0, -1.0), false),
            rotation(),
            place(),
        )
            .prop_map(
                |(s, ratio, rotation_a, position, partner, rotation_b, place)| {
                    BoxPair {
                        family: "slab",
                        half_a: DVec3::new(s, s, s * ratio),
                        rotation_a,
                        position_a: position * s,
                        partner,
                        reference: s,
                        rotation_b,
                        place,
                    }
                    .build()
                },
            )
    }
}

/// Generator 2, needles: boxes with half extents (L, t1, t2), t/L from 1e-5 to 1e-1, with the placements of
/// the slabs.
///
/// What such inputs broke elsewhere (shared/FIELD_NOTES.md): dolfinx #3653 (a point against a thin hull hits
/// the iteration limit); OpenRAL #215 (GJK ends on a 2-point simplex, the origin exactly on a segment, and an
/// EPA that needs a tetrahedron never runs); collinear and repeated support points producing NaN witnesses;
/// this library's own `unresolved` status was added for "a point in a needle". What they break here: as for
/// the slabs, plus float32 distances 2e-4 of the scale off for a point beside a very flat box.
pub(crate) mod needles {
    use super::*;

    pub fn pairs() -> impl Strategy<Value = Case> {
        (
            log_uniform(-3.0, 3.0),
            log_uniform(-5.0, -1.0),
            log_uniform(-5.0, -1.0),
            rotation(),
            prop_oneof![Just(DVec3::ZERO), unit_box().prop_map(|u| u * 2.0)],
            partner(log_uniform(-4.0, -1.0), false),
            rotation(),
            place(),
        )
            .prop_map(
                |(l, r1, r2, rotation_a, position, partner, rotation_b, place)| {
                    BoxPair {
                        family: "needle",
                        half_a: DVec3::new(l, l * r1, l * r2),
                        rotation_a,
                        position_a: position * l,
                        partner,
                        reference: l,
                        rotation_b,
                        place,
                    }
                    .build()
                },
            )
    }
}

/// Generator 3, point sets far from their local origin: a unit-ish box or a random hull written with
/// coordinates around an offset of 1e3 to 1e8 (identity poses) against the same shape shifted by a gap (near
/// touching, overlapping or apart), compared with the same geometry written about the offset and placed with
/// the pose position (the twin).
///
/// What such inputs broke elsewhere (shared/FIELD_NOTES.md): "results that change with world translation or
/// scale" (users' top complaint); absolute epsilons that fail at 1e4 (FIELD_NOTES case 5); parry #166 (big
/// hulls, flipped normals in f32); dolfinx #3653 (coordinates around 40-50 hit the iteration limit). In this
/// library, float32 tolerances once scaled with the distance of the points from their local origin, which is
/// why shapes are now stored about their bounding-box centre. What they break here: nothing that depends on
/// the offset (offset and twin agree), but two boxes with five faces in common end `epa_degenerate`.
pub(crate) mod far_from_origin {
    use super::*;

    #[derive(Clone, Debug)]
    pub enum Local {
        Box(DVec3),
        Hull(Vec<DVec3>, f64),
    }

    #[derive(Clone, Debug)]
    pub enum Gap {
        /// The touching shift plus this many touching tolerances.
        Near(f64),
        /// This fraction of the touching shift.
        Clear(f64),
    }

    fn build(offset: DVec3, local: Local, direction: DVec3, gap: Gap) -> Case {
        let c = f32_exact(offset);
        let u = direction.try_normalize().unwrap_or(DVec3::X);
        let (points, radius, name) = match &local {
            Local::Box(h) => (
                (0..8)
                    .map(|i| {
                        DVec3::new(
                            if i & 1 == 0 { -h.x } else { h.x },
                            if i & 2 == 0 { -h.y } else { h.y },
                            if i & 4 == 0 { -h.z } else { h.z },
                        )
                    })
                    .collect::<Vec<_>>(),
                0.0,
                "box",
            ),
            Local::Hull(p, r) => (p.clone(), *r, "hull"),
        };
        // The shift at which the shape and its copy touch along u: the radial function of A - A. For a box
        // (A - A = 2A) it is exact; for a hull, its width along u, which is at least that.
        let touching = match &local {
            Local::Box(h) => 1.0 / (u.abs() / (2.0 * *h)).max_element(),
            Local::Hull(..) => {
                let s = points.iter().map(|p| p.dot(u)).fold(f64::MIN, f64::max);
                let t = points.iter().map(|p| p.dot(u)).fold(f64::MAX, f64::min);
                s - t + 2.0 * radius
            }
        };
        let size = points.iter().map(|p| p.length()).fold(0.0, f64::max) + radius;
        let (shift, gap_name) = match gap {
            Gap::Near(k) => (touching + k * TOUCH * size, "near"),
            Gap::Clear(f) => (touching * f, "clear"),
        };
        let shift_c = f32_exact(c + u * shift);
        let solid = |at: DVec3| match &local {
            Local::Box(h) => Solid::cuboid(at, *h),
            Local::Hull(p, r) => {
                Solid::hull(p.iter().map(|q| (at + *q).as_vec3()).collect(), *r as f32)
            }
        };
        let (a, b) = (solid(c), solid(c + u * shift));
        let twin = Case {
            label: format!("far/{name}/{gap_name}/twin"),
            a: a.translated(c),
            b: b.translated(shift_c),
            pose_a: pose(c, DQuat::IDENTITY),
            pose_b: pose(shift_c, DQuat::IDENTITY),
            twin: None,
        };
        Case {
            label: format!("far/{name}/{gap_name}"),
            a,
            b,
            pose_a: DPose::IDENTITY,
            pose_b: DPose::IDENTITY,
            twin: Some(Box::new(twin)),
        }
    }

    pub fn pairs() -> impl Strategy<Value = Case> {
        let component = (any::<bool>(), 0.5..1.0f64).prop_map(|(neg, f)| if neg { -f } else { f });
        let local = prop_oneof![
            (0.25..2.0f64, 0.25..2.0f64, 0.25..2.0f64)
                .prop_map(|(x, y, z)| Local::Box(DVec3::new(x, y, z))),
            blocks::hull_points().prop_map(|(p, r)| Local::Hull(p, r)),
        ];
        let gap = prop_oneof![
            (any::<bool>(), -3.0..1.0f64)
                .prop_map(|(inside, e)| Gap::Near(if inside { -1.0 } else { 1.0 } * 10f64.powf(e))),
            (-1.0..0.5f64).prop_map(|e| Gap::Clear(10f64.powf(e))),
        ];
        (
            log_uniform(3.0, 8.0),
            (component.clone(), component.clone(), component),
            local,
            unit_box(),
            gap,
        )
            .prop_map(|(o, (x, y, z), local, direction, gap)| {
                build(DVec3::new(x, y, z) * o, local, direction, gap)
            })
    }
}

/// Generator 4, coordinates near the limit: boxes of half extent up to 9e8 at positions up to 9e8 (the
/// library's limit is 1e9 on every coordinate and radius), against points, spheres of radius up to 9e8 and
/// boxes, placed as for the slabs (positions clamped to 9e8).
///
/// What such inputs broke elsewhere (shared/FIELD_NOTES.md): mujoco_warp #1430 (box-box answers change as the
/// boxes grow); parry #166 (big hulls, flipped normals); in this library, the signed-volume determinants
/// (products of three coordinates) are why coordinates are limited at all, and the pair's power-of-two unit
/// must keep them in range. What they break here: everything the slabs and needles break (the random extents
/// make very thin boxes), EPA depths more than 1e-3 of the scale off, and a panic in EPA on two crossing
/// needles.
pub(crate) mod near_limit {
    use super::*;

    pub fn pairs() -> impl Strategy<Value = Case> {
        let extent = prop_oneof![1 => Just(LIMIT), 3 => log_uniform(-3.0, LIMIT.log10())];
        let coordinate = prop_oneof![
            1 => Just(LIMIT),
            1 => Just(-LIMIT),
            3 => -LIMIT..LIMIT,
        ];
        (
            (extent.clone(), extent.clone(), extent),
            rotation(),
            (coordinate.clone(), coordinate.clone(), coordinate),
            partner(log_uniform(-3.0, LIMIT.log10()), false),
            rotation(),
            place(),
        )
            .prop_map(
                |((x, y, z), rotation_a, (px, py, pz), partner, rotation_b, place)| {
                    BoxPair {
                        family: "limit",
                        half_a: DVec3::new(x, y, z),
                        rotation_a,
                        position_a: DVec3::new(px, py, pz),
                        partner,
                        reference: 1.0,
                        rotation_b,
                        place,
                    }
                    .build()
                },
            )
    }
}

/// Generator 5, identical, nested, tiny and huge shapes: one box or hull twice at one pose; a small box wholly
/// inside a big one; boxes of 1e-20 to 1e-3 against partners of their size; boxes of 1e3 to 9e8 against
/// partners of their size; and a huge box against a tiny partner.
///
/// What such inputs broke elsewhere (shared/FIELD_NOTES.md): collision-rs #52 (identical shapes at one pose
/// give a zero search vector); sch-core #28 (a NaN norm loops forever); coincident shapes and ties in the
/// support function; large size ratios (1000:1) and absolute epsilons that break at small or large scale.
/// What they break here: identical thin boxes at one pose end `epa_degenerate`; a tiny triangle beside a huge
/// box gets a distance its own witnesses contradict.
pub(crate) mod special {
    use super::*;

    fn identical() -> impl Strategy<Value = Case> {
        let shape = prop_oneof![
            (
                log_uniform(-3.0, 3.0),
                log_uniform(-3.0, 3.0),
                log_uniform(-3.0, 3.0)
            )
                .prop_map(|(x, y, z)| Solid::cuboid(DVec3::ZERO, DVec3::new(x, y, z))),
            (blocks::hull_points(), log_uniform(-3.0, 3.0)).prop_map(|((p, r), s)| {
                Solid::hull(
                    p.iter().map(|q| (*q * s).as_vec3()).collect(),
                    (r * s) as f32,
                )
            }),
        ];
        (shape, unit_box(), rotation()).prop_map(|(solid, position, rotation)| {
            let at = pose(position * solid.bound(), rotation);
            let kind = if matches!(solid.kind, Kind::Box { .. }) {
                "box"
            } else {
                "hull"
            };
            Case {
                label: format!("identical/{kind}"),
                a: solid.clone(),
                b: solid,
                pose_a: at,
                pose_b: at,
                twin: None,
            }
        })
    }

    fn nested() -> impl Strategy<Value = Case> {
        (
            (
                log_uniform(-1.0, 3.0),
                log_uniform(-1.0, 3.0),
                log_uniform(-1.0, 3.0),
            ),
            rotation(),
            unit_box(),
            (
                log_uniform(-3.0, -0.8),
                log_uniform(-3.0, -0.8),
                log_uniform(-3.0, -0.8),
            ),
            rotation(),
            (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64),
        )
            .prop_map(
                |((x, y, z), rotation_a, position, (bx, by, bz), rotation_b, (u, v, w))| {
                    let half_a = DVec3::new(x, y, z);
                    BoxPair {
                        family: "nested",
                        half_a,
                        rotation_a,
                        position_a: position * half_a.max_element(),
                        partner: Partner::Cube(DVec3::new(bx, by, bz)),
                        reference: half_a.min_element(),
                        rotation_b,
                        place: Place::Nested(DVec3::new(u, v, w)),
                    }
                    .build()
                },
            )
    }

    /// Boxes of size `10^U(lo, hi)` against partners of their size (or of `partner_size` absolute).
    fn sized(
        family: &'static str,
        lo: f64,
        hi: f64,
        partner_size: Option<(f64, f64)>,
    ) -> impl Strategy<Value = Case> {
        let partners = match partner_size {
            None => partner(log_uniform(-1.0, 0.5), true),
            Some((plo, phi)) => partner(log_uniform(plo, phi), true),
        };
        (
            log_uniform(lo, hi),
            (0.1..1.0f64, 0.1..1.0f64),
            rotation(),
            unit_box(),
            partners,
            rotation(),
            place(),
        )
            .prop_map(
                move |(s, (r1, r2), rotation_a, position, partner, rotation_b, place)| {
                    BoxPair {
                        family,
                        half_a: DVec3::new(s, s * r1, s * r2),
                        rotation_a,
                        position_a: position * s,
                        partner,
                        reference: if partner_size.is_some() { 1.0 } else { s },
                        rotation_b,
                        place,
                    }
                    .build()
                },
            )
    }

    pub fn pairs() -> impl Strategy<Value = Case> {
        prop_oneof![
            identical(),
            nested(),
            sized("tiny", -20.0, -3.0, None),
            sized("huge", 3.0, LIMIT.log10(), None),
            sized("huge-vs-tiny", 3.0, LIMIT.log10(), Some((-20.0, -3.0))),
        ]
    }
}

/// Every generator at once (the GPU test draws from this).
pub(crate) fn any_case() -> impl Strategy<Value = Case> {
    prop_oneof![
        slabs::pairs(),
        needles::pairs(),
        far_from_origin::pairs(),
        near_limit::pairs(),
        special::pairs(),
    ]
}
