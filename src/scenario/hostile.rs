//! The hostile penetration set: shapes that broke collision libraries (thin, tiny, huge, far from the origin),
//! every ordered pair of them, in one scene. Hand-built, not drawn from `rand`, so that the same pairs come out
//! on every machine and with every version of the generator crates.
use super::mesh_gen::fibonacci_sphere;
use super::{Scene, ShapeKind};
use crate::instance::Instance;
use crate::pose::Pose;
use crate::shape::ConvexShape;
use glam::{Quat, Vec3};

/// Where half of the poses are placed: far enough from the origin that float32 keeps about 1e-2 there.
const FAR_FROM_ORIGIN: f32 = 1e5;

/// xorshift64: a stream that will never change under us.
fn next_unit(state: &mut u64) -> f32 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    ((*state >> 40) as f32) / (1u64 << 24) as f32
}

fn centred(state: &mut u64) -> f32 {
    next_unit(state) - 0.5
}

fn rotation(state: &mut u64) -> Quat {
    Quat::from_xyzw(
        centred(state),
        centred(state),
        centred(state),
        centred(state),
    )
    .normalize()
}

/// A 20 x 20 x 0.002 slab, a 2 x 0.002 x 0.002 needle, boxes of half-size 1e5 and 1e-3, a cube rounded by 0.2,
/// the plain cube, a corner tetrahedron and a 1,000-vertex ellipsoid hull, with their kinds.
pub(crate) fn hostile_shapes() -> (Vec<ConvexShape>, Vec<ShapeKind>) {
    let semi_axes = Vec3::new(1.0, 0.8, 0.6);
    let ellipsoid: Vec<Vec3> = fibonacci_sphere(1000)
        .into_iter()
        .map(|p| p * semi_axes)
        .collect();
    let cuboid = |half: Vec3| ConvexShape::cuboid(half).expect("a cuboid of finite positive size");
    let cube = cuboid(Vec3::splat(0.5));
    let shapes = vec![
        cuboid(Vec3::new(10.0, 10.0, 0.001)),
        cuboid(Vec3::new(1.0, 1e-3, 1e-3)),
        cuboid(Vec3::splat(1e5)),
        cuboid(Vec3::splat(1e-3)),
        ConvexShape::new(cube.local_points().collect(), 0.2).expect("a rounded cube"),
        cube,
        ConvexShape::new(vec![Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z], 0.0).expect("a tetrahedron"),
        ConvexShape::hull(&ellipsoid, 0.0).expect("an ellipsoid hull"),
    ];
    let kinds = vec![
        ShapeKind::Box,
        ShapeKind::Box,
        ShapeKind::Box,
        ShapeKind::Box,
        ShapeKind::RoundedBox,
        ShapeKind::Box,
        ShapeKind::Hull,
        ShapeKind::Hull,
    ];
    (shapes, kinds)
}

/// Every ordered pair of `hostile_shapes` (both orders of A and B), `poses_per_pair` poses each: random
/// rotations, B at a random direction from A at up to 1.5 times the sum of their bounding radii (so about a
/// third overlap), every second pose 1e5 from the origin. 64 x `poses_per_pair` pairs.
pub fn hostile_scene(poses_per_pair: u32) -> Scene {
    let (shapes, kinds) = hostile_shapes();
    let mut instances = Vec::new();
    let mut pairs = Vec::new();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for a in 0..shapes.len() as u32 {
        for b in 0..shapes.len() as u32 {
            let reach = shapes[a as usize].bounding_radius() + shapes[b as usize].bounding_radius();
            for k in 0..poses_per_pair {
                let base = Vec3::splat(if k % 2 == 0 { 0.0 } else { FAR_FROM_ORIGIN });
                let pose_a = Pose::new(base, rotation(&mut state));
                let direction = Vec3::new(
                    centred(&mut state),
                    centred(&mut state),
                    centred(&mut state),
                );
                let gap = next_unit(&mut state) * 1.5 * reach;
                let pose_b = Pose::new(
                    base + direction.normalize_or_zero() * gap,
                    rotation(&mut state),
                );
                let first = instances.len() as u32;
                instances.push(Instance {
                    shape: a,
                    pose: pose_a,
                });
                instances.push(Instance {
                    shape: b,
                    pose: pose_b,
                });
                pairs.push([first, first + 1]);
            }
        }
    }
    Scene {
        shapes,
        kinds,
        instances,
        pairs,
    }
}
