// The GPU broad phase (src/gpu/broad/): every pair of boxes that overlap, by the uniform grid of
// src/broad_phase/grid.rs. Each box is filed under the cell of its minimum corner; cells are at least as wide as
// the widest box, so two overlapping boxes are in the same cell or in neighbouring ones, and each box is compared
// with the boxes of its own cell that come after it and with every box of the 13 neighbouring cells after its
// cell in (x, y, z) order: every pair is found exactly once. The overlap test is the CPU's: closed intervals,
// the same float32 comparisons, so the pair set is the CPU grid's bit for bit.
//
// Cells are hashed into a table of power-of-two size and the boxes counting-sorted by bucket:
//   broad_cell_keys  each box's cell key and bucket, and the bucket histogram;
//   broad_scan       exclusive prefix sums of the histogram (one workgroup);
//   broad_scatter    each box's index into its bucket's range;
//   broad_pairs      each box visits its 14 cells' buckets and emits its pairs behind an atomic counter.
// Boxes of another cell that share a bucket are skipped by their key. The counter keeps counting past the pair
// buffer's capacity, so the host reads the size it needs: an overflow is reported and never silently cut.
//
// Constants emitted from Rust (src/gpu/broad/mod.rs): WORKGROUP_SIZE, CELL_BITS, MAX_CELL.

struct BroadParams {
    // Where cell (0, 0, 0) starts, and 1 / cell width.
    origin: vec3<f32>,
    inverse_cell: f32,
    box_count: u32,
    // Buckets - 1 (the table size is a power of two).
    table_mask: u32,
    pair_capacity: u32,
    _pad: u32,
}

@group(0) @binding(0) var<uniform> params: BroadParams;
// Box i: min at 2i, max at 2i + 1 (w unused).
@group(0) @binding(1) var<storage, read> boxes: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> keys: array<u32>;
@group(0) @binding(3) var<storage, read_write> counts: array<atomic<u32>>;
// Bucket b's boxes are sorted[starts[b] .. starts[b + 1]].
@group(0) @binding(4) var<storage, read_write> starts: array<u32>;
@group(0) @binding(5) var<storage, read_write> sorted: array<u32>;
@group(0) @binding(6) var<storage, read_write> pairs: array<vec2<u32>>;
// [0]: pairs found (may exceed the capacity); [1..4]: the indirect dispatch of one invocation per stored pair.
@group(0) @binding(7) var<storage, read_write> pair_count: array<atomic<u32>>;

fn cell_key(c: vec3<u32>) -> u32 {
    return (c.x << (2u * CELL_BITS)) | (c.y << CELL_BITS) | c.z;
}

fn cell_of_key(key: u32) -> vec3<u32> {
    return vec3<u32>(key >> (2u * CELL_BITS), (key >> CELL_BITS) & MAX_CELL, key & MAX_CELL);
}

fn bucket_of(c: vec3<u32>) -> u32 {
    return ((c.x * 73856093u) ^ (c.y * 19349663u) ^ (c.z * 83492791u)) & params.table_mask;
}

// The cell of a box's minimum corner (the host chose the grid so that the clamp never moves a box).
fn cell_of(p: vec3<f32>) -> vec3<u32> {
    let x = floor((p - params.origin) * params.inverse_cell);
    return vec3<u32>(clamp(x, vec3<f32>(0.0), vec3<f32>(f32(MAX_CELL))));
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn broad_cell_keys(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i >= params.box_count) {
        return;
    }
    let c = cell_of(boxes[2u * i].xyz);
    keys[i] = cell_key(c);
    atomicAdd(&counts[bucket_of(c)], 1u);
}

var<workgroup> partial: array<u32, WORKGROUP_SIZE>;

