//! The GPU world: [`crate::physics::World`]'s fixed step with every body on the device. A step is the bodies'
//! world boxes, the GPU grid broad phase over them ([`GpuBroadPhase`]), the contact of each candidate pair
//! ([`GpuContactPass`]) and the solver's step over those contacts ([`GpuSolver`]).
//!
//! The host reads one 16-byte word per step: the broad phase's pair count, before the contacts are found, so
//! that a step whose pairs outgrow the pair buffer runs its broad phase again in a grown one rather than
//! missing contacts. Nothing else crosses the bus unless asked: [`GpuWorld::read_bodies`] for the poses,
//! [`GpuWorld::check_sample`] for the CPU reference's check of sampled contacts.

use super::contacts::{check_contacts, ContactCheck, GpuContactPass};
use super::layout::{GpuPhysicsBody, GpuPhysicsContact};
use super::solver::GpuSolver;
use super::stats::GpuStepStats;
use crate::gpu::broad::grid::GridFit;
use crate::gpu::broad::GpuBroadPhase;
use crate::gpu::pipeline::read_buffer;
use crate::gpu::GpuError;
use crate::physics::{RigidBody, World};
use crate::shape::ConvexShape;

/// What one GPU step's broad phase found, from the word the host reads each step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorldStep {
    /// Candidate pairs from the broad phase.
    pub candidate_pairs: u32,
    /// Times the broad phase ran again this step in a grown pair buffer.
    pub regrown: u32,
}

/// What crossed the bus for a [`GpuWorld`] since [`GpuWorld::take_traffic`] was last called: bytes read back,
/// command submissions and the host's blocking waits (uploads, a few parameter words a pass, are not counted).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorldTraffic {
    pub bytes_down: u64,
    pub submissions: u32,
    pub blocking_waits: u32,
}

impl WorldTraffic {
    /// One submission whose `bytes` the host then waits for.
    fn read(&mut self, bytes: u64) {
        self.bytes_down += bytes;
        self.submissions += 1;
        self.blocking_waits += 1;
    }
}

/// A [`World`] stepped on the GPU.
pub struct GpuWorld {
    device: wgpu::Device,
    queue: wgpu::Queue,
    shapes: Vec<ConvexShape>,
    /// The bodies as the world was made: what does not change (shape, mass, inertia) for the CPU check.
    template: Vec<RigidBody>,
    fit: GridFit,
    broad: GpuBroadPhase,
    contacts: GpuContactPass,
    solver: GpuSolver,
    /// The contact of each pair slot, and its capacity in records.
    contact_buffer: wgpu::Buffer,
    contact_capacity: u32,
    /// Pairs the latest step stored (its contacts are the first this many slots).
    stored: u32,
    traffic: WorldTraffic,
}

