//! Loading OBJ meshes with tobj.

use crate::error::GjkError;
use glam::Vec3;
use std::path::Path;

/// All vertex positions of every object in an OBJ file.
pub fn load_obj_points(path: &Path) -> Result<Vec<Vec3>, GjkError> {
    let options = tobj::LoadOptions {
        single_index: false,
        triangulate: false,
        ignore_points: true,
        ignore_lines: true,
    };
    let (models, _materials) = tobj::load_obj(path, &options).map_err(|e| GjkError::Obj {
        path: path.to_path_buf(),
        line: None,
        message: e.to_string(),
    })?;
    let points: Vec<Vec3> = models
        .iter()
        .flat_map(|m| m.mesh.positions.chunks_exact(3))
        .map(|c| Vec3::new(c[0], c[1], c[2]))
        .collect();
    if points.is_empty() {
        return Err(GjkError::Obj {
            path: path.to_path_buf(),
            line: None,
            message: "no vertices".into(),
        });
    }
    Ok(points)
}
