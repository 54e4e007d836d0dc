// Kernel `body_pairs`: lists the pairs of one body (the picked one) from a frame's pair buffer where it lies on
// the device, so the host reads back that body's few pairs instead of every pair (src/gpu/body_pairs.rs).
// The invocations stride over the stored pairs (the count word the broad phase wrote, bounded by the buffer), so
// one dispatch of at most MAX_SCAN_WORKGROUPS covers any pair count; an atomic counter hands out the entries,
// and a pair beyond the list's capacity is still counted, so the host knows how many it did not get.

struct BodyPairParams {
    // The body whose pairs are listed.
    body: u32,
    // Entries the list holds.
    capacity: u32,
    // Instance records in `instances`: a partner at or past it gets no pose (the host names the pair).
    bodies: u32,
    pad: u32,
}

@group(0) @binding(0) var<uniform> params: BodyPairParams;
// The broad phase's pairs, `i < j` each, in no particular order.
@group(0) @binding(1) var<storage, read> pairs: array<vec2<u32>>;
// Word 0: the pairs the broad phase found (it may count past the buffer's capacity).
@group(0) @binding(2) var<storage, read> pair_count: array<u32>;
// The narrow phase's instance records, INSTANCE_WORDS words each: position, hull, rotation.
@group(0) @binding(3) var<storage, read> instances: array<u32>;

// Header (16 bytes), the body's instance record, then BODY_PAIR_ENTRY_WORDS words an entry: the pair, its slot
// in the pair buffer, a zero word, and the partner's instance record.
struct BodyPairList {
    // Pairs of the body found, listed or not.
    found: atomic<u32>,
    // Pairs scanned: the stored pairs of the buffer.
    scanned: u32,
    pad: vec2<u32>,
    words: array<u32>,
}

@group(0) @binding(4) var<storage, read_write> list: BodyPairList;

fn copy_instance(body: u32, at: u32) {
    if (body >= params.bodies) {
        return;
    }
    for (var k = 0u; k < INSTANCE_WORDS; k = k + 1u) {
        list.words[at + k] = instances[body * INSTANCE_WORDS + k];
    }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn body_pairs(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let body = params.body;
    let scanned = min(pair_count[0], arrayLength(&pairs));
    if (gid.x == 0u) {
        list.scanned = scanned;
        copy_instance(body, 0u);
    }
    let stride = groups.x * WORKGROUP_SIZE;
    for (var slot = gid.x; slot < scanned; slot = slot + stride) {
        let pair = pairs[slot];
        // A slot the broad phase never wrote reads [0, 0]: a body is never its own pair.
        if (pair.x == pair.y || (pair.x != body && pair.y != body)) {
            continue;
        }
        let entry = atomicAdd(&list.found, 1u);
        if (entry >= params.capacity) {
            continue;
        }
        let at = INSTANCE_WORDS + entry * BODY_PAIR_ENTRY_WORDS;
        list.words[at] = pair.x;
        list.words[at + 1u] = pair.y;
        list.words[at + 2u] = slot;
        list.words[at + 3u] = 0u;
        copy_instance(select(pair.x, pair.y, pair.x == body), at + 4u);
    }
}
