//! The GPU physics' contact pass: for each broad-phase pair slot, the contact of the slot's two bodies
//! ([`GpuPhysicsContact`]) from their records on the device (`shaders/physics_contacts.wgsl`).
//!
//! For slot `k < min(count[0], capacity)` and its pair `(i, j) = pairs[k]`, the kernel forms j's pose relative to
//! i's in float32, runs the separating axis test between the two hulls (`shaders/shared/sat_axes.wgsl`, the
//! kernel of [`crate::gpu::sat`]) for the normal and depth, and clips the manifold from that axis as
//! [`crate::gpu::manifold`] clips it from EPA's (`shaders/shared/manifold_clip.wgsl`), with the deepest pair SAT's
//! axis implies in place of EPA's contact pair. The record's status is
//!
//! - [`PHYSICS_CONTACT_NONE`](super::layout::PHYSICS_CONTACT_NONE) with no points where neither body moves (inverse mass 0 or asleep) or the hulls do
//!   not penetrate;
//! - [`PHYSICS_CONTACT_TOUCHING`](super::layout::PHYSICS_CONTACT_TOUCHING) with the manifold where they do: the normal from i towards j and the deepest
//!   depth, up to four points halfway between the surfaces in world coordinates with their depths, in the order
//!   of their feature ids ([`crate::manifold::FeatureId::packed`]), as `physics::collide` builds a CPU contact;
//! - a failure code where the kernel gave up ([`PHYSICS_CONTACT_LOOP_LIMIT`], [`PHYSICS_CONTACT_POLYGON_BOUND`],
//!   [`PHYSICS_CONTACT_INVALID`]): no points; the solver skips the record.
//!
//! The pass is dispatched indirectly from the broad phase's count buffer (words 1 to 3) and reads the pair count
//! there, so the host never waits for it. [`check_contacts`] holds sampled records against the CPU manifold.

mod check;
#[cfg(test)]
mod check_tests;
pub(crate) mod codes;
mod proxy;
mod shapes;
pub use proxy::contact_proxy;
pub use shapes::MAX_CONTACT_FACES;
#[cfg(test)]
mod tests;

pub use check::{check_contacts, ContactCheck};
pub use codes::{
    PHYSICS_CONTACT_INVALID, PHYSICS_CONTACT_LOOP_LIMIT, PHYSICS_CONTACT_POLYGON_BOUND,
};

use super::layout::GpuPhysicsContact;
use crate::gjk::GjkConfig;
use crate::gpu::pipeline::{bind_group, bind_group_layout, Access};
use crate::gpu::shader::constants::{wgsl_constants_for, Climbing};
use crate::gpu::GpuError;
use crate::manifold::{DEEPEST_SLACK, MERGE_DISTANCE};
use crate::shape::ConvexShape;
use std::sync::Mutex;
use wgpu::util::DeviceExt;

/// The kernel's source: the loop-budget probe, quaternions, the physics records, the polyhedron reader, the axis
/// search, the clipping and the kernel.
pub(crate) fn contacts_source() -> String {
    let files: String = [
        (
            "shared/loop_budget.wgsl",
            include_str!("../../../shaders/shared/loop_budget.wgsl"),
        ),
        (
            "shared/quaternion.wgsl",
            include_str!("../../../shaders/shared/quaternion.wgsl"),
        ),
        (
            "shared/physics_types.wgsl",
            include_str!("../../../shaders/shared/physics_types.wgsl"),
        ),
        (
            "shared/polyhedron.wgsl",
            include_str!("../../../shaders/shared/polyhedron.wgsl"),
        ),
        (
            "shared/sat_axes.wgsl",
            include_str!("../../../shaders/shared/sat_axes.wgsl"),
        ),
        (
            "shared/manifold_clip.wgsl",
            include_str!("../../../shaders/shared/manifold_clip.wgsl"),
        ),
        (
            "physics_contacts.wgsl",
            include_str!("../../../shaders/physics_contacts.wgsl"),
        ),
    ]
    .iter()
    .map(|(path, text)| format!("\n// ---- {path} ----\n{text}"))
    .collect();
    wgsl_constants_for(Climbing::Left) + &files
}

/// The kernel's uniform (`ContactParams` in the WGSL).
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct ContactParams {
    capacity: u32,
    loop_probe: u32,
    touch_tolerance: f32,
    deepest_slack: f32,
    merge_distance: f32,
    _pad: [u32; 3],
}

const _: () = assert!(size_of::<ContactParams>() == 32);

/// The buffers a bind group was made for, and the capacity its uniform holds.
struct Bound {
    buffers: [wgpu::Buffer; 4],
    capacity: u32,
    group: wgpu::BindGroup,
}

/// Bind groups kept for the buffers last seen: the solver's frames alternate between a few sets of buffers.
const CACHED_BIND_GROUPS: usize = 4;

/// The contact pass over a fixed set of shapes, on a device and queue of your own.
pub struct GpuContactPass {
    device: wgpu::Device,
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
    shape_table: wgpu::Buffer,
    poly: wgpu::Buffer,
    faces: wgpu::Buffer,
    cache: Mutex<Vec<Bound>>,
}

