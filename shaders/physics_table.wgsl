// Kernel `physics_table`: one invocation per pair slot of the last step (an indirect dispatch that
// `physics_energy` wrote), before `physics_prepare`: enters each slot the solver worked on in a hash table from
// its body pair to the slot, so this step's contacts find their last impulses although the broad phase lists
// the pairs in a new order every step. The table is cleared before, and holds twice the slots at least.

// [0]: the last step's slots; [1..4]: the indirect dispatch of one invocation per slot.
@group(0) @binding(0) var<storage, read> saved: array<u32>;
@group(0) @binding(1) var<storage, read> previous: array<SolverManifold>;
// Slot + 1 of a body pair's last contact; 0: empty.
@group(0) @binding(2) var<storage, read_write> table: array<atomic<u32>>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn physics_table(@builtin(global_invocation_id) gid: vec3<u32>) {
    let k = gid.x;
    if (k >= min(saved[0], arrayLength(&previous))) {
        return;
    }
    let m = previous[k];
    if (m.bodies.w == 0u) {
        return;
    }
    let size = arrayLength(&table);
    var h = pair_hash(m.bodies.x, m.bodies.y, size);
    // Linear probing; a weak exchange may fail with the entry still empty, and then retries the same entry.
    for (var tries = 0u; tries < 2u * size; tries++) {
        let r = atomicCompareExchangeWeak(&table[h], 0u, k + 1u);
        if (r.exchanged) {
            return;
        }
        if (r.old_value != 0u) {
            h = (h + 1u) & (size - 1u);
        }
    }
}
