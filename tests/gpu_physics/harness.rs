//! A step of the GPU solver fed by contacts computed on the CPU, so the solver is tested without the GPU contact
//! pass: each step reads the bodies back, lists the candidate pairs with the grid broad phase, answers each with
//! the crate's manifold (float64, as `physics::collide` does) into the contact records a contact pass writes,
//! in a new slot order every step (as the GPU broad phase lists them), and uploads them with a count buffer
//! that holds its own indirect dispatch.

use gpu_gjk::broad_phase::{grid_pairs, world_aabbs};
use gpu_gjk::gpu::physics::layout::GpuPhysicsContact;
use gpu_gjk::gpu::physics::{GpuSolver, GpuStepStats};
use gpu_gjk::gpu::GpuContext;
use gpu_gjk::physics::collide::pair_contact;
use gpu_gjk::physics::{RigidBody, World};
use gpu_gjk::Instance;
use rayon::prelude::*;
use wgpu::BufferUsages as U;

/// A world stepped on the GPU; `world.bodies` holds the GPU's bodies after each step.
pub struct Harness<'a> {
    ctx: &'a GpuContext,
    pub solver: GpuSolver,
    pub world: World,
    contacts: wgpu::Buffer,
    count: wgpu::Buffer,
    capacity: u32,
    steps: usize,
    /// Added to the step number that orders the slots: another value lists the same pairs in other slots.
    pub order: usize,
}

impl<'a> Harness<'a> {
    pub fn new(ctx: &'a GpuContext, world: World) -> Self {
        let solver = GpuSolver::new(&ctx.device, &ctx.queue, &world).expect("a world the GPU runs");
        let count = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("test pair count"),
            size: 16,
            usage: U::STORAGE | U::INDIRECT | U::COPY_DST,
            mapped_at_creation: false,
        });
        Self {
            contacts: contact_buffer(ctx, 1),
            capacity: 1,
            ctx,
            solver,
            world,
            count,
            steps: 0,
            order: 0,
        }
    }

    /// One step: the contacts of the bodies as they are, the GPU step, the bodies read back.
    pub fn step(&mut self) -> GpuStepStats {
        let records = contacts(&self.world, self.steps + self.order);
        self.steps += 1;
        self.step_with(&records)
    }

    /// One step over the given contact records.
    pub fn step_with(&mut self, records: &[GpuPhysicsContact]) -> GpuStepStats {
        let n = records.len() as u32;
        if n > self.capacity {
            self.capacity = n.next_power_of_two();
            self.contacts = contact_buffer(self.ctx, self.capacity);
        }
        let queue = &self.ctx.queue;
        queue.write_buffer(&self.contacts, 0, bytemuck::cast_slice(records));
        // At least one invocation per pair whatever the workgroup size: a workgroup per pair.
        queue.write_buffer(&self.count, 0, bytemuck::cast_slice(&[n, n, 1, 1]));
        let mut encoder = self.ctx.device.create_command_encoder(&Default::default());
        self.solver
            .encode_step(&mut encoder, &self.contacts, &self.count, self.capacity)
            .expect("the step's buffers");
        queue.submit([encoder.finish()]);
        let bodies = self.solver.read_bodies().expect("the bodies read back");
        for (record, body) in bodies.iter().zip(&mut self.world.bodies) {
            record.update(body);
        }
        self.solver.read_stats().expect("the stats read back")
    }

    /// `steps` steps; the kinetic energy after each.
    pub fn run(&mut self, steps: usize) -> Vec<f32> {
        (0..steps).map(|_| self.step().kinetic_energy).collect()
    }
}

fn contact_buffer(ctx: &GpuContext, capacity: u32) -> wgpu::Buffer {
    ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("test contacts"),
        size: u64::from(capacity) * std::mem::size_of::<GpuPhysicsContact>() as u64,
        usage: U::STORAGE | U::COPY_DST,
        mapped_at_creation: false,
    })
}

/// The contact record of every candidate pair of `world`'s bodies, slots in an order that changes with `step`
/// (rotated by the step number, reversed on odd steps).
pub fn contacts(world: &World, step: usize) -> Vec<GpuPhysicsContact> {
    let instances: Vec<Instance> = world.bodies.iter().map(RigidBody::instance).collect();
    let mut pairs = grid_pairs(&world_aabbs(&world.shapes, &instances));
    if !pairs.is_empty() {
        let len = pairs.len();
        pairs.rotate_left(step % len);
        if step % 2 == 1 {
            pairs.reverse();
        }
    }
    pairs
        .par_iter()
        .map(|&[i, j]| pair_record(world, i, j))
        .collect()
}

/// The CPU's contact of bodies `i` and `j` as a record (no contact: status 0, no points).
fn pair_record(world: &World, i: u32, j: u32) -> GpuPhysicsContact {
    pair_contact(&world.shapes, &world.bodies, i, j)
        .and_then(|c| GpuPhysicsContact::from_contact(&c))
        .unwrap_or(GpuPhysicsContact {
            bodies: [i, j, 0, 0],
            ..Default::default()
        })
}
