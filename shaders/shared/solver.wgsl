// The bounded-iteration GJK loop on the cores, radii as a margin: the twin of src/gjk/solver.rs, with the same
// functions under the same names (`GjkSearch::step` is `gjk_search_step` here), the same order of tests,
// tolerances and bound. The search's simplex travels beside it as its own pointer (`simplex`), not inside the
// struct: naga's SPIR-V backend cannot pass a pointer to a struct member to a function.

// How a search step ended (Stop in solver.rs; a WGSL-only encoding, never read by Rust).
const STOP_GO_ON: u32 = 0u;
const STOP_DECIDED: u32 = 1u;
const STOP_CONVERGED: u32 = 2u;
const STOP_CAPPED: u32 = 3u;

// The tolerances of one pair, in normalised units.
struct Tolerances {
    touch: f32,
    margin_touch2: f32,
}

// GJK's state between iterations (the simplex is kept beside it).
struct GjkSearch {
    v: vec3<f32>,
    vv: f32,
    iterations: u32,
    stalls: u32,
    // The square of the best lower bound on the core distance, v.w / |v|.
    lower2: f32,
    separated_by_lower_bound: bool,
    // The status a STOP_DECIDED step settled on.
    decided: u32,
}

fn gjk(q: PairQuery, kind: u32) -> GpuResult {
    var simplex: Simplex;
    return gjk_with_simplex(q, kind, &simplex);
}

// GJK leaving its final simplex in `simplex`, where EPA starts.
fn gjk_with_simplex(q: PairQuery, kind: u32, simplex: ptr<function, Simplex>) -> GpuResult {
    let touch = pair_query_touch_tolerance(q);
    let margin = pair_query_margin(q);
    let t = Tolerances(touch, (margin + touch) * (margin + touch));
    var search = gjk_search_start(q, simplex);
    let single_points = q.support.hull_a.count == 1u && q.support.hull_b.count == 1u;
    var stop = STOP_GO_ON;
    loop {
        stop = gjk_search_decided(&search, kind, t, single_points);
        if (stop != STOP_GO_ON) {
            break;
        }
        if (search.iterations >= params.max_iterations) {
            stop = STOP_CAPPED;
            break;
        }
        stop = gjk_search_step(&search, simplex, q, kind, t);
        if (stop != STOP_GO_ON) {
            break;
        }
    }
    let core_distance = sqrt(search.vv);
    var status = STATUS_MAX_ITERATIONS;
    if (stop == STOP_DECIDED) {
        status = search.decided;
    } else if (core_distance * core_distance <= t.margin_touch2) {
        status = STATUS_INTERSECTING;
    } else if (stop == STOP_CONVERGED) {
        status = STATUS_SEPARATED;
    }
    let exact = single_points || search.separated_by_lower_bound;
    if (!exact && !gjk_certified(&search, simplex, status, t, q.scale)) {
        status = STATUS_UNRESOLVED;
    }
    return gjk_search_answer(&search, simplex, q, status);
}

// The support points of A towards B and of B towards A.
fn gjk_search_start(q: PairQuery, simplex: ptr<function, Simplex>) -> GjkSearch {
    var dir = q.support.position_b;
    if (!(dot(dir, dir) > 0.0)) {
        dir = vec3<f32>(1.0, 0.0, 0.0);
    }
    (*simplex).len = 0u;
    simplex_push(simplex, support_a(q.support, dir), support_b(q.support, -dir));
    (*simplex).lambda = vec4<f32>(1.0, 0.0, 0.0, 0.0);
    var search: GjkSearch;
    search.v = (*simplex).w[0];
    search.vv = dot(search.v, search.v);
    search.iterations = 0u;
    search.stalls = 0u;
    search.lower2 = 0.0;
    search.separated_by_lower_bound = false;
    search.decided = STATUS_MAX_ITERATIONS;
    return search;
}

// The tests at the top of each iteration.
fn gjk_search_decided(s: ptr<function, GjkSearch>, kind: u32, t: Tolerances, single_points: bool) -> u32 {
    let vv = (*s).vv;
    if (vv <= t.touch * t.touch || (kind == KIND_INTERSECTION && vv <= t.margin_touch2)) {
        (*s).decided = STATUS_INTERSECTING;
        return STOP_DECIDED;
    }
    if (single_points) {
        return STOP_CONVERGED;
    }
    return STOP_GO_ON;
}

