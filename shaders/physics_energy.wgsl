// Kernel `physics_energy`: one workgroup, after `physics_finish`: the bodies' kinetic energy summed in a fixed
// order (each invocation a fixed stride of bodies, then the first invocation the invocations' sums in order, so
// the same bodies give the same float sum), and the step's slot count with its indirect dispatch saved for the
// next step's `physics_table`.

@group(0) @binding(0) var<uniform> params: SolverParams;
@group(0) @binding(1) var<uniform> limit: SlotLimit;
@group(0) @binding(2) var<storage, read> pair_count: array<u32>;
@group(0) @binding(3) var<storage, read> motions: array<Motion>;
// [0]: contacts, [1]: points, [2]: bodies asleep, [3]: kinetic energy (f32 bits), [4]: contacts rejected,
// [5]: points warm-started.
@group(0) @binding(4) var<storage, read_write> stats: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read_write> saved: array<u32>;

var<workgroup> partial: array<f32, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn physics_energy(@builtin(local_invocation_index) t: u32) {
    var sum = 0.0;
    for (var i = t; i < params.body_count; i += WORKGROUP_SIZE) {
        sum += motions[i].push.w;
    }
    partial[t] = sum;
    workgroupBarrier();
    if (t != 0u) {
        return;
    }
    var total = 0.0;
    for (var j = 0u; j < WORKGROUP_SIZE; j++) {
        total += partial[j];
    }
    atomicStore(&stats[3], bitcast<u32>(total));
    let stored = min(pair_count[0], limit.capacity);
    saved[0] = stored;
    saved[1] = (stored + WORKGROUP_SIZE - 1u) / WORKGROUP_SIZE;
    saved[2] = 1u;
    saved[3] = 1u;
}
