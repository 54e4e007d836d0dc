//! The GPU solver's kernels (`shaders/physics_*.wgsl`), assembled after the constants emitted here, the shared
//! quaternion helpers and the physics records, and their pipelines: one bind group per kernel, holding only the
//! buffers it reads or writes (at most eight storage buffers, the portable limit).

use super::layout::{PHYSICS_BODY_ASLEEP, PHYSICS_CONTACT_TOUCHING};
use super::records::{
    FIXED_LIMIT, FIXED_SCALE, MAX_PLANE_POINTS, TALLY_COUNT, TALLY_WAKE, TALLY_WORDS,
};
use crate::gpu::pipeline::{bind_group_layout, Access};
use crate::gpu::WORKGROUP_SIZE;

const QUATERNION: &str = include_str!("../../../shaders/shared/quaternion.wgsl");
const TYPES: &str = include_str!("../../../shaders/shared/physics_types.wgsl");
const SOLVER: &str = include_str!("../../../shaders/shared/physics_solver.wgsl");
const TALLY: &str = include_str!("../../../shaders/shared/physics_tally.wgsl");
const RELAX: &str = include_str!("../../../shaders/shared/physics_relax.wgsl");
const APPLY: &str = include_str!("../../../shaders/shared/physics_apply.wgsl");

/// One kernel: its entry point (the file's stem), its own file and the shared files it adds, and how it binds
/// its buffers, in binding order.
pub(crate) struct PhysicsKernel {
    pub name: &'static str,
    text: &'static str,
    extra: &'static [&'static str],
    pub bindings: &'static [Access],
}

macro_rules! kernel {
    ($name:literal, [$($extra:expr),*], [$($access:ident),*]) => {
        PhysicsKernel {
            name: $name,
            text: include_str!(concat!("../../../shaders/", $name, ".wgsl")),
            extra: &[$($extra),*],
            bindings: &[$(Access::$access),*],
        }
    };
}

pub(crate) const WAKE: PhysicsKernel = kernel!(
    "physics_wake",
    [],
    [Uniform, Uniform, Read, Read, Read, ReadWrite]
);
pub(crate) const BEGIN: PhysicsKernel = kernel!(
    "physics_begin",
    [],
    [Uniform, Read, ReadWrite, ReadWrite, ReadWrite, ReadWrite, ReadWrite]
);
pub(crate) const TABLE: PhysicsKernel = kernel!("physics_table", [], [Read, Read, ReadWrite]);
pub(crate) const PREPARE: PhysicsKernel = kernel!(
    "physics_prepare",
    [TALLY],
    [Uniform, Uniform, Read, Read, Read, ReadWrite, Read, Read, ReadWrite, ReadWrite]
);
pub(crate) const RELAX_VELOCITY: PhysicsKernel = kernel!(
    "physics_relax",
    [RELAX, TALLY],
    [Uniform, Uniform, Read, ReadWrite, Read, ReadWrite]
);
pub(crate) const RELAX_PUSH: PhysicsKernel = kernel!(
    "physics_relax_push",
    [RELAX, TALLY],
    [Uniform, Uniform, Read, ReadWrite, Read, ReadWrite]
);
pub(crate) const APPLY_VELOCITY: PhysicsKernel = kernel!(
    "physics_apply",
    [APPLY],
    [Uniform, Read, ReadWrite, ReadWrite, ReadWrite]
);
pub(crate) const APPLY_PUSH: PhysicsKernel = kernel!(
    "physics_apply_push",
    [APPLY],
    [Uniform, Read, ReadWrite, ReadWrite, ReadWrite]
);
pub(crate) const FINISH: PhysicsKernel = kernel!(
    "physics_finish",
    [],
    [Uniform, ReadWrite, ReadWrite, ReadWrite]
);
pub(crate) const ENERGY: PhysicsKernel = kernel!(
    "physics_energy",
    [],
    [Uniform, Uniform, Read, Read, ReadWrite, ReadWrite]
);
pub(crate) const BOXES: PhysicsKernel =
    kernel!("physics_boxes", [], [Uniform, Read, Read, ReadWrite]);
