//! The OBJ files in `assets/`: they load as the expected convex shapes, their meshes are closed and wound
//! outwards, and they are exactly what `src/scenario/mesh_gen.rs` writes (`cargo run --example gen_assets`).

use gpu_gjk::scenario::mesh_gen;
use gpu_gjk::ConvexShape;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn assets_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets")
}

fn load(name: &str) -> ConvexShape {
    let path = assets_dir().join(name);
    ConvexShape::from_obj(&path, 0.0).unwrap_or_else(|e| {
        panic!("{name} does not load: {e} (regenerate with `cargo run --example gen_assets`)")
    })
}

fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol
}

/// File, hull vertex count, bounding radius and local bounds (lo, hi).
type Expected = (&'static str, usize, f32, [f32; 3], [f32; 3]);

/// Hull vertex count, bounding radius and local bounds of each asset.
#[test]
fn assets_load_as_the_expected_convex_shapes() {
    let sqrt2 = 2f32.sqrt();
    // 20 rings between the poles: the widest is at polar angle 10 pi / 21, not on the equator.
    let sphere_xz = (10.0 * std::f32::consts::PI / 21.0).sin();
    let cases: [Expected; 7] = [
        ("cube.obj", 8, 3f32.sqrt(), [-1.0; 3], [1.0; 3]),
        (
            "sphere.obj",
            482,
            1.0,
            [-sphere_xz, -1.0, -sphere_xz],
            [sphere_xz, 1.0, sphere_xz],
        ),
        ("cone.obj", 33, sqrt2, [-1.0; 3], [1.0; 3]),
        ("cylinder.obj", 64, sqrt2, [-1.0; 3], [1.0; 3]),
        ("capsule.obj", 290, 1.0, [-0.5, -1.0, -0.5], [0.5, 1.0, 0.5]),
        (
            "icosahedron.obj",
            12,
            1.0,
            [-0.850651, -0.850651, -0.850651],
            [0.850651; 3],
        ),
        (
            "prism.obj",
            12,
            (4.0f32 + 0.15 * 0.15).sqrt(),
            [-0.15, -2.0, -0.129904],
            [0.15, 2.0, 0.129904],
        ),
    ];
    for (name, hull_count, bound, lo, hi) in cases {
        let shape = load(name);
        assert_eq!(shape.len(), hull_count, "{name}: hull vertex count");
        assert!(
            close(shape.bounding_radius(), bound, 2e-6),
            "{name}: bounding radius {} != {bound}",
            shape.bounding_radius()
        );
        let (got_lo, got_hi) = shape.local_aabb();
        for k in 0..3 {
            assert!(
                close(got_lo[k], lo[k], 2e-6),
                "{name}: aabb lo {got_lo} != {lo:?}"
            );
            assert!(
                close(got_hi[k], hi[k], 2e-6),
                "{name}: aabb hi {got_hi} != {hi:?}"
            );
        }
    }
}

#[test]
fn sphere_and_icosahedron_points_lie_on_the_unit_sphere() {
    for name in ["sphere.obj", "icosahedron.obj"] {
        for p in load(name).local_points() {
            assert!(
                (p.length() - 1.0).abs() < 1e-5,
                "{name}: |{p}| = {}",
                p.length()
            );
        }
    }
}

/// The OBJ asset's points match the primitive constructors' (same rings, same angles).
#[test]
fn cylinder_and_cone_assets_match_the_primitive_constructors() {
    let pairs = [
        ("cylinder.obj", ConvexShape::cylinder(1.0, 1.0, 32).unwrap()),
        ("cone.obj", ConvexShape::cone(1.0, 1.0, 32).unwrap()),
    ];
    for (name, primitive) in pairs {
        let asset = load(name);
        for p in primitive.local_points() {
            let nearest = asset
                .local_points()
                .map(|q| q.distance(p))
                .fold(f32::MAX, f32::min);
            assert!(nearest < 2e-6, "{name}: no vertex near {p} ({nearest})");
        }
    }
}

struct ObjText {
    positions: Vec<[f64; 3]>,
    normals: Vec<[f64; 3]>,
    /// (position, normal) per corner, 0-based.
    triangles: Vec<[(usize, usize); 3]>,
}

fn parse(text: &str) -> ObjText {
    let mut obj = ObjText {
        positions: vec![],
        normals: vec![],
        triangles: vec![],
    };
    let floats = |rest: &[&str]| -> [f64; 3] {
        assert_eq!(rest.len(), 3, "{rest:?}");
        [0, 1, 2].map(|k| rest[k].parse().unwrap())
    };
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("v") => obj.positions.push(floats(&words[1..])),
            Some("vn") => obj.normals.push(floats(&words[1..])),
            Some("f") => {
                assert_eq!(words.len(), 4, "not a triangle: {line}");
                let corner = |w: &str| {
                    let (v, n) = w.split_once("//").expect("v//vn");
                    (
                        v.parse::<usize>().unwrap() - 1,
                        n.parse::<usize>().unwrap() - 1,
                    )
                };
                obj.triangles
                    .push([corner(words[1]), corner(words[2]), corner(words[3])]);
            }
            Some("#") | Some("o") => {}
            other => panic!("unexpected OBJ line {other:?}: {line}"),
        }
    }
    obj
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Every asset is a closed, consistently wound triangle mesh whose triangles face away from the origin
/// (all shapes are convex and contain it), with unit vertex normals on the outer side of each triangle.
#[test]
fn meshes_are_closed_and_wound_counter_clockwise_from_outside() {
    for (name, text) in mesh_gen::generate_all() {
        if !name.ends_with(".obj") {
            continue;
        }
        let obj = parse(&text);
        assert!(!obj.triangles.is_empty(), "{name}");
        let mut edges: HashMap<(usize, usize), usize> = HashMap::new();
        let mut used = vec![false; obj.positions.len()];
        for t in &obj.triangles {
            let [a, b, c] = t.map(|(v, _)| obj.positions[v]);
            let normal = cross(sub(b, a), sub(c, a));
            let area2 = dot(normal, normal).sqrt();
            assert!(area2 > 1e-9, "{name}: degenerate triangle {t:?}");
            let centroid = [0, 1, 2].map(|k| (a[k] + b[k] + c[k]) / 3.0);
            assert!(
                dot(normal, centroid) > 0.0,
                "{name}: triangle {t:?} is wound clockwise seen from outside"
            );
            for &(v, n) in t {
                used[v] = true;
                let vn = obj.normals[n];
                assert!(
                    (dot(vn, vn).sqrt() - 1.0).abs() < 2e-6,
                    "{name}: normal {n}"
                );
                assert!(
                    dot(vn, normal) > 0.0,
                    "{name}: normal {n} points inwards on {t:?}"
                );
            }
            for k in 0..3 {
                *edges.entry((t[k].0, t[(k + 1) % 3].0)).or_default() += 1;
            }
        }
        assert!(used.iter().all(|&u| u), "{name}: unused vertex");
        for (&(a, b), &count) in &edges {
            assert_eq!(
                count, 1,
                "{name}: directed edge {a}->{b} used {count} times"
            );
            assert_eq!(
                edges.get(&(b, a)),
                Some(&1),
                "{name}: edge {a}->{b} has no opposite (mesh not closed)"
            );
        }
        // Euler characteristic of a sphere: V - E + F = 2.
        let (v, e, f) = (obj.positions.len(), edges.len() / 2, obj.triangles.len());
        assert_eq!(v + f, e + 2, "{name}: V - E + F != 2");
    }
}

/// The generator's output, written to a temporary folder, is byte-identical to the committed files.
#[test]
fn committed_assets_match_the_generator() {
    let tmp = std::env::temp_dir().join(format!("gpu-gjk-assets-{}", std::process::id()));
    let written = mesh_gen::write_all(&tmp).unwrap();
    assert_eq!(written.len(), mesh_gen::generate_all().len());
    let mut stale = Vec::new();
    for path in &written {
        let name = path.file_name().unwrap();
        let committed = std::fs::read(assets_dir().join(name)).unwrap_or_default();
        if std::fs::read(path).unwrap() != committed {
            stale.push(name.to_string_lossy().into_owned());
        }
    }
    std::fs::remove_dir_all(&tmp).unwrap();
    assert!(
        stale.is_empty(),
        "assets/ differs from the generator for {stale:?}: run `cargo run --example gen_assets`"
    );
}
