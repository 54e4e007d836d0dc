// Support mappings and the pair as GJK and EPA see it: the twins of src/shape/support.rs and src/gjk/pair.rs.

// The hull point with the largest dot product with `dir`, the first one on ties (support_point on the CPU,
// which scans in the same order). Four points per loop trip: the pool pads each hull to a multiple of four
// with copies of its first point, which never win (a tie keeps the earlier point), so this picks what the
// CPU's linear scan picks with a quarter of the loop trips. A scan that makes fewer trips than it should was
// cut short by the adapter (see loop_budget.wgsl).
fn support_hull(h: GpuHull, dir: vec3<f32>) -> vec3<f32> {
    let padded = (h.count + 3u) & ~3u;
    var best = vertices[h.offset].xyz;
    var best_dot = dot(best, dir);
    var trips = 0u;
    for (var i = 0u; i < padded; i = i + 4u) {
        for (var k = 0u; k < 4u; k = k + 1u) {
            let p = vertices[h.offset + i + k].xyz;
            let d = dot(p, dir);
            if (d > best_dot) {
                best_dot = d;
                best = p;
            }
        }
        trips = trips + 1u;
    }
    if (trips != padded / 4u) {
        loop_cut = true;
    }
    return best;
}

// Two centred point sets in the pair-local frame, times `unit` (PairSupport in pair.rs).
struct PairSupport {
    hull_a: GpuHull,
    hull_b: GpuHull,
    rotation_b: mat3x3<f32>,
    position_b: vec3<f32>,
    unit: f32,
}

// The support point of A along `dir`, in A's frame.
fn support_a(pair: PairSupport, dir: vec3<f32>) -> vec3<f32> {
    return support_hull(pair.hull_a, dir) * pair.unit;
}

// The support point of B along `dir` (in A's frame), in A's frame.
fn support_b(pair: PairSupport, dir: vec3<f32>) -> vec3<f32> {
    // transpose(m) * dir is the inverse rotation, as mat_mul_transposed on the CPU.
    let local_dir = dir * pair.rotation_b;
    return pair.rotation_b * support_hull(pair.hull_b, local_dir) * pair.unit + pair.position_b;
}

// One pair ready for GJK and EPA (PairQuery in pair.rs): supports, radii and scale in normalised units. The
// settings come from `params`.
struct PairQuery {
    support: PairSupport,
    radius_a: f32,
    radius_b: f32,
    scale: f32,
}

fn pair_query_margin(q: PairQuery) -> f32 {
    return q.radius_a + q.radius_b;
}

fn pair_query_touch_tolerance(q: PairQuery) -> f32 {
    return params.touch_tolerance * q.scale;
}
