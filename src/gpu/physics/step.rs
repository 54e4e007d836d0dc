//! One GPU physics step recorded: the sums and the table it builds cleared, each kernel's bind group over the
//! step's buffers, and the dispatches in order, in one compute pass (wgpu orders each dispatch's writes before
//! the next one's reads). [`super::GpuSolver::encode_step`] checks the buffers first.

use super::kernels::{Pass, Passes};
use crate::gpu::pipeline::{bind_group, workgroups};

/// The buffers one step binds.
pub(super) struct StepBuffers<'a> {
    pub params: &'a wgpu::Buffer,
    /// The uniform holding this step's slot capacity.
    pub limit: &'a wgpu::Buffer,
    pub scene: &'a wgpu::Buffer,
    pub bodies: &'a wgpu::Buffer,
    pub motions: &'a wgpu::Buffer,
    pub tallies: &'a wgpu::Buffer,
    pub planes: &'a wgpu::Buffer,
    pub stats: &'a wgpu::Buffer,
    pub saved: &'a wgpu::Buffer,
    /// This step's slot states, and the last step's.
    pub current: &'a wgpu::Buffer,
    pub previous: &'a wgpu::Buffer,
    pub table: &'a wgpu::Buffer,
    /// The contact pass's records and the broad phase's count (with its indirect dispatch).
    pub contacts: &'a wgpu::Buffer,
    pub count: &'a wgpu::Buffer,
}

/// The bind group of every kernel of a step.
struct Groups {
    wake: wgpu::BindGroup,
    begin: wgpu::BindGroup,
    table: wgpu::BindGroup,
    prepare: wgpu::BindGroup,
    relax: wgpu::BindGroup,
    relax_push: wgpu::BindGroup,
    apply: wgpu::BindGroup,
    apply_push: wgpu::BindGroup,
    finish: wgpu::BindGroup,
    energy: wgpu::BindGroup,
}

impl Groups {
    /// Each kernel's buffers, in its binding order (`kernels.rs` lists how it binds them).
    fn new(device: &wgpu::Device, p: &Passes, b: &StepBuffers) -> Self {
        let group = |pass: &Pass, buffers: &[&wgpu::Buffer]| {
            let list: Vec<(&wgpu::Buffer, Option<(u64, u64)>)> =
                buffers.iter().map(|buffer| (*buffer, None)).collect();
            bind_group(device, "physics step", &pass.layout, &list)
        };
        let (params, limit, count, motions, tallies) =
            (b.params, b.limit, b.count, b.motions, b.tallies);
        let slots = [params, limit, count, b.current, motions, tallies];
        let apply = [params, b.scene, motions, tallies, b.planes];
        Self {
            wake: group(
                &p.wake,
                &[params, limit, b.contacts, count, b.bodies, tallies],
            ),
            begin: group(
                &p.begin,
                &[
                    params, b.scene, b.bodies, motions, tallies, b.planes, b.stats,
                ],
            ),
            table: group(&p.table, &[b.saved, b.previous, b.table]),
            prepare: group(
                &p.prepare,
                &[
                    params, limit, b.contacts, count, motions, b.current, b.previous, b.table,
                    tallies, b.stats,
                ],
            ),
            relax: group(&p.relax, &slots),
            relax_push: group(&p.relax_push, &slots),
            apply: group(&p.apply, &apply),
            apply_push: group(&p.apply_push, &apply),
            finish: group(&p.finish, &[params, b.bodies, motions, b.stats]),
            energy: group(
                &p.energy,
                &[params, limit, count, motions, b.stats, b.saved],
            ),
        }
    }
}

/// Records one step of `body_count` bodies with `iterations` Jacobi iterations (for the velocities, then for
/// the position correction) into `encoder`.
pub(super) fn record_step(
    device: &wgpu::Device,
    p: &Passes,
    b: &StepBuffers,
    (iterations, body_count): (usize, u32),
    encoder: &mut wgpu::CommandEncoder,
) {
    encoder.clear_buffer(b.tallies, 0, None);
    encoder.clear_buffer(b.stats, 0, None);
    encoder.clear_buffer(b.table, 0, None);
    let g = Groups::new(device, p, b);
    let body_groups = workgroups(body_count);
    let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
        label: Some("physics step"),
        timestamp_writes: None,
    });
    let per_body = |pass: &mut wgpu::ComputePass<'_>, step: &Pass, group: &wgpu::BindGroup| {
        pass.set_pipeline(&step.pipeline);
        pass.set_bind_group(0, group, &[]);
        if body_groups > 0 {
            pass.dispatch_workgroups(body_groups, 1, 1);
        }
    };
    // Per pair slot: an indirect dispatch from words 1 to 3 of a count buffer (the broad phase's, or the last
    // step's saved count).
    let per_slot = |pass: &mut wgpu::ComputePass<'_>,
                    step: &Pass,
                    group: &wgpu::BindGroup,
                    args: &wgpu::Buffer| {
        pass.set_pipeline(&step.pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.dispatch_workgroups_indirect(args, 4);
    };
    per_slot(&mut pass, &p.wake, &g.wake, b.count);
    per_body(&mut pass, &p.begin, &g.begin);
    per_slot(&mut pass, &p.table, &g.table, b.saved);
    per_slot(&mut pass, &p.prepare, &g.prepare, b.count);
    per_body(&mut pass, &p.apply, &g.apply);
    for _ in 0..iterations {
        per_slot(&mut pass, &p.relax, &g.relax, b.count);
        per_body(&mut pass, &p.apply, &g.apply);
    }
    per_body(&mut pass, &p.apply_push, &g.apply_push);
    for _ in 0..iterations {
        per_slot(&mut pass, &p.relax_push, &g.relax_push, b.count);
        per_body(&mut pass, &p.apply_push, &g.apply_push);
    }
    per_body(&mut pass, &p.finish, &g.finish);
    pass.set_pipeline(&p.energy.pipeline);
    pass.set_bind_group(0, &g.energy, &[]);
    pass.dispatch_workgroups(1, 1, 1);
}
