//! The scene on one device, resident between batches: the vertex pool and hull table (uploaded once, identical
//! shapes once), the instances (uploaded once, updated in place when they move), and what a batch needs to know
//! about them. A scene too large for one binding stays on the host and goes up group by group
//! ([`super::groups`]); the buffers are the twin of `shaders/shared/scene.wgsl` (bindings 1 to 3).

use super::groups::Group;
use super::hulls::support_reads;
use super::hulls::{HullSet, RawSets, HULL_STRIDE};
use super::layout::{GpuHull, GpuInstance, INSTANCE_STRIDE, VERTEX_STRIDE};
use super::limits::GpuLimits;
use super::shader::constants::Climbing;
use super::GpuError;
use crate::instance::{IndexError, Instance};
use crate::shape::ConvexShape;
use rayon::prelude::*;
use std::time::Instant;

/// Instances per rayon task when setting them: small scenes (a demo frame's) stay on one thread.
const PARALLEL_MIN: usize = 1 << 14;

/// Storage buffers that a later, larger upload replaces (the old one stays alive in any chunk still using it).
fn storage(device: &wgpu::Device, label: &'static str, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: size.next_multiple_of(16).max(INSTANCE_STRIDE),
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// Uploads made outside a batch (hulls, instances), charged to the next batch's figures.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct PendingUpload {
    pub bytes: u64,
    pub seconds: f64,
}

pub struct Scene {
    pub(super) device: wgpu::Device,
    pub(super) queue: wgpu::Queue,
    pub(super) limits: GpuLimits,
    hulls: HullSet,
    /// How the next [`Scene::upload_hulls`] packs big raw point sets.
    pub(super) raw_sets: RawSets,
    /// The instances as the GPU reads them (hull indices, not shape indices).
    instances: Vec<GpuInstance>,
    /// The points one support call on each instance's hull reads ([`support_reads`]), for the work estimate
    /// of a chunk.
    instance_points: Vec<u32>,
    /// The most points one support call reads on any hull.
    pub(super) max_points: u32,
    vertex_buffer: wgpu::Buffer,
    hull_buffer: wgpu::Buffer,
    instance_buffer: wgpu::Buffer,
    /// Where gathered groups go (see [`super::groups`]), apart from the resident buffers, which they leave
    /// intact: vertex pool, hull table, instances.
    gathered: [wgpu::Buffer; 3],
    /// Whether every hull is on the GPU at its index (else each batch uploads its groups' hulls).
    hulls_resident: bool,
    /// Whether any hull climbs (the kernels then carry the climb).
    climbing: Climbing,
    /// Whether every instance is on the GPU at its index (in one buffer, perhaps larger than one binding).
    instances_resident: bool,
    /// Bumped whenever a buffer above is replaced, so bind groups made with the old one are made again.
    pub(super) generation: u64,
    pub(super) pending: PendingUpload,
}

impl Scene {
    pub(super) fn new(device: &wgpu::Device, queue: &wgpu::Queue, limits: GpuLimits) -> Self {
        Self {
            device: device.clone(),
            queue: queue.clone(),
            limits: limits.capped_by(&device.limits()),
            hulls: HullSet::default(),
            raw_sets: RawSets::default(),
            instances: Vec::new(),
            instance_points: Vec::new(),
            max_points: 0,
            vertex_buffer: storage(device, "vertex pool", 16),
            hull_buffer: storage(device, "hull table", 16),
            instance_buffer: storage(device, "instances", 16),
            gathered: ["gathered vertices", "gathered hulls", "gathered instances"]
                .map(|label| storage(device, label, 16)),
            hulls_resident: true,
            climbing: Climbing::Left,
            instances_resident: true,
            generation: 0,
            pending: PendingUpload::default(),
        }
    }

