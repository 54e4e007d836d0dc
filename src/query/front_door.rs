//! The library's front door: one pair of placed shapes asked one of three questions, Box2D and parry style
//! (an input struct, an options struct, an answer struct). [`super::advanced`] is the one entry below it, for
//! batch code that has already formed the pair's relative pose.

use super::frame::{PairPose, Prepared, Wide};
use super::kind::{answer_relative, answer_relative_bare, answer_relative_traced, AnswerKind};
use super::solve::{answer_traced, penetration_traced};
use super::trace::{PairRecorder, RunTrace};
use super::warm_start::WarmStart;
use super::world::{WorldPenetration, WorldResult};
use crate::epa::{PairTracer, Penetration};
use crate::gjk::{GjkConfig, GjkResult, NoTrace, PairQuery};
use crate::pose::{CentredPose, DPose, RelativePose};
use crate::shape::ConvexShape;
use glam::Vec3;

/// Two shapes and their poses in the world.
#[derive(Clone, Copy, Debug)]
pub struct PairInput<'s> {
    pub a: &'s ConvexShape,
    pub pose_a: DPose,
    pub b: &'s ConvexShape,
    pub pose_b: DPose,
}

impl<'s> PairInput<'s> {
    /// The pair `a` at `pose_a`, `b` at `pose_b`; poses in float32 ([`crate::Pose`]) or float64 ([`DPose`]).
    pub fn new(
        a: &'s ConvexShape,
        pose_a: impl Into<DPose>,
        b: &'s ConvexShape,
        pose_b: impl Into<DPose>,
    ) -> Self {
        Self {
            a,
            pose_a: pose_a.into(),
            b,
            pose_b: pose_b.into(),
        }
    }

    /// B's centred points in A's centred frame, formed in float64 from the world poses (positions
    /// subtracted before the centres are added, [`RelativePose::between_centred`]) and then rounded once to
    /// float32.
    fn cores(&self) -> PairPose {
        PairPose::Cores(RelativePose::between_centred(
            &CentredPose::new(self.pose_a, self.a.centre().as_dvec3()),
            &CentredPose::new(self.pose_b, self.b.centre().as_dvec3()),
        ))
    }
}

/// The arithmetic a query runs in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Precision {
    /// Float32, as the GPU kernels compute, with the pair repeated in float64 when float32 rounding leaves it
    /// without an answer (a few pairs per million on a random mix).
    #[default]
    Float32,
    /// Float64 throughout, from the float64 poses: the referee of the float32 path.
    Float64,
}

/// How a query runs. `QueryOptions::default()` is what `gpu-gjk query` does for one pair.
#[derive(Debug)]
pub struct QueryOptions<'c> {
    pub precision: Precision,
    /// Iteration bound and touching tolerance.
    pub config: GjkConfig,
    /// A pair queried frame after frame: GJK starts from the last separating direction and the hull walks from
    /// the last vertices, and the cache is updated for next time. Float32 only; a float64 query neither reads
    /// nor writes it.
    pub warm_start: Option<&'c mut WarmStart>,
    /// Filled with every run of the algorithms on the pair (the float32 run, then the float64 repeat when
    /// there is one), each with its GJK iterations and EPA expansions in A's local frame.
    pub trace: Option<&'c mut Vec<RunTrace>>,
    /// `false`: the status, flag, distance and iteration count alone, cheaper for a broad phase's filter or a
    /// distance threshold; the witnesses and the normal are then NaN. Applies to a float32 distance or
    /// intersection query without a warm start or a trace; the others always form them.
    pub witnesses: bool,
}

impl Default for QueryOptions<'_> {
    fn default() -> Self {
        Self {
            precision: Precision::Float32,
            config: GjkConfig::default(),
            warm_start: None,
            trace: None,
            witnesses: true,
        }
    }
}

