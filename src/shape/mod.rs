//! Convex shapes: a finite point set in the shape's local frame, swept by a sphere of `radius`.
//!
//! The shape is the convex hull of `points`, inflated by `radius`. That one representation covers
//! spheres (1 point), capsules (2 points), rounded boxes (8 points) and arbitrary hulls exactly, and it is
//! what the GPU consumes: a flat vertex pool plus a radius per hull.

mod adjacency;
mod convexity;
mod exact_quickhull;
mod faces;
mod flat_hull;
mod hull;
mod obj;
mod packed;
mod polyhedron;
mod primitives;
mod ray_walk;
mod support;

pub use adjacency::HullAdjacency;
pub(crate) use adjacency::NO_START;
pub(crate) use adjacency::START_TABLE_SIDE;
pub use faces::{HullFace, HullFaces, FACE_FLATNESS};
pub use hull::reduce_to_hull;
pub use hull::ReducedHull;
pub use obj::{load_obj_models, load_obj_points};
pub use packed::PackedPoints;
pub use polyhedron::{Polyhedron, PolyhedronEdge};
pub use support::{support_index, HullView};

use crate::error::GjkError;
use crate::pose::{DPose, Pose, COORDINATE_LIMIT};
use glam::{Vec3, Vec3A};
use std::sync::{Arc, OnceLock};

/// Hulls with at least this many vertices get a vertex adjacency from [`ConvexShape::hull`] and are searched by
/// hill climbing; smaller ones by the scans. Measured: one support call on a hull in cache (`cargo bench --bench
/// support`) is cheaper by walking from 16 vertices on, but whole GJK queries over a library of distinct
/// hulls (memory, not arithmetic, bound) broke even at about 120-250 vertices with a few hulls and lost up to
/// 900 vertices with 400 hulls, where the scan streams memory the walk reads piecemeal. 256 keeps the scan
/// below that; the walk wins by orders of magnitude on the big hulls it is for.
pub(crate) const HILL_CLIMB_MIN_VERTICES: usize = 256;

/// Raw point sets of more than this many points are searched as their hull when a batch reads them
/// ([`ConvexShape::from_points`]): the exact hull's vertices, climbed over their adjacency from
/// `HILL_CLIMB_MIN_VERTICES` vertices on, as [`ConvexShape::hull`] does. At or below it a raw set is kept as
/// given and scanned, and answers exactly as [`ConvexShape::new`]. Measured (docs/benchmarks.md, "Raw point
/// sets"): building the hull of a raw set of 64 points costs about what the scans it saves over a few queries
/// do, and past a few hundred points one query pays for it.
pub const RAW_HULL_MIN_POINTS: usize = 64;

/// A convex shape: `convex_hull(points) ⊕ sphere(radius)`, in its local frame.
///
/// The points are stored about their own centre (the middle of their bounding box): `core_points()` are the
/// points minus `centre()`. Every query works with the centred points and folds the centre into the pose, so
/// the rounding of float32 arithmetic, and with it the touching tolerance, scales with the shape's size and
/// not with how far its points happen to be from their local origin (a unit cube written with coordinates
/// around 1e6 answers like the same cube placed at 1e6).
#[derive(Clone, Debug)]
pub struct ConvexShape {
    core: Vec<Vec3>,
    /// `core` in glam's 16-byte `Vec3A`, the vector type the float32 searches compute in (`Real::V`): 16 bytes
    /// a point more (beside `core`, which callers read as `Vec3`), and no conversion in the support calls.
    core_lanes: Vec<Vec3A>,
    centre: Vec3,
    radius: f32,
    bound: f32,
    /// [`ConvexShape::local_aabb`], computed once: a frame's broad phase asks it of every body, and a pass
    /// over a 482-point sphere's core each time was most of the demo's box computation.
    local_box: (Vec3, Vec3),
    /// `core` in SIMD lanes, for the support scan, when there are [`SIMD_SCAN_MIN_POINTS`] or more.
    packed: Option<PackedPoints<f32>>,
    /// The hull's vertex graph, when `core` is exactly the vertices of a convex polytope large enough for
    /// hill climbing to pay (shared with the float64 repeat, which walks it too).
    adjacency: Option<Arc<HullAdjacency>>,
    /// Whether `core` is known to be the vertices of its hull (built by [`ConvexShape::hull`] or searched as
    /// its hull): such a shape is never hulled again.
    hull_vertices: bool,
    /// The core hull's faces, built on the first contact manifold that needs them.
    faces: OnceLock<Arc<HullFaces>>,
    /// The separating axis test's view of a solid hull without radius, built on its first query.
    polyhedron: OnceLock<Option<Arc<Polyhedron>>>,
}