pub(crate) const INSTANCES: PhysicsKernel =
    kernel!("physics_instances", [], [Uniform, Read, ReadWrite]);

#[cfg(test)]
/// Every kernel of the GPU solver.
pub(crate) const ALL: [&PhysicsKernel; 12] = [
    &WAKE,
    &BEGIN,
    &TABLE,
    &PREPARE,
    &RELAX_VELOCITY,
    &RELAX_PUSH,
    &APPLY_VELOCITY,
    &APPLY_PUSH,
    &FINISH,
    &ENERGY,
    &BOXES,
    &INSTANCES,
];

impl PhysicsKernel {
    /// The complete WGSL source.
    pub fn source(&self) -> String {
        let mut text = format!(
            "// Generated from Rust by src/gpu/physics/kernels.rs.\n\
             const WORKGROUP_SIZE: u32 = {WORKGROUP_SIZE}u;\n\
             const PHYSICS_BODY_ASLEEP: u32 = {PHYSICS_BODY_ASLEEP}u;\n\
             const PHYSICS_CONTACT_TOUCHING: u32 = {PHYSICS_CONTACT_TOUCHING}u;\n\
             const TALLY_WORDS: u32 = {TALLY_WORDS}u;\n\
             const TALLY_COUNT: u32 = {TALLY_COUNT}u;\n\
             const TALLY_WAKE: u32 = {TALLY_WAKE}u;\n\
             const FIXED_SCALE: f32 = {FIXED_SCALE:?};\n\
             const FIXED_LIMIT: f32 = {FIXED_LIMIT:?};\n\
             const MAX_PLANE_POINTS: u32 = {MAX_PLANE_POINTS}u;\n"
        );
        for part in [QUATERNION, TYPES, SOLVER]
            .iter()
            .chain(self.extra)
            .chain([&self.text])
        {
            text.push('\n');
            text.push_str(part);
        }
        text
    }
}

/// A kernel's pipeline and the layout of its one bind group.
pub(crate) struct Pass {
    pub pipeline: wgpu::ComputePipeline,
    pub layout: wgpu::BindGroupLayout,
}

impl Pass {
    pub fn new(device: &wgpu::Device, kernel: &PhysicsKernel) -> Self {
        let layout = bind_group_layout(device, kernel.name, kernel.bindings);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(kernel.name),
            source: wgpu::ShaderSource::Wgsl(kernel.source().into()),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(kernel.name),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(kernel.name),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some(kernel.name),
            compilation_options: Default::default(),
            cache: None,
        });
        Self { pipeline, layout }
    }
}

/// Every pass of a step, built once per solver.
pub(crate) struct Passes {
    pub wake: Pass,
    pub begin: Pass,
    pub table: Pass,
    pub prepare: Pass,
    pub relax: Pass,
    pub relax_push: Pass,
    pub apply: Pass,
    pub apply_push: Pass,
    pub finish: Pass,
    pub energy: Pass,
    pub boxes: Pass,
    pub instances: Pass,
}

impl Passes {
    pub fn new(device: &wgpu::Device) -> Self {
        Self {
            wake: Pass::new(device, &WAKE),
            begin: Pass::new(device, &BEGIN),
            table: Pass::new(device, &TABLE),
            prepare: Pass::new(device, &PREPARE),
            relax: Pass::new(device, &RELAX_VELOCITY),
            relax_push: Pass::new(device, &RELAX_PUSH),
            apply: Pass::new(device, &APPLY_VELOCITY),
            apply_push: Pass::new(device, &APPLY_PUSH),
            finish: Pass::new(device, &FINISH),
            energy: Pass::new(device, &ENERGY),
            boxes: Pass::new(device, &BOXES),
            instances: Pass::new(device, &INSTANCES),
        }
    }
}
