//! The feature edges of a mesh for the hull wireframe: edges where the surface bends or ends, not the
//! diagonals that split a flat face into triangles.

use super::mesh::MeshData;
use glam::Vec3;
use std::collections::HashMap;

/// Normals closer than this (cosine) count as the same plane.
const COPLANAR_COS: f32 = 1.0 - 1e-4;

/// Faces bent by more than this (cosine of the angle between their normals) meet at a crease: the edges
/// drawn around every body so that touching bodies of one colour stay apart. 25 degrees keeps a cube's,
/// an icosahedron's and a cylinder's rims, and drops the facets of round meshes (15 degrees apart on the
/// sphere asset), whose outline the shading draws instead.
pub const CREASE_COS: f32 = 0.906;

#[cfg(test)]
/// Unique undirected edges as index pairs into `mesh.positions`. Vertices split by normals (a cube with
/// 24 vertices) are merged by position first, so an edge shared by two faces is found once.
pub fn edges(mesh: &MeshData) -> Vec<[u32; 2]> {
    bent_edges(mesh).into_iter().map(|(e, _)| e).collect()
}

/// [`edges`] with the cosine of the angle between the normals of the faces meeting there (-1 for an
/// edge of a single face).
pub fn bent_edges(mesh: &MeshData) -> Vec<([u32; 2], f32)> {
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
        .filter_map(|key| {
            let normals = &faces_of_edge[&key];
            let bend = if normals.len() < 2 {
                -1.0
            } else {
                normals
                    .iter()
                    .map(|n| n.dot(normals[0]))
                    .fold(1.0, f32::min)
            };
            (bend < COPLANAR_COS).then_some((key, bend))
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
    fn creases_are_the_rims_of_flat_faces_not_the_facets_of_round_ones() {
        let creases = |name: &str| {
            bent_edges(&asset(name))
                .iter()
                .filter(|(_, bend)| *bend < CREASE_COS)
                .count()
        };
        assert_eq!(creases("cube.obj"), 12);
        assert_eq!(creases("icosahedron.obj"), 30);
        assert_eq!(creases("sphere.obj"), 0);
        // Two rims of 32 segments each.
        assert_eq!(creases("cylinder.obj"), 64);
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
