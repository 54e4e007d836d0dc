//! One body's pairs, found on the device (`shaders/body_pairs.wgsl`): a frame whose pairs stay on the GPU (the
//! broad phase's pair buffer and its count) reads back only the picked body's pairs, each with its partner's
//! pose, and the body's own pose, as the narrow phase's instance records hold them. What comes back is a fixed
//! few hundred bytes whatever the body and pair counts ([`BodyPairs::readback_bytes`]); pairs beyond the list's
//! capacity are counted, never silently dropped ([`FoundPairs::overflow`]).

use super::layout::INSTANCE_STRIDE;
use super::pipeline::{bind_group, bind_group_layout, read_buffer, workgroups, Access};
use super::{GpuError, WORKGROUP_SIZE};
use crate::pose::Pose;
use glam::{Quat, Vec3};

/// The kernel file, assembled after the constants of [`shader_source`].
const SHADER: &str = include_str!("../../shaders/body_pairs.wgsl");

/// Words of an instance record (`GpuInstance`: position, hull, rotation).
const INSTANCE_WORDS: u32 = (INSTANCE_STRIDE / 4) as u32;

/// Words of a list entry: the pair, its slot in the pair buffer, a zero word, the partner's instance record.
const BODY_PAIR_ENTRY_WORDS: u32 = 4 + INSTANCE_WORDS;

/// Bytes of the list's header (`found`, `scanned`, two zero words).
const HEADER_BYTES: u64 = 16;

/// The most workgroups one scan dispatches: its invocations stride over the pairs, so any count fits one
/// dispatch (a grid of one invocation per pair would pass the 65,535 workgroups a dimension may have at 4.2
/// million pairs), and the host need not know the count, which stays on the device.
const MAX_SCAN_WORKGROUPS: u32 = 1024;

/// The entries a list holds unless told otherwise: a body of the stress scene has a handful of candidate pairs
/// (about four at 100,000 bodies), the player's shape a few more.
pub const DEFAULT_BODY_PAIR_CAPACITY: u32 = 32;

fn shader_source() -> String {
    format!(
        "// Generated from Rust by src/gpu/body_pairs.rs.\nconst WORKGROUP_SIZE: u32 = {WORKGROUP_SIZE}u;\n\
         const INSTANCE_WORDS: u32 = {INSTANCE_WORDS}u;\nconst BODY_PAIR_ENTRY_WORDS: u32 = \
         {BODY_PAIR_ENTRY_WORDS}u;\n{SHADER}"
    )
}

/// The kernel's parameters (`BodyPairParams` in the WGSL).
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct BodyPairParams {
    body: u32,
    capacity: u32,
    bodies: u32,
    _pad: u32,
}

/// Where a frame's pairs and poses lie on the device.
#[derive(Clone, Copy, Debug)]
pub struct BodyPairsSource<'a> {
    /// The pairs, `vec2<u32>` each ([`super::broad::GpuBroadPhase::buffers`]).
    pub pairs: &'a wgpu::Buffer,
    /// Word 0: how many pairs were found (only those within `pairs` are read).
    pub count: &'a wgpu::Buffer,
    /// The narrow phase's instance records, 32 bytes each ([`super::NarrowPhase::resident_instance_buffer`]).
    pub instances: &'a wgpu::Buffer,
    /// The bodies those records describe: the pairs' indices are below it.
    pub bodies: u32,
}

/// One pair of the body, as the device lists it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FoundPair {
    /// The pair as the buffer holds it.
    pub pair: [u32; 2],
    /// Its index in the pair buffer (the narrow phase's record index for the frame).
    pub slot: u32,
    /// The other body's pose.
    pub partner_pose: Pose,
}

impl FoundPair {
    /// The body of the pair that is not `body`.
    pub fn partner(&self, body: u32) -> u32 {
        if self.pair[0] == body {
            self.pair[1]
        } else {
            self.pair[0]
        }
    }
}

