// Knowing when the adapter cut a loop short.
//
// Software adapters (llvmpipe, lavapipe) give every group of invocations one budget of 65,535 loop trips,
// shared by all its loops (LP_MAX_TGSI_LOOP_ITERATIONS in gallivm's lp_bld_ir_common.c), and quietly leave a
// loop when it runs out; every later loop then runs exactly one trip. So a probe loop of `params.loop_probe`
// trips (LOOP_PROBE_TRIPS on the Rust side, 2) that comes out short proves the budget ran out somewhere in this
// group, and the support scans check their own trip counts against a loop cut on its own. Either way no answer
// of this invocation can be trusted: the kernels name it STATUS_GPU_LOOP_LIMIT / PEN_GPU_LOOP_LIMIT.

// Set when a loop of this invocation ends before its natural end.
var<private> loop_cut: bool;

fn loops_were_cut() -> bool {
    var trips = 0u;
    for (var i = 0u; i < params.loop_probe; i = i + 1u) {
        trips = trips + 1u;
    }
    return loop_cut || trips != params.loop_probe;
}
