// Kernel `physics_apply`: one invocation per body, closing each Jacobi iteration of the velocity solver (and
// the warm start): the pair slots' sums added, one pass over the body's planes (shaders/shared/physics_apply.wgsl).

@compute @workgroup_size(WORKGROUP_SIZE)
fn physics_apply(@builtin(global_invocation_id) gid: vec3<u32>) {
    apply(gid.x, false);
}
