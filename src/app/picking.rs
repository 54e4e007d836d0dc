//! Left-click picking: the ray under the cursor against the bodies' hulls, with our own distance query.
//!
//! The ray is marched by conservative advancement: from a point on the ray, GJK's distance to the hull is
//! a step along the ray that cannot pass through it (the hull is convex and the step is at most the
//! distance). The march starts where the ray enters the body's world AABB; bodies are tried in the order
//! the ray enters their boxes, and the search stops once a box starts beyond the nearest hit.

use super::camera::Camera;
use super::sim::FrameData;
use crate::gjk::{GjkConfig, QueryKind};
use crate::one_pair::query;
use crate::pose::Pose;
use crate::shape::ConvexShape;
use glam::{Vec2, Vec3};

/// Steps of the march before a grazing ray counts as a miss.
const MAX_STEPS: u32 = 96;
/// A hit is within this fraction of the body's size of its surface.
const HIT_TOLERANCE: f32 = 1e-3;

/// A ray from `origin` along the unit vector `dir`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray {
    pub origin: Vec3,
    pub dir: Vec3,
}

impl Ray {
    pub fn at(&self, t: f32) -> Vec3 {
        self.origin + self.dir * t
    }
}

/// The ray through pixel `cursor` (from the top-left corner) of a view `size` pixels large.
pub fn cursor_ray(camera: &Camera, size: (u32, u32), cursor: Vec2) -> Ray {
    let (w, h) = (size.0.max(1) as f32, size.1.max(1) as f32);
    let ndc = Vec2::new(2.0 * cursor.x / w - 1.0, 1.0 - 2.0 * cursor.y / h);
    let inverse = camera.view_proj(w / h).inverse();
    let near = inverse.project_point3(ndc.extend(0.0));
    let far = inverse.project_point3(ndc.extend(1.0));
    Ray {
        origin: camera.position,
        dir: (far - near).try_normalize().unwrap_or(camera.forward()),
    }
}

/// Where the ray enters and leaves a box, if it does (`t` may be negative for the entry when the origin is
/// inside).
fn enter_box(ray: &Ray, min: Vec3, max: Vec3) -> Option<(f32, f32)> {
    let inv = ray.dir.recip();
    let a = (min - ray.origin) * inv;
    let b = (max - ray.origin) * inv;
    let (lo, hi) = (a.min(b), a.max(b));
    // NaN (a zero direction component with the origin on the slab's plane) compares false and is skipped
    // by `max_element`/`min_element` treating it as the other operand.
    let enter = lo.max_element();
    let leave = hi.min_element();
    (enter <= leave && leave >= 0.0).then_some((enter, leave))
}

/// How far along the ray it first touches `shape` at `pose`, between `t0` and `t1`.
pub fn march(ray: &Ray, shape: &ConvexShape, pose: &Pose, t0: f32, t1: f32) -> Option<f32> {
    let point = ConvexShape::new(vec![Vec3::ZERO], 0.0).expect("a point is a valid shape");
    let config = GjkConfig::default();
    let tolerance = HIT_TOLERANCE * shape.bounding_radius();
    let mut t = t0.max(0.0);
    for _ in 0..MAX_STEPS {
        if t > t1 {
            return None;
        }
        let at = Pose::from_position(ray.at(t));
        let answer = query(&point, &at, shape, pose, QueryKind::Distance, &config);
        if answer.intersecting || answer.distance <= tolerance {
            return Some(t);
        }
        if answer.status.is_failure() {
            return None;
        }
        t += answer.distance;
    }
    None
}

/// The body the ray hits first, and how far along the ray. A frame whose boxes stayed on the GPU (the scene
/// on the GPU) left none on the host: they are computed from its instances.
pub fn pick(shapes: &[ConvexShape], data: &FrameData, ray: &Ray) -> Option<(u32, f32)> {
    let computed;
    let boxes = if data.boxes.len() == data.instances.len() {
        &data.boxes
    } else {
        computed = crate::broad_phase::world_aabbs(shapes, &data.instances);
        &computed
    };
    let mut candidates: Vec<(f32, f32, usize)> = boxes
        .iter()
        .enumerate()
        .filter_map(|(i, b)| enter_box(ray, b.min, b.max).map(|(t0, t1)| (t0, t1, i)))
        .collect();
    candidates.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut best: Option<(u32, f32)> = None;
    for (t0, t1, body) in candidates {
        if best.is_some_and(|(_, t)| t0 > t) {
            break;
        }
        let Some(instance) = data.instances.get(body) else {
            continue;
        };
        let Some(shape) = shapes.get(instance.shape as usize) else {
            continue;
        };
        if let Some(t) = march(ray, shape, &instance.pose, t0, t1) {
            if best.is_none_or(|(_, b)| t < b) {
                best = Some((body as u32, t));
            }
        }
    }
    best
}

