// The support scan of the per-thread kernels: one invocation reads every point of the hull (the other scan,
// by a subgroup's lanes together, is scan_subgroup.wgsl).

// The hull point with the largest dot product with `dir`, the first one on ties (support_point on the CPU,
// which scans in the same order). Four points per loop trip: the pool pads each hull to a multiple of four
// with copies of its first point, which never win (a tie keeps the earlier point), so this picks what the
// CPU's linear scan picks with a quarter of the loop trips. A scan that makes fewer trips than it should was
// cut short by the adapter (see loop_budget.wgsl).
fn support_scan(h: GpuHull, dir: vec3<f32>) -> vec3<f32> {
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
    count_support(padded);
    return best;
}
