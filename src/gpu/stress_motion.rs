//! The stress test's bodies kept on the GPU (`shaders/stress_motion.wgsl`): poses, velocities, spins and local
//! boxes in a storage buffer, uploaded once from a [`StressScene`] and advanced each frame by a compute pass with
//! the CPU scene's motion rule ([`StressScene::step`]). The pass writes each body's world box into the broad
//! phase's box buffer and its pose into the narrow phase's instance records, so a frame sends up only the
//! pass's 16 bytes of parameters, whatever the body count. A second pass writes each body's model matrix into
//! a per-instance vertex buffer in the renderer's draw order ([`GpuBodies::encode_render_instances`]), so the
//! scene is drawn from the GPU's bodies too.
//!
//! The CPU scene stays the reference: started from the same state, the two agree within float32 rounding (the
//! GPU may fuse a multiply and an add, and rounds its quaternion products in its own order), a difference
//! that grows at most linearly with the frames: motion is a translation with mirror bounces, which are
//! continuous in the position, and a rotation, which does not amplify an error (tests/gpu_stress_motion.rs
//! measures it).

use super::broad::grid::{GridError, GridFit};
use super::pipeline::{bind_group, bind_group_layout, read_buffer, workgroups, Access};
use super::{GpuError, WORKGROUP_SIZE};
use crate::pose::Pose;
use crate::scenario::stress::{Body, StressScene};
use glam::{Quat, Vec3, Vec4};

/// The kernel file, assembled after the constants of [`shader_source`] and the shared quaternion helpers.
const SHADER: &str = include_str!("../../shaders/stress_motion.wgsl");
const QUATERNION: &str = include_str!("../../shaders/shared/quaternion.wgsl");
const PHYSICS_TYPES: &str = include_str!("../../shaders/shared/physics_types.wgsl");

fn shader_source() -> String {
    format!(
        "// Generated from Rust by src/gpu/stress_motion.rs.\nconst WORKGROUP_SIZE: u32 = {WORKGROUP_SIZE}u;\n\
         {QUATERNION}\n{PHYSICS_TYPES}\n{SHADER}"
    )
}

/// One body as the kernel reads it (`Body` in the WGSL).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
struct GpuBody {
    /// w: the scale of the body's template mesh.
    position: [f32; 4],
    rotation: [f32; 4],
    /// w: the body's draw slot, as a `u32`'s bits.
    velocity: [f32; 4],
    spin: [f32; 4],
    box_centre: [f32; 4],
    box_half: [f32; 4],
}

/// Bytes per body record.
const BODY_BYTES: u64 = std::mem::size_of::<GpuBody>() as u64;

/// Bytes of a pose at the start of a body record (position and rotation), what [`GpuBodies::read_poses`]
/// reads back per body.
pub const POSE_BYTES: u64 = 32;

/// The pass's parameters (`MotionParams` in the WGSL): all a frame sends up.
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct MotionParams {
    dt: f32,
    half_extent: f32,
    count: u32,
    _pad: u32,
}

/// Bytes a frame's motion pass uploads.
pub const MOTION_PARAMS_BYTES: u64 = std::mem::size_of::<MotionParams>() as u64;

/// Bytes of one renderer instance record (`BodyInstance`: four model columns and a colour).
pub const RENDER_INSTANCE_BYTES: u64 = 80;

/// The bodies of one stress scene on one device.
pub struct GpuBodies {
    device: wgpu::Device,
    queue: wgpu::Queue,
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
    render: RenderInstances,
    params: wgpu::Buffer,
    bodies: wgpu::Buffer,
    count: usize,
    half_extent: f32,
    fit: GridFit,
}

