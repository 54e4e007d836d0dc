//! Seeded bodies in a box: each body uses one of the scene's hulls at a random size and orientation, moves
//! with a constant velocity, spins, and bounces off the walls.

use crate::batch::Instance;
use crate::pose::Pose;
use crate::scenario::{random_rotation, random_unit};
use crate::shape::ConvexShape;
use glam::{Quat, Vec3};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// How to build a scene.
#[derive(Clone, Debug, PartialEq)]
pub struct StressSpec {
    pub seed: u64,
    pub bodies: usize,
    /// Average number of other bodies whose bounding spheres overlap one body's: sets the box size, so the
    /// candidate pair count grows with the body count instead of the density falling.
    pub density: f32,
    /// Range of body sizes (bounding radius), drawn uniformly.
    pub size: (f32, f32),
    /// Largest body speed, in box widths per second.
    pub speed: f32,
}

impl Default for StressSpec {
    fn default() -> Self {
        Self {
            seed: 1,
            bodies: 2000,
            density: 1.5,
            size: (0.3, 1.0),
            speed: 0.08,
        }
    }
}

/// One moving body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Body {
    /// Index into [`StressScene::shapes`].
    pub shape: u32,
    pub pose: Pose,
    pub velocity: Vec3,
    /// Angular velocity (axis times radians per second).
    pub spin: Vec3,
}

/// Bodies in the box `[-half_extent, half_extent]^3`.
#[derive(Clone, Debug)]
pub struct StressScene {
    /// Shapes at their drawn sizes, one per body slot (bodies own their scaled copy, so sizes vary freely).
    pub shapes: Vec<ConvexShape>,
    /// Which template (for instance which OBJ mesh) each shape was scaled from.
    pub templates: Vec<usize>,
    pub bodies: Vec<Body>,
    pub half_extent: f32,
    spec: StressSpec,
    rng: Pcg64Mcg,
    template_shapes: Vec<ConvexShape>,
}

/// The box half extent that gives about `density` neighbours per body for bodies of mean radius `r`.
fn half_extent_for(spec: &StressSpec, count: usize) -> f32 {
    let r = 0.5 * (spec.size.0 + spec.size.1);
    // Neighbours ~ count * (volume of a sphere of radius 2r) / box volume.
    let neighbour_volume = 4.0 / 3.0 * std::f32::consts::PI * (2.0 * r).powi(3);
    let volume = count.max(1) as f32 * neighbour_volume / spec.density.max(1e-3);
    0.5 * volume.cbrt()
}

fn scaled(template: &ConvexShape, size: f32) -> ConvexShape {
    let k = size / template.bounding_radius().max(f32::MIN_POSITIVE);
    let points = template.points().iter().map(|p| *p * k).collect();
    ConvexShape::new(points, template.radius() * k).expect("scaling a valid shape keeps it valid")
}

impl StressScene {
    /// Builds the scene from template shapes (for instance the OBJ assets), which must not be empty.
    pub fn new(templates: Vec<ConvexShape>, spec: StressSpec) -> Self {
        assert!(
            !templates.is_empty(),
            "a stress scene needs at least one template shape"
        );
        let mut scene = Self {
            shapes: Vec::new(),
            templates: Vec::new(),
            bodies: Vec::new(),
            half_extent: half_extent_for(&spec, spec.bodies),
            rng: Pcg64Mcg::seed_from_u64(spec.seed),
            template_shapes: templates,
            spec,
        };
        let count = scene.spec.bodies;
        scene.set_body_count(count);
        scene
    }

    pub fn spec(&self) -> &StressSpec {
        &self.spec
    }

    /// Adds or removes bodies (the newest go first) and resizes the box to keep the density.
    pub fn set_body_count(&mut self, count: usize) {
        self.spec.bodies = count;
        self.half_extent = half_extent_for(&self.spec, count);
        self.bodies.truncate(count);
        self.shapes.truncate(count);
        self.templates.truncate(count);
        while self.bodies.len() < count {
            self.add_body();
        }
        // A smaller box may leave bodies outside: bring them back in.
        let h = self.half_extent;
        for body in &mut self.bodies {
            body.pose.position = body.pose.position.clamp(Vec3::splat(-h), Vec3::splat(h));
        }
    }

    fn add_body(&mut self) {
        let rng = &mut self.rng;
        let template = rng.random_range(0..self.template_shapes.len());
        let size = rng.random_range(self.spec.size.0..=self.spec.size.1);
        let h = self.half_extent;
        let position = Vec3::new(
            rng.random_range(-h..h),
            rng.random_range(-h..h),
            rng.random_range(-h..h),
        );
        let velocity = random_unit(rng) * rng.random_range(0.0..=self.spec.speed) * 2.0 * h;
        let spin = random_unit(rng) * rng.random_range(0.0..2.0);
        self.shapes
            .push(scaled(&self.template_shapes[template], size));
        self.templates.push(template);
        self.bodies.push(Body {
            shape: self.bodies.len() as u32,
            pose: Pose::new(position, random_rotation(rng)),
            velocity,
            spin,
        });
    }

    /// Advances every body by `dt` seconds: constant velocity and spin, mirror bounces off the walls.
    pub fn step(&mut self, dt: f32) {
        let h = self.half_extent;
        for body in &mut self.bodies {
            let mut p = body.pose.position + body.velocity * dt;
            for axis in 0..3 {
                if p[axis] > h {
                    p[axis] = 2.0 * h - p[axis];
                    body.velocity[axis] = -body.velocity[axis].abs();
                } else if p[axis] < -h {
                    p[axis] = -2.0 * h - p[axis];
                    body.velocity[axis] = body.velocity[axis].abs();
                }
            }
            body.pose.position = p.clamp(Vec3::splat(-h), Vec3::splat(h));
            let angle = body.spin.length() * dt;
            if angle > 0.0 {
                let turn = Quat::from_axis_angle(body.spin / body.spin.length(), angle);
                body.pose.rotation = (turn * body.pose.rotation).normalize();
            }
        }
    }

    /// The bodies as narrow-phase instances (instance i is body i, using shape i).
    pub fn instances(&self) -> Vec<Instance> {
        self.bodies
            .iter()
            .map(|b| Instance {
                shape: b.shape,
                pose: b.pose,
            })
            .collect()
    }
}
