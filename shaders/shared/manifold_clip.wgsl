// Contact manifold clipping, shared by the kernels that build manifolds (shaders/manifold.wgsl,
// shaders/physics_contacts.wgsl): the WGSL twin of `manifold_in_a_from` (src/manifold/), in float32 in A's local
// frame, B placed by the `turn` and `shift` privates. From a contact normal, its depth and a deepest contact pair
// (`ClipSeed`), it finds each hull's feature facing the other, clips the incident feature against the reference
// face's side planes (Sutherland-Hodgman) in private arrays of at most MANIFOLD_MAX_POLYGON points, keeps the
// points deep enough, adds the seed's pair where none is as deep, and reduces to four (deepest, farthest, largest
// triangle, largest area beyond it), with feature ids.
//
// A hull (packed by src/gpu/manifold/pack.rs into the kernel's `mhull` binding) starts at its base word with a
// header of 8 words: 0 point count, 1 face count, 2 points, 3 faces, 4 face loops (offsets from the base). Points
// are three floats (the shape's local frame: centre + core point), faces five words (unit outward normal, first
// loop word, vertex count), the loops core point indices, counterclockwise seen from outside.
//
// From Rust (src/gpu/manifold/codes.rs, src/manifold): MANIFOLD_MAX_POLYGON, the most points the clipped polygon
// may hold, and MANIFOLD_MAX_CANDIDATES; MANIFOLD_FACE_MIN_ALIGNMENT, MANIFOLD_FACE_TIE and
// MANIFOLD_REFERENCE_BIAS (FACE_MIN_ALIGNMENT, FACE_TIE and REFERENCE_BIAS); FEATURE_VERTEX, FEATURE_EDGE, FEATURE_FACE and FEATURE_DEEPEST, the
// feature id kinds (`FeatureKind`) in the top two bits; EDGE_MIN_FRACTION, below which a side plane's edge (a
// fraction of the coordinates' size) is rounding; MANIFOLD_TIE_FRACTION, the four-point choice's tie band (a
// fraction of the polygon's reach squared), and MANIFOLD_SUPPORT_TIE_FRACTION, the support vertex's (a fraction
// of the hull's reach).

// A clipped point's edge "along" word: an incident edge's id side (top bit clear), or this bit with a side plane.
const ALONG_SIDE: u32 = 0x80000000u;

fn feature_code(kind: u32, index: u32) -> u32 {
    return (kind << 30u) | (index & 0x3fffffffu);
}

fn mh_word(at: u32) -> u32 {
    return mhull[at];
}

fn mh_vec3(at: u32) -> vec3<f32> {
    return vec3<f32>(bitcast<f32>(mhull[at]), bitcast<f32>(mhull[at + 1u]), bitcast<f32>(mhull[at + 2u]));
}

fn mh_point_count(hull: u32) -> u32 {
    return mh_word(hull);
}

fn mh_face_count(hull: u32) -> u32 {
    return mh_word(hull + 1u);
}

fn mh_point(hull: u32, i: u32) -> vec3<f32> {
    return mh_vec3(hull + mh_word(hull + 2u) + 3u * i);
}

fn mh_face(hull: u32, k: u32) -> u32 {
    return hull + mh_word(hull + 3u) + 5u * k;
}

fn mh_loop(hull: u32, j: u32) -> u32 {
    return mh_word(hull + mh_word(hull + 4u) + j);
}

var<private> turn: mat3x3<f32>;
var<private> shift: vec3<f32>;

// One shape's contact feature in A's frame: a face (kind FEATURE_FACE) or a vertex (FEATURE_VERTEX).
struct Feature {
    hull: u32,
    // 0 for A, 1 for B.
    side: u32,
    kind: u32,
    // The face's index, or the vertex's core index.
    index: u32,
    normal: vec3<f32>,
    alignment: f32,
    count: u32,
    start: u32,
    code: u32,
}

fn placed_direction(side: u32, v: vec3<f32>) -> vec3<f32> {
    if (side == 1u) {
        return turn * v;
    }
    return v;
}

fn placed_point(side: u32, p: vec3<f32>) -> vec3<f32> {
    if (side == 1u) {
        return turn * p + shift;
    }
    return p;
}

fn feature_index(f: Feature, j: u32) -> u32 {
    if (f.kind == FEATURE_VERTEX) {
        return f.index;
    }
    return mh_loop(f.hull, f.start + j);
}

fn feature_point(f: Feature, j: u32) -> vec3<f32> {
    return placed_point(f.side, mh_point(f.hull, feature_index(f, j)));
}