impl GpuBodies {
    /// Uploads `scene`'s bodies (96 bytes each, once) with the grid that holds every box they can reach
    /// ([`GpuBodies::grid_fit`]); `draw_slots[i]` is where body `i`'s record goes among the renderer's
    /// instances. Refused for a scene beyond one dispatch or one binding, for one whose boxes no grid holds, and
    /// for draw slots that are not one per body, each below the body count, no two the same.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        scene: &StressScene,
        draw_slots: &[u32],
    ) -> Result<Self, GpuError> {
        let count = scene.bodies.len();
        if draw_slots.len() != count {
            return Err(GpuError::BadIndex(format!(
                "stress motion: {} draw slots for {count} bodies",
                draw_slots.len()
            )));
        }
        let mut taken = vec![false; count];
        for (body, &slot) in draw_slots.iter().enumerate() {
            match taken.get_mut(slot as usize) {
                Some(seen) if !*seen => *seen = true,
                Some(_) => {
                    return Err(GpuError::BadIndex(format!(
                    "stress motion: body {body} is drawn at slot {slot}, which another body takes"
                )))
                }
                None => {
                    return Err(GpuError::BadIndex(format!(
                    "stress motion: body {body} is drawn at slot {slot}, beyond the {count} bodies"
                )))
                }
            }
        }
        let max_dispatch = u64::from(device.limits().max_compute_workgroups_per_dimension);
        if count as u64 > max_dispatch * u64::from(WORKGROUP_SIZE) {
            return Err(GpuError::BadIndex(format!(
                "stress motion: {count} bodies exceed one dispatch ({max_dispatch} workgroups of \
                 {WORKGROUP_SIZE})"
            )));
        }
        let bytes = (count as u64 * BODY_BYTES).max(BODY_BYTES);
        let max_binding = device.limits().max_storage_buffer_binding_size;
        if bytes > max_binding {
            return Err(GpuError::BadIndex(format!(
                "stress motion: {count} bodies need {bytes} bytes, beyond one storage binding of the device \
                 ({max_binding})"
            )));
        }
        let fit =
            scene_grid(scene).map_err(|e| GpuError::BadIndex(format!("stress motion: {e}")))?;
        use Access::{ReadWrite, Uniform};
        let layout = bind_group_layout(
            device,
            "stress motion",
            &[Uniform, ReadWrite, ReadWrite, ReadWrite],
        );
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("shaders/stress_motion.wgsl"),
            source: wgpu::ShaderSource::Wgsl(shader_source().into()),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("stress motion"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("stress_motion"),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some("stress_motion"),
            compilation_options: Default::default(),
            cache: None,
        });
        use wgpu::BufferUsages as U;
        let params = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("stress motion parameters"),
            size: MOTION_PARAMS_BYTES,
            usage: U::UNIFORM | U::COPY_DST,
            mapped_at_creation: false,
        });
        let bodies = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("stress bodies"),
            size: bytes,
            usage: U::STORAGE | U::COPY_DST | U::COPY_SRC,
            mapped_at_creation: false,
        });
        let records: Vec<GpuBody> = scene
            .bodies
            .iter()
            .zip(draw_slots)
            .map(|(body, &slot)| gpu_body(scene, body, slot))
            .collect();
        let render = RenderInstances::new(device, &module, &params, &bodies, count);
        if !records.is_empty() {
            queue.write_buffer(&bodies, 0, bytemuck::cast_slice(&records));
        }
        Ok(Self {
            device: device.clone(),
            queue: queue.clone(),
            layout,
            pipeline,
            render,
            params,
            bodies,
            count,
            half_extent: scene.half_extent,
            fit,
        })
    }

    /// Bodies on the device.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Bytes [`GpuBodies::new`] uploaded.
    pub fn upload_bytes(&self) -> u64 {
        self.count as u64 * BODY_BYTES
    }

    /// Sends body `index` of `scene` up again (a body the host moved, such as the player's shape): its pose,
    /// velocity, spin and mesh scale, 60 bytes. Its shape must be the one uploaded (a new shape means new
    /// bodies).
    pub fn write_body(&self, scene: &StressScene, index: usize) -> Result<u64, GpuError> {
        let body = scene.bodies.get(index).filter(|_| index < self.count);
        let Some(body) = body else {
            return Err(GpuError::BadIndex(format!(
                "body {index} written, but the GPU holds {} bodies",
                self.count
            )));
        };
        // The body's draw slot stays: only the pose, motion and scale go up (the first 64 bytes but the slot).
        let record = gpu_body(scene, body, 0);
        let at = index as u64 * BODY_BYTES;
        self.queue.write_buffer(
            &self.bodies,
            at,
            bytemuck::bytes_of(&[record.position, record.rotation]),
        );
        self.queue.write_buffer(
            &self.bodies,
            at + 32,
            &bytemuck::bytes_of(&record.velocity)[..12],
        );
        self.queue
            .write_buffer(&self.bodies, at + 48, bytemuck::bytes_of(&record.spin));
        Ok(BODY_BYTES - 4 - 32)
    }

    /// A grid that holds every box the bodies can have, wherever they move in the box: the broad phase cannot
    /// fit one to boxes it never sees.
    pub fn grid_fit(&self) -> GridFit {
        self.fit
    }

    /// Records the pass that advances every body by `dt` seconds (0: moves nothing) and writes its world box
    /// at `2i, 2i + 1` of `boxes` (`vec4<f32>` min and max) and its pose into instance record `i` of
    /// `instances` (the narrow phase's, 32 bytes each, hull word kept). Returns the bytes it sends up: the
    /// parameters only.
    pub fn encode(
        &self,
        dt: f32,
        instances: &wgpu::Buffer,
        boxes: &wgpu::Buffer,
        encoder: &mut wgpu::CommandEncoder,
    ) -> u64 {
        self.encode_timed(dt, instances, boxes, encoder, None)
    }

    /// [`GpuBodies::encode`] with the pass's start and end timestamps written as `timestamps` says.
    pub fn encode_timed(
        &self,
        dt: f32,
        instances: &wgpu::Buffer,
        boxes: &wgpu::Buffer,
        encoder: &mut wgpu::CommandEncoder,
        timestamps: Option<wgpu::ComputePassTimestampWrites<'_>>,
    ) -> u64 {
        let params = MotionParams {
            dt,
            half_extent: self.half_extent,
            count: self.count as u32,
            _pad: 0,
        };
        self.queue
            .write_buffer(&self.params, 0, bytemuck::bytes_of(&params));
        let group = bind_group(
            &self.device,
            "stress motion",
            &self.layout,
            &[
                (&self.params, None),
                (&self.bodies, None),
                (instances, None),
                (boxes, None),
            ],
        );
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("stress motion"),
            timestamp_writes: timestamps,
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &group, &[]);
        let groups = workgroups(self.count as u32);
        if groups > 0 {
            pass.dispatch_workgroups(groups, 1, 1);
        }
        MOTION_PARAMS_BYTES
    }

    /// Records the pass that writes every body's renderer instance (its model matrix, and `colour`, which
    /// shows only where a body has no mark) at its draw slot of [`GpuBodies::render_instances`]. Returns the
    /// bytes it sends up: the colour.
    pub fn encode_render_instances(
        &self,
        colour: [f32; 4],
        encoder: &mut wgpu::CommandEncoder,
    ) -> u64 {
        self.queue
            .write_buffer(&self.render.colour, 0, bytemuck::bytes_of(&colour));
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("stress render instances"),
            timestamp_writes: None,
        });
        pass.set_pipeline(&self.render.pipeline);
        pass.set_bind_group(0, &self.render.scene_group, &[]);
        pass.set_bind_group(1, &self.render.out_group, &[]);
        let groups = workgroups(self.count as u32);
        if groups > 0 {
            pass.dispatch_workgroups(groups, 1, 1);
        }
        16
    }

    /// The renderer's instance records ([`RENDER_INSTANCE_BYTES`] each, in draw order), usable as a
    /// per-instance vertex buffer: written by [`GpuBodies::encode_render_instances`].
    pub fn render_instances(&self) -> &wgpu::Buffer {
        &self.render.out
    }

    /// Records the pass that gives every body the pose and velocities of the GPU physics' body of the same
    /// index (`physics`: `PhysicsBody` records in body order, as [`crate::gpu::physics::GpuWorld::bodies`]
    /// holds them, at least [`GpuBodies::count`] of them): the motion pass then runs with dt = 0, writing the
    /// boxes and poses physics found. Returns the bytes it sends up: the parameters.
    pub fn encode_take_physics(
        &self,
        physics: &wgpu::Buffer,
        encoder: &mut wgpu::CommandEncoder,
    ) -> u64 {
        let params = MotionParams {
            dt: 0.0,
            half_extent: self.half_extent,
            count: self.count as u32,
            _pad: 0,
        };
        self.queue
            .write_buffer(&self.params, 0, bytemuck::bytes_of(&params));
        let group = bind_group(
            &self.device,
            "stress physics bodies",
            &self.render.physics_layout,
            &[(physics, None)],
        );
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("stress take physics"),
            timestamp_writes: None,
        });
        pass.set_pipeline(&self.render.take_physics);
        pass.set_bind_group(0, &self.render.scene_group, &[]);
        pass.set_bind_group(1, &group, &[]);
        let groups = workgroups(self.count as u32);
        if groups > 0 {
            pass.dispatch_workgroups(groups, 1, 1);
        }
        MOTION_PARAMS_BYTES
    }

    /// Every body as the GPU holds it (waits for the device; reads back 96 bytes a body): for tests and for
    /// handing the scene back to the host.
    pub fn read_bodies(&self) -> Result<Vec<Body>, GpuError> {
        let bytes = self.count as u64 * BODY_BYTES;
        let records: Vec<GpuBody> = self.read_range(&[(0, bytes)])?;
        Ok(records
            .iter()
            .enumerate()
            .map(|(i, r)| Body {
                shape: i as u32,
                pose: pose_of(r.position, r.rotation),
                velocity: Vec4::from(r.velocity).truncate(),
                spin: Vec4::from(r.spin).truncate(),
            })
            .collect())
    }

    /// The poses of `bodies` (indices below [`GpuBodies::count`]), in their order: [`POSE_BYTES`] read back
    /// each, in one wait: for tools and tests, never for a frame at scale.
    pub fn read_poses(&self, bodies: &[u32]) -> Result<Vec<Pose>, GpuError> {
        if let Some(&bad) = bodies.iter().find(|&&b| b as usize >= self.count) {
            return Err(GpuError::BadIndex(format!(
                "body {bad} read back, but the GPU holds {} bodies",
                self.count
            )));
        }
        let ranges: Vec<(u64, u64)> = bodies
            .iter()
            .map(|&b| (u64::from(b) * BODY_BYTES, POSE_BYTES))
            .collect();
        let words: Vec<[f32; 8]> = self.read_range(&ranges)?;
        Ok(words
            .iter()
            .map(|w| pose_of([w[0], w[1], w[2], w[3]], [w[4], w[5], w[6], w[7]]))
            .collect())
    }

    /// The byte ranges `(offset, size)` of the body buffer, copied one after another and read back.
    fn read_range<T: bytemuck::Pod>(&self, ranges: &[(u64, u64)]) -> Result<Vec<T>, GpuError> {
        let total: u64 = ranges.iter().map(|r| r.1).sum();
        if total == 0 {
            return Ok(Vec::new());
        }
        let readback = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("stress bodies readback"),
            size: total.next_multiple_of(16),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("stress bodies readback"),
            });
        let mut at = 0;
        for &(offset, size) in ranges {
            encoder.copy_buffer_to_buffer(&self.bodies, offset, &readback, at, size);
            at += size;
        }
        self.queue.submit([encoder.finish()]);
        read_buffer(&self.device, &readback, total, |bytes| {
            bytemuck::pod_collect_to_vec(bytes)
        })
    }
}