    /// Packs the hulls (identical shapes once, big raw point sets as `raw_sets` says) and uploads them if they
    /// fit the device; replaces any earlier set and forgets the instances, which refer to shapes by index.
    pub(super) fn upload_hulls(&mut self, shapes: &[ConvexShape]) {
        let start = Instant::now();
        self.hulls = HullSet::pack_searched(shapes, self.raw_sets);
        self.climbing = if self.hulls.hulls.iter().any(|h| h.climbs == 1) {
            Climbing::Compiled
        } else {
            Climbing::Left
        };
        self.max_points = self
            .hulls
            .hulls
            .iter()
            .map(support_reads)
            .max()
            .unwrap_or(0);
        self.instances.clear();
        self.instance_points.clear();
        let buffers = self.limits.buffers;
        self.hulls_resident = self.hulls.vertex_bytes() <= buffers.vertex_pool
            && self.hulls.hull_bytes() <= buffers.hull_table;
        if self.hulls_resident {
            self.vertex_buffer = storage(&self.device, "vertex pool", self.hulls.vertex_bytes());
            self.hull_buffer = storage(&self.device, "hull table", self.hulls.hull_bytes());
            self.queue.write_buffer(
                &self.vertex_buffer,
                0,
                bytemuck::cast_slice(&self.hulls.vertices),
            );
            self.queue.write_buffer(
                &self.hull_buffer,
                0,
                bytemuck::cast_slice(&self.hulls.hulls),
            );
            self.generation += 1;
            self.pending.bytes += self.hulls.vertex_bytes() + self.hulls.hull_bytes();
        }
        self.pending.seconds += start.elapsed().as_secs_f64();
    }

    /// Shapes given to the last [`Scene::upload_hulls`] and distinct hulls among them.
    pub(super) fn hull_counts(&self) -> (usize, usize) {
        (self.hulls.hull_of_shape.len(), self.hulls.hulls.len())
    }

    fn gpu_instance(&self, index: usize, instance: &Instance) -> Result<GpuInstance, IndexError> {
        let shapes = self.hulls.hull_of_shape.len();
        let hull = *self
            .hulls
            .hull_of_shape
            .get(instance.shape as usize)
            .ok_or(IndexError::BadShapeIndex {
                instance: index,
                shape: instance.shape,
                shapes,
            })?;
        Ok(GpuInstance {
            position: instance.pose.position.to_array(),
            hull,
            rotation: instance.pose.rotation.to_array(),
        })
    }

    /// Replaces every instance, uploading them if they (and the hulls) fit the device. Shape indices are checked
    /// here, once, so batches only check pair indices.
    pub(super) fn set_instances(&mut self, instances: &[Instance]) -> Result<(), GpuError> {
        let start = Instant::now();
        // A columnar batch sets an instance per pair (a million or more): checked and converted on all
        // threads, into the storage of the previous batch's instances (no fresh pages to fault in).
        let first_bad = instances
            .par_iter()
            .with_min_len(PARALLEL_MIN)
            .position_first(|i| i.shape as usize >= self.hulls.hull_of_shape.len());
        if let Some(k) = first_bad {
            let error = self
                .gpu_instance(k, &instances[k])
                .expect_err("found out of range");
            return Err(GpuError::BadIndex(error.to_string()));
        }
        let (hull_of_shape, hulls) = (&self.hulls.hull_of_shape, &self.hulls.hulls);
        self.instances.clear();
        self.instances
            .par_extend(
                instances
                    .par_iter()
                    .with_min_len(PARALLEL_MIN)
                    .map(|i| GpuInstance {
                        position: i.pose.position.to_array(),
                        hull: hull_of_shape[i.shape as usize],
                        rotation: i.pose.rotation.to_array(),
                    }),
            );
        self.instance_points.clear();
        self.instance_points.par_extend(
            self.instances
                .par_iter()
                .with_min_len(PARALLEL_MIN)
                .map(|i| support_reads(&hulls[i.hull as usize])),
        );
        let bytes = self.instances.len() as u64 * INSTANCE_STRIDE;
        let max_buffer = self.limits.buffers.max_buffer;
        self.instances_resident = self.hulls_resident && bytes <= max_buffer;
        if self.instances_resident {
            if self.instance_buffer.size() < bytes {
                let size = bytes.next_power_of_two().min(max_buffer).max(bytes);
                self.instance_buffer = storage(&self.device, "instances", size);
                self.generation += 1;
            }
            self.queue.write_buffer(
                &self.instance_buffer,
                0,
                bytemuck::cast_slice(&self.instances),
            );
            self.pending.bytes += bytes;
        }
        self.pending.seconds += start.elapsed().as_secs_f64();
        Ok(())
    }