impl GpuWorld {
    /// `world`'s shapes, bodies, planes, gravity, settings and step on `device`. Refused where the contact pass
    /// or the solver cannot take the world (a shape that is not a solid hull without radius, more bodies than
    /// one dispatch or binding holds), naming the shape or the limit; the world then runs on the CPU.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        world: &World,
    ) -> Result<Self, GpuError> {
        let contacts = GpuContactPass::new(device, queue, &world.shapes)?;
        let solver = GpuSolver::new(device, queue, world)?;
        let fit = world_grid(world)?;
        let mut broad = GpuBroadPhase::new(device, queue);
        // A pile's boxes overlap a few neighbours each: start where a settled pile fits without regrowing.
        broad.reserve_pairs((world.bodies.len() as u32).saturating_mul(8));
        let contact_capacity = broad.pair_capacity();
        Ok(Self {
            device: device.clone(),
            queue: queue.clone(),
            shapes: world.shapes.clone(),
            template: world.bodies.clone(),
            fit,
            broad,
            contact_buffer: GpuContactPass::contact_buffer(device, contact_capacity),
            contact_capacity,
            contacts,
            solver,
            stored: 0,
            traffic: WorldTraffic::default(),
        })
    }

    /// Bodies in the world.
    pub fn body_count(&self) -> usize {
        self.template.len()
    }

    /// The bodies' buffer (`PhysicsBody` records in body order).
    pub fn bodies(&self) -> &wgpu::Buffer {
        self.solver.bodies()
    }

    /// The solver, for its passes that write the bodies where a frame reads them.
    pub fn solver(&self) -> &GpuSolver {
        &self.solver
    }

    /// Sends body `index` up again from `body` before the next step (112 bytes): a body the host moves, such as
    /// the stress test's player's shape. Refused for an index beyond the bodies and a body the world would refuse.
    pub fn write_body(&self, index: usize, body: &RigidBody) -> Result<(), GpuError> {
        self.solver.write_body(index, body)
    }

    /// One fixed step on the device: two submissions and one 16-byte read between them.
    pub fn step(&mut self) -> Result<WorldStep, GpuError> {
        let mut stats = WorldStep::default();
        let status = loop {
            let mut encoder = self.encoder("physics broad phase");
            let solver = &self.solver;
            let mut boxes_written = Ok(());
            self.broad.encode_device_boxes(
                &self.fit,
                self.template.len(),
                &mut encoder,
                |boxes, e| boxes_written = solver.encode_boxes(e, boxes),
            )?;
            boxes_written?;
            self.queue.submit([encoder.finish()]);
            let status = self.broad.finish()?;
            self.traffic.read(16);
            if !status.overflowed() {
                break status;
            }
            // The broad phase grew its pair buffer: find the pairs again, none left out.
            stats.regrown += 1;
        };
        stats.candidate_pairs = status.found;
        self.stored = status.stored;
        if self.contact_capacity < status.capacity {
            self.contact_capacity = status.capacity;
            self.contact_buffer = GpuContactPass::contact_buffer(&self.device, status.capacity);
        }
        let (pairs, count) = self
            .broad
            .buffers()
            .ok_or_else(|| GpuError::Readback("the physics broad phase kept no pairs".into()))?;
        let mut encoder = self.encoder("physics step");
        self.contacts.encode(
            &mut encoder,
            self.solver.bodies(),
            pairs,
            count,
            status.capacity,
            &self.contact_buffer,
        );
        self.solver
            .encode_step(&mut encoder, &self.contact_buffer, count, status.capacity)?;
        self.queue.submit([encoder.finish()]);
        self.traffic.submissions += 1;
        Ok(stats)
    }

    /// Every body as the GPU holds it, as the world's bodies (one wait; 112 bytes a body come back).
    pub fn read_bodies(&mut self) -> Result<Vec<RigidBody>, GpuError> {
        let records = self.solver.read_bodies()?;
        self.traffic
            .read((records.len() * std::mem::size_of::<GpuPhysicsBody>()) as u64);
        Ok(self
            .template
            .iter()
            .zip(&records)
            .map(|(body, record)| {
                let mut body = *body;
                record.update(&mut body);
                body
            })
            .collect())
    }

    /// The contacts of the latest step's pair slots `slots` (each below the pairs it stored; others are
    /// skipped), read back in one wait, 128 bytes each.
    pub fn read_contacts(&mut self, slots: &[u32]) -> Result<Vec<GpuPhysicsContact>, GpuError> {
        let slots: Vec<u32> = slots.iter().copied().filter(|&s| s < self.stored).collect();
        if slots.is_empty() {
            return Ok(Vec::new());
        }
        let record = std::mem::size_of::<GpuPhysicsContact>() as u64;
        let bytes = slots.len() as u64 * record;
        let readback = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("physics contacts readback"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self.encoder("physics contacts readback");
        for (k, &slot) in slots.iter().enumerate() {
            encoder.copy_buffer_to_buffer(
                &self.contact_buffer,
                u64::from(slot) * record,
                &readback,
                k as u64 * record,
                record,
            );
        }
        self.queue.submit([encoder.finish()]);
        self.traffic.read(bytes);
        read_buffer(&self.device, &readback, bytes, |b| {
            bytemuck::pod_collect_to_vec(b)
        })
    }

    /// `size` contacts of the latest step, drawn from its pair slots by `seed` (every slot when it stored
    /// fewer), read back in one wait.
    pub fn read_sample(
        &mut self,
        size: usize,
        seed: u64,
    ) -> Result<Vec<GpuPhysicsContact>, GpuError> {
        self.read_contacts(&sample_slots(self.stored, size, seed))
    }

    /// The CPU reference's check of [`GpuWorld::read_sample`]'s contacts against the CPU manifold of the same
    /// pair on the poses the step found them at, `bodies` (read before the step moved them).
    pub fn check_sample(
        &mut self,
        bodies: &[RigidBody],
        size: usize,
        seed: u64,
    ) -> Result<ContactCheck, GpuError> {
        let contacts = self.read_sample(size, seed)?;
        Ok(check_contacts(&self.shapes, bodies, &contacts))
    }

    /// What the latest step's solver did (one wait, 24 bytes).
    pub fn latest_stats(&mut self) -> Result<GpuStepStats, GpuError> {
        let stats = self.solver.read_stats()?;
        self.traffic.read(32);
        Ok(stats)
    }

    /// What crossed the bus since the last call.
    pub fn take_traffic(&mut self) -> WorldTraffic {
        std::mem::take(&mut self.traffic)
    }

    /// Pairs the latest step's broad phase stored.
    pub fn stored_pairs(&self) -> u32 {
        self.stored
    }

    fn encoder(&self, label: &str) -> wgpu::CommandEncoder {
        self.device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(label) })
    }
}

