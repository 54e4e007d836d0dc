//! A pair of placed shapes written as one `query` input line: what the demo's "copy pair" writes, so a pair
//! seen on screen can be replayed with `gpu-gjk query` or `gpu-gjk inspect`.

use crate::pose::DPose;
use crate::shape::ConvexShape;
use serde_json::{json, Value};

/// One shape: its centred points, radius, and the pose of those points (the shape's centre folded into the
/// position in float64), which is how `query` reads it back, so the replay sees the same float32 points.
fn shape_value(shape: &ConvexShape, pose: &DPose) -> Value {
    let points: Vec<[f64; 3]> = shape
        .core_points()
        .iter()
        .map(|p| p.as_dvec3().to_array())
        .collect();
    let core = shape.core_pose_f64(pose);
    let q = core.rotation;
    json!({
        "points": points,
        "radius": f64::from(shape.radius()),
        "position": core.position.to_array(),
        "rotation": [q.x, q.y, q.z, q.w],
    })
}

/// `{"a": {...}, "b": {...}}` without a newline.
pub fn pair_line(a: &ConvexShape, pose_a: &DPose, b: &ConvexShape, pose_b: &DPose) -> String {
    json!({"a": shape_value(a, pose_a), "b": shape_value(b, pose_b)}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::batch::query_pair;
    use crate::io::jsonl::parse_line;
    use crate::pose::Pose;
    use glam::{Quat, Vec3};

    #[test]
    fn a_written_pair_reads_back_as_the_same_shapes_and_answer() {
        let a = ConvexShape::new(
            vec![
                Vec3::new(3.0, 1.0, 1.0),
                Vec3::new(5.0, 1.0, 1.0),
                Vec3::new(3.0, 2.5, 4.0),
            ],
            0.1,
        )
        .unwrap();
        let b = ConvexShape::cone(0.7, 0.4, 12).unwrap();
        let pose_a = Pose::new(Vec3::new(-2.0, 0.5, 1.0), Quat::from_rotation_y(0.3)).to_f64();
        let pose_b = Pose::new(Vec3::new(2.5, 2.0, 3.0), Quat::from_rotation_x(1.1)).to_f64();
        let line = pair_line(&a, &pose_a, &b, &pose_b);
        let pair = parse_line(line.as_bytes()).unwrap();
        assert_eq!(pair.a.shape.core_points(), a.core_points());
        assert_eq!(pair.b.shape.core_points(), b.core_points());
        assert_eq!(pair.a.shape.radius(), 0.1);
        let input = crate::query::PairInput::new(&a, pose_a, &b, pose_b);
        let direct = crate::query::distance(&input, Default::default());
        let (replayed, _) = query_pair(&pair, crate::query::AnswerKind::Penetration);
        assert_eq!(replayed.status, direct.status);
        assert!(
            (replayed.distance - direct.distance).abs() < 1e-6,
            "{replayed:?} {direct:?}"
        );
    }
}