fn pose_of(position: [f32; 4], rotation: [f32; 4]) -> Pose {
    Pose::new(Vec4::from(position).truncate(), Quat::from_array(rotation))
}

/// A body's record: its pose and motion, its shape's local box, its mesh's scale and its draw slot.
fn gpu_body(scene: &StressScene, body: &Body, slot: u32) -> GpuBody {
    let (lo, hi) = scene.shapes[body.shape as usize].local_aabb();
    let scale = scene
        .scales
        .get(body.shape as usize)
        .copied()
        .unwrap_or(1.0);
    GpuBody {
        position: body.pose.position.extend(scale).to_array(),
        rotation: body.pose.rotation.to_array(),
        velocity: body.velocity.extend(f32::from_bits(slot)).to_array(),
        spin: body.spin.extend(0.0).to_array(),
        box_centre: ((lo + hi) * 0.5).extend(0.0).to_array(),
        box_half: ((hi - lo) * 0.5).extend(0.0).to_array(),
    }
}

/// The grid for every box the scene's bodies can have: centres stay in `[-h, h]^3`, and a body's world box
/// lies within the length of its local box's centre plus the length of its half extents of the centre, its
/// width on an axis within twice that half-extent length (a rotated vector is no longer than itself). One
/// part in a thousand more covers float32 rounding of the boxes.
fn scene_grid(scene: &StressScene) -> Result<GridFit, GridError> {
    let mut reach = 0f32;
    let mut widest = 0f64;
    for body in &scene.bodies {
        let (lo, hi) = scene.shapes[body.shape as usize].local_aabb();
        let half = (hi - lo) * 0.5;
        reach = reach.max(((lo + hi) * 0.5).length() + half.length());
        widest = widest.max(2.0 * f64::from(half.length()));
    }
    let bound = (scene.half_extent + reach) * 1.001;
    GridFit::for_bounds(
        Vec3::splat(-bound).to_array(),
        Vec3::splat(bound).to_array(),
        widest * 1.001,
    )
}

