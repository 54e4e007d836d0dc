// The expanding polytope algorithm on the cores, from the blown-up start tetrahedron: the twin of
// src/epa/expand.rs, within the first try's bounds (the CPU's second try, with bounds that grow with the hulls,
// has no GPU twin: a pair that outgrows these comes back PEN_EPA_OVERFLOW or PEN_EPA_MAX_ITERATIONS).

// EPA on the cores of a queued pair (GJK's final simplex in `task`).
fn expand(q: PairQuery, task: EpaTask) -> GpuPenetration {
    let eps = EPA_TOLERANCE * q.scale;
    var core_a = vec3<f32>(0.0);
    var core_b = vec3<f32>(0.0);
    for (var i = 0u; i < task.len; i = i + 1u) {
        core_a = core_a + task.a[i].xyz * task.a[i].w;
        core_b = core_b + task.b[i].xyz * task.a[i].w;
    }
    polytope_new();
    let start = blow_up(q, task, eps);
    if (start.kind == START_FLAT) {
        return flat_answer(q, core_a, core_b, start.normal);
    }
    if (start.kind == START_DEGENERATE) {
        return penetration_none(PEN_EPA_DEGENERATE);
    }
    let faces = array<vec3<u32>, 4>(
        vec3<u32>(0u, 1u, 2u),
        vec3<u32>(0u, 3u, 1u),
        vec3<u32>(0u, 2u, 3u),
        vec3<u32>(1u, 3u, 2u),
    );
    for (var f = 0u; f < 4u; f = f + 1u) {
        if (polytope_push_face(faces[f].x, faces[f].y, faces[f].z) != PUSH_OK) {
            // Rounding made the start tetrahedron flat after all.
            let w0 = poly_w(0u);
            let m = balanced(cross(poly_w(1u) - w0, poly_w(2u) - w0));
            let len = sqrt(dot(m, m));
            if (len > 0.0) {
                return flat_answer(q, core_a, core_b, m * (1.0 / len));
            }
            return penetration_none(PEN_EPA_DEGENERATE);
        }
    }
    let expansion = expansion_loop(q, eps);
    return contact(q, expansion.face, expansion.status, expansion.iterations);
}

// A - B with no thickness along `n`: moving B by the radii along it (towards B) separates the shapes.
fn flat_answer(q: PairQuery, core_a: vec3<f32>, core_b: vec3<f32>, n: vec3<f32>) -> GpuPenetration {
    return finish(q, PEN_PENETRATING, core_a, core_b, towards_b(q, n), pair_query_margin(q), 0u);
}

// How the expansion ended: the status, the last closest face and the number of expansions.
struct Expansion {
    status: u32,
    face: Face,
    iterations: u32,
}

// Expands until the closest face is on the boundary of A - B or a bound or a fold stops it.
fn expansion_loop(q: PairQuery, eps: f32) -> Expansion {
    var status = PEN_EPA_MAX_ITERATIONS;
    var iterations = 0u;
    // A copy, not a slot index: an expansion frees the closest face's slot and may reuse it.
    let first_best = polytope_closest_face();
    var face = Face(plane_of(first_best), corners_of(first_best));
    while (iterations < EPA_MAX_ITERATIONS) {
        let best = polytope_closest_face();
        // A new point that saw every face leaves no faces: only rounding gets there.
        if (best == face_slots) {
            status = PEN_EPA_DEGENERATE;
            break;
        }
        face = Face(plane_of(best), corners_of(best));
        let s = support_pair(q, face.plane.xyz);
        let w = s.a - s.b;
        if (!(dot(w, face.plane.xyz) - face.plane.w > eps)) {
            status = PEN_PENETRATING;
            break;
        }
        if (polytope_contains(w)) {
            status = PEN_EPA_DEGENERATE;
            break;
        }
        if (poly_vertices == EPA_MAX_VERTICES) {
            status = PEN_EPA_OVERFLOW;
            break;
        }
        iterations = iterations + 1u;
        let carved = polytope_carve_horizon(best, w);
        if (carved != PUSH_OK) {
            status = carved;
            break;
        }
        let k = polytope_push_vertex(s.a, s.b);
        var failed = PUSH_OK;
        for (var h = 0u; h < horizon_edges && failed == PUSH_OK; h = h + 1u) {
            failed = polytope_push_face(horizon_edge(h) & 0xffu, horizon_edge(h) >> 8u, k);
        }
        if (failed != PUSH_OK) {
            // The polytope is open now: answer from the best closed one.
            status = failed;
            break;
        }
    }
    return Expansion(status, face, iterations);
}
