//! Seeded bodies in a box: each body uses one of the scene's hulls at a random size and orientation, moves
//! with a constant velocity, spins, and bounces off the walls.
//!
//! **Shared sizes.** A body's size is drawn from [`SIZE_LEVELS`] evenly spaced values, so bodies of one template
//! and size share their shape bit for bit: the GPU packs identical shapes once, and the scene's hulls number at
//! most [`SIZE_LEVELS`] per template (plus the player's) at any body count. Drawn from a continuous range, every
//! body had a hull of its own; at 100,000 bodies of the demo's meshes those did not fit one storage binding of
//! llvmpipe, and every frame sent them up again with its batches (374 MB a frame).

use super::{random_rotation, random_unit};
use crate::instance::Instance;
use crate::pose::{Pose, COORDINATE_LIMIT};
use crate::shape::ConvexShape;
use glam::{Quat, Vec3};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::collections::HashMap;

/// How many evenly spaced body sizes a scene draws from, from the smallest to the largest (see the module's
/// text): fine enough that the sizes look continuous, few enough that the hulls stay small at any body count.
pub const SIZE_LEVELS: u32 = 64;

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
    /// The factor each shape was scaled by from its template (the renderer scales the template's mesh).
    pub scales: Vec<f32>,
    pub bodies: Vec<Body>,
    pub half_extent: f32,
    spec: StressSpec,
    rng: Pcg64Mcg,
    template_shapes: Vec<ConvexShape>,
    /// Each template scaled to each size level used so far, and the factor: bodies of one template and size
    /// share these bits (and skip building the shape again).
    scaled_shapes: HashMap<(usize, u32), (ConvexShape, f32)>,
    player: bool,
}

/// The box half extent that gives about `density` neighbours per body for bodies of mean radius `r`.
fn half_extent_for(spec: &StressSpec, count: usize) -> f32 {
    let r = 0.5 * (spec.size.0 + spec.size.1);
    // Neighbours ~ count * (volume of a sphere of radius 2r) / box volume.
    let neighbour_volume = 4.0 / 3.0 * std::f32::consts::PI * (2.0 * r).powi(3);
    let volume = count.max(1) as f32 * neighbour_volume / spec.density.max(1e-3);
    0.5 * volume.cbrt()
}

/// Why a scene cannot be built from its templates.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SceneError {
    #[error("a stress scene needs at least one template shape")]
    NoTemplates,
    #[error("template {index}: {reason}")]
    Template { index: usize, reason: String },
}

/// The template's bounding radius about its centre, in float64: in float32 the squared length of a
/// tetrahedron with 1e-23 edges underflows to 0, and the scale factor would then be absurd.
fn bounding_radius_f64(template: &ConvexShape) -> f64 {
    let core = template
        .core_points()
        .iter()
        .map(|p| p.as_dvec3().length())
        .fold(0.0, f64::max);
    core + f64::from(template.radius())
}

/// The factor that scales `template` (about its local origin, as the renderer scales its mesh) to bounding
/// radius `size`.
fn scale_factor(template: &ConvexShape, size: f32) -> f64 {
    f64::from(size) / bounding_radius_f64(template)
}

/// Why a template of no size has none: its points, held in float32, are one point and its radius is 0. Far
/// from the origin that is often float32's doing (a cube from 999999999 to 1e9 is one point there, float32's
/// spacing at 1e9 being 64), so the message says where the point is and what float32's spacing there is.
fn no_size(template: &ConvexShape) -> String {
    let at = template.centre();
    let largest = at.abs().max_element();
    let mut message = format!(
        "it has no size: its points coincide in float32, at [{}, {}, {}], and its radius is 0",
        at.x, at.y, at.z
    );
    if largest > 0.0 {
        let spacing = f32::from_bits(largest.to_bits() + 1) - largest;
        message += &format!(
            " (float32's spacing there is {spacing:e}: points written nearer each other than that become \
             one); move the mesh nearer the origin or scale it up"
        );
    }
    message
}

