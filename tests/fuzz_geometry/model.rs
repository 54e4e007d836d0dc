//! The shapes and pairs the generators draw: a [`Solid`] keeps its points as written (float32), its radius
//! and what the exact referee knows about it ([`Kind`]); a [`Case`] is one pair with float64 poses, a label
//! naming its family and, for generator 3, the same geometry written another way.

use crate::common::exact::{self, box_point_signed_distance};
use crate::LIMIT;
use glam::{DQuat, DVec3, Vec3};
use gpu_gjk::{ConvexShape, DPose};

/// What the exact referee knows about a shape, in its local frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Kind {
    /// The axis-aligned box `centre ± half` (its 8 corners are the points).
    Box { centre: DVec3, half: DVec3 },
    /// One point (a sphere with the shape's radius, or a bare point).
    Ball { centre: DVec3 },
    /// Any point set.
    Hull,
}

/// A generated shape: its points as given (float32), its radius, and its kind.
#[derive(Clone)]
pub(crate) struct Solid {
    pub(crate) points: Vec<Vec3>,
    pub(crate) radius: f32,
    pub(crate) kind: Kind,
    pub(crate) shape: ConvexShape,
}

impl std::fmt::Debug for Solid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solid")
            .field("points", &self.points)
            .field("radius", &self.radius)
            .field("kind", &self.kind)
            .finish()
    }
}

impl Solid {
    pub(crate) fn new(points: Vec<Vec3>, radius: f32, kind: Kind) -> Self {
        let shape = ConvexShape::new(points.clone(), radius).expect("generated shapes are valid");
        Self {
            points,
            radius,
            kind,
            shape,
        }
    }

    /// The box `centre ± half`, corners rounded to float32 (rounding is monotone, so the corners still
    /// bound an axis-aligned box, possibly flattened; the kind records that box).
    pub(crate) fn cuboid(centre: DVec3, half: DVec3) -> Self {
        let (lo, hi) = ((centre - half).as_vec3(), (centre + half).as_vec3());
        let points = (0..8)
            .map(|i| {
                Vec3::new(
                    if i & 1 == 0 { lo.x } else { hi.x },
                    if i & 2 == 0 { lo.y } else { hi.y },
                    if i & 4 == 0 { lo.z } else { hi.z },
                )
            })
            .collect();
        let (lo, hi) = (lo.as_dvec3(), hi.as_dvec3());
        Self::new(
            points,
            0.0,
            Kind::Box {
                centre: (lo + hi) * 0.5,
                half: (hi - lo) * 0.5,
            },
        )
    }

    /// A sphere (one point at the origin); radius 0 is a bare point.
    pub(crate) fn ball(radius: f64) -> Self {
        Self::new(
            vec![Vec3::ZERO],
            radius as f32,
            Kind::Ball {
                centre: DVec3::ZERO,
            },
        )
    }

    pub(crate) fn hull(points: Vec<Vec3>, radius: f32) -> Self {
        Self::new(points, radius, Kind::Hull)
    }

    /// The same shape written with every coordinate minus `c` (which must be exact in float32).
    pub(crate) fn translated(&self, c: DVec3) -> Self {
        let points = self
            .points
            .iter()
            .map(|p| {
                let exact = p.as_dvec3() - c;
                let rounded = exact.as_vec3();
                assert_eq!(
                    rounded.as_dvec3(),
                    exact,
                    "the twin must be exact in float32"
                );
                rounded
            })
            .collect();
        let kind = match self.kind {
            Kind::Box { centre, half } => Kind::Box {
                centre: centre - c,
                half,
            },
            Kind::Ball { centre } => Kind::Ball { centre: centre - c },
            Kind::Hull => Kind::Hull,
        };
        Self::new(points, self.radius, kind)
    }

    pub(crate) fn local_points(&self) -> Vec<DVec3> {
        self.points.iter().map(|p| p.as_dvec3()).collect()
    }