/// Distance between the shapes' surfaces (radii included), closest points and separating direction, in world
/// coordinates. Overlapping shapes answer [`GjkStatus::Intersecting`](crate::GjkStatus::Intersecting) at distance 0.
///
/// ```
/// use glam::Vec3;
/// use gpu_gjk::{distance, ConvexShape, GjkStatus, PairInput, Pose, QueryOptions};
///
/// let ball = ConvexShape::sphere(1.0)?;
/// let far = Pose::from_position(Vec3::new(5.0, 0.0, 0.0));
/// let answer = distance(&PairInput::new(&ball, Pose::IDENTITY, &ball, far), QueryOptions::default());
/// assert_eq!(answer.status, GjkStatus::Separated);
/// assert!((answer.distance - 3.0).abs() < 1e-6);
/// # Ok::<(), gpu_gjk::GjkError>(())
/// ```
pub fn distance(input: &PairInput, options: QueryOptions) -> WorldResult {
    world_answer(input, AnswerKind::Distance, options).0
}

/// Whether the shapes overlap or touch within the tolerance: GJK stops as soon as that is decided, so the
/// distance and witnesses are estimates. Read `intersecting` together with `status`: an iteration cap is
/// [`GjkStatus::MaxIterations`](crate::GjkStatus::MaxIterations), never a silent "no".
///
/// ```
/// use glam::Vec3;
/// use gpu_gjk::{intersects, ConvexShape, PairInput, Pose, QueryOptions};
///
/// let cube = ConvexShape::cuboid(Vec3::ONE)?;
/// let near = Pose::from_position(Vec3::new(1.5, 0.0, 0.0));
/// let answer = intersects(&PairInput::new(&cube, Pose::IDENTITY, &cube, near), QueryOptions::default());
/// assert!(answer.intersecting);
/// # Ok::<(), gpu_gjk::GjkError>(())
/// ```
pub fn intersects(input: &PairInput, options: QueryOptions) -> WorldResult {
    world_answer(input, AnswerKind::Intersection, options).0
}

/// GJK's distance answer and, when the shapes overlap, EPA's depth, normal (from A towards B) and contact
/// points, in world coordinates. Apart, the penetration's status is `Separated` and the distance answer holds
/// the gap.
///
/// ```
/// use glam::Vec3;
/// use gpu_gjk::{penetration, ConvexShape, PairInput, PenetrationStatus, Pose, QueryOptions};
///
/// let cube = ConvexShape::cuboid(Vec3::ONE)?;
/// let overlapping = Pose::from_position(Vec3::new(1.5, 0.0, 0.0));
/// let input = PairInput::new(&cube, Pose::IDENTITY, &cube, overlapping);
/// let (_, hit) = penetration(&input, QueryOptions::default());
/// assert_eq!(hit.status, PenetrationStatus::Penetrating);
/// assert!((hit.depth - 0.5).abs() < 1e-6);
/// assert!((hit.normal.x - 1.0).abs() < 1e-6);
/// # Ok::<(), gpu_gjk::GjkError>(())
/// ```
pub fn penetration(input: &PairInput, options: QueryOptions) -> (WorldResult, WorldPenetration) {
    let (result, hit) = world_answer(input, AnswerKind::Penetration, options);
    (
        result,
        hit.expect("a penetration query answers a penetration"),
    )
}

/// [`penetration`]'s answers in A's local frame (the frame of `input.a`'s points) rather than the world's: for
/// answers built on top of it (the contact manifold), which keep their precision far from the origin so.
pub(crate) fn penetration_in_a(
    input: &PairInput,
    options: QueryOptions,
) -> (WorldResult, WorldPenetration) {
    let (result, hit) = answer_in(input, AnswerKind::Penetration, options, &DPose::IDENTITY);
    (
        result,
        hit.expect("a penetration query answers a penetration"),
    )
}

/// One pair's answer in world coordinates.
fn world_answer(
    input: &PairInput,
    kind: AnswerKind,
    options: QueryOptions,
) -> (WorldResult, Option<WorldPenetration>) {
    answer_in(input, kind, options, &input.pose_a)
}

