// The GPU solver's own records and pure helpers (twins of src/gpu/physics/records.rs): the step's parameters,
// each body's motion while the solver runs, the solver's state of one pair slot and of one body against one
// plane, the fixed-point impulse sums, and the sequential-impulse update of one contact point (the twin of
// `iterate` and `iterate_push` in src/physics/solver.rs, for one point).
//
// Constants emitted from Rust (src/gpu/physics/kernels.rs): WORKGROUP_SIZE, PHYSICS_BODY_ASLEEP,
// PHYSICS_CONTACT_TOUCHING, TALLY_WORDS, TALLY_COUNT, TALLY_WAKE, FIXED_SCALE, FIXED_LIMIT, MAX_PLANE_POINTS.

// The step's parameters (`SolverParams`), written once by `GpuSolver::new`.
struct SolverParams {
    gravity: vec3<f32>,
    dt: f32,
    baumgarte: f32,
    slop: f32,
    restitution: f32,
    restitution_threshold: f32,
    friction: f32,
    sleep_speed: f32,
    sleep_time: f32,
    // 1: start each point from its impulses of the last step.
    warm_start: u32,
    body_count: u32,
    plane_count: u32,
    // Where the scene buffer's shape records and hull points start (vec4 index); its planes start at 0.
    shapes_at: u32,
    points_at: u32,
}

// The pair slots a step's contact buffer holds (`SlotLimit`): one uniform per capacity the caller uses.
struct SlotLimit {
    capacity: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
}

// One body while the solver runs (`GpuMotion`).
struct Motion {
    // w: the inverse mass, 0 when the body does not move this step (static or asleep).
    velocity: vec4<f32>,
    // w: the body's body-pair contacts this step, by which each of them splits its mass.
    angular: vec4<f32>,
    // The position correction's pseudo-velocity (split impulses); w: the kinetic energy after the step.
    push: vec4<f32>,
    push_angular: vec4<f32>,
    // The world centre of mass; w unused.
    centre: vec4<f32>,
    // The world inverse inertia R I^-1 R^T (0 when the body does not move this step).
    inverse_inertia: mat3x3<f32>,
}

// One contact point as the solver keeps it (`GpuSolverPoint`).
struct SolverPoint {
    // Offset from A's centre of mass; w: the normal's effective mass.
    r_a: vec4<f32>,
    // Offset from B's centre of mass; w: the normal's target speed (restitution, or a gap closed in a step).
    r_b: vec4<f32>,
    // The two tangents' effective masses, the push speed, unused.
    masses: vec4<f32>,
    // Accumulated impulses: normal, tangent 0, tangent 1, push.
    impulse: vec4<f32>,
}

// The solver's state of one pair slot (`GpuSolverManifold`), kept one step for the next one's warm start.
struct SolverManifold {
    // Bodies a and b, the point count, 1 when the solver works on the slot this step.
    bodies: vec4<u32>,
    // From a towards b; w unused.
    normal: vec4<f32>,
    // The points' feature ids, as PhysicsContact holds them.
    ids: array<vec4<u32>, 2>,
    points: array<SolverPoint, 4>,
}

// One body against one plane (`GpuPlanePoint`): the offset from the centre of mass with the normal's target
// speed in w, and the accumulated impulses (normal, tangent 0, tangent 1, push).
struct PlanePoint {
    r: vec4<f32>,
    impulse: vec4<f32>,
}

// One body's contact with one plane (`GpuPlaneContact`): its points (their core point indices as ids, their
// depths), at most MAX_PLANE_POINTS.
struct PlaneContact {
    count: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
    ids: vec4<u32>,
    depths: vec4<f32>,
    points: array<PlanePoint, 4>,
}

// One side of a contact while a point is solved: velocities and the inverse mass and inertia it is solved
// with (split by the body's contact count for a body pair, none for a plane).
struct Side {
    v: vec3<f32>,
    w: vec3<f32>,
    inverse_mass: f32,
    inverse_inertia: mat3x3<f32>,
}

// A point's accumulated impulses after one update, with both sides' velocities.
struct Solved {
    impulse: vec4<f32>,
    a: Side,
    b: Side,
}

// A velocity sum as the fixed-point integer the atomics add. WGSL has no float atomics, and integer sums do not
// depend on the order the contacts arrive in: a run is the same run on every dispatch. Each term is clamped to
// FIXED_LIMIT so that the sum of a body's terms cannot wrap.
fn to_fixed(x: f32) -> i32 {
    return i32(round(clamp(x, -FIXED_LIMIT, FIXED_LIMIT) * FIXED_SCALE));
}

fn from_fixed(x: i32) -> f32 {
    return f32(x) / FIXED_SCALE;
}

// Two unit tangents across `n`, glam's `any_orthonormal_pair` (`solver::tangents` on the CPU): the same for the
// same normal, so warm-started friction keeps its directions while the normal holds still.
fn tangents(n: vec3<f32>) -> array<vec3<f32>, 2> {
    let s = select(-1.0, 1.0, n.z >= 0.0);
    let a = -1.0 / (s + n.z);
    let b = n.x * n.y * a;
    return array<vec3<f32>, 2>(
        vec3<f32>(1.0 + s * n.x * n.x * a, s * b, -s * n.x),
        vec3<f32>(b, s + n.y * n.y * a, -n.y),
    );
}

// Inverse effective mass of an impulse along `d` at offset `r` of a side.
fn inverse_mass_along(side: Side, r: vec3<f32>, d: vec3<f32>) -> f32 {
    let rn = cross(r, d);
    return side.inverse_mass + dot(rn, side.inverse_inertia * rn);
}

