//! The demo's meshes: each OBJ asset gives a render mesh (triangles with normals) and the convex shape the
//! narrow phase tests, the hull of the same vertices, so what collides is exactly what is drawn.

use super::render::{load_render_mesh, MeshData};
use crate::shape::ConvexShape;
use crate::stress::{check_template, StressSpec};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// Asset file stems in template order. The first four are the player's shapes on keys 1-4 (the seed
/// demo's cube, sphere, cone and cylinder).
pub use crate::scenario::stress::ASSET_NAMES;

/// Number of shapes the player can switch between (keys 1-4).
pub const PLAYER_SHAPES: usize = 4;

/// Meshes and shapes, index for index.
pub struct AssetSet {
    pub names: Vec<String>,
    pub meshes: Vec<MeshData>,
    pub shapes: Vec<ConvexShape>,
}

/// The `assets/` folder: `dir` when given, else `./assets` when it holds the cube, else the one next to the
/// crate's manifest (so `cargo run` works from any folder of a checkout).
pub fn asset_dir(dir: Option<&Path>) -> PathBuf {
    match dir {
        Some(dir) => dir.to_path_buf(),
        None => crate::scenario::stress::asset_dir(),
    }
}

/// Loads every asset of [`ASSET_NAMES`] from `dir`, plus `extra` OBJ files (used as additional body
/// templates). Errors name the file and, where one can be named, the line; a mesh that cannot be scaled to
/// the bodies' sizes (one with no size, or a tiny one far from its origin) is refused here, by name.
pub fn load_assets(dir: &Path, extra: &[PathBuf]) -> Result<AssetSet> {
    let mut set = AssetSet {
        names: Vec::new(),
        meshes: Vec::new(),
        shapes: Vec::new(),
    };
    let standard = ASSET_NAMES
        .iter()
        .map(|name| dir.join(format!("{name}.obj")));
    let count = ASSET_NAMES.len();
    for (index, path) in standard.chain(extra.iter().cloned()).enumerate() {
        let what = if index < count {
            format!("loading the demo's meshes from {}", dir.display())
        } else {
            format!("loading --mesh {}", path.display())
        };
        let shape = ConvexShape::from_obj(&path, 0.0).with_context(|| what.clone())?;
        check_template(&shape, &StressSpec::default())
            .map_err(|reason| anyhow::anyhow!("{}: {reason}", path.display()))
            .with_context(|| what.clone())?;
        let mesh = load_render_mesh(&path)
            .with_context(|| format!("loading the mesh to draw from {}", path.display()))?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        set.names.push(name);
        set.meshes.push(mesh);
        set.shapes.push(shape);
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_assets_load_with_matching_meshes_and_shapes() {
        let set = load_assets(&asset_dir(None), &[]).unwrap();
        assert_eq!(set.names, ASSET_NAMES);
        assert_eq!(set.meshes.len(), ASSET_NAMES.len());
        // The cube's hull is its 8 corners at +-1.
        assert_eq!(set.shapes[0].len(), 8);
        assert!((set.shapes[0].bounding_radius() - 3f32.sqrt()).abs() < 1e-5);
    }

    #[test]
    fn a_missing_or_malformed_file_is_named_with_its_line() {
        let dir = std::env::temp_dir().join(format!("gpu-gjk-assets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = load_assets(&dir, &[])
            .err()
            .expect("no assets in an empty folder");
        let message = format!("{missing:#}");
        assert!(message.contains("cube.obj"), "{message}");
        assert!(message.contains("not found"), "{message}");

        let bad = dir.join("bad.obj");
        std::fs::write(&bad, "v 0 0 0\nv 1 0 0\nv 0 1 zero\nf 1 2 3\n").unwrap();
        let error = load_assets(&asset_dir(None), &[bad])
            .err()
            .expect("a malformed extra mesh");
        let message = format!("{error:#}");
        assert!(message.contains("bad.obj"), "{message}");
        assert!(message.contains("bad.obj:3:"), "{message}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_mesh_with_a_byte_order_mark_loads_as_without_it() {
        // `demo --mesh` of this file failed ("vertex index 4 is out of range (3 defined)"): the mark hid the
        // first `v` line from tobj. With one more vertex it loaded with every face index shifted.
        let dir = std::env::temp_dir().join(format!("gpu-gjk-assets-bom-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\nf 1 3 4\nf 2 3 4\n";
        let (plain, marked) = (dir.join("plain.obj"), dir.join("marked.obj"));
        std::fs::write(&plain, text).unwrap();
        std::fs::write(
            &marked,
            [b"\xef\xbb\xbf".as_slice(), text.as_bytes()].concat(),
        )
        .unwrap();
        let last = |path: &PathBuf| {
            let mut set = load_assets(&asset_dir(None), std::slice::from_ref(path)).unwrap();
            (set.shapes.pop().unwrap(), set.meshes.pop().unwrap())
        };
        let ((plain_shape, plain_mesh), (marked_shape, marked_mesh)) =
            (last(&plain), last(&marked));
        assert_eq!(marked_mesh, plain_mesh);
        assert_eq!(marked_shape.len(), 4);
        let points = |s: &ConvexShape| s.local_points().collect::<Vec<_>>();
        assert_eq!(points(&marked_shape), points(&plain_shape));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
