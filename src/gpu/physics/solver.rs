//! [`GpuSolver`]: the fixed step of [`crate::physics::World`] on the device, over the contacts of each
//! broad-phase pair slot ([`GpuPhysicsContact`]) that a contact pass wrote where they lie. Nothing goes up per
//! step and nothing comes back unless asked: the bodies stay in [`GpuSolver::bodies`], the step's statistics in
//! [`GpuSolver::stats`] (32 bytes, to copy out without a wait).
//!
//! A step, in dispatch order (the kernels are `shaders/physics_*.wgsl`):
//! 1. `physics_wake` (per pair slot): each body's contact count; a sleeper touched by a moving body marked.
//! 2. `physics_begin` (per body): the marked sleepers woken, gravity, each body's solver motion, its plane
//!    contacts found and warm-started.
//! 3. `physics_table` (per slot of the last step): a hash table from body pair to the last step's slot.
//! 4. `physics_prepare` (per pair slot): offsets, effective masses, target speeds, the last step's impulses of
//!    the same pair and feature id, applied into the bodies' fixed-point sums.
//! 5. `physics_apply` (per body), then `jacobi_iterations` times `physics_relax` (per pair slot) and
//!    `physics_apply`: Jacobi across the manifolds, Gauss-Seidel within each and over each body's planes.
//! 6. The same, on pseudo-velocities, for the position correction: `physics_apply_push`, then
//!    `jacobi_iterations` times `physics_relax_push` and `physics_apply_push`.
//! 7. `physics_finish` (per body): integration and sleep; `physics_energy` (one workgroup): the kinetic energy
//!    and the slot count saved for the next step's table.
//!
//! The solver keeps two sets of slot states, this step's and the last one's, and swaps them every step;
//! `step.rs` records the passes.

use super::kernels::{Pass, Passes};
use super::layout::{GpuPhysicsBody, GpuPhysicsContact};
use super::records::{
    SlotLimit, SolverParams, MANIFOLD_BYTES, MOTION_BYTES, PLANE_CONTACT_BYTES, SAVED_BYTES,
    STATS_BYTES, TALLY_WORDS,
};
use super::scene::{body_record, body_records, scene_words};
use super::stats::GpuStepStats;
use super::step::{record_step, StepBuffers};
use crate::gpu::pipeline::{bind_group, read_buffer, storage, workgroups};
use crate::gpu::{GpuError, WORKGROUP_SIZE};
use crate::physics::{RigidBody, World};
use wgpu::BufferUsages as U;

/// Bytes of one contact record, what a pair slot of the contact buffer holds.
const CONTACT_BYTES: u64 = std::mem::size_of::<GpuPhysicsContact>() as u64;
/// Bytes of one body record.
const BODY_BYTES: u64 = std::mem::size_of::<GpuPhysicsBody>() as u64;
/// Bytes of one narrow-phase instance record (`GpuInstance`).
const INSTANCE_BYTES: u64 = 32;

/// The solver state of a set of pair slots, and how many slots it holds.
struct Slots {
    buffer: wgpu::Buffer,
    capacity: u32,
}

impl Slots {
    fn new(device: &wgpu::Device, capacity: u32) -> Self {
        let bytes = u64::from(capacity.max(1)) * MANIFOLD_BYTES;
        Self {
            buffer: storage(device, "physics slot states", bytes, U::empty()),
            capacity,
        }
    }
}

/// A world's bodies stepped on the GPU: [`crate::physics::World::step`]'s model (gravity, planes, sequential
/// impulses with friction, restitution and warm starting, split-impulse position correction, sleep) with
/// Jacobi iterations across contacts and fixed-point impulse sums, so a run is the same on every dispatch.
/// `docs/physics.md` says what differs from the CPU solver.
pub struct GpuSolver {
    device: wgpu::Device,
    queue: wgpu::Queue,
    passes: Passes,
    params: wgpu::Buffer,
    scene: wgpu::Buffer,
    bodies: wgpu::Buffer,
    motions: wgpu::Buffer,
    tallies: wgpu::Buffer,
    plane_contacts: wgpu::Buffer,
    stats: wgpu::Buffer,
    saved: wgpu::Buffer,
    slots: [Slots; 2],
    /// Which of `slots` this step writes; the other holds the last step's.
    current: usize,
    table: wgpu::Buffer,
    /// One uniform per slot capacity the caller has used (`SlotLimit`): a step's capacity cannot go through
    /// the queue's writes, which all land before the encoder runs.
    limits: Vec<(u32, wgpu::Buffer)>,
    body_count: u32,
    shape_count: usize,
    iterations: usize,
}