    /// Overwrites instances `first..first + instances.len()` in place (bodies that moved, or changed shape):
    /// only those records go up.
    pub(super) fn update_instances(
        &mut self,
        first: usize,
        instances: &[Instance],
    ) -> Result<(), GpuError> {
        let start = Instant::now();
        let end = first + instances.len();
        if end > self.instances.len() {
            return Err(GpuError::BadIndex(format!(
                "instances {first}..{end} updated, but the scene has {} instances",
                self.instances.len()
            )));
        }
        for (k, instance) in instances.iter().enumerate() {
            let record = self
                .gpu_instance(first + k, instance)
                .map_err(|e| GpuError::BadIndex(e.to_string()))?;
            self.instance_points[first + k] =
                support_reads(&self.hulls.hulls[record.hull as usize]);
            self.instances[first + k] = record;
        }
        if self.instances_resident && !instances.is_empty() {
            self.queue.write_buffer(
                &self.instance_buffer,
                first as u64 * INSTANCE_STRIDE,
                bytemuck::cast_slice(&self.instances[first..end]),
            );
            self.pending.bytes += instances.len() as u64 * INSTANCE_STRIDE;
        }
        self.pending.seconds += start.elapsed().as_secs_f64();
        Ok(())
    }

    /// The instance buffer, while every instance is on the GPU in it (a pass that moves the bodies on the
    /// device writes their poses there).
    pub(super) fn resident_instances(&self) -> Option<&wgpu::Buffer> {
        self.resident().then_some(&self.instance_buffer)
    }

    pub(super) fn instance_count(&self) -> usize {
        self.instances.len()
    }

    /// Whether the whole scene is on the GPU, so a batch sends only its pairs.
    pub(super) fn resident(&self) -> bool {
        self.hulls_resident && self.instances_resident
    }

    /// Whether batches index the resident instances directly: the whole scene on the GPU and every instance
    /// in one binding (so a chunk's pair indices are the scene's).
    pub(super) fn in_one_window(&self) -> bool {
        self.resident() && self.instance_count() <= self.instance_window().0 as usize
    }

    /// Instances one binding holds, and the alignment (in instances) of a binding's start.
    pub(super) fn instance_window(&self) -> (u32, u32) {
        let align = u64::from(self.device.limits().min_storage_buffer_offset_alignment)
            .max(INSTANCE_STRIDE);
        let window = (self.limits.buffers.instances / INSTANCE_STRIDE).min(u64::from(u32::MAX));
        (window as u32, (align / INSTANCE_STRIDE) as u32)
    }

    /// Whether any uploaded hull climbs, so that the kernels must carry the climb.
    pub(super) fn climbing(&self) -> Climbing {
        self.climbing
    }

    pub(super) fn hulls_resident(&self) -> bool {
        self.hulls_resident
    }

    pub(super) fn hull_set(&self) -> &HullSet {
        &self.hulls
    }

    pub(super) fn gpu_instances(&self) -> &[GpuInstance] {
        &self.instances
    }

    /// Points one support call on instance `i`'s hull reads.
    pub(super) fn points_of(&self, instance: u32) -> u32 {
        self.instance_points[instance as usize]
    }

