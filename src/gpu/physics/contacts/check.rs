//! GPU contact records against the CPU manifold on the same poses: the check run on sampled records.
//!
//! The CPU side is `physics::collide`'s: [`manifold`] in float64 on the two bodies' poses, kept where it is
//! `Penetrating` with points, and nothing where neither body moves. A `TOUCHING` record agrees when
//!
//! 1. its points are the CPU manifold's computed from the record's own normal and depth (SAT's axis: the clipping
//!    and reduction are the CPU's twin), or the CPU's own manifold (EPA's normal) with the normals within the band:
//!    the same point count and feature ids, points and depths within [`POINT_BAND`] of the pair's scale (the larger
//!    bounding radius), points beyond that by at most 4 float32 steps of the bodies' world coordinates (the record
//!    stores them in float32). Where two axes tie (a box's faces), SAT's and EPA's normals differ and the first
//!    clause holds;
//! 2. and its invariants hold: every point lies on both surfaces within the touching tolerance plus the band, and
//!    its deepest depth is the CPU's EPA depth within the band (so SAT's axis is a least-overlap axis);
//! 3. and the record is well formed: 1 to 4 points in the order of their feature ids, the bodies of the slot's
//!    pair, `normal.w` the deepest point's depth.
//!
//! A `NONE` record agrees where the CPU finds no contact; one side finding a contact no deeper than the band
//! where the other finds none is a touching tie, counted as agreement. Failure codes are counted apart.

use super::codes::{
    PHYSICS_CONTACT_INVALID, PHYSICS_CONTACT_LOOP_LIMIT, PHYSICS_CONTACT_POLYGON_BOUND,
};
use crate::epa::PenetrationStatus;
use crate::gjk::GjkConfig;
use crate::gpu::manifold::compare::{difference, surface_distance, POINT_BAND};
use crate::gpu::physics::layout::{
    GpuPhysicsContact, PHYSICS_CONTACT_NONE, PHYSICS_CONTACT_TOUCHING,
};
use crate::manifold::{manifold, manifold_from, ContactPoint, FeatureId, Manifold};
use crate::physics::RigidBody;
use crate::pose::DPose;
use crate::query::{penetration_in_a, PairInput, Precision, QueryOptions, WorldPenetration};
use crate::shape::ConvexShape;
use glam::DVec3;

/// How many disagreements [`ContactCheck::described`] keeps.
const DESCRIBED: usize = 8;

/// What [`check_contacts`] found.
#[derive(Clone, Debug, Default)]
pub struct ContactCheck {
    /// Records checked: `agreed + failures + disagreements`.
    pub checked: usize,
    /// Records that agree with the CPU.
    pub agreed: usize,
    /// Of the agreeing records, touching ties (one side a contact within the band, the other none).
    pub touching_ties: usize,
    /// Of the agreeing `TOUCHING` records, those equal to the CPU's own manifold (EPA's normal); the others equal
    /// the CPU manifold from the record's normal.
    pub with_cpu_normal: usize,
    /// Records with a failure code, not compared.
    pub failures: usize,
    /// Records that disagree.
    pub disagreements: usize,
    /// The first disagreements, one line each: the slot, the pair, what differs and by how much.
    pub described: Vec<String>,
    /// The largest point and depth differences seen in agreeing records, as fractions of the pair's scale.
    pub max_point_error: f64,
    pub max_depth_error: f64,
}

impl ContactCheck {
    /// Whether no record disagreed.
    pub fn is_clean(&self) -> bool {
        self.disagreements == 0
    }

    /// One line of counts, then the described disagreements.
    pub fn summary(&self) -> String {
        let mut text = format!(
            "{} records checked: {} agreed ({} touching ties, {} with the CPU's own normal), {} failure codes, {} \
             disagreements; largest point error {:.3e}, depth error {:.3e} of the scale",
            self.checked,
            self.agreed,
            self.touching_ties,
            self.with_cpu_normal,
            self.failures,
            self.disagreements,
            self.max_point_error,
            self.max_depth_error,
        );
        for line in &self.described {
            text.push_str("\n  ");
            text.push_str(line);
        }
        text
    }
}

