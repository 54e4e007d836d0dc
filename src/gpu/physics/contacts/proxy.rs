//! A contact proxy: the hull the GPU contact pass takes in place of a mesh of more faces than it takes
//! ([`MAX_CONTACT_FACES`]), as physics engines give a detailed mesh a simpler collision hull. The proxy is the
//! hull of some of the shape's own points, picked farthest first, so it lies inside the shape and reaches its
//! extremes; `docs/gpu.md` ("GPU contacts for physics") has how far inside it lies for the shipped meshes.

use super::shapes::MAX_CONTACT_FACES;
use crate::gpu::manifold::solid_faces;
use crate::shape::ConvexShape;
use glam::Vec3;

/// Points a proxy starts from: a hull of n points has at most 2n - 4 triangles, so 64 points keep it within 128
/// faces.
const PROXY_POINTS: usize = 64;

/// `shape` itself when the contact pass takes its face count, otherwise the hull of [`PROXY_POINTS`] of its
/// points (fewer, where the hull of those still has too many faces), picked by farthest-point sampling from the
/// one farthest from the centre. `None` for a shape that is no solid hull without radius (the contact pass
/// refuses it whatever its faces) or whose points give no solid proxy.
pub fn contact_proxy(shape: &ConvexShape) -> Option<ConvexShape> {
    if shape.radius() > 0.0 {
        return None;
    }
    let faces = solid_faces(shape)?.len();
    if faces <= MAX_CONTACT_FACES {
        return Some(shape.clone());
    }
    let points: Vec<Vec3> = shape.local_points().collect();
    let mut count = PROXY_POINTS.min(points.len());
    while count >= 4 {
        let proxy = ConvexShape::hull(&farthest_points(&points, count), 0.0).ok()?;
        if solid_faces(&proxy).is_some_and(|f| f.len() <= MAX_CONTACT_FACES) {
            return Some(proxy);
        }
        count -= 8;
    }
    None
}

/// `count` of `points`, each the farthest from those picked before it, starting from the farthest from the
/// points' bounding-box centre (the lowest index where distances tie): spread over the surface, the same picks
/// for the same points.
fn farthest_points(points: &[Vec3], count: usize) -> Vec<Vec3> {
    let (lo, hi) = points.iter().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    let centre = (lo + hi) * 0.5;
    let farthest = |distance: &[f32]| {
        (0..distance.len()).fold(0, |best, k| {
            if distance[k] > distance[best] {
                k
            } else {
                best
            }
        })
    };
    let mut nearest: Vec<f32> = points.iter().map(|p| p.distance_squared(centre)).collect();
    let mut picked = Vec::with_capacity(count);
    for _ in 0..count {
        let next = farthest(&nearest);
        let p = points[next];
        picked.push(p);
        for (d, q) in nearest.iter_mut().zip(points) {
            *d = d.min(q.distance_squared(p));
        }
    }
    picked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::stress::asset_shapes;

    /// The support of `shape` along `d`, through its local points.
    fn reach(shape: &ConvexShape, d: Vec3) -> f32 {
        shape
            .local_points()
            .map(|p| p.dot(d))
            .fold(f32::MIN, f32::max)
    }

    #[test]
    fn the_shipped_meshes_get_proxies_inside_them_that_reach_their_extremes() {
        for (k, shape) in asset_shapes().unwrap().iter().enumerate() {
            let faces = solid_faces(shape).unwrap().len();
            let proxy = contact_proxy(shape).expect("a proxy");
            let proxy_faces = solid_faces(&proxy).unwrap().len();
            assert!(
                proxy_faces <= MAX_CONTACT_FACES,
                "mesh {k}: {proxy_faces} faces"
            );
            if faces <= MAX_CONTACT_FACES {
                assert_eq!(proxy, *shape, "mesh {k} is taken as it is");
                continue;
            }
            // Inside: every proxy point is one of the shape's points. Reaching: along 2,000 directions the
            // proxy's support falls short of the shape's by under 7% of the shape's bounding radius.
            let own: Vec<Vec3> = shape.local_points().collect();
            for p in proxy.local_points() {
                assert!(
                    own.iter().any(|q| q.distance(p) < 1e-5),
                    "mesh {k}: {p} is not its point"
                );
            }
            let radius = shape.bounding_radius();
            let mut worst = 0f32;
            for i in 0..2000 {
                // A Fibonacci sphere of directions.
                let z = 1.0 - 2.0 * (i as f32 + 0.5) / 2000.0;
                let r = (1.0 - z * z).sqrt();
                let a = i as f32 * 2.399_963;
                let d = Vec3::new(r * a.cos(), r * a.sin(), z);
                let short = reach(shape, d) - reach(&proxy, d);
                assert!(
                    short >= -1e-5,
                    "mesh {k}: the proxy reaches beyond the shape along {d}"
                );
                worst = worst.max(short / radius);
            }
            eprintln!("mesh {k}: {faces} faces, proxy {proxy_faces}, falls short by {worst:.4} of the radius");
            assert!(
                worst < 0.07,
                "mesh {k}: the proxy falls short by {worst} of the radius"
            );
        }
    }

    #[test]
    fn rounded_and_flat_shapes_have_no_proxy() {
        assert!(contact_proxy(&ConvexShape::sphere(1.0).unwrap()).is_none());
        let square = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::new(1.0, 1.0, 0.0)];
        assert!(contact_proxy(&ConvexShape::hull(&square, 0.0).unwrap()).is_none());
    }
}
