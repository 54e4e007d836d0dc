//! Seeded random scenes of convex pairs, shared by the tests, the benchmarks and the command line so that
//! one seed reproduces one scene everywhere.

use crate::instance::Instance;
use crate::pose::Pose;
use crate::shape::ConvexShape;
use glam::{Quat, Vec3};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::f32::consts::TAU;

mod hostile;
pub mod mesh_gen;
mod scene;
pub mod stress;
pub use hostile::hostile_scene;
pub use scene::{Scene, ShapeKind};

/// How to draw a random scene.
#[derive(Clone, Debug)]
pub struct MixSpec {
    /// Shape kinds to draw from, uniformly.
    pub kinds: Vec<ShapeKind>,
    /// Number of distinct shapes in the scene's shape library.
    pub library_size: usize,
    /// Range of hull point counts (inclusive).
    pub hull_points: (usize, usize),
    /// Range of shape sizes, drawn log-uniformly.
    pub scale: (f32, f32),
}

impl Default for MixSpec {
    fn default() -> Self {
        Self {
            kinds: ShapeKind::ALL.to_vec(),
            library_size: 400,
            hull_points: (8, 512),
            scale: (1e-2, 1e3),
        }
    }
}

/// A uniformly distributed random rotation (Shoemake's method).
pub fn random_rotation(rng: &mut impl Rng) -> Quat {
    let (u1, u2, u3): (f32, f32, f32) = (rng.random(), rng.random(), rng.random());
    let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
    Quat::from_xyzw(
        a * (TAU * u2).sin(),
        a * (TAU * u2).cos(),
        b * (TAU * u3).sin(),
        b * (TAU * u3).cos(),
    )
    .normalize()
}

/// A uniformly distributed unit vector.
pub fn random_unit(rng: &mut impl Rng) -> Vec3 {
    let z: f32 = rng.random_range(-1.0..1.0);
    let phi: f32 = rng.random_range(0.0..TAU);
    let r = (1.0 - z * z).max(0.0).sqrt();
    Vec3::new(r * phi.cos(), r * phi.sin(), z)
}

fn log_uniform(rng: &mut impl Rng, lo: f32, hi: f32) -> f32 {
    if hi <= lo {
        return lo;
    }
    (rng.random_range(lo.ln()..hi.ln())).exp()
}

/// A random hull cloud: points on a random ellipsoid or in a random box, plus interior points and
/// duplicates, about unit size.
fn random_hull_points(rng: &mut impl Rng, count: usize) -> Vec<Vec3> {
    let axes = Vec3::new(
        rng.random_range(0.3..1.0),
        rng.random_range(0.3..1.0),
        rng.random_range(0.3..1.0),
    );
    let boxy = rng.random_bool(0.3);
    let mut points = Vec::with_capacity(count);
    while points.len() < count {
        let roll: f32 = rng.random();
        let p = if roll < 0.15 && !points.is_empty() {
            // Duplicate of an earlier point.
            points[rng.random_range(0..points.len())]
        } else if roll < 0.35 {
            // Interior point.
            random_unit(rng) * axes * rng.random_range(0.0..0.9)
        } else if boxy {
            Vec3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            ) * axes
        } else {
            random_unit(rng) * axes
        };
        points.push(p);
    }
    points
}

