//! The shapes a contact pass takes, packed once: each solid hull's words for the separating axis test
//! (`gpu::sat::pack`, `shaders/shared/polyhedron.wgsl`) and for the clipping (`gpu::manifold::pack`,
//! `shaders/shared/manifold_clip.wgsl`), and a table giving each shape's two base words and its scale.

use crate::gpu::manifold::{solid_faces, MAX_POLYGON};
use crate::gpu::GpuError;
use crate::shape::ConvexShape;

/// Most faces a shape the pass takes may have. The separating axis test's work per pair grows with one hull's
/// faces times the other's points and with the product of their edges: the shipped sphere mesh (a hull of 504
/// faces) against another is hundreds of thousands of loop trips, slow on any GPU and beyond a software adapter's
/// loop budget, which a group of 64 slots shares (`docs/gpu.md`, "Loop budgets"): with the demo's sphere and
/// capsule (312 faces) among its templates, llvmpipe gave up on 46% of the sampled slots, and on 2 in 15,360
/// with its templates of up to 124 faces.
pub const MAX_CONTACT_FACES: usize = 128;

/// The three buffers' words.
pub(super) struct ShapeWords {
    /// Per shape: base word in `poly`, base word in `faces`, bounding radius (float bits), unused.
    pub table: Vec<[u32; 4]>,
    pub poly: Vec<u32>,
    pub faces: Vec<u32>,
}

/// Packs `shapes`, or names the first one the kernel does not take and why.
pub(super) fn pack_shapes(shapes: &[ConvexShape]) -> Result<ShapeWords, GpuError> {
    if shapes.is_empty() {
        return Err(GpuError::BadIndex(
            "a contact pass needs at least one shape".into(),
        ));
    }
    let mut words = ShapeWords {
        table: Vec::with_capacity(shapes.len()),
        poly: Vec::new(),
        faces: Vec::new(),
    };
    for (index, shape) in shapes.iter().enumerate() {
        let refuse = |reason: String| GpuError::UnsupportedShape {
            shape: index,
            reason,
        };
        if shape.radius() > 0.0 {
            return Err(refuse(format!(
                "has a radius ({}): the GPU contact pass takes solid hulls without radius",
                shape.radius()
            )));
        }
        let (Some(polyhedron), Some(faces)) = (shape.polyhedron(), solid_faces(shape)) else {
            return Err(refuse(
                "is flat, a segment or a point (a hull without faces): the GPU contact pass takes solid hulls"
                    .into(),
            ));
        };
        if faces.len() > MAX_CONTACT_FACES {
            return Err(refuse(format!(
                "has {} faces, beyond the {MAX_CONTACT_FACES} the GPU contact pass's separating axis test takes",
                faces.len()
            )));
        }
        if let Some(face) = faces.iter().find(|f| f.vertices.len() > MAX_POLYGON) {
            return Err(refuse(format!(
                "has a face of {} vertices, beyond the kernel's clipped polygon of {MAX_POLYGON} points",
                face.vertices.len()
            )));
        }
        let poly_base = u32::try_from(words.poly.len());
        let face_base = u32::try_from(words.faces.len());
        let (Ok(poly_base), Ok(face_base)) = (poly_base, face_base) else {
            return Err(refuse("lies beyond 2^32 words of packed hulls".into()));
        };
        words
            .poly
            .extend(crate::gpu::sat::pack::hull_words(polyhedron));
        words
            .faces
            .extend(crate::gpu::manifold::pack::hull_words(shape, faces));
        words
            .table
            .push([poly_base, face_base, shape.bounding_radius().to_bits(), 0]);
    }
    Ok(words)
}