// One iteration: a new support point, the bounds, and the simplex reduced to the sub-simplex nearest the origin.
fn gjk_search_step(
    s: ptr<function, GjkSearch>,
    simplex: ptr<function, Simplex>,
    q: PairQuery,
    kind: u32,
    t: Tolerances,
) -> u32 {
    (*s).iterations = (*s).iterations + 1u;
    let v = (*s).v;
    let vv = (*s).vv;
    let a = support_a(q.support, -v);
    let b = support_b(q.support, v);
    let w = a - b;
    let vw = dot(v, w);
    if (vw > 0.0 && vw * vw > (*s).lower2 * vv) {
        (*s).lower2 = vw * vw / vv;
    }
    if (kind == KIND_INTERSECTION && vw > 0.0 && vw * vw > vv * t.margin_touch2) {
        (*s).separated_by_lower_bound = true;
        (*s).decided = STATUS_SEPARATED;
        return STOP_DECIDED;
    }
    let gap = vv - vw;
    let conv = CONVERGENCE_ULPS * EPSILON;
    if (gap <= conv * (vv + sqrt(vv) * q.scale) || simplex_contains(simplex, w)) {
        return STOP_CONVERGED;
    }

    // Extended in place and reduced only once the new point is taken; `simplex_pop` goes back (GjkSearch::step).
    let kept_before = (*simplex).len;
    simplex_push(simplex, a, b);
    let noise = NOISE_ULPS * EPSILON * sqrt(vv) * simplex_max_vertex_norm(simplex);
    var projection = simplex_project(simplex, false);
    // Never above the last |v|^2 nor below the lower bound, up to the rounding allowance.
    let floor = (*s).lower2 - LOWER_BOUND_NOISE_FACTOR * noise;
    if (!(projection.dist2 <= vv + noise) || projection.dist2 < floor) {
        projection = simplex_project(simplex, true);
    }
    if (!(projection.dist2 <= vv + noise) || projection.dist2 < floor) {
        simplex_pop(simplex);
        return STOP_CONVERGED;
    }
    // Only a decrease beyond the rounding allowance resets the count.
    var whole_triangle = false;
    if (projection.dist2 < vv - noise) {
        (*s).stalls = 0u;
    } else {
        if (!(projection.dist2 < vv)) {
            let plane = gjk_search_sliver_triangle(simplex, kept_before, projection, floor, vv + noise);
            if (plane.found) {
                projection = plane.projection;
                whole_triangle = true;
            }
        }
        (*s).stalls = (*s).stalls + 1u;
        if ((*s).stalls > MAX_STALLS) {
            simplex_pop(simplex);
            return STOP_CONVERGED;
        }
    }
    if (whole_triangle) {
        (*simplex).lambda = projection.lambda;
    } else {
        simplex_keep(simplex, projection);
    }
    (*s).v = projection.point;
    (*s).vv = projection.dist2;
    return STOP_GO_ON;
}

// A segment plus a new point the sign tests dropped again (the projection of the segment and the point pushed
// after its `kept_before` vertices gives the point no weight): the whole triangle's plane projection when the
// origin projects into it up to rounding (s2d_plane).
fn gjk_search_sliver_triangle(
    simplex: ptr<function, Simplex>,
    kept_before: u32,
    projection: Projection,
    floor: f32,
    allowed: f32,
) -> PlaneProjection {
    var none: PlaneProjection;
    none.found = false;
    if (kept_before != 2u || projection.lambda[2] > 0.0) {
        return none;
    }
    let plane = s2d_plane((*simplex).w);
    if (!plane.found || !(plane.projection.dist2 <= allowed) || plane.projection.dist2 < floor) {
        return none;
    }
    return plane;
}

// The result for `status`, from the final simplex.
fn gjk_search_answer(
    s: ptr<function, GjkSearch>,
    simplex: ptr<function, Simplex>,
    q: PairQuery,
    status: u32,
) -> GpuResult {
    let vv = (*s).vv;
    let core_distance = sqrt(vv);
    let cores = simplex_witnesses(simplex);
    var normal = vec3<f32>(0.0);
    if (vv > 0.0) {
        normal = -unit_or_zero(simplex_perpendicular(simplex, (*s).v));
    }
    var result: GpuResult;
    result.status = status;
    result.normal = normal;
    result.iterations = (*s).iterations;
    if (status != STATUS_INTERSECTING) {
        result.distance = core_distance - pair_query_margin(q);
        result.witness_a = cores.a + normal * q.radius_a;
        result.witness_b = cores.b - normal * q.radius_b;
        return result;
    }
    // A point in both shapes, in the middle of [max(0, d - rb), min(d, ra)] on the segment between the cores'
    // closest points from the weights (not along the normal); with overlapping cores, their common point.
    let gap = cores.b - cores.a;
    let d = sqrt(dot(gap, gap));
    let lo = max(d - q.radius_b, 0.0);
    var hi = d;
    if (q.radius_a < d) {
        hi = q.radius_a;
    }
    var contact = cores.a;
    if (d > 0.0) {
        contact = cores.a + gap * ((lo + hi) * 0.5 / d);
    }
    result.distance = 0.0;
    result.witness_a = contact;
    result.witness_b = contact;
    return result;
}

// Whether the answer is backed by GJK's own bounds (gjk_certified in solver.rs).
fn gjk_certified(
    s: ptr<function, GjkSearch>,
    simplex: ptr<function, Simplex>,
    status: u32,
    t: Tolerances,
    scale: f32,
) -> bool {
    let weighted = simplex_weighted_point(simplex);
    var upper = sqrt(dot(weighted, weighted));
    let largest = simplex_max_vertex_norm(simplex);
    if (status == STATUS_INTERSECTING) {
        return upper <= sqrt(t.margin_touch2) + INTERSECTION_CERTIFICATE_ULPS * EPSILON * largest;
    }
    if (status == STATUS_SEPARATED) {
        let reported = sqrt((*s).vv);
        upper = max(upper, reported);
        let direction_rounding = DIRECTION_ROUNDING_ULPS * EPSILON * largest * largest / upper;
        let cap = t.touch * DIRECTION_ROUNDING_CAP;
        let band = CERTIFICATE_ULPS * EPSILON * (upper + scale) + BOUND_ROUNDING_ULPS * EPSILON * largest
            + min(direction_rounding, cap);
        let lower = sqrt((*s).lower2);
        let drift_vector = weighted - (*s).v;
        let drift = sqrt(dot(drift_vector, drift_vector));
        return upper - lower <= band && reported >= lower - band && drift <= band + cap;
    }
    return true;
}
