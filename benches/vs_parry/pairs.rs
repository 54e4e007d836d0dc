//! The same geometry and poses for gpu-gjk and for parry3d (f32), shared by every mode.

use gpu_gjk::scenario::Scene;
use gpu_gjk::{ConvexShape, Pose};
use parry3d::shape::{Ball, Capsule, ConvexPolyhedron, RoundShape, Shape};

/// One pair: shape indices and world poses, in both libraries' types.
pub struct Pair {
    pub a: usize,
    pub b: usize,
    pub pose_a: Pose,
    pub pose_b: Pose,
    pub parry_a: parry3d::math::Pose,
    pub parry_b: parry3d::math::Pose,
}

impl Pair {
    pub fn new(a: usize, b: usize, pose_a: Pose, pose_b: Pose) -> Self {
        Self {
            a,
            b,
            pose_a,
            pose_b,
            parry_a: to_parry_pose(&pose_a),
            parry_b: to_parry_pose(&pose_b),
        }
    }
}

pub fn to_parry_pose(p: &Pose) -> parry3d::math::Pose {
    parry3d::math::Pose::from_parts(p.position, p.rotation)
}

/// The parry3d shape with exactly the geometry of `shape`: `hull(points) ⊕ ball(radius)`, as `Ball` for a
/// centred point and `Capsule` for a segment.
pub fn to_parry(shape: &ConvexShape) -> Box<dyn Shape> {
    let points: Vec<glam::Vec3> = shape.local_points().collect();
    let radius = shape.radius();
    match points.len() {
        1 => {
            assert_eq!(points[0], glam::Vec3::ZERO, "spheres are centred");
            Box::new(Ball::new(radius))
        }
        2 => Box::new(Capsule::new(points[0], points[1], radius)),
        _ => {
            let hull = ConvexPolyhedron::from_convex_hull(&points).expect("3D hull");
            if radius > 0.0 {
                Box::new(RoundShape {
                    inner_shape: hull,
                    border_radius: radius,
                })
            } else {
                Box::new(hull)
            }
        }
    }
}

/// The scene's shapes reduced to their hull vertices (`ConvexShape::hull`: what parry3d gets too, and what
/// gives hulls of 256+ vertices their adjacency), and its pairs.
pub fn reduced_scene(scene: &Scene) -> (Vec<ConvexShape>, Vec<Pair>) {
    let reduced = scene
        .shapes
        .iter()
        .map(|s| {
            let points: Vec<glam::Vec3> = s.local_points().collect();
            ConvexShape::hull(&points, s.radius()).expect("valid shape")
        })
        .collect();
    let pairs = scene
        .pairs
        .iter()
        .map(|&[ia, ib]| {
            let (ia, ib) = (&scene.instances[ia as usize], &scene.instances[ib as usize]);
            Pair::new(ia.shape as usize, ib.shape as usize, ia.pose, ib.pose)
        })
        .collect();
    (reduced, pairs)
}