// The twin of `feature`: the face most aligned with `towards` (the first on ties), or the support vertex when
// none is aligned within FACE_MIN_ALIGNMENT (the first within the support tie band). Faces are ranked by their
// normal's squared distance from `towards` (2 - 2 cos): near 1 a float32 cosine cannot tell apart faces a few
// 1e-4 rad apart (a hull pressed flat), the distance can.
fn find_feature(hull: u32, side: u32, towards: vec3<f32>) -> Feature {
    // The best alignment, then among the faces within MANIFOLD_FACE_TIE of it the one of most vertices (the
    // first where they tie too), as `feature` in src/manifold/features.rs: nearly coplanar faces a hull kept
    // apart rank differently in float32 and float64.
    var aligned = -3.4028235e38;
    let faces = mh_face_count(hull);
    for (var k = 0u; k < faces; k = k + 1u) {
        aligned = max(aligned, dot(placed_direction(side, mh_vec3(mh_face(hull, k))), towards));
    }
    var best_k = 0u;
    var most = 0u;
    for (var k = 0u; k < faces; k = k + 1u) {
        let at = mh_face(hull, k);
        let tied = dot(placed_direction(side, mh_vec3(at)), towards) >= aligned - MANIFOLD_FACE_TIE;
        if (tied && mh_word(at + 4u) > most) {
            most = mh_word(at + 4u);
            best_k = k;
        }
    }
    let best = dot(placed_direction(side, mh_vec3(mh_face(hull, best_k))), towards);
    if (faces > 0u && best >= MANIFOLD_FACE_MIN_ALIGNMENT) {
        let at = mh_face(hull, best_k);
        return Feature(
            hull, side, FEATURE_FACE, best_k, placed_direction(side, mh_vec3(at)), best, mh_word(at + 4u),
            mh_word(at + 3u), feature_code(FEATURE_FACE, best_k),
        );
    }
    var local = towards;
    if (side == 1u) {
        local = transpose(turn) * towards;
    }
    // The first vertex whose support is within MANIFOLD_SUPPORT_TIE_FRACTION of the reach of the highest.
    let count = mh_point_count(hull);
    var high = -3.4028235e38;
    var reach = 0.0;
    for (var i = 0u; i < count; i = i + 1u) {
        let p = mh_point(hull, i);
        high = max(high, dot(p, local));
        reach = max(reach, length(p));
    }
    let lowest = high - MANIFOLD_SUPPORT_TIE_FRACTION * reach;
    var best_i = 0u;
    for (var i = 0u; i < count; i = i + 1u) {
        if (dot(mh_point(hull, i), local) >= lowest) {
            best_i = i;
            break;
        }
    }
    return Feature(hull, side, FEATURE_VERTEX, best_i, towards, 1.0, 1u, 0u, feature_code(FEATURE_VERTEX, best_i));
}

// The clipped polygon, and the next one being built.
var<private> poly_p: array<vec3<f32>, MANIFOLD_MAX_POLYGON>;
var<private> poly_inc: array<u32, MANIFOLD_MAX_POLYGON>;
var<private> poly_ref: array<u32, MANIFOLD_MAX_POLYGON>;
var<private> poly_along: array<u32, MANIFOLD_MAX_POLYGON>;
var<private> poly_count: u32;
var<private> next_p: array<vec3<f32>, MANIFOLD_MAX_POLYGON>;
var<private> next_inc: array<u32, MANIFOLD_MAX_POLYGON>;
var<private> next_ref: array<u32, MANIFOLD_MAX_POLYGON>;
var<private> next_along: array<u32, MANIFOLD_MAX_POLYGON>;
var<private> next_count: u32;
var<private> overflow: bool;

fn push_next(p: vec3<f32>, inc: u32, reference: u32, along: u32) {
    if (next_count >= MANIFOLD_MAX_POLYGON) {
        overflow = true;
        return;
    }
    next_p[next_count] = p;
    next_inc[next_count] = inc;
    next_ref[next_count] = reference;
    next_along[next_count] = along;
    next_count = next_count + 1u;
}

// The reference vertex between kept side planes `a` and `b` of the reference polygon, when they are neighbours;
// `fallback` otherwise.
fn shared_vertex(reference: Feature, a: u32, b: u32, fallback: u32) -> u32 {
    let n = reference.count;
    if ((a + 1u) % n == b) {
        return feature_code(FEATURE_VERTEX, feature_index(reference, b));
    }
    if ((b + 1u) % n == a) {
        return feature_code(FEATURE_VERTEX, feature_index(reference, a));
    }
    return fallback;
}