/// Of the 26 directions around `centre` (and `current`), the one along which a camera `distance` away sees
/// `centre` past the fewest boxes of `data` (those of `exclude`, the bodies looked at, do not count); ties go
/// to the direction nearest `current`, so the view turns no more than it must.
pub fn clearest_direction(
    data: &FrameData,
    centre: Vec3,
    distance: f32,
    current: Vec3,
    exclude: &[u32],
) -> Vec3 {
    let mut candidates = vec![current.normalize_or(Vec3::Z)];
    for x in -1..=1 {
        for y in -1..=1 {
            for z in -1..=1 {
                if let Some(d) = Vec3::new(x as f32, y as f32, z as f32).try_normalize() {
                    candidates.push(d);
                }
            }
        }
    }
    let blocking = |dir: Vec3| {
        let ray = Ray {
            origin: centre,
            dir,
        };
        data.boxes
            .iter()
            .enumerate()
            .filter(|(i, _)| !exclude.contains(&(*i as u32)))
            .filter(|(_, b)| enter_box(&ray, b.min, b.max).is_some_and(|(t0, _)| t0 <= distance))
            .count()
    };
    let scored: Vec<(usize, f32, Vec3)> = candidates
        .into_iter()
        .map(|d| (blocking(d), -d.dot(current), d))
        .collect();
    scored
        .into_iter()
        .min_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)))
        .map_or(current, |(_, _, d)| d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad_phase::world_aabbs;
    use crate::instance::Instance;
    use glam::Quat;
    use std::sync::Arc;

    fn frame(shapes: &[ConvexShape], poses: &[Pose]) -> FrameData {
        let instances: Vec<Instance> = poses
            .iter()
            .enumerate()
            .map(|(i, pose)| Instance {
                shape: i as u32,
                pose: *pose,
            })
            .collect();
        FrameData {
            boxes: world_aabbs(shapes, &instances),
            instances: Arc::new(instances),
            ..FrameData::default()
        }
    }

    #[test]
    fn the_nearest_hull_along_the_ray_is_picked_at_its_surface() {
        let shapes = vec![
            ConvexShape::sphere(1.0).unwrap(),
            ConvexShape::cuboid(Vec3::splat(0.5)).unwrap(),
            ConvexShape::sphere(0.5).unwrap(),
        ];
        let poses = [
            Pose::from_position(Vec3::new(0.0, 0.0, -10.0)),
            Pose::new(Vec3::new(0.0, 0.0, -5.0), Quat::from_rotation_y(0.3)),
            Pose::from_position(Vec3::new(3.0, 0.0, -5.0)),
        ];
        let data = frame(&shapes, &poses);
        let down_z = Ray {
            origin: Vec3::ZERO,
            dir: Vec3::NEG_Z,
        };
        let (body, t) = pick(&shapes, &data, &down_z).unwrap();
        assert_eq!(body, 1, "the box is in front of the sphere");
        // Along z through its centre, the box turned by 0.3 about y has its face 0.5 / cos(0.3) away.
        let expected = 5.0 - 0.5 / 0.3f32.cos();
        assert!((t - expected).abs() < 2e-3, "{t} against {expected}");
        // Past the box's edge, the ray goes on to the big sphere.
        let offset = Ray {
            origin: Vec3::new(0.0, 0.8, 0.0),
            dir: Vec3::NEG_Z,
        };
        let (body, t) = pick(&shapes, &data, &offset).unwrap();
        assert_eq!(body, 0);
        let expected = 10.0 - (1.0f32 - 0.64).sqrt();
        assert!((t - expected).abs() < 2e-3, "{t} against {expected}");
        // Between them: nothing.
        let miss = Ray {
            origin: Vec3::new(1.7, 0.0, 0.0),
            dir: Vec3::NEG_Z,
        };
        assert_eq!(pick(&shapes, &data, &miss), None);
    }

    #[test]
    fn a_frame_whose_boxes_stayed_on_the_gpu_is_picked_from_its_instances() {
        let shapes = vec![ConvexShape::sphere(1.0).unwrap()];
        let mut data = frame(&shapes, &[Pose::from_position(Vec3::new(0.0, 0.0, -10.0))]);
        data.boxes.clear();
        let ray = Ray {
            origin: Vec3::ZERO,
            dir: Vec3::NEG_Z,
        };
        let (body, t) = pick(&shapes, &data, &ray).expect("the sphere is hit");
        assert_eq!(body, 0);
        assert!((t - 9.0).abs() < 2e-3, "{t}");
    }

    #[test]
    fn the_clearest_direction_avoids_the_bodies_in_the_way() {
        let shapes = vec![ConvexShape::sphere(1.0).unwrap(); 3];
        // The target at the origin, a sphere above it and one in front along +z.
        let poses = [
            Pose::from_position(Vec3::ZERO),
            Pose::from_position(Vec3::new(0.0, 4.0, 0.0)),
            Pose::from_position(Vec3::new(0.0, 0.0, 4.0)),
        ];
        let data = frame(&shapes, &poses);
        let current = Vec3::Z;
        let dir = clearest_direction(&data, Vec3::ZERO, 10.0, current, &[0]);
        assert!(
            dir.dot(Vec3::Z) < 0.9 && dir.dot(Vec3::Y) < 0.9,
            "{dir} looks through a sphere"
        );
        assert!(dir.dot(current) > 0.0, "{dir} turned further than needed");
        // Nothing in the way: the current direction stays.
        let open = clearest_direction(&data, Vec3::new(0.0, -10.0, 0.0), 5.0, current, &[]);
        assert_eq!(open, current);
    }

    #[test]
    fn the_ray_under_the_centre_of_the_view_is_the_view_direction() {
        let camera = Camera::looking_at(Vec3::new(3.0, 4.0, 5.0), Vec3::ZERO);
        let ray = cursor_ray(&camera, (800, 600), Vec2::new(400.0, 300.0));
        assert!((ray.dir - camera.forward()).length() < 1e-4);
        // A pixel to the right of the centre points to the right of the view.
        let right = cursor_ray(&camera, (800, 600), Vec2::new(700.0, 300.0));
        assert!(right.dir.dot(camera.right()) > 0.1);
    }
}