/// Checks `contacts` (records read back from [`super::GpuContactPass`], any selection of slots) against the CPU
/// manifold of the bodies they name, as the module's documentation says. `bodies` and `shapes` are the state the
/// pass read.
pub fn check_contacts(
    shapes: &[ConvexShape],
    bodies: &[RigidBody],
    contacts: &[GpuPhysicsContact],
) -> ContactCheck {
    let mut found = ContactCheck::default();
    for (slot, record) in contacts.iter().enumerate() {
        found.checked += 1;
        match check_one(shapes, bodies, record, &mut found) {
            Outcome::Agreed => found.agreed += 1,
            Outcome::Failure => found.failures += 1,
            Outcome::Disagreed(problem) => {
                found.disagreements += 1;
                if found.described.len() < DESCRIBED {
                    let [i, j, count, status] = record.bodies;
                    found.described.push(format!(
                        "record {slot}, bodies ({i}, {j}), status {status}, {count} points: {problem}"
                    ));
                }
            }
        }
    }
    found
}

enum Outcome {
    Agreed,
    Failure,
    Disagreed(String),
}

fn check_one(
    shapes: &[ConvexShape],
    bodies: &[RigidBody],
    record: &GpuPhysicsContact,
    found: &mut ContactCheck,
) -> Outcome {
    let [i, j, count, status] = record.bodies;
    if matches!(
        status,
        PHYSICS_CONTACT_LOOP_LIMIT | PHYSICS_CONTACT_POLYGON_BOUND | PHYSICS_CONTACT_INVALID
    ) {
        return Outcome::Failure;
    }
    let fail = |problem: String| Outcome::Disagreed(problem);
    if status != PHYSICS_CONTACT_NONE && status != PHYSICS_CONTACT_TOUCHING {
        return fail(format!("unknown status {status}"));
    }
    let (Some(a), Some(b)) = (bodies.get(i as usize), bodies.get(j as usize)) else {
        return fail(format!("a body index beyond the {} bodies", bodies.len()));
    };
    let (Some(shape_a), Some(shape_b)) =
        (shapes.get(a.shape as usize), shapes.get(b.shape as usize))
    else {
        return fail(format!("a shape index beyond the {} shapes", shapes.len()));
    };
    if status == PHYSICS_CONTACT_NONE && count != 0 {
        return fail(format!("NONE with {count} points"));
    }
    if status == PHYSICS_CONTACT_TOUCHING && !(1..=4).contains(&count) {
        return fail(format!("TOUCHING with {count} points"));
    }
    if !a.moves() && !b.moves() {
        return if status == PHYSICS_CONTACT_NONE {
            Outcome::Agreed
        } else {
            fail("TOUCHING, but neither body moves".into())
        };
    }
    let input = PairInput::new(shape_a, a.pose, shape_b, b.pose);
    let scale = shape_a.bounding_radius().max(shape_b.bounding_radius()) as f64;
    let options = || QueryOptions {
        precision: Precision::Float64,
        ..QueryOptions::default()
    };
    let cpu = manifold(&input, options());
    let cpu_touches = cpu.status == PenetrationStatus::Penetrating
        && !cpu.points.is_empty()
        && cpu.normal.is_finite();
    let band = POINT_BAND * scale;
    if status == PHYSICS_CONTACT_NONE {
        if !cpu_touches {
            return Outcome::Agreed;
        }
        let depth = cpu.points[0].depth;
        if depth <= band {
            found.touching_ties += 1;
            return Outcome::Agreed;
        }
        return fail(format!(
            "GPU none, CPU penetrating {depth:.6e} deep ({:.3e} of the scale)",
            depth / scale
        ));
    }
    let gpu = match record_manifold(record) {
        Ok(gpu) => gpu,
        Err(problem) => return fail(problem),
    };
    let deepest = gpu.points.iter().map(|p| p.depth).fold(f64::MIN, f64::max);
    if !cpu_touches {
        if deepest <= band {
            found.touching_ties += 1;
            return Outcome::Agreed;
        }
        return fail(format!(
            "GPU touching {deepest:.6e} deep ({:.3e} of the scale), CPU {:?}",
            deepest / scale,
            cpu.status
        ));
    }
    // The records hold float32 world coordinates: a few steps of the bodies' distance from the origin.
    let reach = a
        .pose
        .position
        .abs()
        .max_element()
        .max(b.pose.position.abs().max_element()) as f64;
    let slack = 4.0 * f32::EPSILON as f64 * reach;
    let (_, epa) = penetration_in_a(&input, options());
    let own = own_penetration(&input.pose_a, &gpu, &epa);
    let twin = manifold_from(&input, &own, GjkConfig::default().touch_tolerance);
    let errors = match difference(&twin, &gpu, scale, slack, POINT_BAND) {
        Ok(errors) => errors,
        Err(from_gpu_normal) => match difference(&cpu, &gpu, scale, slack, POINT_BAND) {
            Ok(errors) => {
                found.with_cpu_normal += 1;
                errors
            }
            Err(from_cpu_normal) => {
                return fail(format!(
                "against the CPU's from the GPU normal: {from_gpu_normal}; against the CPU's own: \
                     {from_cpu_normal}"
            ))
            }
        },
    };
    if let Some(problem) = invariants(&input, &gpu, epa.depth, scale, slack) {
        return fail(problem);
    }
    found.max_point_error = found.max_point_error.max(errors.point);
    found.max_depth_error = found.max_depth_error.max(errors.depth);
    Outcome::Agreed
}

