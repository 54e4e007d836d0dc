// Support mappings and the pair as GJK and EPA see it: the twins of src/shape/support.rs and src/gjk/pair.rs.

// The hull point with the largest dot product with `dir`: climbed over the hull's adjacency when it has one
// (hulls of HILL_CLIMB_MIN_VERTICES vertices and more, as on the CPU), else scanned: by one invocation
// (scan_thread.wgsl) or by the lanes of a subgroup together (scan_subgroup.wgsl), whichever file the kernel is
// assembled with. A kernel built with CLIMBING = 0 (no uploaded hull climbs) leaves the climb out; a scan
// answers any hull.
fn support_hull(h: GpuHull, dir: vec3<f32>) -> vec3<f32> {
    if (CLIMBING == 1u && h.climbs == 1u) {
        return support_climb(h, dir);
    }
    return support_scan(h, dir);
}

// The start table's cell for `dir` (start_cell in src/shape/adjacency.rs): the cube face its largest component
// points at, then the other two components over that one in START_TABLE_SIDE steps. Any cell is a correct
// start, so rounding that puts a direction in the cell next door only lengthens the walk; the `min` keeps a
// zero or non-finite direction inside the table.
fn start_cell(dir: vec3<f32>) -> u32 {
    let a = abs(dir);
    var face: u32;
    var major: f32;
    var u: f32;
    var v: f32;
    if (a.x >= a.y && a.x >= a.z) {
        face = select(1u, 0u, dir.x > 0.0);
        major = a.x;
        u = dir.y;
        v = dir.z;
    } else if (a.y >= a.z) {
        face = 2u + select(1u, 0u, dir.y > 0.0);
        major = a.y;
        u = dir.z;
        v = dir.x;
    } else {
        face = 4u + select(1u, 0u, dir.z > 0.0);
        major = a.z;
        u = dir.x;
        v = dir.y;
    }
    let half = 0.5 * f32(START_TABLE_SIDE);
    let scale = half / major;
    let last = f32(START_TABLE_SIDE - 1u);
    let row = min(u32(clamp(u * scale + half, 0.0, last)), START_TABLE_SIDE - 1u);
    let column = min(u32(clamp(v * scale + half, 0.0, last)), START_TABLE_SIDE - 1u);
    return (face * START_TABLE_SIDE + row) * START_TABLE_SIDE + column;
}

// Entry `k` of a run of numbers stored four to a pool entry from `base` (see src/gpu/hulls.rs).
fn pool_number(base: u32, k: u32) -> f32 {
    return vertices[base + k / 4u][k % 4u];
}

// The walk of HullAdjacency::climb on the CPU: from the start table's vertex for `dir`, move to the highest
// neighbour (the first in the list on ties, lists ascending) while it is strictly higher. On a convex hull the
// vertex with no higher neighbour is the support vertex. Each step goes strictly higher, so no vertex is
// visited twice and `count` steps bound the walk, as they bound each neighbour list. The CPU also starts from
// its previous answer when that is higher; on a face or an edge perpendicular to `dir` the two may then stop
// on different vertices of it, with the same support value up to rounding.
fn support_climb(h: GpuHull, dir: vec3<f32>) -> vec3<f32> {
    let tables = h.offset + ((h.count + 3u) & ~3u);
    let lists = tables + START_CELLS / 4u;
    var at = vertices[h.offset + u32(pool_number(tables, start_cell(dir)))];
    var height = dot(at.xyz, dir);
    var reads = 1u;
    for (var step = 0u; step < h.count; step = step + 1u) {
        var next = at;
        var next_height = height;
        var k = u32(at.w);
        for (var listed = 0u; listed < h.count; listed = listed + 1u) {
            let n = pool_number(lists, k);
            if (n == END_OF_NEIGHBOURS) {
                break;
            }
            let p = vertices[h.offset + u32(n)];
            if (COUNTING == 1u) {
                reads = reads + 1u;
            }
            let d = dot(p.xyz, dir);
            if (d > next_height) {
                next_height = d;
                next = p;
            }
            k = k + 1u;
        }
        if (!(next_height > height)) {
            break;
        }
        at = next;
        height = next_height;
    }
    count_support(reads);
    return at.xyz;
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