    /// The scene's bindings for pairs rebased to instance `base` of the resident instances: the window of one
    /// binding from there.
    pub(super) fn resident_binding(&self, base: u32) -> SceneBinding {
        let offset = u64::from(base) * INSTANCE_STRIDE;
        let size = (self.instance_buffer.size() - offset).min(self.limits.buffers.instances);
        SceneBinding {
            vertices: self.vertex_buffer.clone(),
            hulls: self.hull_buffer.clone(),
            instances: self.instance_buffer.clone(),
            instance_offset: offset,
            instance_size: size.max(INSTANCE_STRIDE),
            key: (self.generation, offset, false),
        }
    }

    /// The scene's bindings for gathered groups.
    pub(super) fn gathered_binding(&self) -> SceneBinding {
        let [vertices, hulls, instances] = &self.gathered;
        let resident = self.hulls_resident;
        SceneBinding {
            vertices: if resident {
                &self.vertex_buffer
            } else {
                vertices
            }
            .clone(),
            hulls: if resident { &self.hull_buffer } else { hulls }.clone(),
            instances: instances.clone(),
            instance_offset: 0,
            instance_size: instances.size(),
            key: (self.generation, 0, true),
        }
    }

    /// Makes room for the largest of a batch's gathered groups before any of its chunks is recorded, so every
    /// chunk binds the same buffers.
    pub(super) fn reserve_groups(&mut self, groups: &[Group]) {
        let need = |f: fn(&Group) -> u64| groups.iter().map(f).max().unwrap_or(0);
        let sizes = [
            need(|g| g.vertex_count * VERTEX_STRIDE),
            need(|g| g.hulls.len() as u64 * HULL_STRIDE),
            need(|g| g.instances.len() as u64 * INSTANCE_STRIDE),
        ];
        for ((buffer, size), label) in self.gathered.iter_mut().zip(sizes).zip([
            "gathered vertices",
            "gathered hulls",
            "gathered instances",
        ]) {
            if buffer.size() < size {
                *buffer = storage(&self.device, label, size);
                self.generation += 1;
            }
        }
    }

    /// Writes one group's instances (and, unless every hull is resident, its hulls) at their local indices.
    /// Queue writes run after every chunk submitted before them, so earlier groups still read their own data.
    /// Returns the bytes written.
    pub(super) fn upload_group(&self, group: &Group) -> u64 {
        let [vertex_buffer, hull_buffer, instance_buffer] = &self.gathered;
        let instances: Vec<GpuInstance> = group
            .instances
            .iter()
            .zip(&group.instance_hulls)
            .map(|(&i, &hull)| GpuInstance {
                hull,
                ..self.instances[i as usize]
            })
            .collect();
        self.queue
            .write_buffer(instance_buffer, 0, bytemuck::cast_slice(&instances));
        let mut bytes = instances.len() as u64 * INSTANCE_STRIDE;
        if !self.hulls_resident {
            let mut vertices: Vec<[f32; 4]> = Vec::with_capacity(group.vertex_count as usize);
            let mut hulls: Vec<GpuHull> = Vec::with_capacity(group.hulls.len());
            for &h in &group.hulls {
                let mut hull = self.hulls.hulls[h as usize];
                hull.offset = vertices.len() as u32;
                vertices.extend_from_slice(self.hulls.hull_vertices(h));
                hulls.push(hull);
            }
            self.queue
                .write_buffer(vertex_buffer, 0, bytemuck::cast_slice(&vertices));
            self.queue
                .write_buffer(hull_buffer, 0, bytemuck::cast_slice(&hulls));
            bytes += vertices.len() as u64 * VERTEX_STRIDE + hulls.len() as u64 * HULL_STRIDE;
        }
        bytes
    }
}

/// What a chunk binds of the scene (bindings 1 to 3): the instances as a window (offset and size) of their
/// buffer.
#[derive(Clone, Debug)]
pub struct SceneBinding {
    pub vertices: wgpu::Buffer,
    pub hulls: wgpu::Buffer,
    pub instances: wgpu::Buffer,
    pub instance_offset: u64,
    pub instance_size: u64,
    /// Equal keys bind the same buffers: (scene generation, instance offset, gathered).
    pub key: (u64, u64, bool),
}
