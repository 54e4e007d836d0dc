// EPA's answer from its final face: the twin of src/epa/contact.rs.

// The answer from the closest `face` EPA ended on with `status`.
fn contact(q: PairQuery, found: Face, found_status: u32, iterations: u32) -> GpuPenetration {
    // The closest face gives the normal and the depth; a coplanar neighbour only the contact points.
    var face = found;
    var status = found_status;
    if (status == PEN_PENETRATING) {
        face = coplanar_neighbour(q, face);
    }
    let i = corner(face.corners, 0u);
    let j = corner(face.corners, 1u);
    let k = corner(face.corners, 2u);
    // The point of the face nearest the origin's projection on its plane gives the contact points.
    let projection = face.plane.xyz * face.plane.w;
    let shifted = array<vec3<f32>, 4>(
        poly_w(i) - projection,
        poly_w(j) - projection,
        poly_w(k) - projection,
        vec3<f32>(0.0),
    );
    let nearest = s2d(shifted, 0u, 1u, 2u, true);
    // A sliver face's weights sum to 1 only up to their rounding: normalised, as in contact.rs.
    var weights = nearest.lambda.xyz;
    let sum = weights.x + weights.y + weights.z;
    if (sum > 0.0) {
        weights = weights / sum;
    }
    if (status == PEN_PENETRATING) {
        // The closest face far on the wrong side of the origin, or the origin's projection far from the face
        // (a distance, not a weight): the polytope was folded by rounding.
        let slack = EPA_TOUCH_SLACK * q.scale;
        if (face.plane.w < -slack || !(nearest.dist2 <= slack * slack)) {
            status = PEN_EPA_DEGENERATE;
        }
    }
    let core_a = vertex_a(i) * weights.x + vertex_a(j) * weights.y + vertex_a(k) * weights.z;
    let core_b = vertex_b(i) * weights.x + vertex_b(j) * weights.y + vertex_b(k) * weights.z;
    return finish(q, status, core_a, core_b, found.plane.xyz, found.plane.w + pair_query_margin(q), iterations);
}

// Coplanar neighbours share the closest distance; only the one the origin projects into rebuilds exact contact
// points.
fn coplanar_neighbour(q: PairQuery, found: Face) -> Face {
    let eps = EPA_TOLERANCE * q.scale;
    let parallel = 1.0 - EPA_COPLANAR_COSINE_SLACK;
    var best = found;
    var best_lambda = unclamped_barycentric(found);
    for (var f = 0u; f < face_slots; f = f + 1u) {
        let other = Face(plane_of(f), corners_of(f));
        // Compared with the closest face, not the best so far, so a chain of neighbours cannot drift.
        if ((other.corners & FACE_ALIVE) != 0u
            && abs(other.plane.w - found.plane.w) <= eps
            && dot(other.plane.xyz, found.plane.xyz) > parallel) {
            let l = unclamped_barycentric(other);
            if (min3(l) > min3(best_lambda)) {
                best = other;
                best_lambda = l;
            }
        }
    }
    return best;
}

// A penetration answer from the cores' contact points, moved out by the radii along the normal.
fn finish(
    q: PairQuery,
    status: u32,
    core_a: vec3<f32>,
    core_b: vec3<f32>,
    normal: vec3<f32>,
    depth: f32,
    iterations: u32,
) -> GpuPenetration {
    var p: GpuPenetration;
    p.status = status;
    p.depth = select(0.0, depth, depth > 0.0);
    p.normal = normal;
    p.contact_a = core_a + normal * q.radius_a;
    p.contact_b = core_b - normal * q.radius_b;
    p.iterations = iterations;
    return p;
}

fn min3(l: vec3<f32>) -> f32 {
    var m = l.y;
    if (l.x < l.y) {
        m = l.x;
    }
    if (m < l.z) {
        return m;
    }
    return l.z;
}

// Barycentric weights of the origin's projection onto a face (negative outside the triangle).
fn unclamped_barycentric(face: Face) -> vec3<f32> {
    let a = poly_w(corner(face.corners, 0u));
    let b = poly_w(corner(face.corners, 1u));
    let c = poly_w(corner(face.corners, 2u));
    let p = face.plane.xyz * face.plane.w;
    let raw = cross(b - a, c - a);
    // Ratios of signed areas along the (balanced) normal, whose square cannot underflow.
    let n = balanced(raw);
    let area_n = dot(raw, n);
    if (!(area_n > 0.0)) {
        let third = 1.0 / 3.0;
        return vec3<f32>(third, third, third);
    }
    let u = dot(cross(c - b, p - b), n) / area_n;
    let v = dot(cross(a - c, p - c), n) / area_n;
    return vec3<f32>(u, v, 1.0 - u - v);
}