/// One random shape of the given kind, scaled to about `size` (its bounding radius).
pub(crate) fn random_shape(
    rng: &mut impl Rng,
    kind: ShapeKind,
    size: f32,
    hull_points: (usize, usize),
) -> ConvexShape {
    let s = size;
    let dims = |rng: &mut dyn rand::RngCore| {
        Vec3::new(
            rng.random_range(0.2..1.0),
            rng.random_range(0.2..1.0),
            rng.random_range(0.2..1.0),
        ) * s
    };
    let shape = match kind {
        ShapeKind::Hull => {
            let lo = hull_points.0.max(1);
            let hi = hull_points.1.max(lo);
            let n = log_uniform(rng, lo as f32, hi as f32 + 0.999).floor() as usize;
            let pts = random_hull_points(rng, n.clamp(lo, hi))
                .into_iter()
                .map(|p| p * s)
                .collect();
            ConvexShape::new(pts, 0.0)
        }
        ShapeKind::Box => ConvexShape::cuboid(dims(rng)),
        ShapeKind::RoundedBox => {
            let r = rng.random_range(0.05..0.4) * s;
            ConvexShape::rounded_box(dims(rng) * 0.7, r)
        }
        ShapeKind::Cylinder => ConvexShape::cylinder(
            rng.random_range(0.2..1.0) * s,
            rng.random_range(0.2..1.0) * s,
            rng.random_range(6..=32),
        ),
        ShapeKind::Cone => ConvexShape::cone(
            rng.random_range(0.2..1.0) * s,
            rng.random_range(0.2..1.0) * s,
            rng.random_range(6..=32),
        ),
        ShapeKind::Sphere => ConvexShape::sphere(rng.random_range(0.2..1.0) * s),
        ShapeKind::Capsule => ConvexShape::capsule(
            rng.random_range(0.1..0.8) * s,
            rng.random_range(0.1..0.5) * s,
        ),
        ShapeKind::FlatPolygon => {
            let n = rng.random_range(3..=24);
            let (ax, ay) = (
                rng.random_range(0.3..1.0) * s,
                rng.random_range(0.3..1.0) * s,
            );
            let phase: f32 = rng.random_range(0.0..TAU);
            let pts = (0..n)
                .map(|i| {
                    let t = phase + TAU * i as f32 / n as f32;
                    Vec3::new(ax * t.cos(), ay * t.sin(), 0.0)
                })
                .collect();
            ConvexShape::new(pts, 0.0)
        }
        ShapeKind::Segment => {
            let d = random_unit(rng) * rng.random_range(0.2..1.0) * s;
            ConvexShape::new(vec![-d, d], 0.0)
        }
    };
    shape.expect("random shape parameters are valid by construction")
}

/// Draws a scene of `pair_count` pairs. Each pair gets two fresh instances; B is placed along a random
/// direction at a centre distance drawn so that roughly half the pairs overlap and many are near contact.
pub fn random_scene(seed: u64, pair_count: usize, spec: &MixSpec) -> Scene {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let kinds_pool = if spec.kinds.is_empty() {
        ShapeKind::ALL.to_vec()
    } else {
        spec.kinds.clone()
    };
    let library = spec.library_size.max(1);
    let mut entries: Vec<(ConvexShape, ShapeKind)> = (0..library)
        .map(|_| {
            let kind = kinds_pool[rng.random_range(0..kinds_pool.len())];
            let size = log_uniform(&mut rng, spec.scale.0, spec.scale.1);
            (random_shape(&mut rng, kind, size, spec.hull_points), kind)
        })
        .collect();
    // Sorted by size, so that neighbours in the library have similar sizes and a pair drawn from a window
    // has a size ratio of a few, not of 1e5.
    entries.sort_by(|x, y| x.0.bounding_radius().total_cmp(&y.0.bounding_radius()));
    let (shapes, kinds): (Vec<_>, Vec<_>) = entries.into_iter().unzip();
    let window = (library / 16).max(1);

    let mut instances = Vec::with_capacity(pair_count * 2);
    let mut pairs = Vec::with_capacity(pair_count);
    for _ in 0..pair_count {
        let ia = rng.random_range(0..library);
        let lo = ia.saturating_sub(window);
        let hi = (ia + window).min(library - 1);
        let ib = rng.random_range(lo..=hi);
        let (ra, rb) = (shapes[ia].bounding_radius(), shapes[ib].bounding_radius());
        let reach = ra + rb;
        let offset = Vec3::new(
            rng.random_range(-10.0..10.0),
            rng.random_range(-10.0..10.0),
            rng.random_range(-10.0..10.0),
        ) * reach;
        let pose_a = Pose::new(offset, random_rotation(&mut rng));
        let gap = rng.random_range(0.15..1.25) * reach;
        let pose_b = Pose::new(
            offset + random_unit(&mut rng) * gap,
            random_rotation(&mut rng),
        );
        let base = instances.len() as u32;
        instances.push(Instance {
            shape: ia as u32,
            pose: pose_a,
        });
        instances.push(Instance {
            shape: ib as u32,
            pose: pose_b,
        });
        pairs.push([base, base + 1]);
    }
    Scene {
        shapes,
        kinds,
        instances,
        pairs,
    }
}
