// Kernel `sample_gather`: copies the chunk's share of the frame's sample into the sample buffer, one invocation
// per sample entry, run as the chunk's last pass: entry k is the pair at slot sample_slot(k) of the pair buffer,
// with its record and its two instances (PAIR_ENTRY_WORDS words, src/gpu/pair_entry.rs). The slots are drawn here
// from the seed, the frame number and the pair count the broad phase left on the device, so the host never names
// them; sample_slot is the twin of the function of that name in src/gpu/device_frame/sample.rs.

@group(0) @binding(5) var<storage, read_write> results: array<u32>;

@group(1) @binding(0) var<storage, read> broad_count: array<u32>;
@group(1) @binding(2) var<storage, read_write> sample_entries: array<u32>;
@group(1) @binding(3) var<uniform> frame: DeviceFrame;

// A 32-bit integer hash (PCG's output function over one LCG step), the twin of sample_hash.
fn sample_hash(v: u32) -> u32 {
    let state = v * 747796405u + 2891336453u;
    let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

// The slot of entry k among `stored` pairs: the whole buffer when it holds no more pairs than the sample, else
// one slot drawn from each of `sample_size` strata of nearly equal size (the first `stored % sample_size` one
// pair longer), so the slots are distinct and increasing in k.
fn sample_slot(k: u32, stored: u32) -> u32 {
    let size = frame.sample_size;
    if (stored <= size) {
        return k;
    }
    let base = stored / size;
    let longer = stored % size;
    let start = k * base + min(k, longer);
    let width = base + select(0u, 1u, k < longer);
    let frame_key = sample_hash(frame.frame_lo ^ sample_hash(frame.frame_hi));
    let key = sample_hash(frame.seed_lo ^ sample_hash(frame.seed_hi ^ frame_key));
    return start + sample_hash(key ^ k) % width;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn sample_gather(@builtin(global_invocation_id) gid: vec3<u32>) {
    let k = gid.x;
    let stored = min(broad_count[0], frame.pair_capacity);
    if (k >= min(frame.sample_size, stored)) {
        return;
    }
    let slot = sample_slot(k, stored);
    if (slot < params.first_pair || slot - params.first_pair >= params.pair_count) {
        return;
    }
    let index = slot - params.first_pair;
    let at = k * PAIR_ENTRY_WORDS;
    let pair = pairs[index];
    sample_entries[at] = pair.x;
    sample_entries[at + 1u] = pair.y;
    sample_entries[at + 2u] = 0u;
    sample_entries[at + 3u] = 0u;
    for (var w = 0u; w < 12u; w = w + 1u) {
        sample_entries[at + 4u + w] = results[index * 12u + w];
    }
    var a = instance_words(pair.x);
    var b = instance_words(pair.y);
    for (var w = 0u; w < 8u; w = w + 1u) {
        sample_entries[at + 16u + w] = a[w];
        sample_entries[at + 24u + w] = b[w];
    }
}