// Clips the incident feature (in poly_*) against the reference polygon's side planes along `normal`.
fn clip_polygon(reference: Feature, incident: Feature, normal: vec3<f32>) {
    let rn = reference.count;
    var size = 0.0;
    for (var j = 0u; j < rn; j = j + 1u) {
        let p = abs(feature_point(reference, j));
        size = max(size, max(p.x, max(p.y, p.z)));
    }
    var kept = 0u;
    for (var j = 0u; j < rn; j = j + 1u) {
        if (length(feature_point(reference, (j + 1u) % rn) - feature_point(reference, j)) > EDGE_MIN_FRACTION * size) {
            kept = kept + 1u;
        }
    }
    if (kept < min(rn, 3u)) {
        poly_count = 0u;
        return;
    }
    var sign = 1.0;
    if (dot(reference.normal, normal) < 0.0) {
        sign = -1.0;
    }
    let towards = normal * sign;
    var jj = 0u;
    for (var j = 0u; j < rn; j = j + 1u) {
        if (poly_count == 0u) {
            break;
        }
        let r0 = feature_point(reference, j);
        let edge = feature_point(reference, (j + 1u) % rn) - r0;
        if (!(length(edge) > EDGE_MIN_FRACTION * size)) {
            continue;
        }
        let side_normal = cross(edge, towards);
        let offset = dot(side_normal, r0);
        let crossing_code = feature_code(FEATURE_EDGE, feature_index(reference, j));
        next_count = 0u;
        let count = poly_count;
        for (var k = 0u; k < count; k = k + 1u) {
            let p = poly_p[k];
            let q = poly_p[(k + 1u) % count];
            let dp = dot(side_normal, p) - offset;
            let dq = dot(side_normal, q) - offset;
            let along = poly_along[k];
            var at = p;
            var cross_inc = 0u;
            var cross_ref = 0u;
            if ((dp <= 0.0 && dq > 0.0) || (dp > 0.0 && dq <= 0.0)) {
                let t = dp / (dp - dq);
                at = p + (q - p) * t;
                if ((along & ALONG_SIDE) == 0u) {
                    cross_inc = along;
                    cross_ref = crossing_code;
                } else {
                    cross_inc = incident.code;
                    cross_ref = shared_vertex(reference, along & 0xffffu, jj, crossing_code);
                }
            }
            if (dp <= 0.0) {
                push_next(p, poly_inc[k], poly_ref[k], along);
                if (dq > 0.0 && count > 1u) {
                    push_next(at, cross_inc, cross_ref, ALONG_SIDE | jj);
                }
            } else if (dq <= 0.0 && count > 1u) {
                push_next(at, cross_inc, cross_ref, along);
            }
        }
        poly_count = next_count;
        for (var k = 0u; k < next_count; k = k + 1u) {
            poly_p[k] = next_p[k];
            poly_inc[k] = next_inc[k];
            poly_ref[k] = next_ref[k];
            poly_along[k] = next_along[k];
        }
        jj = jj + 1u;
    }
}

// Candidate points: on A, on B, depth, ids.
var<private> cand_a: array<vec3<f32>, MANIFOLD_MAX_CANDIDATES>;
var<private> cand_b: array<vec3<f32>, MANIFOLD_MAX_CANDIDATES>;
var<private> cand_depth: array<f32, MANIFOLD_MAX_CANDIDATES>;
var<private> cand_id: array<vec2<u32>, MANIFOLD_MAX_CANDIDATES>;
var<private> cand_count: u32;
// Indices of the points kept after merging, deepest first.
var<private> kept_index: array<u32, MANIFOLD_MAX_CANDIDATES>;
var<private> kept_count: u32;
var<private> flat: array<vec3<f32>, MANIFOLD_MAX_CANDIDATES>;

fn push_candidate(on_a: vec3<f32>, on_b: vec3<f32>, depth: f32, id: vec2<u32>) {
    cand_a[cand_count] = on_a;
    cand_b[cand_count] = on_b;
    cand_depth[cand_count] = depth;
    cand_id[cand_count] = id;
    cand_count = cand_count + 1u;
}