/// Two shapes are equal when they have the same points and radius; the search structures derive from those.
impl PartialEq for ConvexShape {
    fn eq(&self, other: &Self) -> bool {
        self.core == other.core && self.centre == other.centre && self.radius == other.radius
    }
}

impl ConvexShape {
    /// Builds a shape from any non-empty point set (interior, duplicate, coplanar and collinear points are all
    /// allowed) and a radius >= 0. Points are kept as given; use [`ConvexShape::hull`] to drop interior ones.
    pub fn new(points: Vec<Vec3>, radius: f32) -> Result<Self, GjkError> {
        Ok(Self::centred(points, radius)?.searched_by(None))
    }

    /// The shape of `points` and `radius`, centred, without its support search yet ([`Self::searched_by`]).
    fn centred(points: Vec<Vec3>, radius: f32) -> Result<Self, GjkError> {
        validate_points(&points)?;
        if !(radius.is_finite() && radius >= 0.0 && radius as f64 <= COORDINATE_LIMIT) {
            return Err(GjkError::InvalidRadius {
                radius: radius as f64,
                limit: COORDINATE_LIMIT,
            });
        }
        let centre = bounding_box_centre(&points);
        let mut core = points;
        if centre != Vec3::ZERO {
            // Subtract in float64 and round once: the centred point is the nearest float32 to the exact
            // difference.
            let c = centre.as_dvec3();
            for p in &mut core {
                *p = (p.as_dvec3() - c).as_vec3();
            }
        }
        let bound = core.iter().map(|p| p.length()).fold(0.0f32, f32::max) + radius;
        let (lo, hi) = core.iter().fold(
            (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        );
        let r = Vec3::splat(radius);
        let local_box = (lo - r + centre, hi + r + centre);
        Ok(Self {
            core_lanes: core.iter().map(|&p| p.into()).collect(),
            core,
            centre,
            radius,
            bound,
            local_box,
            packed: None,
            adjacency: None,
            hull_vertices: false,
            faces: OnceLock::new(),
            polyhedron: OnceLock::new(),
        })
    }

    /// The shape searched by climbing `adjacency` when given, else by a scan (SIMD when it pays).
    fn searched_by(mut self, adjacency: Option<Arc<HullAdjacency>>) -> Self {
        self.packed = PackedPoints::for_scans(&self.core_lanes, adjacency.as_deref());
        self.adjacency = adjacency;
        self
    }

    /// Like [`ConvexShape::new`], but keeps only the vertices of the convex hull (fewer support-function
    /// evaluations for meshes with interior or redundant points). A hull of at least
    /// `HILL_CLIMB_MIN_VERTICES` vertices also gets its vertex adjacency (from the hull's triangles, checked
    /// exactly convex, built once here), and its support function climbs it instead of scanning every vertex.
    pub fn hull(points: &[Vec3], radius: f32) -> Result<Self, GjkError> {
        validate_points(points)?;
        let reduced = reduce_to_hull(points);
        let shape = Self::centred(reduced.vertices, radius)?;
        let adjacency = if shape.len() >= HILL_CLIMB_MIN_VERTICES {
            // The reduction's triangles, checked again on the centred points (centring rounds), else a
            // quickhull of the centred points.
            reduced
                .triangles
                .and_then(|triangles| HullAdjacency::of_surface(&shape.core, &triangles))
                .or_else(|| HullAdjacency::of_hull_vertices(&shape.core))
                .map(Arc::new)
        } else {
            None
        };
        Ok(Self {
            hull_vertices: true,
            ..shape.searched_by(adjacency)
        })
    }

    /// The shape of a raw point set as a batch reads it (JSON Lines, columnar tables, Python, `bench`'s hull
    /// clouds): [`ConvexShape::new`] up to [`RAW_HULL_MIN_POINTS`] points, else the same shape searched as its
    /// hull ([`ConvexShape::searched_as_hull`]), so that no big raw set is scanned point by point.
    pub fn from_points(points: Vec<Vec3>, radius: f32) -> Result<Self, GjkError> {
        let shape = Self::centred(points, radius)?;
        if shape.len() > RAW_HULL_MIN_POINTS {
            Ok(shape.hull_of_core())
        } else {
            Ok(shape.searched_by(None))
        }
    }

    /// This shape searched as its hull when it is a raw set of more than [`RAW_HULL_MIN_POINTS`] points
    /// ([`ConvexShape::is_big_raw_set`]); else itself. See [`ConvexShape::from_points`].
    pub fn searched_as_hull(self) -> Self {
        if self.is_big_raw_set() {
            self.hull_of_core()
        } else {
            self
        }
    }

    /// Whether this shape is a raw set of more than [`RAW_HULL_MIN_POINTS`] points: neither climbed over an
    /// adjacency nor known to be its hull's vertices, so that a support call scans every point.
    /// [`ConvexShape::searched_as_hull`] searches such a set as its hull, and so does the GPU's upload
    /// (`NarrowPhase::upload_hulls`).
    pub fn is_big_raw_set(&self) -> bool {
        self.len() > RAW_HULL_MIN_POINTS && self.adjacency.is_none() && !self.hull_vertices
    }

    /// The same shape, its core reduced to the exact hull's vertices (a subset of the core points, bit for bit,
    /// in their order; flat and collinear sets keep their polygon's corners or segment's ends, coincident
    /// points one of them), with the adjacency `hull` would give it. The centre, bounding radius and box are
    /// kept as they are: the extremes are vertices, so they are the hull's too, and the tolerances that scale
    /// with them stay those of the raw set.
    fn hull_of_core(self) -> Self {
        let reduced = reduce_to_hull(&self.core);
        let core = if reduced.triangles.is_some() {
            reduced.vertices
        } else {
            in_given_order(&self.core, reduced.vertices)
        };
        let adjacency = if core.len() >= HILL_CLIMB_MIN_VERTICES {
            reduced
                .triangles
                .and_then(|triangles| HullAdjacency::of_surface(&core, &triangles))
                .or_else(|| HullAdjacency::of_hull_vertices(&core))
                .map(Arc::new)
        } else {
            None
        };
        Self {
            core_lanes: core.iter().map(|&p| p.into()).collect(),
            core,
            packed: None,
            adjacency: None,
            hull_vertices: true,
            faces: OnceLock::new(),
            polyhedron: OnceLock::new(),
            ..self
        }
        .searched_by(adjacency)
    }

    /// Loads the vertices of an OBJ file (all its objects together) and keeps their convex hull.
    pub fn from_obj(path: impl AsRef<std::path::Path>, radius: f32) -> Result<Self, GjkError> {
        let points = load_obj_points(path.as_ref())?;
        Self::hull(&points, radius)
    }

    /// The points about the shape's centre (`local point = centre() + core point`): what the queries and the
    /// GPU's vertex pool use.
    pub fn core_points(&self) -> &[Vec3] {
        &self.core
    }

    /// The middle of the points' bounding box, in the shape's local frame.
    pub fn centre(&self) -> Vec3 {
        self.centre
    }

    /// The points in the shape's local frame, as given (up to the rounding of the centring).
    pub fn local_points(&self) -> impl ExactSizeIterator<Item = Vec3> + '_ {
        self.core.iter().map(move |p| *p + self.centre)
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.core.len()
    }