/// What one scan found.
#[derive(Clone, Debug, PartialEq)]
pub struct FoundPairs {
    pub body: u32,
    /// The body's pose.
    pub pose: Pose,
    /// The pairs listed, up to the capacity, in the order the device found them (which its atomic counter makes
    /// run-dependent).
    pub pairs: Vec<FoundPair>,
    /// Every pair of the body in the buffer, listed or not.
    pub found: u32,
    /// The pairs scanned (the stored pairs of the buffer).
    pub scanned: u32,
    /// Bytes read back (one wait).
    pub bytes_down: u64,
}

impl FoundPairs {
    /// The body's pairs the list had no room for.
    pub fn overflow(&self) -> u32 {
        self.found - self.pairs.len() as u32
    }
}

/// The scan's pipeline and its list, kept for the frames a body stays picked.
pub struct BodyPairs {
    device: wgpu::Device,
    queue: wgpu::Queue,
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
    params: wgpu::Buffer,
    list: wgpu::Buffer,
    readback: wgpu::Buffer,
    capacity: u32,
}

impl BodyPairs {
    /// A scan whose list holds `capacity` pairs (at least one).
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, capacity: u32) -> Self {
        let capacity = capacity.max(1);
        use Access::{Read, ReadWrite, Uniform};
        let layout = bind_group_layout(
            device,
            "body pairs",
            &[Uniform, Read, Read, Read, ReadWrite],
        );
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("shaders/body_pairs.wgsl"),
            source: wgpu::ShaderSource::Wgsl(shader_source().into()),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("body pairs"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("body_pairs"),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some("body_pairs"),
            compilation_options: Default::default(),
            cache: None,
        });
        use wgpu::BufferUsages as U;
        let params = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("body pairs parameters"),
            size: std::mem::size_of::<BodyPairParams>() as u64,
            usage: U::UNIFORM | U::COPY_DST,
            mapped_at_creation: false,
        });
        let bytes = list_bytes(capacity);
        let list = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("body pairs list"),
            size: bytes,
            usage: U::STORAGE | U::COPY_SRC | U::COPY_DST,
            mapped_at_creation: false,
        });
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("body pairs readback"),
            size: bytes,
            usage: U::MAP_READ | U::COPY_DST,
            mapped_at_creation: false,
        });
        Self {
            device: device.clone(),
            queue: queue.clone(),
            layout,
            pipeline,
            params,
            list,
            readback,
            capacity,
        }
    }

    /// Pairs the list holds.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// Bytes one scan reads back: the header, the body's record and every entry, listed or not (one copy, one
    /// wait: reading the count first would take a second).
    pub fn readback_bytes(&self) -> u64 {
        list_bytes(self.capacity)
    }

    /// Lists `body`'s pairs among those of `source`, after the work already submitted that writes them (one
    /// submission, one wait). Refused, naming the index, for a body at or past `source.bodies`, instance
    /// records that do not hold `source.bodies` bodies, and a listed pair whose partner is not a body.
    pub fn find(&self, source: BodyPairsSource<'_>, body: u32) -> Result<FoundPairs, GpuError> {
        if body >= source.bodies {
            return Err(GpuError::BadIndex(format!(
                "body {body} picked, but the scene has {} bodies",
                source.bodies
            )));
        }
        let records = u64::from(source.bodies) * INSTANCE_STRIDE;
        if records > source.instances.size() {
            return Err(GpuError::BadIndex(format!(
                "{} bodies' instance records need {records} bytes; the buffer holds {}",
                source.bodies,
                source.instances.size()
            )));
        }
        let params = BodyPairParams {
            body,
            capacity: self.capacity,
            bodies: source.bodies,
            _pad: 0,
        };
        self.queue
            .write_buffer(&self.params, 0, bytemuck::bytes_of(&params));
        let group = bind_group(
            &self.device,
            "body pairs",
            &self.layout,
            &[
                (&self.params, None),
                (source.pairs, None),
                (source.count, Some((0, 16))),
                (source.instances, Some((0, records))),
                (&self.list, None),
            ],
        );
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("body pairs"),
            });
        encoder.clear_buffer(&self.list, 0, None);
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("body pairs"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &group, &[]);
            let slots = (source.pairs.size() / 8).min(u64::from(u32::MAX)) as u32;
            pass.dispatch_workgroups(workgroups(slots).clamp(1, MAX_SCAN_WORKGROUPS), 1, 1);
        }
        let bytes = self.readback_bytes();
        encoder.copy_buffer_to_buffer(&self.list, 0, &self.readback, 0, bytes);
        self.queue.submit([encoder.finish()]);
        let words: Vec<u32> = read_buffer(&self.device, &self.readback, bytes, |b| {
            bytemuck::pod_collect_to_vec(b)
        })?;
        let found = decode(&words, body, self.capacity, source.bodies)?;
        Ok(FoundPairs {
            bytes_down: bytes,
            ..found
        })
    }
}

