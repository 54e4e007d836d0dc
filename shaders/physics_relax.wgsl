// Kernel `physics_relax`: one invocation per pair slot, one Jacobi iteration of the velocity solver over the
// manifolds (shaders/shared/physics_relax.wgsl).

@compute @workgroup_size(WORKGROUP_SIZE)
fn physics_relax(@builtin(global_invocation_id) gid: vec3<u32>) {
    relax(gid.x, false);
}