/// A `TOUCHING` record as a world manifold: each point on A and on B half its depth either side of the stored
/// midpoint along the normal (clipped points and SAT's pair differ along the normal only). Or why the record is
/// malformed.
fn record_manifold(record: &GpuPhysicsContact) -> Result<Manifold, String> {
    let [nx, ny, nz, deepest] = record.normal;
    let normal = DVec3::new(nx as f64, ny as f64, nz as f64);
    if !normal.is_finite() || (normal.length() - 1.0).abs() > 1e-5 {
        return Err(format!("normal {normal} is not a unit vector"));
    }
    let count = record.point_count();
    let points: Vec<ContactPoint> = (0..count)
        .map(|k| {
            let [x, y, z, depth] = record.points[k];
            let middle = DVec3::new(x as f64, y as f64, z as f64);
            let half = normal * (depth as f64 * 0.5);
            let id = record.id(k);
            ContactPoint {
                point_a: middle + half,
                point_b: middle - half,
                depth: depth as f64,
                id: FeatureId {
                    a: (id >> 32) as u32,
                    b: id as u32,
                },
            }
        })
        .collect();
    if points
        .windows(2)
        .any(|w| w[0].id.packed() >= w[1].id.packed())
    {
        let ids: Vec<u64> = points.iter().map(|p| p.id.packed()).collect();
        return Err(format!(
            "points not in increasing feature id order: {ids:x?}"
        ));
    }
    let deepest_point = points
        .iter()
        .map(|p| p.depth as f32)
        .fold(f32::MIN, f32::max);
    if deepest != deepest_point {
        return Err(format!(
            "normal.w {deepest} is not the deepest point's depth {deepest_point}"
        ));
    }
    Ok(Manifold {
        status: PenetrationStatus::Penetrating,
        normal,
        points,
    })
}

/// The penetration answer the record's own normal stands for, in A's local frame: its normal and deepest depth,
/// with the CPU's EPA contact pair `epa` (the pair the clipping adds where no clipped point is as deep), so that a
/// record's deepest point (SAT's pair on the GPU) is held to EPA's.
fn own_penetration(pose_a: &DPose, gpu: &Manifold, epa: &WorldPenetration) -> WorldPenetration {
    WorldPenetration {
        status: PenetrationStatus::Penetrating,
        depth: gpu.points.iter().map(|p| p.depth).fold(f64::MIN, f64::max),
        normal: pose_a.rotation.inverse() * gpu.normal,
        contact_a: epa.contact_a,
        contact_b: epa.contact_b,
        depth_upper: None,
    }
}

/// Why `gpu`'s points are off the surfaces or its deepest depth is not the CPU's EPA depth `epa_depth`, if so.
fn invariants(
    input: &PairInput,
    gpu: &Manifold,
    epa_depth: f64,
    scale: f64,
    slack: f64,
) -> Option<String> {
    let tolerance = GjkConfig::default().touch_tolerance;
    let off = |shape: &ConvexShape, pose: &DPose, p: DVec3| {
        let local = pose.rotation.inverse() * (p - pose.position);
        (surface_distance(shape, local) - slack).max(0.0) / scale
    };
    for p in &gpu.points {
        let error =
            off(input.a, &input.pose_a, p.point_a).max(off(input.b, &input.pose_b, p.point_b));
        if error.is_nan() || error > tolerance + POINT_BAND {
            return Some(format!(
                "point {:?} is {error:.3e} of the scale off its surface",
                p.id
            ));
        }
    }
    let deepest = gpu.points.iter().map(|p| p.depth).fold(f64::MIN, f64::max);
    let error = (deepest - epa_depth).abs() / scale;
    if error.is_nan() || error > POINT_BAND {
        return Some(format!(
            "deepest depth {deepest:.6e} against the CPU's EPA depth {epa_depth:.6e}: {error:.3e} of the scale"
        ));
    }
    None
}
