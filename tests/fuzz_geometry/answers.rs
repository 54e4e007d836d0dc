//! Every CPU entry point on one ordered pair ([`run_cpu`]), its answers widened to float64 ([`Answer`],
//! [`Pen`]) with the input rounding each path is allowed ([`Slack`]).

use crate::common::one_pair as query;
use crate::model::Solid;
use crate::truth::Truth;
use glam::{DQuat, DVec3};
use gpu_gjk::epa::{Penetration, PenetrationStatus};
use gpu_gjk::{DPose, GjkConfig, GjkResult, GjkStatus, QueryKind, RelativePose};

/// A GJK answer in float64, whatever precision it was computed in.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Answer {
    pub(crate) status: GjkStatus,
    pub(crate) intersecting: bool,
    pub(crate) distance: f64,
    pub(crate) witness_a: DVec3,
    pub(crate) witness_b: DVec3,
    pub(crate) normal: DVec3,
}

impl From<GjkResult<f32>> for Answer {
    fn from(r: GjkResult<f32>) -> Self {
        Self {
            status: r.status,
            intersecting: r.intersecting,
            distance: r.distance as f64,
            witness_a: r.witness_a.as_dvec3(),
            witness_b: r.witness_b.as_dvec3(),
            normal: r.normal.as_dvec3(),
        }
    }
}

impl From<GjkResult<f64>> for Answer {
    fn from(r: GjkResult<f64>) -> Self {
        Self {
            status: r.status,
            intersecting: r.intersecting,
            distance: r.distance,
            witness_a: r.witness_a,
            witness_b: r.witness_b,
            normal: r.normal,
        }
    }
}

/// A penetration answer in float64.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pen {
    pub(crate) status: PenetrationStatus,
    pub(crate) depth: f64,
    pub(crate) normal: DVec3,
    pub(crate) contact_a: DVec3,
    pub(crate) contact_b: DVec3,
}

impl From<Penetration<f32>> for Pen {
    fn from(p: Penetration<f32>) -> Self {
        Self {
            status: p.status,
            depth: p.depth as f64,
            normal: p.normal.as_dvec3(),
            contact_a: p.contact_a.as_dvec3(),
            contact_b: p.contact_b.as_dvec3(),
        }
    }
}

/// Which input rounding a path is allowed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Slack {
    World,
    Relative,
    Wide,
}

impl Slack {
    pub(crate) fn of(self, t: &Truth) -> f64 {
        match self {
            Slack::World => t.slack_world,
            Slack::Relative => t.slack_rel,
            Slack::Wide => t.slack_wide,
        }
    }
}

/// Every CPU answer for one ordered pair.
pub(crate) struct Run {
    /// (name, answer, slack, distance kind)
    pub(crate) answers: Vec<(&'static str, Answer, Slack, bool)>,
    pub(crate) pen: Pen,
    pub(crate) rotation_a: DQuat,
}

pub(crate) fn run_cpu(a: &Solid, pose_a: &DPose, b: &Solid, pose_b: &DPose) -> Run {
    let config = GjkConfig::default();
    let (fa, fb) = (pose_a.to_f32(), pose_b.to_f32());
    let relative = RelativePose::<f32>::between(pose_a, pose_b);
    let (sa, sb) = (&a.shape, &b.shape);
    let world = query::query(sa, &fa, sb, &fb, QueryKind::Distance, &config);
    let rel = query::query_relative(sa, sb, &relative, QueryKind::Distance, &config);
    let hit = query::query_relative(sa, sb, &relative, QueryKind::Intersection, &config);
    let wide = query::query_f64(sa, pose_a, sb, pose_b, QueryKind::Distance, &config);
    let (pen_gjk, pen) = query::penetration_query(sa, &fa, sb, &fb, &config);
    Run {
        answers: vec![
            ("query", world.into(), Slack::World, true),
            ("query_relative", rel.into(), Slack::Relative, true),
            (
                "query_relative(intersection)",
                hit.into(),
                Slack::Relative,
                false,
            ),
            ("query_f64", wide.into(), Slack::Wide, true),
            ("penetration_query(gjk)", pen_gjk.into(), Slack::World, true),
        ],
        pen: pen.into(),
        rotation_a: pose_a.rotation,
    }
}
