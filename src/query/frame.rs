//! A pair of shapes prepared for the algorithms: B's centred points placed relative to A's centred points
//! (the centres folded into the relative pose), everything multiplied by the pair's unit, and the way back to
//! A's local frame in the user's units. `pair_setup` in `shaders/shared/pair.wgsl` is its GPU twin.

use super::units::pair_unit;
use crate::epa::Penetration;
use crate::gjk::{pair_scale, GjkConfig, GjkResult, PairQuery, PairSupport};
use crate::pose::{CentredPose, DPose, RelativePose};
use crate::real::Real;
use crate::shape::{ConvexShape, HullAdjacency, HullView, PackedPoints};
use glam::DVec3;
use std::sync::Arc;

/// A pair in float32, prepared as the GPU prepares it.
pub struct Prepared<'s> {
    pub a: &'s ConvexShape,
    pub b: &'s ConvexShape,
    /// B's centred points relative to A's: `position + rotation * centre_b - centre_a`.
    pub core: RelativePose<f32>,
    /// [`pair_scale`] in the user's units.
    pub scale: f32,
    /// The power of two that normalises the pair ([`pair_unit`]).
    pub unit: f32,
}

/// Where B is relative to A, as a query receives it.
#[derive(Clone, Copy, Debug)]
pub enum PairPose {
    /// B's local frame in A's local frame: the shapes' centres are folded in float32, as the GPU folds them.
    Local(RelativePose<f32>),
    /// B's centred points in A's centred frame, the centres already folded (in float64, from the world poses:
    /// [`RelativePose::between_centred`]).
    Cores(RelativePose<f32>),
}

impl From<&RelativePose<f32>> for PairPose {
    fn from(relative: &RelativePose<f32>) -> Self {
        PairPose::Local(*relative)
    }
}

impl<'s> Prepared<'s> {
    /// `relative` places B's local frame in A's local frame.
    pub fn new(a: &'s ConvexShape, b: &'s ConvexShape, relative: &RelativePose<f32>) -> Self {
        Self::placed(a, b, PairPose::Local(*relative))
    }

    /// The pair with B placed by `pose`.
    pub fn placed(a: &'s ConvexShape, b: &'s ConvexShape, pose: PairPose) -> Self {
        let core = match pose {
            PairPose::Local(relative) => RelativePose::<f32> {
                rotation: relative.rotation,
                position: relative.position + relative.rotation * b.centre() - a.centre(),
            },
            PairPose::Cores(core) => core,
        };
        let scale = pair_scale(a.bounding_radius(), b.bounding_radius());
        let unit = pair_unit(scale, core.position.abs().max_element());
        Self {
            a,
            b,
            core,
            scale,
            unit,
        }
    }

    /// The pair as GJK and EPA take it.
    pub fn query<'q>(&'q self, config: &'q GjkConfig) -> PairQuery<'q, f32> {
        PairQuery {
            support: PairSupport::new(
                self.a.support_view(),
                self.b.support_view(),
                &self.core,
                self.unit,
            ),
            radius_a: self.a.radius() * self.unit,
            radius_b: self.b.radius() * self.unit,
            scale: self.scale * self.unit,
            config,
        }
    }

    /// Float64 copies of the centred points and relative pose, for the float64 repeat.
    pub fn widened(&self) -> Wide {
        Wide {
            a: WideHull::of(self.a),
            b: WideHull::of(self.b),
            relative: RelativePose::<f64> {
                rotation: self.core.rotation.as_dquat().normalize(),
                position: self.core.position.as_dvec3(),
            },
            radius_a: self.a.radius() as f64,
            radius_b: self.b.radius() as f64,
            scale: self.scale,
            unit: self.unit,
            centre_a: self.a.centre().as_dvec3(),
        }
    }

    /// A GJK answer in normalised units and A's centred frame, in A's local frame and the user's units
    /// (dividing by a power of two is exact).
    pub fn gjk_to_local(&self, r: GjkResult<f32>) -> GjkResult<f32> {
        gjk_to_local(r, self.unit, self.a.centre())
    }

    pub fn penetration_to_local(&self, p: Penetration<f32>) -> Penetration<f32> {
        penetration_to_local(p, self.unit, self.a.centre())
    }
}

/// One shape's core points in float64, with their SIMD lanes and the shape's adjacency (the same indices).
struct WideHull {
    points: Vec<DVec3>,
    packed: Option<PackedPoints<f64>>,
    adjacency: Option<Arc<HullAdjacency>>,
}

