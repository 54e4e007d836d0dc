// The support scan of the subgroup kernel (gjk_subgroup.wgsl): the lanes of one subgroup answer one pair, each
// running the pair's GJK redundantly (the same arithmetic on the same data, so every lane holds the same state
// and takes the same branches), and split each support scan between them. The answer is the per-thread scan's
// (scan_thread.wgsl), bit for bit: the same dot products, the largest one, and on ties the first point.

// This invocation's rank among the active invocations of its subgroup, and their count, set once by the kernel
// (subgroupExclusiveAdd and subgroupAdd of 1): a subgroup of any size, or one the workgroup leaves partial,
// splits its scans over the lanes it has.
var<private> scan_lane: u32;
var<private> scan_lanes: u32;

// Lane l reads points l, l + S, l + 2S, ... (S lanes), so the subgroup's reads of one trip are neighbours in the
// pool (coalesced); four per loop trip, as the per-thread scan, to spare a software adapter's loop budget. Each
// lane keeps the first of its largest dot products; subgroupMax finds the largest of all, and subgroupMin of
// the indices of the lanes holding it the first point: the per-thread scan's first-index rule, as its strict
// `>` keeps the earliest point on a tie. NaN dot products never win there, and subgroupMax is undefined on
// them, so a lane skips them; a NaN first point (a NaN or infinite direction) wins there and is answered
// before the reduction. The scan reads the hull's own points, not its padding (copies of the first point,
// which never win). Every lane reaches the reductions: the subgroup's lanes leave the scan's loop together.
fn support_scan(h: GpuHull, dir: vec3<f32>) -> vec3<f32> {
    let first = vertices[h.offset].xyz;
    let first_dot = dot(first, dir);
    if (first_dot != first_dot) {
        count_support(1u);
        return first;
    }
    let none = 0xffffffffu;
    var best = none;
    var best_dot = bitcast<f32>(0xff800000u);
    var trips = 0u;
    var reads = 0u;
    let step = scan_lanes * 4u;
    for (var i = scan_lane; i < h.count; i = i + step) {
        for (var k = 0u; k < 4u; k = k + 1u) {
            let j = i + k * scan_lanes;
            if (j < h.count) {
                let d = dot(vertices[h.offset + j].xyz, dir);
                if (d > best_dot || (best == none && d == d)) {
                    best_dot = d;
                    best = j;
                }
                if (COUNTING == 1u) {
                    reads = reads + 1u;
                }
            }
        }
        trips = trips + 1u;
    }
    let expected = select(0u, (h.count - scan_lane + step - 1u) / step, scan_lane < h.count);
    if (subgroupAny(trips != expected)) {
        loop_cut = true;
    }
    let top = subgroupMax(best_dot);
    let index = subgroupMin(select(none, best, best_dot == top));
    count_support(reads);
    if (index >= h.count) {
        // Only a scan cut short (loop_cut is set) misses the first point.
        return first;
    }
    return vertices[h.offset + index].xyz;
}