// One workgroup: each invocation sums a run of buckets, the run totals are scanned in workgroup memory, and each
// invocation writes its run's starts. starts[table size] is the box count.
@compute @workgroup_size(WORKGROUP_SIZE)
fn broad_scan(@builtin(local_invocation_index) t: u32) {
    let n = params.table_mask + 1u;
    let per = (n + WORKGROUP_SIZE - 1u) / WORKGROUP_SIZE;
    let begin = min(t * per, n);
    let end = min(begin + per, n);
    var sum = 0u;
    for (var k = begin; k < end; k++) {
        sum += atomicLoad(&counts[k]);
    }
    partial[t] = sum;
    workgroupBarrier();
    for (var offset = 1u; offset < WORKGROUP_SIZE; offset <<= 1u) {
        var before = 0u;
        if (t >= offset) {
            before = partial[t - offset];
        }
        workgroupBarrier();
        partial[t] += before;
        workgroupBarrier();
    }
    var run = partial[t] - sum;
    for (var k = begin; k < end; k++) {
        starts[k] = run;
        run += atomicLoad(&counts[k]);
    }
    if (t == WORKGROUP_SIZE - 1u) {
        starts[n] = partial[t];
    }
}

// Files each box in its bucket's range; the histogram counts down to zero, ready for the next frame.
@compute @workgroup_size(WORKGROUP_SIZE)
fn broad_scatter(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i >= params.box_count) {
        return;
    }
    let b = bucket_of(cell_of_key(keys[i]));
    let slot = starts[b] + atomicSub(&counts[b], 1u) - 1u;
    sorted[slot] = i;
}

fn emit(i: u32, j: u32) {
    let slot = atomicAdd(&pair_count[0], 1u);
    if (slot < params.pair_capacity) {
        pairs[slot] = vec2<u32>(min(i, j), max(i, j));
    }
}

// Compares box i with the boxes of cell `c` (only those after it in index order when `same`, its own cell).
fn visit(i: u32, a_min: vec3<f32>, a_max: vec3<f32>, c: vec3<u32>, same: bool) {
    let key = cell_key(c);
    let b = bucket_of(c);
    let end = starts[b + 1u];
    for (var s = starts[b]; s < end; s++) {
        let j = sorted[s];
        if (keys[j] != key || (same && j <= i)) {
            continue;
        }
        let b_min = boxes[2u * j].xyz;
        let b_max = boxes[2u * j + 1u].xyz;
        if (all(a_min <= b_max) && all(b_min <= a_max)) {
            emit(i, j);
        }
    }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn broad_pairs(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i >= params.box_count) {
        return;
    }
    let a_min = boxes[2u * i].xyz;
    let a_max = boxes[2u * i + 1u].xyz;
    let c = vec3<i32>(cell_of_key(keys[i]));
    visit(i, a_min, a_max, vec3<u32>(c), true);
    // The 13 neighbours after this cell: (x, y, z + 1), then (x, y + 1, z - 1..z + 1), then x + 1 with
    // y - 1..y + 1 and z - 1..z + 1.
    for (var dx = 0; dx <= 1; dx++) {
        for (var dy = -1; dy <= 1; dy++) {
            for (var dz = -1; dz <= 1; dz++) {
                let after = dx > 0 || (dy > 0) || (dy == 0 && dz > 0);
                let n = c + vec3<i32>(dx, dy, dz);
                let inside = all(n >= vec3<i32>(0)) && all(n <= vec3<i32>(i32(MAX_CELL)));
                if (after && inside) {
                    visit(i, a_min, a_max, vec3<u32>(n), false);
                }
            }
        }
    }
}

// The indirect dispatch of one invocation per stored pair, for the kernels that read the pairs (one workgroup,
// whose first invocation writes it).
@compute @workgroup_size(WORKGROUP_SIZE)
fn broad_dispatch_args(@builtin(local_invocation_index) t: u32) {
    if (t != 0u) {
        return;
    }
    let stored = min(atomicLoad(&pair_count[0]), params.pair_capacity);
    atomicStore(&pair_count[1], (stored + WORKGROUP_SIZE - 1u) / WORKGROUP_SIZE);
    atomicStore(&pair_count[2], 1u);
    atomicStore(&pair_count[3], 1u);
}
