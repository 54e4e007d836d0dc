//! Sequential impulses over a step's contacts (Box2D-lite's solver in 3D): for each point, friction along two
//! tangents clamped to the Coulomb cone (the tangent impulse's length at most mu times the normal impulse),
//! then the normal impulse, each clamped as an accumulated total (the normal one never pulls), iterated a fixed number of
//! times. The normal's target speed carries restitution (above a threshold speed); a gap lets the bodies
//! approach by the gap in one step. The overlap beyond the slop is removed by split impulses: a second pass of
//! normal impulses on pseudo-velocities that move the bodies this step and are then forgotten, so the position
//! correction (Baumgarte's fraction of the overlap per step) adds no kinetic energy (a stack corrected through
//! its real velocities gains energy and walks).

use super::body::RigidBody;
use super::contact::{Contact, ContactKey, Partner};
use glam::{Mat3, Vec3};

/// The solver's knobs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolverSettings {
    /// Passes over every contact point per step.
    pub iterations: usize,
    /// Jacobi iterations per step of the GPU solver ([`crate::gpu::physics::GpuSolver`]), for the velocities
    /// and again for the position correction. Jacobi converges more slowly than the Gauss-Seidel passes of
    /// `iterations`: 40 stand a stack of ten boxes, 10 let it sway over.
    pub jacobi_iterations: usize,
    /// Fraction of the overlap beyond `slop` removed per step (Baumgarte's factor, through split impulses).
    pub baumgarte: f32,
    /// Overlap left alone, so resting contacts stay touching and keep their warm start.
    pub slop: f32,
    /// Coefficient of restitution (0: no bounce, 1: elastic).
    pub restitution: f32,
    /// Approach speeds below this do not bounce, so resting bodies do not jitter.
    pub restitution_threshold: f32,
    /// Coulomb friction coefficient.
    pub friction: f32,
    /// Start each point from its impulses of the last step when the same features touch.
    pub warm_start: bool,
    /// A body slower than this (metres per second at its centre, and radians per second) for `sleep_time`
    /// falls asleep; 0 turns sleeping off.
    pub sleep_speed: f32,
    pub sleep_time: f32,
}

impl Default for SolverSettings {
    fn default() -> Self {
        Self {
            iterations: 10,
            jacobi_iterations: 40,
            baumgarte: 0.2,
            slop: 0.005,
            restitution: 0.0,
            restitution_threshold: 1.0,
            friction: 0.6,
            warm_start: true,
            sleep_speed: 0.05,
            sleep_time: 0.5,
        }
    }
}

/// A body's velocities and inverse mass while the solver runs.
#[derive(Clone, Copy, Debug)]
pub(super) struct Motion {
    pub velocity: Vec3,
    pub angular: Vec3,
    pub inverse_mass: f32,
    pub inverse_inertia: Mat3,
}

impl Motion {
    /// A static plane's: never moves.
    const STATIC: Motion = Motion {
        velocity: Vec3::ZERO,
        angular: Vec3::ZERO,
        inverse_mass: 0.0,
        inverse_inertia: Mat3::ZERO,
    };

    /// A body's; a sleeping body's as a static one's.
    pub fn of(body: &RigidBody) -> Self {
        if !body.moves() {
            return Self::STATIC;
        }
        Self {
            velocity: body.velocity,
            angular: body.angular,
            inverse_mass: body.inverse_mass,
            inverse_inertia: body.inverse_inertia(),
        }
    }

    fn apply(&mut self, impulse: Vec3, r: Vec3) {
        self.velocity += impulse * self.inverse_mass;
        self.angular += self.inverse_inertia * r.cross(impulse);
    }

    /// Inverse effective mass of an impulse along `direction` at offset `r`.
    fn inverse_mass_along(&self, r: Vec3, direction: Vec3) -> f32 {
        let rn = r.cross(direction);
        self.inverse_mass + rn.dot(self.inverse_inertia * rn)
    }
}

/// Two unit tangents across `normal`, the same for the same normal (so warm-started friction keeps its
/// directions while the normal holds still).
pub fn tangents(normal: Vec3) -> [Vec3; 2] {
    let (t1, t2) = normal.any_orthonormal_pair();
    [t1, t2]
}

/// Runs `f` on the motions of A and B of the contact `key` (B a static stand-in for a plane).
fn with_pair<T>(
    motions: &mut [Motion],
    key: ContactKey,
    f: impl FnOnce(&mut Motion, &mut Motion) -> T,
) -> T {
    let a = key.a as usize;
    match key.b {
        Partner::Body(b) if a < b as usize => {
            let (low, high) = motions.split_at_mut(b as usize);
            f(&mut low[a], &mut high[0])
        }
        Partner::Body(b) => {
            let (low, high) = motions.split_at_mut(a);
            f(&mut high[0], &mut low[b as usize])
        }
        Partner::Plane(_) => {
            let mut fixed = Motion::STATIC;
            f(&mut motions[a], &mut fixed)
        }
    }
}

