//! The harness: a scene's bodies, pairs and count word uploaded as the broad phase leaves them, the pass run on
//! each backend, every slot read back and the counted ones checked against the CPU.

use crate::common::gpu::{backend_contexts, exclusive};
use glam::{Quat, Vec3};
use gpu_gjk::gpu::physics::contacts::{check_contacts, ContactCheck, GpuContactPass};
use gpu_gjk::gpu::physics::layout::{GpuPhysicsBody, GpuPhysicsContact};
use gpu_gjk::gpu::{read_buffer, GpuContext};
use gpu_gjk::physics::RigidBody;
use gpu_gjk::shape::ConvexShape;
use gpu_gjk::Pose;
use wgpu::util::DeviceExt;

/// What a slot holds before the pass: a record no pass writes (status and count out of range).
pub fn sentinel() -> GpuPhysicsContact {
    GpuPhysicsContact {
        bodies: [u32::MAX; 4],
        normal: [f32::NAN; 4],
        ..GpuPhysicsContact::default()
    }
}

/// A scene for the pass: shapes, bodies, the pair list (its length the buffers' slots), the count word and the
/// capacity the pass is given.
pub struct Scene {
    pub shapes: Vec<ConvexShape>,
    pub bodies: Vec<RigidBody>,
    pub pairs: Vec<[u32; 2]>,
    pub count: u32,
    pub capacity: u32,
    /// Rows of the indirect dispatch (1 as the broad phase writes it; more as a dispatch past the device's
    /// workgroup limit goes).
    pub rows: u32,
}

impl Scene {
    pub fn new(shapes: Vec<ConvexShape>) -> Self {
        Self {
            shapes,
            bodies: Vec::new(),
            pairs: Vec::new(),
            count: 0,
            capacity: 0,
            rows: 1,
        }
    }

    /// Adds a moving body of shape `shape` at `pose`; returns its index.
    pub fn body(&mut self, shape: u32, pose: Pose) -> u32 {
        let body = RigidBody::new(shape, &self.shapes[shape as usize], pose, 1.0);
        self.bodies.push(body);
        self.bodies.len() as u32 - 1
    }

    /// Adds a static body (inverse mass 0).
    pub fn fixed(&mut self, shape: u32, pose: Pose) -> u32 {
        let index = self.body(shape, pose);
        self.bodies[index as usize].inverse_mass = 0.0;
        index
    }

    /// Adds the pair (i, j) and (j, i) after it, and counts them.
    pub fn both_orders(&mut self, i: u32, j: u32) {
        self.pairs.extend([[i, j], [j, i]]);
        self.count = self.pairs.len() as u32;
        self.capacity = self.count;
    }

    /// The pass's records on one context: every slot of the buffers, sentinels where the pass wrote nothing.
    pub fn run_on(&self, ctx: &GpuContext) -> Vec<GpuPhysicsContact> {
        let (device, queue) = (&ctx.device, &ctx.queue);
        let pass = GpuContactPass::new(device, queue, &self.shapes).unwrap();
        let records: Vec<GpuPhysicsBody> =
            self.bodies.iter().map(GpuPhysicsBody::from_body).collect();
        let storage = |label: &str, contents: &[u8], usage: wgpu::BufferUsages| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage: wgpu::BufferUsages::STORAGE | usage,
            })
        };
        let bodies = storage(
            "bodies",
            bytemuck::cast_slice(&records),
            wgpu::BufferUsages::empty(),
        );
        let slots = self.pairs.len().max(1);
        let mut pair_words = self.pairs.clone();
        pair_words.resize(slots, [0, 0]);
        let pairs = storage(
            "pairs",
            bytemuck::cast_slice(&pair_words),
            wgpu::BufferUsages::empty(),
        );
        // One 64-invocation workgroup per counted pair: `broad_dispatch_args` writes no more (it counts the
        // stored pairs), so the pass must bound the slots itself.
        let groups = self.count.div_ceil(64);
        let count_words = [self.count, groups.div_ceil(self.rows), self.rows, 1];
        let count = storage(
            "count",
            bytemuck::cast_slice(&count_words),
            wgpu::BufferUsages::INDIRECT,
        );
        let contacts = GpuContactPass::contact_buffer(device, slots as u32);
        queue.write_buffer(&contacts, 0, bytemuck::cast_slice(&vec![sentinel(); slots]));
        let size = contacts.size();
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("contacts readback"),
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        pass.encode(
            &mut encoder,
            &bodies,
            &pairs,
            &count,
            self.capacity,
            &contacts,
        );
        encoder.copy_buffer_to_buffer(&contacts, 0, &readback, 0, size);
        queue.submit([encoder.finish()]);
        read_buffer(device, &readback, size, |bytes| {
            bytemuck::cast_slice(bytes).to_vec()
        })
        .unwrap()
    }

    /// The records on every backend, each checked clean against the CPU over the counted slots.
    pub fn run(&self) -> Vec<(&'static str, Vec<GpuPhysicsContact>, ContactCheck)> {
        let mut out = Vec::new();
        for (name, ctx) in backend_contexts() {
            let _guard = exclusive();
            let records = self.run_on(ctx);
            let written = self.count.min(self.capacity) as usize;
            let check = check_contacts(&self.shapes, &self.bodies, &records[..written]);
            eprintln!("{name}: {}", check.summary());
            assert!(check.is_clean(), "{name}: {}", check.summary());
            out.push((*name, records, check));
        }
        out
    }
}

pub fn pose(x: f32, y: f32, z: f32) -> Pose {
    Pose::from_position(Vec3::new(x, y, z))
}

pub fn turned(x: f32, y: f32, z: f32, axis: Vec3, angle: f32) -> Pose {
    Pose::new(
        Vec3::new(x, y, z),
        Quat::from_axis_angle(axis.normalize(), angle),
    )
}

/// The record's points as (midpoint, depth, feature id).
pub fn points(c: &GpuPhysicsContact) -> Vec<(Vec3, f32, u64)> {
    (0..c.point_count())
        .map(|k| (Vec3::from_slice(&c.points[k][..3]), c.points[k][3], c.id(k)))
        .collect()
}