fn inverse_or_zero(k: f32) -> f32 {
    return select(0.0, 1.0 / k, k > 0.0);
}

fn apply_impulse(side: Side, impulse: vec3<f32>, r: vec3<f32>) -> Side {
    var out = side;
    out.v = side.v + impulse * side.inverse_mass;
    out.w = side.w + side.inverse_inertia * cross(r, impulse);
    return out;
}

fn relative_velocity(a: Side, b: Side, r_a: vec3<f32>, r_b: vec3<f32>) -> vec3<f32> {
    return b.v + cross(b.w, r_b) - a.v - cross(a.w, r_a);
}

// One sequential-impulse update of one point (`iterate` in src/physics/solver.rs): friction along both tangents
// kept inside the Coulomb cone of the last normal impulse, then the normal impulse, each an accumulated total
// clamped (the normal one never pulls).
fn solve_point(p: SolverPoint, normal: vec3<f32>, a0: Side, b0: Side, friction: f32) -> Solved {
    let t = tangents(normal);
    var a = a0;
    var b = b0;
    var impulse = p.impulse;
    let bound = friction * impulse.x;
    let speed = relative_velocity(a, b, p.r_a.xyz, p.r_b.xyz);
    let old = impulse.yz;
    var next = vec2<f32>(
        old.x - dot(speed, t[0]) * p.masses.x,
        old.y - dot(speed, t[1]) * p.masses.y,
    );
    let size = sqrt(dot(next, next));
    if (size > bound) {
        next = next * select(0.0, bound / size, size > 0.0);
    }
    impulse = vec4<f32>(impulse.x, next, impulse.w);
    let tangent = t[0] * (next.x - old.x) + t[1] * (next.y - old.y);
    a = apply_impulse(a, -tangent, p.r_a.xyz);
    b = apply_impulse(b, tangent, p.r_b.xyz);
    let along = dot(relative_velocity(a, b, p.r_a.xyz, p.r_b.xyz), normal);
    let normal_impulse = max(impulse.x + (p.r_b.w - along) * p.r_a.w, 0.0);
    let push = normal * (normal_impulse - impulse.x);
    impulse.x = normal_impulse;
    a = apply_impulse(a, -push, p.r_a.xyz);
    b = apply_impulse(b, push, p.r_b.xyz);
    return Solved(impulse, a, b);
}

// One update of the position correction at one point (`iterate_push`): a normal impulse on the
// pseudo-velocities towards the point's push speed, accumulated and never pulling.
fn solve_push(p: SolverPoint, normal: vec3<f32>, a0: Side, b0: Side) -> Solved {
    var impulse = p.impulse;
    let along = dot(relative_velocity(a0, b0, p.r_a.xyz, p.r_b.xyz), normal);
    let push_impulse = max(impulse.w + (p.masses.z - along) * p.r_a.w, 0.0);
    let push = normal * (push_impulse - impulse.w);
    impulse.w = push_impulse;
    return Solved(impulse, apply_impulse(a0, -push, p.r_a.xyz), apply_impulse(b0, push, p.r_b.xyz));
}

// A static side: a plane, or a body that does not move this step.
fn static_side() -> Side {
    return Side(vec3<f32>(0.0), vec3<f32>(0.0), 0.0, mat3x3<f32>(vec3<f32>(0.0), vec3<f32>(0.0), vec3<f32>(0.0)));
}

// A body's side with its real velocities (`push` false) or its pseudo-velocities, its mass split `split` ways.
fn body_side(m: Motion, push: bool, split: f32) -> Side {
    let v = select(m.velocity.xyz, m.push.xyz, push);
    let w = select(m.angular.xyz, m.push_angular.xyz, push);
    return Side(v, w, m.velocity.w * split, m.inverse_inertia * split);
}

// The solver point of one body's plane point: effective masses from the body's unsplit inertia (a plane
// contact is solved in the body's own pass, not split), the push speed from the depth.
fn plane_solver_point(point: PlanePoint, depth: f32, normal: vec3<f32>, body: Side, params: SolverParams) -> SolverPoint {
    let t = tangents(normal);
    let r = point.r.xyz;
    let normal_mass = inverse_or_zero(inverse_mass_along(body, r, normal));
    let masses = vec4<f32>(
        inverse_or_zero(inverse_mass_along(body, r, t[0])),
        inverse_or_zero(inverse_mass_along(body, r, t[1])),
        params.baumgarte / params.dt * max(depth - params.slop, 0.0),
        0.0,
    );
    return SolverPoint(vec4<f32>(r, normal_mass), vec4<f32>(0.0, 0.0, 0.0, point.r.w), masses, point.impulse);
}

// Whether a pair slot's contact is one the solver works on: touching, with one to four points, between two
// distinct bodies of the world.
fn contact_usable(c: PhysicsContact, body_count: u32) -> bool {
    return c.bodies.w == PHYSICS_CONTACT_TOUCHING && c.bodies.z > 0u && c.bodies.z <= 4u
        && c.bodies.x < body_count && c.bodies.y < body_count && c.bodies.x != c.bodies.y;
}

fn is_asleep(b: PhysicsBody) -> bool {
    return (b.info.y & PHYSICS_BODY_ASLEEP) != 0u;
}

// The slot of body pair (a, b) in the hash table of the last step's slots: a multiplicative hash, as good as
// the table is large (twice the slots at least, so a probe ends at an empty entry).
fn pair_hash(a: u32, b: u32, size: u32) -> u32 {
    return ((a * 0x9e3779b1u) ^ (b * 0x85ebca77u + 0x165667b1u)) & (size - 1u);
}
