//! A rigid body: the shape it moves, its mass and inertia, its pose and its velocities.

use crate::instance::Instance;
use crate::pose::Pose;
use crate::shape::ConvexShape;
use glam::{Mat3, Quat, Vec3};

/// One body of a [`super::World`]. A body of inverse mass 0 does not move (a static obstacle).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidBody {
    /// Index into the world's shapes.
    pub shape: u32,
    /// The pose of the shape's local frame (what the queries and the renderer take).
    pub pose: Pose,
    /// The centre of mass in the shape's local frame.
    pub centre: Vec3,
    /// Velocity of the centre of mass.
    pub velocity: Vec3,
    /// Angular velocity, world frame (axis times radians per second).
    pub angular: Vec3,
    pub mass: f32,
    pub inverse_mass: f32,
    /// Inverse inertia tensor about the centre of mass, in the shape's local frame.
    pub inverse_inertia_local: Mat3,
    /// A sleeping body holds still and counts as static until a moving body touches it.
    pub asleep: bool,
    /// How long the body has moved slower than the sleep speed, in seconds.
    pub calm_for: f32,
}

impl RigidBody {
    /// A body of `shape` (index `shape_index`) at `pose`, of uniform `density`, at rest.
    ///
    /// The mass and inertia are those of the solid box of the shape's local bounds (radius included), centred
    /// on the bounds: exact for a box, and for other shapes an approximation that keeps the ratios a stable
    /// solver needs (a sphere of radius r gets 2/3 m r^2 instead of 2/5 m r^2, and 1.9 times its mass). Exact
    /// volume integrals would change the motion of non-box shapes, not its stability.
    pub fn new(shape_index: u32, shape: &ConvexShape, pose: Pose, density: f32) -> Self {
        let (lo, hi) = shape.local_aabb();
        let half = ((hi - lo) * 0.5).max(Vec3::splat(1e-6));
        let mass = density * 8.0 * half.x * half.y * half.z;
        let squared = half * half;
        let inertia = Vec3::new(
            squared.y + squared.z,
            squared.x + squared.z,
            squared.x + squared.y,
        ) * (mass / 3.0);
        Self {
            shape: shape_index,
            pose,
            centre: (lo + hi) * 0.5,
            velocity: Vec3::ZERO,
            angular: Vec3::ZERO,
            mass,
            inverse_mass: 1.0 / mass,
            inverse_inertia_local: Mat3::from_diagonal(inertia.recip()),
            asleep: false,
            calm_for: 0.0,
        }
    }

    /// The same body made static: infinite mass and inertia, no velocity.
    pub fn fixed(mut self) -> Self {
        self.inverse_mass = 0.0;
        self.inverse_inertia_local = Mat3::ZERO;
        self.velocity = Vec3::ZERO;
        self.angular = Vec3::ZERO;
        self
    }

    /// Whether the solver moves this body this step: it has mass and is awake.
    pub fn moves(&self) -> bool {
        self.inverse_mass > 0.0 && !self.asleep
    }

    /// The body as a placed shape: its shape index and pose (what the broad phase boxes and the queries take).
    pub fn instance(&self) -> Instance {
        Instance {
            shape: self.shape,
            pose: self.pose,
        }
    }

    /// The centre of mass in the world.
    pub fn world_centre(&self) -> Vec3 {
        self.pose.transform_point(self.centre)
    }

    /// The inverse inertia tensor in world axes: `R I^-1 R^T`.
    pub fn inverse_inertia(&self) -> Mat3 {
        let rotation = Mat3::from_quat(self.pose.rotation);
        rotation * self.inverse_inertia_local * rotation.transpose()
    }

    /// The inertia tensor in world axes (zero for a static body).
    pub fn inertia(&self) -> Mat3 {
        if self.inverse_mass == 0.0 {
            return Mat3::ZERO;
        }
        let rotation = Mat3::from_quat(self.pose.rotation);
        rotation * self.inverse_inertia_local.inverse() * rotation.transpose()
    }

    /// Velocity of the body's material point at world offset `r` from its centre of mass.
    pub fn point_velocity(&self, r: Vec3) -> Vec3 {
        self.velocity + self.angular.cross(r)
    }

    /// Translational plus rotational kinetic energy.
    pub fn kinetic_energy(&self) -> f32 {
        if self.inverse_mass == 0.0 {
            return 0.0;
        }
        0.5 * self.mass * self.velocity.length_squared()
            + 0.5 * self.angular.dot(self.inertia() * self.angular)
    }

    /// Moves the body by its velocities plus the position correction's pseudo-velocities `push` and
    /// `push_angular` over `dt` (the centre of mass along the velocity, the rotation about it), keeping the
    /// rotation a unit quaternion.
    pub fn integrate(&mut self, dt: f32, push: Vec3, push_angular: Vec3) {
        let centre = self.world_centre() + (self.velocity + push) * dt;
        let w = self.angular + push_angular;
        let spin = Quat::from_xyzw(w.x, w.y, w.z, 0.0);
        let rotation = self.pose.rotation + spin * self.pose.rotation * (0.5 * dt);
        self.pose.rotation = rotation.normalize();
        self.pose.position = centre - self.pose.rotation * self.centre;
    }
}
