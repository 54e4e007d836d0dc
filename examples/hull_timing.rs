//! Times `ConvexShape::from_obj` on large generated meshes: `cargo run --release --example hull_timing -- N`.
use gpu_gjk::scenario::mesh_gen;
use gpu_gjk::ConvexShape;
use rand::{Rng, SeedableRng};
use std::time::Instant;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map_or(1_000_000, |s| s.parse().unwrap());
    let which = std::env::args().nth(2).unwrap_or_else(|| "all".into());
    let dir = std::env::temp_dir().join("gpu-gjk-hull-timing");
    std::fs::create_dir_all(&dir).unwrap();
    let side = (n as f64).sqrt() as usize;
    let mut cases: Vec<(String, String)> = Vec::new();
    if which == "all" || which == "uv" {
        let mesh = mesh_gen::uv_sphere(side, side);
        cases.push(("uv_sphere".into(), mesh.to_obj("s", "timing")));
    }
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
    for kind in ["ball", "surface"] {
        if which != "all" && which != kind {
            continue;
        }
        let mut text = String::new();
        for _ in 0..n {
            let p = loop {
                let p = [
                    rng.random_range(-1.0f64..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                ];
                let l = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
                if l <= 1.0 && l > 1e-3 {
                    break if kind == "surface" {
                        p.map(|x| x / l)
                    } else {
                        p
                    };
                }
            };
            text += &format!("v {:.6} {:.6} {:.6}\n", p[0], p[1], p[2]);
        }
        for i in 0..n / 3 {
            text += &format!("f {} {} {}\n", 3 * i + 1, 3 * i + 2, 3 * i + 3);
        }
        cases.push((kind.into(), text));
    }
    for (name, text) in cases {
        let path = dir.join(format!("{name}.obj"));
        std::fs::write(&path, text).unwrap();
        let start = Instant::now();
        let points = gpu_gjk::shape::load_obj_points(&path).unwrap();
        let load = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let shape = ConvexShape::from_obj(&path, 0.0).unwrap();
        let total = start.elapsed().as_secs_f64();
        println!(
            "{name}: {} points, load {load:.2} s, from_obj {total:.2} s, hull {} vertices",
            points.len(),
            shape.len()
        );
    }
}
