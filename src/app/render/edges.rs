//! The feature edges of a mesh for the hull wireframe: edges where the surface bends or ends, not the
//! diagonals that split a flat face into triangles.

use super::mesh::MeshData;
use glam::Vec3;
use std::collections::HashMap;

/// Normals closer than this (cosine) count as the same plane.
const COPLANAR_COS: f32 = 1.0 - 1e-4;

/// Unique undirected edges as index pairs into `mesh.positions`. Vertices split by normals (a cube with
/// 24 vertices) are merged by position first, so an edge shared by two faces is found once.
pub fn edges(mesh: &MeshData) -> Vec<[u32; 2]> {
    let canonical = canonical_indices(mesh);
    let mut faces_of_edge: HashMap<[u32; 2], Vec<Vec3>> = HashMap::new();
    let mut order = Vec::new();
    for tri in mesh.indices.chunks_exact(3) {
        let [a, b, c] = [tri[0], tri[1], tri[2]].map(|i| canonical[i as usize]);
        let [pa, pb, pc] = [a, b, c].map(|i| Vec3::from(mesh.positions[i as usize]));
        let Some(normal) = (pb - pa).cross(pc - pa).try_normalize() else {
            continue;
        };
        for (u, v) in [(a, b), (b, c), (c, a)] {
            let key = [u.min(v), u.max(v)];
            let normals = faces_of_edge.entry(key).or_insert_with(|| {
                order.push(key);
                Vec::new()
            });
            normals.push(normal);
        }
    }
    order
        .into_iter()
        .filter(|key| {
            let normals = &faces_of_edge[key];
            normals.len() < 2 || normals.iter().any(|n| n.dot(normals[0]) < COPLANAR_COS)
        })
        .collect()
}

/// For each vertex, the first vertex with bit-identical position.
fn canonical_indices(mesh: &MeshData) -> Vec<u32> {
    let mut first: HashMap<[u32; 3], u32> = HashMap::new();
    mesh.positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            // Adding 0.0 maps -0.0 to 0.0 so the two compare equal by bits.
            let bits = p.map(|c| (c + 0.0).to_bits());
            *first.entry(bits).or_insert(i as u32)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::mesh::{flat_shaded, load_render_mesh};
    use super::*;
    use std::path::Path;

    fn asset(name: &str) -> MeshData {
        load_render_mesh(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("assets")
                .join(name),
        )
        .unwrap()
    }

    fn length(mesh: &MeshData, [a, b]: [u32; 2]) -> f32 {
        Vec3::from(mesh.positions[a as usize]).distance(Vec3::from(mesh.positions[b as usize]))
    }

    #[test]
    fn a_cube_has_twelve_edges_without_face_diagonals() {
        let mesh = asset("cube.obj");
        let edges = edges(&mesh);
        assert_eq!(edges.len(), 12);
        for e in &edges {
            assert!(
                (length(&mesh, *e) - 2.0).abs() < 1e-5,
                "{e:?} is a diagonal"
            );
        }
        assert_eq!(
            super::edges(&flat_shaded(&mesh)).len(),
            12,
            "split vertices merge"
        );
    }

    #[test]
    fn curved_and_open_meshes_keep_their_edges() {
        // A closed mesh has 3F / 2 edges; each of the UV sphere's 19 x 24 bands is a flat trapezoid whose
        // diagonal is dropped.
        let sphere = asset("sphere.obj");
        assert_eq!(
            edges(&sphere).len(),
            sphere.triangle_count() * 3 / 2 - 19 * 24
        );
        let single = MeshData {
            positions: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            normals: vec![[0.0, 0.0, 1.0]; 3],
            indices: vec![0, 1, 2],
        };
        assert_eq!(edges(&single).len(), 3);
    }
}
