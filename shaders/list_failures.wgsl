// Kernel `list_failures`: appends every pair of the chunk that the GPU answered with a failure status to a
// compacted list, one invocation per pair, run in the chunk's submission right after `gjk_kernel` (and
// `mark_bodies`) over the same pairs and `results` words (full records, FORMAT_FULL). An atomic counter hands
// out the entries; a failure beyond the list's capacity is still counted, so the host knows how many it lost
// (src/gpu/failure_list.rs). The pass also counts the colliding pairs, so a frame whose pairs stay on the device
// knows how many collide without reading the answers back. Such a frame reads the list back with its sample, and
// the CPU answers every listed pair on the poses the entry carries.

// The GJK kernel's answers for this chunk, 12 words a pair (GpuResult).
@group(0) @binding(5) var<storage, read_write> results: array<u32>;

// Header (16 bytes), then PAIR_ENTRY_WORDS words an entry: the pair's two instance indices, two zero words,
// the pair's record (12 words), and the two instances' records (8 words each).
struct FailureList {
    // Failures found since the host reset the list, listed or not.
    count: atomic<u32>,
    // Entries the list holds (set by the host).
    capacity: u32,
    // Pairs answered intersecting since the host reset the list.
    colliding: atomic<u32>,
    pad: u32,
    words: array<u32>,
}

@group(1) @binding(0) var<storage, read_write> failures: FailureList;

@compute @workgroup_size(WORKGROUP_SIZE)
fn list_failures(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let index = pair_index(gid, groups);
    if (index >= params.pair_count || params.format != FORMAT_FULL) {
        return;
    }
    let record = index * 12u;
    let status = results[record + 7u];
    if (status == STATUS_INTERSECTING) {
        atomicAdd(&failures.colliding, 1u);
        return;
    }
    if (status == STATUS_SEPARATED) {
        return;
    }
    let entry = atomicAdd(&failures.count, 1u);
    if (entry >= failures.capacity) {
        return;
    }
    let at = entry * PAIR_ENTRY_WORDS;
    let pair = pairs[index];
    failures.words[at] = pair.x;
    failures.words[at + 1u] = pair.y;
    failures.words[at + 2u] = 0u;
    failures.words[at + 3u] = 0u;
    for (var k = 0u; k < 12u; k = k + 1u) {
        failures.words[at + 4u + k] = results[record + k];
    }
    var a = instance_words(pair.x);
    var b = instance_words(pair.y);
    for (var k = 0u; k < 8u; k = k + 1u) {
        failures.words[at + 16u + k] = a[k];
        failures.words[at + 24u + k] = b[k];
    }
}