// A kept point's score for `pick`: its squared distance from `a` (kind 0), the triangle it spans with `a` and `b`
// (1), or the area it adds beyond the edge of triangle a b c it lies outside of (2).
fn pick_score(
    score_kind: u32, p: vec3<f32>, a: vec3<f32>, b: vec3<f32>, c: vec3<f32>, turn_sign: f32, normal: vec3<f32>,
) -> f32 {
    if (score_kind == 0u) {
        return dot(p - a, p - a);
    }
    if (score_kind == 1u) {
        return abs(dot(cross(b - a, p - a), normal));
    }
    let s0 = -turn_sign * dot(cross(b - a, p - a), normal);
    let s1 = -turn_sign * dot(cross(c - b, p - b), normal);
    let s2 = -turn_sign * dot(cross(a - c, p - c), normal);
    return max(s0, max(s1, s2));
}

// The twin of `reduce`'s `pick`: of the kept points (by position in kept_index) not among `taken` whose score is
// within `tie` of the highest (a NaN counts as tied), the one with the smallest feature id (A's side, then B's),
// the first on equal ids. Scores closer than `tie` round apart differently in float32 and float64; ids do not.
fn pick(
    score_kind: u32, a: vec3<f32>, b: vec3<f32>, c: vec3<f32>, turn_sign: f32, normal: vec3<f32>, taken: vec3<u32>,
    taken_count: u32, tie: f32,
) -> u32 {
    var best_score = -3.4028235e38;
    for (var k = 0u; k < kept_count; k = k + 1u) {
        if (k == taken.x || (taken_count > 1u && k == taken.y) || (taken_count > 2u && k == taken.z)) {
            continue;
        }
        best_score = max(best_score, pick_score(score_kind, flat[k], a, b, c, turn_sign, normal));
    }
    var best = 0u;
    var best_id = vec2<u32>(0u);
    var found = false;
    for (var k = 0u; k < kept_count; k = k + 1u) {
        if (k == taken.x || (taken_count > 1u && k == taken.y) || (taken_count > 2u && k == taken.z)) {
            continue;
        }
        let score = pick_score(score_kind, flat[k], a, b, c, turn_sign, normal);
        if (score < best_score - tie) {
            continue;
        }
        let id = cand_id[kept_index[k]];
        if (!found || id.x < best_id.x || (id.x == best_id.x && id.y < best_id.y)) {
            found = true;
            best = k;
            best_id = id;
        }
    }
    return best;
}

// The incident feature as the polygon to clip (a vertex against a vertex: the pair itself), then clipped.
fn clip_incident(reference: Feature, incident: Feature, normal: vec3<f32>) {
    poly_count = 0u;
    if (reference.count == 1u) {
        poly_p[0] = feature_point(incident, 0u);
        poly_inc[0] = incident.code;
        poly_ref[0] = reference.code;
        poly_count = 1u;
        return;
    }
    if (incident.count > MANIFOLD_MAX_POLYGON) {
        overflow = true;
        return;
    }
    let n = incident.count;
    for (var j = 0u; j < n; j = j + 1u) {
        let i = feature_index(incident, j);
        var edge = i;
        if (n == 2u) {
            edge = feature_index(incident, 0u);
        }
        poly_p[j] = feature_point(incident, j);
        poly_inc[j] = feature_code(FEATURE_VERTEX, i);
        poly_ref[j] = reference.code;
        poly_along[j] = feature_code(FEATURE_EDGE, edge);
    }
    poly_count = n;
    clip_polygon(reference, incident, normal);
}

// Each clipped point with its reference partner, kept when deep enough; the seed's deepest pair where none is as
// deep.
fn gather_candidates(reference: Feature, a_is_reference: bool, seed: ClipSeed) {
    let normal = seed.normal;
    let epa_depth = seed.depth;
    let margin = seed.margin;
    let slack = seed.slack;
    cand_count = 0u;
    var deepest = -3.4028235e38;
    let r0 = feature_point(reference, 0u);
    let m = reference.normal;
    for (var j = 0u; j < poly_count; j = j + 1u) {
        let p = poly_p[j];
        var partner = r0;
        if (reference.count > 1u) {
            partner = p + normal * ((dot(m, r0) - dot(m, p)) / dot(m, normal));
        }
        var on_a = partner;
        var on_b = p;
        var ids = vec2<u32>(poly_ref[j], poly_inc[j]);
        if (!a_is_reference) {
            on_a = p;
            on_b = partner;
            ids = vec2<u32>(poly_inc[j], poly_ref[j]);
        }
        let depth = dot(on_a - on_b, normal);
        if (depth >= -margin && abs(depth) <= 3.4028235e38) {
            push_candidate(on_a, on_b, depth, ids);
            deepest = max(deepest, depth);
        }
    }
    if (deepest < epa_depth - slack) {
        let deep = feature_code(FEATURE_DEEPEST, 0u);
        push_candidate(seed.contact_a, seed.contact_b, epa_depth, vec2<u32>(deep, deep));
    }
}