/// Checks that `template` can be scaled to every body size of `spec`: it has a size, and its points,
/// scaled about its local origin, stay within the coordinate limit (a tiny mesh far from its origin
/// would not).
pub fn check_template(template: &ConvexShape, spec: &StressSpec) -> Result<(), String> {
    let radius = bounding_radius_f64(template);
    if radius <= 0.0 {
        return Err(no_size(template));
    }
    // The largest size gives the largest coordinates; the smallest the smallest factor.
    let largest = scale_factor(template, spec.size.1);
    let smallest = scale_factor(template, spec.size.0);
    let reach = template
        .local_points()
        .map(|p| p.as_dvec3().abs().max_element())
        .fold(0.0, f64::max)
        * largest;
    let sizes = format!("bodies of size {} to {}", spec.size.0, spec.size.1);
    // The renderer scales the template's mesh by the factor in float32.
    if !(largest as f32).is_finite() || (smallest as f32) <= 0.0 {
        return Err(format!(
            "bounding radius {radius:e} cannot be scaled to {sizes}: the scale factors {smallest:e} to \
             {largest:e} are beyond float32"
        ));
    }
    if reach > COORDINATE_LIMIT {
        return Err(format!(
            "bounding radius {radius:e} at {:e} from its origin cannot be scaled to {sizes}: the scale factor \
             {largest:e} would put points at {reach:e}, beyond the coordinate limit {COORDINATE_LIMIT:e}",
            template.centre().length(),
        ));
    }
    Ok(())
}

/// The template scaled to bounding radius `size`, and the factor used. [`check_template`] has made sure
/// the result is valid for every size of the scene.
fn scaled(template: &ConvexShape, size: f32) -> (ConvexShape, f32) {
    let k = scale_factor(template, size);
    let points = template
        .local_points()
        .map(|p| (p.as_dvec3() * k).as_vec3())
        .collect();
    let shape = ConvexShape::new(points, (f64::from(template.radius()) * k) as f32)
        .expect("StressScene::new checked that the template scales to every body size");
    (shape, k as f32)
}

/// The size level nearest `size` within the spec's range (0 for the smallest, `SIZE_LEVELS - 1` for the largest).
fn size_level(spec: &StressSpec, size: f32) -> u32 {
    let (low, high) = spec.size;
    if high <= low {
        return 0;
    }
    let t = ((size - low) / (high - low)).clamp(0.0, 1.0);
    (t * (SIZE_LEVELS - 1) as f32).round() as u32
}

/// The body size of level `level` ([`size_level`]): the range's ends exactly at the first and last levels.
fn level_size(spec: &StressSpec, level: u32) -> f32 {
    let (low, high) = spec.size;
    if level + 1 >= SIZE_LEVELS {
        return high;
    }
    low + (high - low) * level as f32 / (SIZE_LEVELS - 1) as f32
}

impl StressScene {
    /// Builds the scene from template shapes (for instance the OBJ assets): at least one, each of which
    /// must scale to the body sizes ([`check_template`]).
    pub fn new(templates: Vec<ConvexShape>, spec: StressSpec) -> Result<Self, SceneError> {
        if templates.is_empty() {
            return Err(SceneError::NoTemplates);
        }
        for (index, template) in templates.iter().enumerate() {
            check_template(template, &spec)
                .map_err(|reason| SceneError::Template { index, reason })?;
        }
        let mut scene = Self {
            shapes: Vec::new(),
            templates: Vec::new(),
            scales: Vec::new(),
            bodies: Vec::new(),
            half_extent: half_extent_for(&spec, spec.bodies),
            rng: Pcg64Mcg::seed_from_u64(spec.seed),
            template_shapes: templates,
            scaled_shapes: HashMap::new(),
            spec,
            player: false,
        };
        let count = scene.spec.bodies;
        scene.set_body_count(count);
        Ok(scene)
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
        self.scales.truncate(count);
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
        let drawn = rng.random_range(self.spec.size.0..=self.spec.size.1);
        let h = self.half_extent;
        let position = Vec3::new(
            rng.random_range(-h..h),
            rng.random_range(-h..h),
            rng.random_range(-h..h),
        );
        let velocity = random_unit(rng) * rng.random_range(0.0..=self.spec.speed) * 2.0 * h;
        let spin = random_unit(rng) * rng.random_range(0.0..2.0);
        let pose = Pose::new(position, random_rotation(rng));
        let level = size_level(&self.spec, drawn);
        let (shape, scale) = self.scaled_shape(template, level);
        self.shapes.push(shape);
        self.scales.push(scale);
        self.templates.push(template);
        self.bodies.push(Body {
            shape: self.bodies.len() as u32,
            pose,
            velocity,
            spin,
        });
    }

    /// Template `template` scaled to size level `level`, built once per scene and cloned after.
    fn scaled_shape(&mut self, template: usize, level: u32) -> (ConvexShape, f32) {
        let (templates, spec) = (&self.template_shapes, &self.spec);
        self.scaled_shapes
            .entry((template, level))
            .or_insert_with(|| scaled(&templates[template], level_size(spec, level)))
            .clone()
    }

