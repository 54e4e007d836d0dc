mod common;
use common::referee::depth_along;
use gpu_gjk::gjk::{penetration_f64, penetration_query};
use gpu_gjk::scenario::{random_scene, MixSpec};
use gpu_gjk::GjkConfig;
#[test]
fn dbg() {
    for seed in [151u64, 196] {
        let scene = random_scene(seed, 30_000, &MixSpec::default());
        let config = GjkConfig::default();
        for &[i, j] in &scene.pairs {
            let (ia, ib) = (&scene.instances[i as usize], &scene.instances[j as usize]);
            let (a, b) = (
                &scene.shapes[ia.shape as usize],
                &scene.shapes[ib.shape as usize],
            );
            let (_, p) = penetration_query(a, &ia.pose, b, &ib.pose, &config);
            let (pa, pb) = (ia.pose.to_f64(), ib.pose.to_f64());
            if p.depth < 1.0 {
                continue;
            }
            let along = depth_along(a, &pa, b, &pb, p.normal.as_dvec3());
            if (along - p.depth as f64).abs() < 1e-3 * along {
                continue;
            }
            let (_, p64) = penetration_f64(a, &pa, b, &pb, &config);
            eprintln!(
                "seed {seed} f32 {p:?}\n f64 {p64:?}\n along f32 {along} along f64 {}",
                depth_along(a, &pa, b, &pb, p64.normal)
            );
        }
    }
}