/// Bytes of a list of `capacity` entries.
fn list_bytes(capacity: u32) -> u64 {
    HEADER_BYTES + 4 * u64::from(INSTANCE_WORDS + capacity * BODY_PAIR_ENTRY_WORDS)
}

/// The pose of an instance record's words (position, hull, rotation).
fn pose_of(words: &[u32]) -> Pose {
    let f = |k: usize| f32::from_bits(words[k]);
    Pose::new(
        Vec3::new(f(0), f(1), f(2)),
        Quat::from_xyzw(f(4), f(5), f(6), f(7)),
    )
}

/// The list's words as the host reads them.
fn decode(words: &[u32], body: u32, capacity: u32, bodies: u32) -> Result<FoundPairs, GpuError> {
    let (found, scanned) = (words[0], words[1]);
    let instance = INSTANCE_WORDS as usize;
    let entries = &words[4 + instance..];
    let listed = found.min(capacity) as usize;
    let pairs = entries
        .chunks_exact(BODY_PAIR_ENTRY_WORDS as usize)
        .take(listed)
        .map(|e| {
            let found = FoundPair {
                pair: [e[0], e[1]],
                slot: e[2],
                partner_pose: pose_of(&e[4..4 + instance]),
            };
            match found.partner(body) {
                partner if partner < bodies => Ok(found),
                partner => Err(GpuError::BadIndex(format!(
                    "pair slot {} names body {partner}, past the scene's {bodies} bodies",
                    found.slot
                ))),
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(FoundPairs {
        body,
        pose: pose_of(&words[4..4 + instance]),
        pairs,
        found,
        scanned,
        bytes_down: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::shader::naga_checks::{parse_and_validate, struct_size};

    #[test]
    fn the_kernel_validates_and_its_structs_match_the_rust_side() {
        let (module, _) = parse_and_validate("body_pairs", &shader_source());
        assert_eq!(
            struct_size(&module, "BodyPairParams") as usize,
            std::mem::size_of::<BodyPairParams>()
        );
        // The header, then the words: what `list_bytes` and `decode` read.
        let words = module.types.iter().find_map(|(_, t)| match &t.inner {
            naga::TypeInner::Struct { members, .. }
                if t.name.as_deref() == Some("BodyPairList") =>
            {
                members.iter().find(|m| m.name.as_deref() == Some("words"))
            }
            _ => None,
        });
        assert_eq!(words.map(|m| u64::from(m.offset)), Some(HEADER_BYTES));
    }

    #[test]
    fn a_list_reads_back_the_same_bytes_whatever_it_finds() {
        assert_eq!(BODY_PAIR_ENTRY_WORDS, 12);
        assert_eq!(list_bytes(DEFAULT_BODY_PAIR_CAPACITY), 16 + 32 + 32 * 48);
    }
}
