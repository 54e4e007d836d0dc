//! Triangle meshes to draw, loaded from OBJ files with their normals (or flat ones where a file has none).

use crate::error::GjkError;
use crate::shape::{load_obj_models, ConvexShape};
use glam::Vec3;
use std::path::Path;

/// An indexed triangle list; `normals` has one entry per position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshData {
    pub positions: Vec<[f32; 3]>,
    pub normals: Vec<[f32; 3]>,
    pub indices: Vec<u32>,
}

impl MeshData {
    #[cfg(test)]
    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }
}

/// Loads every object of an OBJ file into one mesh. Errors name the file and, where possible, the line:
/// the diagnosis is left to the collision-shape loader so both report a bad file the same way.
pub fn load_render_mesh(path: &Path) -> Result<MeshData, GjkError> {
    let options = tobj::LoadOptions {
        single_index: true,
        triangulate: true,
        ignore_points: true,
        ignore_lines: true,
    };
    let problem = match load_obj_models(path, &options) {
        Ok(models) => {
            let mesh = merge(&models);
            let usable =
                !mesh.indices.is_empty() && mesh.positions.iter().flatten().all(|c| c.is_finite());
            if usable {
                return Ok(mesh);
            }
            String::from("no triangles to draw")
        }
        Err(e) => e.to_string(),
    };
    Err(match ConvexShape::from_obj(path, 0.0) {
        Err(e) => e,
        Ok(_) => GjkError::Obj {
            path: path.to_path_buf(),
            line: None,
            message: problem,
        },
    })
}

fn merge(models: &[tobj::Model]) -> MeshData {
    let mut positions = Vec::new();
    let mut normals = Vec::new();
    let mut indices = Vec::new();
    let mut all_have_normals = true;
    for model in models {
        let mesh = &model.mesh;
        let base = positions.len() as u32;
        let count = mesh.positions.len() / 3;
        positions.extend(mesh.positions.chunks_exact(3).map(|c| [c[0], c[1], c[2]]));
        if mesh.normals.len() == mesh.positions.len() {
            normals.extend(mesh.normals.chunks_exact(3).map(|c| [c[0], c[1], c[2]]));
        } else {
            all_have_normals = false;
        }
        // Drop triangles that point outside the object's vertices rather than read past them on the GPU.
        for tri in mesh.indices.chunks_exact(3) {
            if tri.iter().all(|&i| (i as usize) < count) {
                indices.extend(tri.iter().map(|&i| base + i));
            }
        }
    }
    let mut mesh = MeshData {
        positions,
        normals,
        indices,
    };
    if all_have_normals && normals_usable(&mesh.normals) {
        for n in &mut mesh.normals {
            *n = Vec3::from(*n).normalize().to_array();
        }
        mesh
    } else {
        mesh.normals.clear();
        flat_shaded(&mesh)
    }
}

fn normals_usable(normals: &[[f32; 3]]) -> bool {
    normals.iter().all(|&n| {
        let n = Vec3::from(n);
        n.is_finite() && n.length_squared() > 1e-12
    })
}

/// Un-indexes the mesh so each triangle gets its own three vertices carrying the face normal
/// (counter-clockwise from outside gives an outward normal).
pub fn flat_shaded(mesh: &MeshData) -> MeshData {
    let mut out = MeshData::default();
    for tri in mesh.indices.chunks_exact(3) {
        let [a, b, c] = [tri[0], tri[1], tri[2]].map(|i| Vec3::from(mesh.positions[i as usize]));
        let normal = (b - a).cross(c - a).normalize_or_zero();
        for p in [a, b, c] {
            out.indices.push(out.positions.len() as u32);
            out.positions.push(p.to_array());
            out.normals.push(normal.to_array());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn asset(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("assets")
            .join(name)
    }

    fn temp_obj(name: &str, text: &str) -> PathBuf {
        let path =
            std::env::temp_dir().join(format!("gpu-gjk-render-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path
    }

    fn assert_unit_normals(mesh: &MeshData) {
        assert_eq!(mesh.normals.len(), mesh.positions.len());
        for n in &mesh.normals {
            assert!((Vec3::from(*n).length() - 1.0).abs() < 1e-4, "normal {n:?}");
        }
        assert!(mesh
            .indices
            .iter()
            .all(|&i| (i as usize) < mesh.positions.len()));
    }

    #[test]
    fn cube_has_twelve_triangles_with_outward_unit_normals() {
        let mesh = load_render_mesh(&asset("cube.obj")).unwrap();
        assert_eq!(mesh.triangle_count(), 12);
        assert!(mesh.positions.len() == 8 || mesh.positions.len() == 24);
        assert_unit_normals(&mesh);
        for tri in mesh.indices.chunks_exact(3) {
            let centre: Vec3 = tri
                .iter()
                .map(|&i| Vec3::from(mesh.positions[i as usize]))
                .sum();
            let normal = Vec3::from(mesh.normals[tri[0] as usize]);
            assert!(centre.dot(normal) > 0.0, "normal points out of the cube");
        }
    }

    #[test]
    fn sphere_loads_with_smooth_normals() {
        let mesh = load_render_mesh(&asset("sphere.obj")).unwrap();
        assert_eq!(mesh.triangle_count(), 960);
        assert_unit_normals(&mesh);
        for (p, n) in mesh.positions.iter().zip(&mesh.normals) {
            assert!(Vec3::from(*p).normalize().dot(Vec3::from(*n)) > 0.99);
        }
    }

    #[test]
    fn a_file_without_normals_gets_flat_ones() {
        let path = temp_obj(
            "flat.obj",
            "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n",
        );
        let mesh = load_render_mesh(&path).unwrap();
        std::fs::remove_file(&path).ok();
        assert_eq!(mesh.triangle_count(), 4);
        assert_eq!(mesh.positions.len(), 12, "un-indexed");
        assert_unit_normals(&mesh);
        let slanted = Vec3::ONE.normalize();
        assert!(mesh
            .normals
            .iter()
            .any(|n| Vec3::from(*n).dot(slanted) > 0.999));
        assert!(mesh
            .normals
            .iter()
            .any(|n| Vec3::from(*n).dot(Vec3::NEG_Z) > 0.999));
    }

    #[test]
    fn a_missing_file_is_named() {
        let path = asset("no-such-mesh.obj");
        let message = load_render_mesh(&path).unwrap_err().to_string();
        assert!(message.contains("no-such-mesh.obj"), "{message}");
    }

    #[test]
    fn a_malformed_file_names_the_line() {
        let path = temp_obj("bad.obj", "v 0 0 0\nv 1 0 0\nv 0 one 0\nf 1 2 3\n");
        let error = load_render_mesh(&path).unwrap_err();
        std::fs::remove_file(&path).ok();
        match &error {
            GjkError::Obj { path: p, line, .. } => {
                assert_eq!(p, &path);
                assert_eq!(*line, Some(3), "{error}");
            }
            other => panic!("unexpected error {other:?}"),
        }
        assert!(error.to_string().contains(":3"), "{error}");
    }

    #[test]
    fn a_file_without_faces_is_an_error() {
        let path = temp_obj("nofaces.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n");
        let error = load_render_mesh(&path).unwrap_err();
        std::fs::remove_file(&path).ok();
        assert!(error.to_string().contains("nofaces.obj"), "{error}");
    }
}