impl GpuSolver {
    /// Uploads `world`'s shapes, bodies, planes, gravity, settings and time step (its contacts are not used:
    /// the first step starts cold). Refused for a world the GPU cannot run ([`GpuError::BadWorld`]: a bad shape
    /// index, a non-finite number, a time step that is not positive, a Jacobi iteration count out of range) or one beyond what the
    /// device can bind or dispatch.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        world: &World,
    ) -> Result<Self, GpuError> {
        let records = body_records(world)?;
        let count = records.len() as u64;
        let max_groups = u64::from(device.limits().max_compute_workgroups_per_dimension);
        if count > max_groups * u64::from(WORKGROUP_SIZE) {
            return Err(GpuError::BadWorld(format!(
                "{count} bodies exceed one dispatch ({max_groups} workgroups of {WORKGROUP_SIZE})"
            )));
        }
        let scene = scene_words(world);
        let plane_bytes = count * world.planes.len() as u64 * PLANE_CONTACT_BYTES;
        let max_binding = device.limits().max_storage_buffer_binding_size;
        for (what, bytes) in [
            ("bodies", count * BODY_BYTES),
            ("motions", count * MOTION_BYTES),
            ("plane contacts", plane_bytes),
            ("shapes and planes", scene.words.len() as u64 * 16),
        ] {
            if bytes > max_binding {
                return Err(GpuError::BadWorld(format!(
                    "its {what} need {bytes} bytes, beyond one storage binding of the device ({max_binding})"
                )));
            }
        }
        let params = SolverParams::of(world, scene.shapes_at, scene.points_at);
        let params_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("physics parameters"),
            size: std::mem::size_of::<SolverParams>() as u64,
            usage: U::UNIFORM | U::COPY_DST,
            mapped_at_creation: false,
        });
        queue.write_buffer(&params_buffer, 0, bytemuck::bytes_of(&params));
        let scene_buffer = storage(
            device,
            "physics scene",
            scene.words.len() as u64 * 16,
            U::COPY_DST,
        );
        queue.write_buffer(&scene_buffer, 0, bytemuck::cast_slice(&scene.words));
        let bodies = storage(
            device,
            "physics bodies",
            count * BODY_BYTES,
            U::COPY_DST | U::COPY_SRC,
        );
        queue.write_buffer(&bodies, 0, bytemuck::cast_slice(&records));
        let tally_bytes = count * u64::from(TALLY_WORDS) * 4;
        Ok(Self {
            passes: Passes::new(device),
            params: params_buffer,
            scene: scene_buffer,
            bodies,
            motions: storage(device, "physics motions", count * MOTION_BYTES, U::empty()),
            tallies: storage(device, "physics tallies", tally_bytes, U::COPY_DST),
            plane_contacts: storage(device, "physics plane contacts", plane_bytes, U::empty()),
            stats: storage(
                device,
                "physics step stats",
                STATS_BYTES,
                U::COPY_DST | U::COPY_SRC,
            ),
            saved: storage(device, "physics saved slots", SAVED_BYTES, U::INDIRECT),
            slots: [Slots::new(device, 0), Slots::new(device, 0)],
            current: 0,
            table: storage(device, "physics pair table", 64 * 4, U::COPY_DST),
            limits: Vec::new(),
            body_count: count as u32,
            shape_count: world.shapes.len(),
            iterations: world.settings.jacobi_iterations,
            device: device.clone(),
            queue: queue.clone(),
        })
    }

    /// The bodies (`array<PhysicsBody>`, [`GpuPhysicsBody`] records in the world's order): what the contact
    /// pass reads.
    pub fn bodies(&self) -> &wgpu::Buffer {
        &self.bodies
    }

    /// How many bodies the solver moves.
    pub fn body_count(&self) -> u32 {
        self.body_count
    }

    /// The last step's statistics ([`GpuStepStats::from_bytes`] reads its first 20 bytes): copy it out after
    /// [`GpuSolver::encode_step`] to read it without a wait.
    pub fn stats(&self) -> &wgpu::Buffer {
        &self.stats
    }

    /// Records one fixed step over the contacts of pair slots `k < min(count[0], capacity)`: `contacts` holds
    /// [`GpuPhysicsContact`] records (at least `capacity` of them), `count` is the broad phase's counter (word
    /// 0 the pairs found, words 1 to 3 the indirect dispatch of one [`WORKGROUP_SIZE`] invocation per stored
    /// pair). Refused when the buffers are smaller than that or lack the usages the passes need.
    pub fn encode_step(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        contacts: &wgpu::Buffer,
        count: &wgpu::Buffer,
        capacity: u32,
    ) -> Result<(), GpuError> {
        check_step_buffers(contacts, count, capacity)?;
        self.reserve(capacity);
        let limit = self.limit(capacity).clone();
        let buffers = StepBuffers {
            params: &self.params,
            limit: &limit,
            scene: &self.scene,
            bodies: &self.bodies,
            motions: &self.motions,
            tallies: &self.tallies,
            planes: &self.plane_contacts,
            stats: &self.stats,
            saved: &self.saved,
            current: &self.slots[self.current].buffer,
            previous: &self.slots[1 - self.current].buffer,
            table: &self.table,
            contacts,
            count,
        };
        let shape = (self.iterations, self.body_count);
        record_step(&self.device, &self.passes, &buffers, shape, encoder);
        self.current = 1 - self.current;
        Ok(())
    }

    /// Records the pass that writes each body's world box (its shape's local box rotated and placed, as
    /// `broad_phase::world_aabb`) at `2i` (min) and `2i + 1` (max) of `boxes` (`vec4<f32>`, w unused): what
    /// `GpuBroadPhase::encode_device_boxes` reads. Refused for a buffer too small for the bodies.
    pub fn encode_boxes(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        boxes: &wgpu::Buffer,
    ) -> Result<(), GpuError> {
        check_size("box", boxes, u64::from(self.body_count) * 32)?;
        let group = bind_group(
            &self.device,
            "physics boxes",
            &self.passes.boxes.layout,
            &[
                (&self.params, None),
                (&self.scene, None),
                (&self.bodies, None),
                (boxes, None),
            ],
        );
        self.per_body_pass(encoder, &self.passes.boxes, &group);
        Ok(())
    }

    /// Records the pass that writes each body's pose into record `i` of `instances` (the narrow phase's
    /// `GpuInstance`, 32 bytes: position and rotation; the hull word kept). Refused for a buffer too small for
    /// the bodies.
    pub fn encode_instances(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        instances: &wgpu::Buffer,
    ) -> Result<(), GpuError> {
        check_size(
            "instance",
            instances,
            u64::from(self.body_count) * INSTANCE_BYTES,
        )?;
        let group = bind_group(
            &self.device,
            "physics instances",
            &self.passes.instances.layout,
            &[
                (&self.params, None),
                (&self.bodies, None),
                (instances, None),
            ],
        );
        self.per_body_pass(encoder, &self.passes.instances, &group);
        Ok(())
    }

    /// Sends body `index` up again from `body`, its whole record (112 bytes): a body the host moves, such as the
    /// demo's player's shape, or one it places anew. Lands before the next submitted step. Refused for an index
    /// beyond the bodies and for a body [`GpuSolver::new`] would refuse.
    pub fn write_body(&self, index: usize, body: &RigidBody) -> Result<(), GpuError> {
        if index >= self.body_count as usize {
            return Err(GpuError::BadWorld(format!(
                "body {index} written, but the GPU holds {} bodies",
                self.body_count
            )));
        }
        let record = body_record(index, body, self.shape_count)?;
        self.queue.write_buffer(
            &self.bodies,
            index as u64 * BODY_BYTES,
            bytemuck::bytes_of(&record),
        );
        Ok(())
    }

    /// Every body as the GPU holds it (waits for the device): for tests and for handing the world back.
    pub fn read_bodies(&self) -> Result<Vec<GpuPhysicsBody>, GpuError> {
        self.read(&self.bodies, u64::from(self.body_count) * BODY_BYTES)
    }

    /// The last step's statistics (waits for the device; [`GpuSolver::stats`] to read them without a wait).
    pub fn read_stats(&self) -> Result<GpuStepStats, GpuError> {
        let words: Vec<u32> = self.read(&self.stats, STATS_BYTES)?;
        GpuStepStats::from_bytes(bytemuck::cast_slice(&words))
            .ok_or_else(|| GpuError::Readback("the step statistics are short".into()))
    }

    fn per_body_pass(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        step: &Pass,
        group: &wgpu::BindGroup,
    ) {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("physics per body"),
            timestamp_writes: None,
        });
        pass.set_pipeline(&step.pipeline);
        pass.set_bind_group(0, group, &[]);
        let groups = workgroups(self.body_count);
        if groups > 0 {
            pass.dispatch_workgroups(groups, 1, 1);
        }
    }

    /// Grows this step's slot states to `capacity` slots and the pair table to twice the last step's slots
    /// (a power of two, so a probe wraps with a mask).
    fn reserve(&mut self, capacity: u32) {
        if self.slots[self.current].capacity < capacity {
            self.slots[self.current] = Slots::new(&self.device, capacity);
        }
        let last = self.slots[1 - self.current].capacity;
        let words = (2 * u64::from(last)).next_power_of_two().max(64);
        if self.table.size() < words * 4 {
            self.table = storage(&self.device, "physics pair table", words * 4, U::COPY_DST);
        }
    }

    /// The uniform that holds `capacity`, made the first time it is used.
    fn limit(&mut self, capacity: u32) -> &wgpu::Buffer {
        if let Some(k) = self.limits.iter().position(|(c, _)| *c == capacity) {
            return &self.limits[k].1;
        }
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("physics slot limit"),
            size: std::mem::size_of::<SlotLimit>() as u64,
            usage: U::UNIFORM | U::COPY_DST,
            mapped_at_creation: false,
        });
        let limit = SlotLimit {
            capacity,
            _pad: [0; 3],
        };
        self.queue
            .write_buffer(&buffer, 0, bytemuck::bytes_of(&limit));
        self.limits.push((capacity, buffer));
        &self.limits[self.limits.len() - 1].1
    }

    fn read<T: bytemuck::Pod>(
        &self,
        buffer: &wgpu::Buffer,
        bytes: u64,
    ) -> Result<Vec<T>, GpuError> {
        if bytes == 0 {
            return Ok(Vec::new());
        }
        let readback = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("physics readback"),
            size: bytes,
            usage: U::MAP_READ | U::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("physics readback"),
            });
        encoder.copy_buffer_to_buffer(buffer, 0, &readback, 0, bytes);
        self.queue.submit([encoder.finish()]);
        read_buffer(&self.device, &readback, bytes, bytemuck::pod_collect_to_vec)
    }
}

/// The contact and count buffers of a step: large enough for `capacity` slots, with the usages the passes need.
fn check_step_buffers(
    contacts: &wgpu::Buffer,
    count: &wgpu::Buffer,
    capacity: u32,
) -> Result<(), GpuError> {
    check_size("contact", contacts, u64::from(capacity) * CONTACT_BYTES)?;
    check_size("pair count", count, 16)?;
    if !count.usage().contains(U::INDIRECT) {
        return Err(GpuError::BadIndex(
            "physics step: the pair count buffer is not usable as an indirect dispatch".into(),
        ));
    }
    Ok(())
}

fn check_size(what: &str, buffer: &wgpu::Buffer, bytes: u64) -> Result<(), GpuError> {
    if buffer.size() < bytes {
        return Err(GpuError::BadIndex(format!(
            "physics: the {what} buffer holds {} bytes, {bytes} needed",
            buffer.size()
        )));
    }
    if !buffer.usage().contains(U::STORAGE) {
        return Err(GpuError::BadIndex(format!(
            "physics: the {what} buffer is not a storage buffer"
        )));
    }
    Ok(())
}
