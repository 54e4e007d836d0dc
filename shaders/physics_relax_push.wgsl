// Kernel `physics_relax_push`: one invocation per pair slot, one Jacobi iteration of the position correction
// over the manifolds (shaders/shared/physics_relax.wgsl), on the pseudo-velocities of the split impulses.

@compute @workgroup_size(WORKGROUP_SIZE)
fn physics_relax_push(@builtin(global_invocation_id) gid: vec3<u32>) {
    relax(gid.x, true);
}