    /// Number of template shapes.
    pub fn template_count(&self) -> usize {
        self.template_shapes.len()
    }

    /// Turns body 0 into the player's shape: at the centre of the box, still, at the largest body size, made
    /// from `template`. The player moves only through [`StressScene::move_player`].
    pub fn make_player(&mut self, template: usize) {
        if self.bodies.is_empty() {
            return;
        }
        self.player = true;
        let body = &mut self.bodies[0];
        body.velocity = Vec3::ZERO;
        body.spin = Vec3::ZERO;
        body.pose = Pose::new(Vec3::ZERO, Quat::IDENTITY);
        self.set_player_template(template);
    }

    /// Whether body 0 is the player's shape.
    pub fn has_player(&self) -> bool {
        self.player
    }

    /// Clamps every body into the box (after a push), turning velocities that point out of it.
    pub fn keep_inside(&mut self) {
        let h = self.half_extent;
        for body in &mut self.bodies {
            for axis in 0..3 {
                if body.pose.position[axis].abs() > h {
                    body.pose.position[axis] = body.pose.position[axis].clamp(-h, h);
                    if body.velocity[axis] * body.pose.position[axis] > 0.0 {
                        body.velocity[axis] = -body.velocity[axis];
                    }
                }
            }
        }
    }

    /// Switches the player's shape (body 0) to another template, keeping its place.
    pub fn set_player_template(&mut self, template: usize) {
        if self.bodies.is_empty() || template >= self.template_shapes.len() {
            return;
        }
        let (shape, scale) = self.scaled_shape(template, SIZE_LEVELS - 1);
        self.shapes[0] = shape;
        self.scales[0] = scale;
        self.templates[0] = template;
    }

