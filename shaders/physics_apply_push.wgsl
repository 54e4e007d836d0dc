// Kernel `physics_apply_push`: one invocation per body, closing each Jacobi iteration of the position correction
// on the pseudo-velocities (shaders/shared/physics_apply.wgsl).

@compute @workgroup_size(WORKGROUP_SIZE)
fn physics_apply_push(@builtin(global_invocation_id) gid: vec3<u32>) {
    apply(gid.x, true);
}