/// The pass that writes the renderer's instances, and its buffers.
struct RenderInstances {
    pipeline: wgpu::ComputePipeline,
    /// The pass that takes the poses from the GPU physics' bodies, and its second group's layout.
    take_physics: wgpu::ComputePipeline,
    physics_layout: wgpu::BindGroupLayout,
    colour: wgpu::Buffer,
    out: wgpu::Buffer,
    scene_group: wgpu::BindGroup,
    out_group: wgpu::BindGroup,
}

impl RenderInstances {
    fn new(
        device: &wgpu::Device,
        module: &wgpu::ShaderModule,
        params: &wgpu::Buffer,
        bodies: &wgpu::Buffer,
        count: usize,
    ) -> Self {
        use wgpu::BufferUsages as U;
        use Access::{ReadWrite, Uniform};
        let scene_layout = bind_group_layout(device, "stress render bodies", &[Uniform, ReadWrite]);
        let out_layout = bind_group_layout(device, "stress render out", &[Uniform, ReadWrite]);
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("stress render instances"),
            bind_group_layouts: &[Some(&scene_layout), Some(&out_layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("render_instances"),
            layout: Some(&pipeline_layout),
            module,
            entry_point: Some("render_instances"),
            compilation_options: Default::default(),
            cache: None,
        });
        let physics_layout = bind_group_layout(device, "stress physics bodies", &[Access::Read]);
        let take_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("stress take physics"),
            bind_group_layouts: &[Some(&scene_layout), Some(&physics_layout)],
            immediate_size: 0,
        });
        let take_physics = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("take_physics"),
            layout: Some(&take_layout),
            module,
            entry_point: Some("take_physics"),
            compilation_options: Default::default(),
            cache: None,
        });
        let colour = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("stress render colour"),
            size: 16,
            usage: U::UNIFORM | U::COPY_DST,
            mapped_at_creation: false,
        });
        let out = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("stress render instances"),
            size: (count.max(1) as u64) * RENDER_INSTANCE_BYTES,
            usage: U::STORAGE | U::VERTEX | U::COPY_SRC,
            mapped_at_creation: false,
        });
        let scene_group = bind_group(
            device,
            "stress render bodies",
            &scene_layout,
            &[(params, None), (bodies, None)],
        );
        let out_group = bind_group(
            device,
            "stress render out",
            &out_layout,
            &[(&colour, None), (&out, None)],
        );
        Self {
            pipeline,
            take_physics,
            physics_layout,
            colour,
            out,
            scene_group,
            out_group,
        }
    }
}