impl WideHull {
    fn of(shape: &ConvexShape) -> Self {
        let points: Vec<DVec3> = shape.core_points().iter().map(|p| p.as_dvec3()).collect();
        let adjacency = shape.adjacency_handle();
        Self {
            packed: PackedPoints::for_scans(&points, adjacency.as_deref()),
            points,
            adjacency,
        }
    }

    fn view(&self) -> HullView<'_, f64> {
        HullView::new(
            &self.points,
            self.packed.as_ref(),
            self.adjacency.as_deref(),
        )
    }
}

/// A pair in float64: the referee for the float32 path, and the repeat of a pair float32 cannot finish.
pub struct Wide {
    a: WideHull,
    b: WideHull,
    relative: RelativePose<f64>,
    radius_a: f64,
    radius_b: f64,
    scale: f32,
    unit: f32,
    centre_a: DVec3,
}

impl Wide {
    /// The pair at float64 poses, prepared in float64 (no float32 rounding of the relative pose, the centres
    /// kept apart from the positions until the positions have cancelled).
    pub fn between(a: &ConvexShape, pose_a: &DPose, b: &ConvexShape, pose_b: &DPose) -> Self {
        let relative = RelativePose::<f64>::between_centred(
            &CentredPose::new(*pose_a, a.centre().as_dvec3()),
            &CentredPose::new(*pose_b, b.centre().as_dvec3()),
        );
        let scale = pair_scale(a.bounding_radius(), b.bounding_radius());
        Self {
            a: WideHull::of(a),
            b: WideHull::of(b),
            unit: pair_unit(scale, relative.position.abs().max_element() as f32),
            relative,
            radius_a: a.radius() as f64,
            radius_b: b.radius() as f64,
            scale,
            centre_a: a.centre().as_dvec3(),
        }
    }

    pub fn query<'q>(&'q self, config: &'q GjkConfig) -> PairQuery<'q, f64> {
        let unit = self.unit as f64;
        PairQuery {
            support: PairSupport::new(self.a.view(), self.b.view(), &self.relative, unit),
            radius_a: self.radius_a * unit,
            radius_b: self.radius_b * unit,
            scale: self.scale as f64 * unit,
            config,
        }
    }

    pub fn gjk_to_local(&self, r: GjkResult<f64>) -> GjkResult<f64> {
        gjk_to_local(r, self.unit as f64, self.centre_a)
    }

    pub fn penetration_to_local(&self, p: Penetration<f64>) -> Penetration<f64> {
        penetration_to_local(p, self.unit as f64, self.centre_a)
    }
}

fn gjk_to_local<R: Real>(r: GjkResult<R>, unit: R, centre_a: R::Plain) -> GjkResult<R> {
    let back = R::ONE / unit;
    GjkResult {
        distance: r.distance * back,
        witness_a: r.witness_a * back + centre_a,
        witness_b: r.witness_b * back + centre_a,
        ..r
    }
}

fn penetration_to_local<R: Real>(p: Penetration<R>, unit: R, centre_a: R::Plain) -> Penetration<R> {
    let back = R::ONE / unit;
    Penetration {
        depth: p.depth * back,
        contact_a: p.contact_a * back + centre_a,
        contact_b: p.contact_b * back + centre_a,
        depth_upper: p.depth_upper.map(|upper| upper * back),
        ..p
    }
}

/// A float64 GJK answer rounded to float32.
pub fn narrow_result(r: GjkResult<f64>) -> GjkResult<f32> {
    GjkResult {
        status: r.status,
        intersecting: r.intersecting,
        distance: r.distance as f32,
        witness_a: r.witness_a.as_vec3(),
        witness_b: r.witness_b.as_vec3(),
        normal: r.normal.as_vec3(),
        iterations: r.iterations,
    }
}

/// A float64 penetration answer rounded to float32, with the expansions of both runs.
pub fn narrow_penetration(p: Penetration<f64>, iterations: u32) -> Penetration<f32> {
    Penetration {
        status: p.status,
        depth: p.depth as f32,
        normal: p.normal.as_vec3(),
        contact_a: p.contact_a.as_vec3(),
        contact_b: p.contact_b.as_vec3(),
        iterations,
        depth_upper: p.depth_upper.map(|upper| upper as f32),
    }
}