/// `size` distinct slots below `stored`, drawn by `seed` (all of them when `size >= stored`), in order.
pub fn sample_slots(stored: u32, size: usize, seed: u64) -> Vec<u32> {
    if size as u64 >= u64::from(stored) {
        return (0..stored).collect();
    }
    // One slot from each of `size` equal slices, at a hashed offset: spread over the buffer, no repeats.
    let slices = size as u64;
    (0..slices)
        .map(|k| {
            let start = u64::from(stored) * k / slices;
            let end = u64::from(stored) * (k + 1) / slices;
            let mut h = seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 33;
            h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
            h ^= h >> 33;
            (start + h % (end - start).max(1)) as u32
        })
        .collect()
}

/// A grid for the world's boxes: over the bodies' starting boxes and the axis-aligned planes, its cells as
/// wide as the widest box any body can have. A body that leaves it still finds its pairs (the grid's edge cells
/// take everything beyond them), only more slowly.
fn world_grid(world: &World) -> Result<GridFit, GpuError> {
    let mut lo = glam::Vec3::splat(f32::INFINITY);
    let mut hi = glam::Vec3::splat(f32::NEG_INFINITY);
    let mut widest = 0f64;
    for body in &world.bodies {
        let shape = &world.shapes[body.shape as usize];
        let (a, b) = shape.local_aabb();
        // The box of the local box turned any way: its half diagonal on every axis.
        let reach = ((b - a) * 0.5).length();
        let centre = body.pose.transform_point((a + b) * 0.5);
        lo = lo.min(centre - glam::Vec3::splat(reach));
        hi = hi.max(centre + glam::Vec3::splat(reach));
        widest = widest.max(f64::from(2.0 * reach));
    }
    if world.bodies.is_empty() {
        lo = glam::Vec3::ZERO;
        hi = glam::Vec3::ZERO;
    }
    // An axis-aligned plane bounds the bodies on its axis: the grid reaches it (a pile falls to the floor).
    for plane in &world.planes {
        let n = plane.normal;
        for axis in 0..3 {
            if n[axis].abs() == 1.0 && n.length_squared() == 1.0 {
                let at = plane.offset * n[axis];
                lo[axis] = lo[axis].min(at);
                hi[axis] = hi[axis].max(at);
            }
        }
    }
    GridFit::for_bounds(lo.to_array(), hi.to_array(), widest)
        .map_err(|e| GpuError::BadIndex(format!("physics: {e}")))
}

#[cfg(test)]
mod tests {
    use super::sample_slots;

    #[test]
    fn sampled_slots_are_distinct_in_range_and_cover_small_steps() {
        assert_eq!(sample_slots(5, 10, 1), vec![0, 1, 2, 3, 4]);
        for seed in 0..20 {
            let slots = sample_slots(1000, 64, seed);
            assert_eq!(slots.len(), 64);
            assert!(slots.windows(2).all(|w| w[0] < w[1]), "{slots:?}");
            assert!(slots.iter().all(|&s| s < 1000));
        }
        assert_ne!(sample_slots(1000, 64, 1), sample_slots(1000, 64, 2));
    }
}