    /// Always false: a shape has at least one point.
    pub fn is_empty(&self) -> bool {
        self.core.is_empty()
    }

    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// Radius of a sphere around [`ConvexShape::centre`] that contains the shape, radius included. It sets the
    /// scale of the numerical tolerances (see [`crate::gjk::pair_scale`]).
    pub fn bounding_radius(&self) -> f32 {
        self.bound
    }

    /// The farthest point of the point set along `dir` (radius not included), in the local frame.
    pub fn support(&self, dir: Vec3) -> Vec3 {
        Vec3::from(self.support_view().support_point(dir.into())) + self.centre
    }

    /// The support mapping of the core points, with this shape's search structures.
    pub fn support_view(&self) -> HullView<'_, f32> {
        HullView::new(
            &self.core_lanes,
            self.packed.as_ref(),
            self.adjacency.as_deref(),
        )
    }

    /// The vertex adjacency hill climbing walks (CSR over [`ConvexShape::core_points`]), when the shape has one.
    pub fn adjacency(&self) -> Option<&HullAdjacency> {
        self.adjacency.as_deref()
    }

    /// The faces of the core points' hull (indices into [`ConvexShape::core_points`]), built on the first call
    /// and kept: what contact manifolds clip.
    pub fn faces(&self) -> &HullFaces {
        self.faces
            .get_or_init(|| Arc::new(HullFaces::of(&self.core)))
    }

    /// The points, face planes and edges the separating axis test reads (`crate::sat`), built on the first
    /// call and kept; `None` unless the shape is a solid hull without radius whose faces close up.
    pub fn polyhedron(&self) -> Option<&Polyhedron> {
        self.polyhedron
            .get_or_init(|| {
                let HullFaces::Faces(faces) = self.faces() else {
                    return None;
                };
                if self.radius != 0.0 {
                    return None;
                }
                Polyhedron::of(&self.core, self.centre, faces).map(Arc::new)
            })
            .as_deref()
    }

    /// A shared handle on the adjacency, for copies of the points in another precision.
    pub fn adjacency_handle(&self) -> Option<Arc<HullAdjacency>> {
        self.adjacency.clone()
    }

    /// Local axis-aligned bounds, radius included.
    pub fn local_aabb(&self) -> (Vec3, Vec3) {
        self.local_box
    }

    /// The pose of the centred points, given the pose of the shape's local frame: `pose` followed by the
    /// translation to the centre.
    pub fn core_pose(&self, pose: &Pose) -> Pose {
        Pose::new(pose.position + pose.rotation * self.centre, pose.rotation)
    }

    /// [`ConvexShape::core_pose`] in double precision.
    pub fn core_pose_f64(&self, pose: &DPose) -> DPose {
        DPose {
            position: pose.position + pose.rotation * self.centre.as_dvec3(),
            rotation: pose.rotation,
        }
    }
}

