// The GPU physics' shared records (twins of src/gpu/physics/layout.rs): a body, and the contact one broad-phase
// pair slot holds for a step.

// One rigid body (`GpuPhysicsBody`), as `physics::RigidBody` holds it.
struct PhysicsBody {
    // The pose of the shape's local frame: position in xyz, the inverse mass in w (0: the body never moves).
    position: vec4<f32>,
    // Quaternion xyzw.
    rotation: vec4<f32>,
    // Velocity of the centre of mass; w unused.
    velocity: vec4<f32>,
    // Angular velocity, world frame (axis times radians per second); w: seconds the body has been calm.
    spin: vec4<f32>,
    // The centre of mass in the shape's local frame; w unused.
    centre: vec4<f32>,
    // The inverse inertia about the centre of mass, diagonal in the shape's local axes; w unused.
    inverse_inertia: vec4<f32>,
    // x: the shape's index, y: flags (PHYSICS_BODY_ASLEEP), z and w unused.
    info: vec4<u32>,
}

// The contact of one broad-phase pair slot (`GpuPhysicsContact`): bodies x and y, the point count in z (0: no
// contact this step) and the status in w (PHYSICS_CONTACT_NONE, _TOUCHING or a failure code); the world unit
// normal from body x towards body y with the deepest depth in w; up to four points, each halfway between the
// two surfaces in world coordinates with its depth (overlap along the normal) in w, in the order of their
// feature ids; the feature ids (`FeatureId::packed`, low word then high word) of points 0 and 1, then 2 and 3.
struct PhysicsContact {
    bodies: vec4<u32>,
    normal: vec4<f32>,
    points: array<vec4<f32>, 4>,
    ids: array<vec4<u32>, 2>,
}