/// Offsets, effective masses and target speeds of every point, from the bodies' poses and velocities at the
/// start of the step.
pub(super) fn prepare(
    contacts: &mut [Contact],
    bodies: &[RigidBody],
    motions: &[Motion],
    settings: &SolverSettings,
    dt: f32,
) {
    for contact in contacts {
        let a = contact.key.a as usize;
        let (centre_b, motion_b) = match contact.key.b {
            Partner::Body(j) => (bodies[j as usize].world_centre(), motions[j as usize]),
            Partner::Plane(_) => (Vec3::ZERO, Motion::STATIC),
        };
        let (centre_a, motion_a) = (bodies[a].world_centre(), motions[a]);
        let normal = contact.normal;
        let tangent = tangents(normal);
        for point in &mut contact.points {
            point.r_a = point.position - centre_a;
            point.r_b = match contact.key.b {
                Partner::Body(_) => point.position - centre_b,
                Partner::Plane(_) => Vec3::ZERO,
            };
            let k = |d: Vec3| {
                motion_a.inverse_mass_along(point.r_a, d)
                    + motion_b.inverse_mass_along(point.r_b, d)
            };
            point.normal_mass = inverse_or_zero(k(normal));
            point.tangent_mass = tangent.map(|t| inverse_or_zero(k(t)));
            let relative = motion_b.velocity + motion_b.angular.cross(point.r_b)
                - motion_a.velocity
                - motion_a.angular.cross(point.r_a);
            // The speed at which B leaves A along the normal: positive apart.
            let approach = -relative.dot(normal);
            let bounce = if approach > settings.restitution_threshold {
                settings.restitution * approach
            } else {
                0.0
            };
            // A gap: B may approach by the gap within the step.
            let gap = (point.depth / dt).min(0.0);
            point.target_speed = bounce.max(gap);
            point.push_speed = settings.baumgarte / dt * (point.depth - settings.slop).max(0.0);
            point.push_impulse = 0.0;
            if !settings.warm_start {
                point.normal_impulse = 0.0;
                point.tangent_impulse = [0.0; 2];
            }
        }
    }
}

fn inverse_or_zero(k: f32) -> f32 {
    if k > 0.0 {
        1.0 / k
    } else {
        0.0
    }
}

/// Applies every point's carried impulses (warm starting).
pub(super) fn warm_start(contacts: &[Contact], motions: &mut [Motion]) {
    for contact in contacts {
        let tangent = tangents(contact.normal);
        with_pair(motions, contact.key, |a, b| {
            for point in &contact.points {
                let impulse = contact.normal * point.normal_impulse
                    + tangent[0] * point.tangent_impulse[0]
                    + tangent[1] * point.tangent_impulse[1];
                a.apply(-impulse, point.r_a);
                b.apply(impulse, point.r_b);
            }
        });
    }
}

/// One pass of sequential impulses over every point.
pub(super) fn iterate(contacts: &mut [Contact], motions: &mut [Motion], friction: f32) {
    for contact in contacts {
        let normal = contact.normal;
        let tangent = tangents(normal);
        let points = &mut contact.points;
        with_pair(motions, contact.key, |a, b| {
            for point in points.iter_mut() {
                let relative = |a: &Motion, b: &Motion| {
                    b.velocity + b.angular.cross(point.r_b)
                        - a.velocity
                        - a.angular.cross(point.r_a)
                };
                // Friction first: both tangents' impulses together, kept inside the Coulomb cone (a disc of
                // radius mu times the normal impulse of the last pass).
                let bound = friction * point.normal_impulse;
                let speed = relative(a, b);
                let old = point.tangent_impulse;
                let mut new =
                    [0, 1].map(|k| old[k] - speed.dot(tangent[k]) * point.tangent_mass[k]);
                let length = (new[0] * new[0] + new[1] * new[1]).sqrt();
                if length > bound {
                    let scale = if length > 0.0 { bound / length } else { 0.0 };
                    new = new.map(|t| t * scale);
                }
                point.tangent_impulse = new;
                let impulse = tangent[0] * (new[0] - old[0]) + tangent[1] * (new[1] - old[1]);
                a.apply(-impulse, point.r_a);
                b.apply(impulse, point.r_b);
                let speed = relative(a, b).dot(normal);
                let old = point.normal_impulse;
                let new = (old + (point.target_speed - speed) * point.normal_mass).max(0.0);
                point.normal_impulse = new;
                let impulse = normal * (new - old);
                a.apply(-impulse, point.r_a);
                b.apply(impulse, point.r_b);
            }
        });
    }
}

/// One pass of the position correction over every point: normal impulses on the pseudo-velocities `push`
/// towards each point's push speed, accumulated and never pulling.
pub(super) fn iterate_push(contacts: &mut [Contact], push: &mut [Motion]) {
    for contact in contacts {
        let normal = contact.normal;
        let points = &mut contact.points;
        with_pair(push, contact.key, |a, b| {
            for point in points.iter_mut() {
                let speed = (b.velocity + b.angular.cross(point.r_b)
                    - a.velocity
                    - a.angular.cross(point.r_a))
                .dot(normal);
                let old = point.push_impulse;
                let new = (old + (point.push_speed - speed) * point.normal_mass).max(0.0);
                point.push_impulse = new;
                let impulse = normal * (new - old);
                a.apply(-impulse, point.r_a);
                b.apply(impulse, point.r_b);
            }
        });
    }
}