fn validate_points(points: &[Vec3]) -> Result<(), GjkError> {
    if points.is_empty() {
        return Err(GjkError::EmptyPoints);
    }
    for (index, p) in points.iter().enumerate() {
        if !p.is_finite() {
            return Err(GjkError::NonFinitePoint { index });
        }
        if p.abs().max_element() as f64 > COORDINATE_LIMIT {
            return Err(GjkError::PointOutOfRange {
                index,
                limit: COORDINATE_LIMIT,
            });
        }
    }
    Ok(())
}

/// `kept`, a subset of `given`, in the order of their first appearance in `given` (flat and collinear hulls
/// come back in polygon order), so that a support scan over them breaks ties as the raw scan does among them.
fn in_given_order(given: &[Vec3], mut kept: Vec<Vec3>) -> Vec<Vec3> {
    let bits = |p: &Vec3| p.to_array().map(f32::to_bits);
    let mut first = std::collections::HashMap::with_capacity(kept.len());
    for p in &kept {
        first.insert(bits(p), usize::MAX);
    }
    for (index, p) in given.iter().enumerate() {
        if let Some(slot) = first.get_mut(&bits(p)) {
            *slot = (*slot).min(index);
        }
    }
    kept.sort_by_key(|p| first[&bits(p)]);
    kept
}

/// The middle of the points' bounding box, rounded to float32.
fn bounding_box_centre(points: &[Vec3]) -> Vec3 {
    let (lo, hi) = points.iter().fold(
        (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    ((lo.as_dvec3() + hi.as_dvec3()) * 0.5).as_vec3()
}
