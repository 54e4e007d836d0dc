// EPA's answer from its final face: the twin of src/epa/contact.rs.

// The answer from the closest `face` EPA ended on with `status`.
fn contact(q: PairQuery, found: Face, found_status: u32, iterations: u32) -> GpuPenetration {
    var face = found;
    var status = found_status;
    var lambda = unclamped_barycentric(face);
    if (status == PEN_PENETRATING) {
        let neighbour = coplanar_neighbour(q, face, lambda);
        face = neighbour.face;
        lambda = neighbour.lambda;
        // The closest face far on the wrong side of the origin, or the origin projecting clearly outside it:
        // the polytope was folded by rounding.
        let behind = face.plane.w < -EPA_TOUCH_SLACK * q.scale;
        let outside = min3(lambda) < -EPA_WEIGHT_SLACK;
        if (behind || outside) {
            status = PEN_EPA_DEGENERATE;
        }
    }
    let i = corner(face.corners, 0u);
    let j = corner(face.corners, 1u);
    let k = corner(face.corners, 2u);
    let weights = clamp_weights(lambda);
    let core_a = poly_a[i] * weights.x + poly_a[j] * weights.y + poly_a[k] * weights.z;
    let core_b = poly_b[i] * weights.x + poly_b[j] * weights.y + poly_b[k] * weights.z;
    return finish(q, status, core_a, core_b, face.plane.xyz, face.plane.w + pair_query_margin(q), iterations);
}

struct Neighbour {
    face: Face,
    lambda: vec3<f32>,
}

// Coplanar neighbours share the closest distance; only the one the origin projects into rebuilds exact contact
// points.
fn coplanar_neighbour(q: PairQuery, found: Face, found_lambda: vec3<f32>) -> Neighbour {
    let eps = EPA_TOLERANCE * q.scale;
    let parallel = 1.0 - EPA_COPLANAR_COSINE_SLACK;
    var best = Neighbour(found, found_lambda);
    for (var f = 0u; f < face_slots; f = f + 1u) {
        let other = Face(face_plane[f], face_corners[f]);
        if ((other.corners & FACE_ALIVE) != 0u
            && abs(other.plane.w - best.face.plane.w) <= eps
            && dot(other.plane.xyz, best.face.plane.xyz) > parallel) {
            let l = unclamped_barycentric(other);
            if (min3(l) > min3(best.lambda)) {
                best = Neighbour(other, l);
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
    let n = cross(b - a, c - a);
    let nn = dot(n, n);
    if (!(nn > 0.0)) {
        let third = 1.0 / 3.0;
        return vec3<f32>(third, third, third);
    }
    let u = dot(cross(c - b, p - b), n) / nn;
    let v = dot(cross(a - c, p - c), n) / nn;
    return vec3<f32>(u, v, 1.0 - u - v);
}

// Weights clamped to the triangle and renormalised, so the contact points stay on the shapes.
fn clamp_weights(l: vec3<f32>) -> vec3<f32> {
    let u = select(0.0, l.x, l.x > 0.0);
    let v = select(0.0, l.y, l.y > 0.0);
    let w = select(0.0, l.z, l.z > 0.0);
    let sum = u + v + w;
    if (!(sum > 0.0)) {
        let third = 1.0 / 3.0;
        return vec3<f32>(third, third, third);
    }
    return vec3<f32>(u / sum, v / sum, w / sum);
}