// The candidates deepest first without near-duplicates (in kept_index), then at most four of them: the twin of
// `reduce`. Returns the chosen positions in kept_index (the first min(kept_count, 4) of them count).
fn reduce_candidates(normal: vec3<f32>, merge: f32) -> vec4<u32> {
    // Deepest first, stable: each candidate's place is the number of deeper ones and of equally deep ones
    // before it (an insertion sort's `while` came out wrong on wgpu's OpenGL backend). Then near-duplicates on B
    // are dropped.
    var order: array<u32, MANIFOLD_MAX_CANDIDATES>;
    for (var j = 0u; j < cand_count; j = j + 1u) {
        var place = 0u;
        for (var i = 0u; i < cand_count; i = i + 1u) {
            if (cand_depth[i] > cand_depth[j] || (cand_depth[i] == cand_depth[j] && i < j)) {
                place = place + 1u;
            }
        }
        order[place] = j;
    }
    kept_count = 0u;
    for (var j = 0u; j < cand_count; j = j + 1u) {
        let c = order[j];
        var distinct = true;
        for (var q = 0u; q < kept_count; q = q + 1u) {
            if (!(distance(cand_b[kept_index[q]], cand_b[c]) > merge)) {
                distinct = false;
            }
        }
        if (distinct) {
            kept_index[kept_count] = c;
            flat[kept_count] = cand_b[c] - normal * dot(cand_b[c], normal);
            kept_count = kept_count + 1u;
        }
    }
    if (kept_count <= 4u) {
        return vec4<u32>(0u, 1u, 2u, 3u);
    }
    let a = flat[0];
    var reach_squared = 0.0;
    for (var k = 0u; k < kept_count; k = k + 1u) {
        reach_squared = max(reach_squared, dot(flat[k] - a, flat[k] - a));
    }
    let tie = MANIFOLD_TIE_FRACTION * reach_squared;
    let second = pick(0u, a, a, a, 1.0, normal, vec3<u32>(0u), 1u, tie);
    let b = flat[second];
    let third = pick(1u, a, b, a, 1.0, normal, vec3<u32>(0u, second, 0u), 2u, tie);
    let c = flat[third];
    var turn_sign = 1.0;
    if (dot(cross(b - a, c - a), normal) < 0.0) {
        turn_sign = -1.0;
    }
    let fourth = pick(2u, a, b, c, turn_sign, normal, vec3<u32>(0u, second, third), 3u, tie);
    return vec4<u32>(0u, second, third, fourth);
}

// What the clipping starts from, in A's frame: the unit contact normal from A towards B and the pair's depth
// along it, the deepest contact pair the normal's algorithm found (on A, on B: EPA's contact pair, or the pair the
// separating axis implies), the touching margin, the deepest point's slack and the merge distance (each already
// scaled by the pair's size).
struct ClipSeed {
    normal: vec3<f32>,
    depth: f32,
    contact_a: vec3<f32>,
    contact_b: vec3<f32>,
    margin: f32,
    slack: f32,
    merge: f32,
}

// The manifold of hulls `hull_a` and `hull_b` (base words in `mhull`), B placed by the `turn` and `shift`
// privates: the twin of `manifold_in_a_from`. Leaves the candidates in cand_* and kept_index, sets `overflow` when
// the clipped polygon outgrows MANIFOLD_MAX_POLYGON, and returns the chosen positions in kept_index (the first
// min(kept_count, 4) of them count).
fn manifold_clip(hull_a: u32, hull_b: u32, seed: ClipSeed) -> vec4<u32> {
    overflow = false;
    let normal = seed.normal;
    let face_a = find_feature(hull_a, 0u, normal);
    let face_b = find_feature(hull_b, 1u, -normal);
    let rank_a = min(face_a.count, 3u);
    let rank_b = min(face_b.count, 3u);
    var a_is_reference = rank_a > rank_b;
    if (rank_a == rank_b) {
        a_is_reference = face_a.alignment + MANIFOLD_REFERENCE_BIAS >= face_b.alignment;
    }
    var reference = face_b;
    var incident = face_a;
    if (a_is_reference) {
        reference = face_a;
        incident = face_b;
    }
    clip_incident(reference, incident, normal);
    gather_candidates(reference, a_is_reference, seed);
    return reduce_candidates(normal, seed.merge);
}
