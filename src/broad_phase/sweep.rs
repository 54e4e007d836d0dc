//! Sweep and prune, the broad phase for boxes of any mix of sizes (the grid falls back on it).

use super::Aabb;
use glam::Vec3;

/// Every pair `[i, j]` with `i < j` whose boxes overlap, sorted. Sweep and prune: sort the boxes by their
/// minimum on the axis where the box centres spread most, then compare each box only with the boxes that
/// start before it ends on that axis.
pub fn sweep_and_prune(boxes: &[Aabb]) -> Vec<[u32; 2]> {
    if boxes.len() < 2 {
        return Vec::new();
    }
    let axis = widest_axis(boxes);
    let mut order: Vec<u32> = (0..boxes.len() as u32).collect();
    order.sort_by(|&a, &b| boxes[a as usize].min[axis].total_cmp(&boxes[b as usize].min[axis]));
    let mut pairs = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        let a = &boxes[i as usize];
        for &j in &order[k + 1..] {
            let b = &boxes[j as usize];
            if b.min[axis] > a.max[axis] {
                break;
            }
            if a.overlaps(b) {
                pairs.push([i.min(j), i.max(j)]);
            }
        }
    }
    pairs.sort_unstable();
    pairs
}

fn widest_axis(boxes: &[Aabb]) -> usize {
    let n = boxes.len() as f32;
    let centres = boxes.iter().map(|b| (b.min + b.max) * 0.5);
    let mean = centres.clone().fold(Vec3::ZERO, |s, c| s + c) / n;
    let variance = centres.fold(Vec3::ZERO, |s, c| s + (c - mean) * (c - mean));
    if variance.x >= variance.y && variance.x >= variance.z {
        0
    } else if variance.y >= variance.z {
        1
    } else {
        2
    }
}