    /// Moves the player's shape (body 0), kept inside the box.
    pub fn move_player(&mut self, delta: Vec3) {
        let h = self.half_extent;
        if let Some(player) = self.bodies.first_mut() {
            player.pose.position =
                (player.pose.position + delta).clamp(Vec3::splat(-h), Vec3::splat(h));
        }
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

/// The demo's meshes, in `assets/`: the stress scene's default templates.
pub const ASSET_NAMES: [&str; 7] = [
    "cube",
    "sphere",
    "cone",
    "cylinder",
    "capsule",
    "icosahedron",
    "prism",
];

/// The shipped assets' folder: `assets` under the working directory when it holds them, else the crate's.
pub fn asset_dir() -> std::path::PathBuf {
    let local = std::path::PathBuf::from("assets");
    if local.join("cube.obj").is_file() {
        return local;
    }
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets")
}

/// The convex hulls of the shipped assets, in [`ASSET_NAMES`] order: the stress scene's templates.
pub fn asset_shapes() -> Result<Vec<ConvexShape>, crate::error::GjkError> {
    let dir = asset_dir();
    ASSET_NAMES
        .iter()
        .map(|name| ConvexShape::from_obj(dir.join(format!("{name}.obj")), 0.0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tetrahedron(edge: f32) -> ConvexShape {
        let points = vec![Vec3::ZERO, Vec3::X * edge, Vec3::Y * edge, Vec3::Z * edge];
        ConvexShape::new(points, 0.0).expect("a valid tetrahedron")
    }

    #[test]
    fn tiny_templates_scale_to_the_body_sizes_asked_for() {
        // 1e-23 edges panicked in `scaled` (PointOutOfRange); at 1e-30 the float32 radius underflowed and
        // bodies came out about 1e8 units wide. 1e-40 is a subnormal float32.
        let spec = StressSpec {
            bodies: 50,
            ..StressSpec::default()
        };
        for edge in [1e-23f32, 1e-30, 1e-36] {
            let scene = StressScene::new(vec![tetrahedron(edge)], spec.clone())
                .unwrap_or_else(|e| panic!("edge {edge:e}: {e}"));
            assert_eq!(scene.shapes.len(), 50);
            for shape in &scene.shapes {
                let radius = bounding_radius_f64(shape);
                assert!(
                    radius >= f64::from(spec.size.0) * (1.0 - 1e-4)
                        && radius <= f64::from(spec.size.1) * (1.0 + 1e-4),
                    "edge {edge:e}: a body of bounding radius {radius:e}, sizes {:?}",
                    spec.size
                );
            }
        }
    }

    #[test]
    fn bodies_share_their_shapes_whatever_the_body_count() {
        // Drawn from a continuous range, each body had a shape of its own, and the GPU one hull per body.
        let templates = vec![tetrahedron(1.0), tetrahedron(3.0)];
        let spec = StressSpec {
            bodies: 20_000,
            ..StressSpec::default()
        };
        let mut scene = StressScene::new(templates, spec.clone()).unwrap();
        scene.make_player(1);
        let mut distinct: Vec<(usize, u32)> = Vec::new();
        for (k, shape) in scene.shapes.iter().enumerate() {
            let key = (scene.templates[k], scene.scales[k].to_bits());
            match distinct.iter().position(|&d| d == key) {
                Some(_) => {
                    let first = (0..k)
                        .find(|&j| (scene.templates[j], scene.scales[j].to_bits()) == key)
                        .unwrap();
                    let same = scene.shapes[first].local_points().eq(shape.local_points());
                    assert!(same, "bodies {first} and {k} have one size but two shapes");
                }
                None => distinct.push(key),
            }
        }
        assert!(
            distinct.len() <= 2 * SIZE_LEVELS as usize,
            "{} shapes",
            distinct.len()
        );
        assert!(
            distinct.len() > SIZE_LEVELS as usize,
            "{} shapes",
            distinct.len()
        );
        // Both ends of the range are sizes the bodies take, the player's the largest.
        let sizes: Vec<f64> = scene.shapes.iter().map(bounding_radius_f64).collect();
        let (low, high) = (f64::from(spec.size.0), f64::from(spec.size.1));
        assert!(sizes
            .iter()
            .all(|&s| s >= low * (1.0 - 1e-6) && s <= high * (1.0 + 1e-6)));
        assert!(sizes.iter().any(|&s| (s - low).abs() < 1e-6 * low));
        assert!((sizes[0] - high).abs() < 1e-6 * high, "{}", sizes[0]);
    }

    #[test]
    fn templates_that_cannot_be_scaled_are_errors_that_say_why() {
        // A factor of about 1e40 has no float32, which the renderer scales the mesh with.
        let error = StressScene::new(vec![tetrahedron(1e-40)], StressSpec::default())
            .expect_err("1e-40 edges need a factor beyond float32");
        assert!(
            error
                .to_string()
                .starts_with("template 0: bounding radius 8.66")
                && error.to_string().ends_with("are beyond float32"),
            "{error}"
        );
        // A small mesh far from its origin, scaled to big bodies, would pass the coordinate limit.
        let far: Vec<Vec3> = tetrahedron(0.1)
            .local_points()
            .map(|p| p + Vec3::splat(1e5))
            .collect();
        let far = ConvexShape::new(far, 0.0).expect("a valid tetrahedron");
        let big = StressSpec {
            size: (1.0, 1000.0),
            ..StressSpec::default()
        };
        let error = StressScene::new(vec![far], big).expect_err("too far");
        assert!(
            error
                .to_string()
                .contains("beyond the coordinate limit 1e9"),
            "{error}"
        );
    }

    #[test]
    fn a_template_without_size_is_an_error_naming_it() {
        let point = ConvexShape::new(vec![Vec3::ONE], 0.0).expect("a point is a valid shape");
        let error = StressScene::new(vec![tetrahedron(1.0), point], StressSpec::default())
            .expect_err("a point cannot be scaled");
        assert_eq!(
            error.to_string(),
            "template 1: it has no size: its points coincide in float32, at [1, 1, 1], and its radius is 0 \
             (float32's spacing there is 1.1920929e-7: points written nearer each other than that become one); \
             move the mesh nearer the origin or scale it up"
        );
        // A cube from 999999999 to 1e9 (as an OBJ file writes it) is one point in float32.
        let corners: Vec<Vec3> = (0..8)
            .map(|k| {
                // Written apart (in float64), one number in float32.
                let at = |bit: u32| [999_999_999.0_f64, 1e9][(k >> bit) & 1] as f32;
                Vec3::new(at(0), at(1), at(2))
            })
            .collect();
        let far = ConvexShape::new(corners, 0.0).expect("one point is a valid shape");
        let error = StressScene::new(vec![far], StressSpec::default()).expect_err("no size");
        assert!(
            error.to_string().starts_with(
                "template 0: it has no size: its points coincide in float32, at [1000000000, 1000000000, \
                 1000000000], and its radius is 0 (float32's spacing there is 6.4e1"
            ),
            "{error}"
        );
    }
}