/// One pair's answer, moved from A's local frame by `pose_a`.
fn answer_in(
    input: &PairInput,
    kind: AnswerKind,
    options: QueryOptions,
    pose_a: &DPose,
) -> (WorldResult, Option<WorldPenetration>) {
    match options.precision {
        Precision::Float32 => {
            let (result, hit) = local_float32(input.a, input.b, input.cores(), kind, options);
            (
                WorldResult::from_local(&result, pose_a),
                hit.map(|h| WorldPenetration::from_local(&h, pose_a)),
            )
        }
        Precision::Float64 => {
            let wide = Wide::between(input.a, &input.pose_a, input.b, &input.pose_b);
            let (result, hit) = local_float64(input.a, &wide, kind, options);
            (
                WorldResult::from_local(&result, pose_a),
                hit.map(|h| WorldPenetration::from_local(&h, pose_a)),
            )
        }
    }
}

/// The float32 answer (with its float64 repeat) in A's local frame, traced and warm-started as asked.
pub(super) fn local_float32(
    a: &ConvexShape,
    b: &ConvexShape,
    relative: PairPose,
    kind: AnswerKind,
    options: QueryOptions,
) -> (GjkResult<f32>, Option<Penetration<f32>>) {
    let config = &options.config;
    if !options.witnesses
        && kind != AnswerKind::Penetration
        && options.warm_start.is_none()
        && options.trace.is_none()
    {
        let bare = answer_relative_bare(a, b, relative, kind.gjk_kind(), config);
        let nan = Vec3::splat(f32::NAN);
        let result = GjkResult {
            status: bare.status,
            intersecting: bare.intersecting,
            distance: bare.distance,
            witness_a: nan,
            witness_b: nan,
            normal: nan,
            iterations: bare.iterations,
        };
        return (result, None);
    }
    let Some(trace) = options.trace else {
        return answer_relative(a, b, relative, kind, config, options.warm_start);
    };
    let mut recorder = PairRecorder::new(a.centre());
    let (result, hit) = answer_relative_traced(
        a,
        b,
        relative,
        kind,
        config,
        options.warm_start,
        &mut recorder,
    );
    *trace = recorder.runs;
    (result, hit)
}

/// The float64 answer of a prepared pair in A's local frame, traced as asked.
pub(super) fn local_float64(
    a: &ConvexShape,
    wide: &Wide,
    kind: AnswerKind,
    options: QueryOptions,
) -> (GjkResult<f64>, Option<Penetration<f64>>) {
    let q = wide.query(&options.config);
    let (result, hit) = match options.trace {
        None => float64_run(&q, kind, &mut NoTrace),
        Some(trace) => {
            let mut recorder = PairRecorder::new(a.centre());
            let answer = float64_run(&q, kind, &mut recorder);
            *trace = recorder.runs;
            answer
        }
    };
    (
        wide.gjk_to_local(result),
        hit.map(|h| wide.penetration_to_local(h)),
    )
}

/// GJK's `kind`, or GJK then EPA for a penetration, on a float64 pair, shown to `tracer`.
fn float64_run<T: PairTracer>(
    q: &PairQuery<'_, f64>,
    kind: AnswerKind,
    tracer: &mut T,
) -> (GjkResult<f64>, Option<Penetration<f64>>) {
    match kind {
        AnswerKind::Penetration => {
            let (result, hit) = penetration_traced(q, tracer);
            (result, Some(hit))
        }
        _ => (answer_traced(q, kind.gjk_kind(), tracer), None),
    }
}

/// A pair whose relative pose was formed by the caller, prepared for the float64 path.
pub(super) fn widened(a: &ConvexShape, b: &ConvexShape, relative: &RelativePose<f32>) -> Wide {
    Prepared::new(a, b, relative).widened()
}