impl GpuContactPass {
    /// The pass for bodies of `shapes` (a body's `info.x` indexes them), packed and uploaded once. Refuses, naming
    /// the shape and why, any shape the kernel does not take: a radius, a hull without faces (flat, a segment, a
    /// point), a face of more than [`crate::gpu::manifold::MAX_POLYGON`] vertices; and packed shapes beyond one
    /// binding of the device.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        shapes: &[ConvexShape],
    ) -> Result<Self, GpuError> {
        let words = shapes::pack_shapes(shapes)?;
        let limit = device
            .limits()
            .max_storage_buffer_binding_size
            .min(device.limits().max_buffer_size);
        for (what, len) in [
            ("separating-axis words", words.poly.len()),
            ("face words", words.faces.len()),
        ] {
            let bytes = len as u64 * 4;
            if bytes > limit {
                return Err(GpuError::ShapesTooLarge { what, bytes, limit });
            }
        }
        let init = |label: &str, contents: &[u8]| {
            let buffer = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: contents.len() as u64,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            queue.write_buffer(&buffer, 0, contents);
            buffer
        };
        let shape_table = init(
            "physics contacts shapes",
            bytemuck::cast_slice(&words.table),
        );
        let poly = init("physics contacts hulls", bytemuck::cast_slice(&words.poly));
        let faces = init("physics contacts faces", bytemuck::cast_slice(&words.faces));
        use Access::{Read, ReadWrite, Uniform};
        let layout = bind_group_layout(
            device,
            "physics contacts",
            &[Uniform, Read, Read, Read, Read, Read, Read, ReadWrite],
        );
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("physics contacts"),
            source: wgpu::ShaderSource::Wgsl(contacts_source().into()),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("physics contacts"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("physics_contacts"),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some("physics_contacts"),
            compilation_options: Default::default(),
            cache: None,
        });
        Ok(Self {
            device: device.clone(),
            layout,
            pipeline,
            shape_table,
            poly,
            faces,
            cache: Mutex::new(Vec::new()),
        })
    }

    /// Records the pass into `encoder`: for each slot `k < min(count[0], capacity)`, `contacts[k]` from `pairs[k]`
    /// (`vec2<u32>` body indices) and `bodies` (`GpuPhysicsBody` records). The dispatch is indirect, from `count`'s
    /// words 1 to 3 (the broad phase's: workgroups of 64 invocations, one invocation
    /// per stored pair, numbered in rows where a dispatch goes in rows), and the pair count is read from word 0 on
    /// the device. `count` needs `STORAGE | INDIRECT`
    /// usage, `contacts` `STORAGE` (see [`GpuContactPass::contact_buffer`]). `capacity` is also bounded by what the
    /// pair and contact buffers hold, so no slot beyond them is read or written. Slots at or past the count are
    /// left as they are.
    pub fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        bodies: &wgpu::Buffer,
        pairs: &wgpu::Buffer,
        count: &wgpu::Buffer,
        capacity: u32,
        contacts: &wgpu::Buffer,
    ) {
        let group = self.bind_group([bodies, pairs, count, contacts], capacity);
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("physics contacts"),
            timestamp_writes: None,
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.dispatch_workgroups_indirect(count, 4);
    }

    /// A buffer of `capacity` contact records (at least one), usable by [`GpuContactPass::encode`], copied from
    /// and written to.
    pub fn contact_buffer(device: &wgpu::Device, capacity: u32) -> wgpu::Buffer {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("physics contacts"),
            size: u64::from(capacity.max(1)) * size_of::<GpuPhysicsContact>() as u64,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    /// The bind group over `buffers` (bodies, pairs, count, contacts) with `capacity`, made once per set of
    /// buffers (by identity) and capacity, each with its own uniform, so that passes recorded one after the other
    /// before a submission keep their capacities.
    fn bind_group(&self, buffers: [&wgpu::Buffer; 4], capacity: u32) -> wgpu::BindGroup {
        // A poisoned lock only means an earlier call panicked; the cache holds no partial state.
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let same = |b: &Bound| b.capacity == capacity && b.buffers.iter().eq(buffers);
        if let Some(bound) = cache.iter().find(|b| same(b)) {
            return bound.group.clone();
        }
        let [_, pairs, _, contacts] = buffers;
        let held = (pairs.size() / 8).min(contacts.size() / size_of::<GpuPhysicsContact>() as u64);
        let config = GjkConfig::default();
        let params = ContactParams {
            capacity: capacity.min(u32::try_from(held).unwrap_or(u32::MAX)),
            loop_probe: crate::gpu::layout::LOOP_PROBE_TRIPS,
            touch_tolerance: config.touch_tolerance as f32,
            deepest_slack: DEEPEST_SLACK as f32,
            merge_distance: MERGE_DISTANCE as f32,
            _pad: [0; 3],
        };
        let uniform = self
            .device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some("physics contacts params"),
                contents: bytemuck::bytes_of(&params),
                usage: wgpu::BufferUsages::UNIFORM,
            });
        let [bodies, pairs, count, contacts] = buffers;
        let group = bind_group(
            &self.device,
            "physics contacts",
            &self.layout,
            &[
                (&uniform, None),
                (&self.shape_table, None),
                (&self.poly, None),
                (&self.faces, None),
                (bodies, None),
                (pairs, None),
                (count, None),
                (contacts, None),
            ],
        );
        if cache.len() == CACHED_BIND_GROUPS {
            cache.remove(0);
        }
        cache.push(Bound {
            buffers: buffers.map(|b| b.clone()),
            capacity,
            group: group.clone(),
        });
        group
    }
}