    /// The middle of the points' bounding box.
    pub(crate) fn centre(&self) -> DVec3 {
        let (lo, hi) = self.points.iter().fold(
            (DVec3::splat(f64::MAX), DVec3::splat(f64::MIN)),
            |(lo, hi), p| (lo.min(p.as_dvec3()), hi.max(p.as_dvec3())),
        );
        (lo + hi) * 0.5
    }

    /// Bounding radius about [`Solid::centre`], radius included.
    pub(crate) fn bound(&self) -> f64 {
        let c = self.centre();
        self.points
            .iter()
            .map(|p| (p.as_dvec3() - c).length())
            .fold(0.0, f64::max)
            + self.radius as f64
    }

    /// Largest `p·dir` over the points (the core's support value).
    pub(crate) fn support(&self, dir: DVec3) -> f64 {
        self.points
            .iter()
            .map(|p| p.as_dvec3().dot(dir))
            .fold(f64::MIN, f64::max)
    }

    /// Signed distance from a point in the local frame to the shape (radius included), exact.
    pub(crate) fn signed_distance_to(&self, q: DVec3) -> f64 {
        let r = self.radius as f64;
        match self.kind {
            Kind::Box { centre, half } => box_point_signed_distance(half, q - centre) - r,
            Kind::Ball { centre } => (q - centre).length() - r,
            Kind::Hull => exact::point_hull(&self.local_points(), q).upper - r,
        }
    }
}

/// One generated pair: shapes, float64 poses (positions exact in float32), a label naming the family, and
/// optionally the same geometry written another way (generator 3), which must answer the same. Its `Debug`
/// is Rust source that rebuilds it (what a failure prints after shrinking).
#[derive(Clone)]
pub(crate) struct Case {
    pub(crate) label: String,
    pub(crate) a: Solid,
    pub(crate) b: Solid,
    pub(crate) pose_a: DPose,
    pub(crate) pose_b: DPose,
    pub(crate) twin: Option<Box<Case>>,
}

impl std::fmt::Debug for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shape = |s: &Solid| {
            let points: Vec<String> = s
                .points
                .iter()
                .map(|p| format!("Vec3::new({:?}, {:?}, {:?})", p.x, p.y, p.z))
                .collect();
            format!(
                "ConvexShape::new(vec![{}], {:?}).unwrap()",
                points.join(", "),
                s.radius
            )
        };
        let pose = |p: &DPose| {
            format!(
                "DPose {{ position: DVec3::new({:?}, {:?}, {:?}), rotation: DQuat::from_xyzw({:?}, {:?}, {:?}, {:?}) }}",
                p.position.x,
                p.position.y,
                p.position.z,
                p.rotation.x,
                p.rotation.y,
                p.rotation.z,
                p.rotation.w
            )
        };
        writeln!(f, "// {}", self.label)?;
        writeln!(f, "let a = {};", shape(&self.a))?;
        writeln!(f, "let b = {};", shape(&self.b))?;
        writeln!(f, "let pose_a = {};", pose(&self.pose_a))?;
        write!(f, "let pose_b = {};", pose(&self.pose_b))?;
        if let Some(twin) = &self.twin {
            write!(f, "\n// the same geometry written another way:\n{twin:?}")?;
        }
        Ok(())
    }
}

impl Case {
    pub(crate) fn swapped(&self) -> (&Solid, &DPose, &Solid, &DPose) {
        (&self.b, &self.pose_b, &self.a, &self.pose_a)
    }

    pub(crate) fn ordered(&self) -> (&Solid, &DPose, &Solid, &DPose) {
        (&self.a, &self.pose_a, &self.b, &self.pose_b)
    }
}

/// A position rounded to float32, so that float32 and float64 paths see the same geometry.
pub(crate) fn f32_exact(v: DVec3) -> DVec3 {
    v.as_vec3().as_dvec3()
}

pub(crate) fn pose(position: DVec3, rotation: DQuat) -> DPose {
    DPose {
        position: f32_exact(position.clamp(DVec3::splat(-LIMIT), DVec3::splat(LIMIT))),
        rotation: rotation.normalize(),
    }
}
