// A solid hull as the separating axis test reads it on the GPU: the twin of `Polyhedron` (src/shape/polyhedron.rs),
// packed by src/gpu/sat/pack.rs into one array of 32-bit words, float32 values stored by their bits.
//
// A hull starts at its base word with a header of HULL_HEADER_WORDS words (from Rust: src/gpu/sat/pack.rs):
//   0 point count, 1 plane count, 2 edge count, 3 loose point count,
//   4 points, 5 planes, 6 edges, 7 `first`, 8 neighbours, 9 loose points (offsets from the base),
//   10..12 the points' mean, 13 whether to climb (1) or scan (0).
// Points are three floats each (the shape's local frame: centre + core point), planes four (unit outward normal,
// then the largest `normal . point` over the face), edges four words (its two points, the faces on either side),
// and the edge graph is in CSR form: the neighbours of point i are neighbours[first[i]..first[i + 1]].

fn poly_word(at: u32) -> u32 {
    return poly[at];
}

fn poly_float(at: u32) -> f32 {
    return bitcast<f32>(poly[at]);
}

fn poly_vec3(at: u32) -> vec3<f32> {
    return vec3<f32>(poly_float(at), poly_float(at + 1u), poly_float(at + 2u));
}

fn hull_point_count(hull: u32) -> u32 {
    return poly_word(hull);
}

fn hull_plane_count(hull: u32) -> u32 {
    return poly_word(hull + 1u);
}

fn hull_edge_count(hull: u32) -> u32 {
    return poly_word(hull + 2u);
}

fn hull_mean(hull: u32) -> vec3<f32> {
    return poly_vec3(hull + 10u);
}

fn hull_point(hull: u32, i: u32) -> vec3<f32> {
    return poly_vec3(hull + poly_word(hull + 4u) + 3u * i);
}

// The plane's unit normal in xyz and its offset in w.
fn hull_plane(hull: u32, k: u32) -> vec4<f32> {
    let at = hull + poly_word(hull + 5u) + 4u * k;
    return vec4<f32>(poly_vec3(at), poly_float(at + 3u));
}

// The edge's two points, then the faces on either side.
fn hull_edge(hull: u32, e: u32) -> vec4<u32> {
    let at = hull + poly_word(hull + 6u) + 4u * e;
    return vec4<u32>(poly_word(at), poly_word(at + 1u), poly_word(at + 2u), poly_word(at + 3u));
}

// The smallest `direction . point` over the hull's points, the twin of `Polyhedron::lowest`: small hulls scan four
// points per loop trip; bigger ones climb the edge graph from `start` (left at the lowest vertex found), then scan
// the points on no edge.
fn hull_lowest(hull: u32, direction: vec3<f32>, start: ptr<function, u32>) -> f32 {
    let count = hull_point_count(hull);
    if (poly_word(hull + 13u) == 0u) {
        var low = dot(direction, hull_point(hull, 0u));
        var trips = 0u;
        for (var i = 0u; i < count; i = i + 4u) {
            trips = trips + 1u;
            low = min(low, dot(direction, hull_point(hull, i)));
            if (i + 1u < count) { low = min(low, dot(direction, hull_point(hull, i + 1u))); }
            if (i + 2u < count) { low = min(low, dot(direction, hull_point(hull, i + 2u))); }
            if (i + 3u < count) { low = min(low, dot(direction, hull_point(hull, i + 3u))); }
        }
        if (trips != (count + 3u) / 4u) {
            loop_cut = true;
        }
        return low;
    }
    let first = hull + poly_word(hull + 7u);
    let neighbours = hull + poly_word(hull + 8u);
    var at = min(*start, count - 1u);
    if (poly_word(first + at) == poly_word(first + at + 1u)) {
        // A loose point: start from the first edge's lower end.
        at = hull_edge(hull, 0u).x;
    }
    var value = dot(direction, hull_point(hull, at));
    // Each step lowers the value, so the walk ends within `count` steps; a longer one is a cut loop.
    for (var steps = 0u; steps <= count; steps = steps + 1u) {
        var next = at;
        let end = poly_word(first + at + 1u);
        for (var j = poly_word(first + at); j < end; j = j + 1u) {
            let n = poly_word(neighbours + j);
            let v = dot(direction, hull_point(hull, n));
            if (v < value) {
                value = v;
                next = n;
            }
        }
        if (next == at) {
            break;
        }
        at = next;
    }
    *start = at;
    let loose = hull + poly_word(hull + 9u);
    let loose_count = poly_word(hull + 3u);
    for (var i = 0u; i < loose_count; i = i + 1u) {
        value = min(value, dot(direction, hull_point(hull, poly_word(loose + i))));
    }
    return value;
}
