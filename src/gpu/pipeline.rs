//! Building a kernel's pipeline from its bindings, and the blocking readback the renderer's screenshot and the
//! tests use (batches stream through [`super::ring`] instead).

use super::shader::constants::Climbing;
use super::shader::Kernel;
use super::GpuError;

/// How a kernel binds a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Uniform,
    Read,
    ReadWrite,
}

/// The scene's bindings, 0 to 4, in every narrow-phase kernel: settings, vertex pool, hull table, instances,
/// pairs (`shaders/shared/scene.wgsl`).
pub const SCENE_BINDINGS: [Access; 5] = [
    Access::Uniform,
    Access::Read,
    Access::Read,
    Access::Read,
    Access::Read,
];

/// A bind group layout with one compute-visible buffer per entry of `bindings`, numbered from 0.
pub fn bind_group_layout(
    device: &wgpu::Device,
    label: &str,
    bindings: &[Access],
) -> wgpu::BindGroupLayout {
    let entries: Vec<wgpu::BindGroupLayoutEntry> = bindings
        .iter()
        .enumerate()
        .map(|(binding, access)| wgpu::BindGroupLayoutEntry {
            binding: binding as u32,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: match access {
                    Access::Uniform => wgpu::BufferBindingType::Uniform,
                    Access::Read => wgpu::BufferBindingType::Storage { read_only: true },
                    Access::ReadWrite => wgpu::BufferBindingType::Storage { read_only: false },
                },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        })
        .collect();
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
        entries: &entries,
    })
}

/// The compute pipeline of `kernel` (assembled from its WGSL files) over `layout`, with or without the hull
/// climb, with wgpu's runtime checks or without them (`checked`, [`super::ShaderChecks`]).
pub fn compute_pipeline(
    device: &wgpu::Device,
    kernel: &Kernel,
    layout: &wgpu::BindGroupLayout,
    climbing: Climbing,
    checked: bool,
) -> wgpu::ComputePipeline {
    compute_pipeline_for(device, kernel, &[layout], climbing, checked)
}

/// The compute pipeline of `kernel` over bind groups `layouts` (group 0 first).
pub fn compute_pipeline_over(
    device: &wgpu::Device,
    kernel: &Kernel,
    layouts: &[&wgpu::BindGroupLayout],
    checked: bool,
) -> wgpu::ComputePipeline {
    compute_pipeline_for(device, kernel, layouts, Climbing::Compiled, checked)
}

/// One kernel's pipeline, built with the hull climb or without it as the scene needs ([`Climbing`]); each variant
/// is built the first time it is needed (a shader compile) and kept.
pub struct KernelPipelines {
    kernel: &'static Kernel,
    layout: wgpu::BindGroupLayout,
    /// Without the climb, then with it.
    built: [Option<wgpu::ComputePipeline>; 2],
    active: wgpu::ComputePipeline,
    active_climbing: Climbing,
    /// Whether the modules carry wgpu's runtime checks.
    checked: bool,
}

impl KernelPipelines {
    pub fn new(
        device: &wgpu::Device,
        kernel: &'static Kernel,
        layout: &wgpu::BindGroupLayout,
        climbing: Climbing,
        checked: bool,
    ) -> Self {
        let active = compute_pipeline(device, kernel, layout, climbing, checked);
        let mut built = [None, None];
        built[variant(climbing)] = Some(active.clone());
        Self {
            kernel,
            layout: layout.clone(),
            built,
            active,
            active_climbing: climbing,
            checked,
        }
    }

    /// Makes the variant for `climbing` the one [`KernelPipelines::active`] gives, building it if needed.
    pub fn select(&mut self, device: &wgpu::Device, climbing: Climbing) {
        let (kernel, layout, checked) = (self.kernel, &self.layout, self.checked);
        self.active = self.built[variant(climbing)]
            .get_or_insert_with(|| compute_pipeline(device, kernel, layout, climbing, checked))
            .clone();
        self.active_climbing = climbing;
    }

    pub fn active(&self) -> &wgpu::ComputePipeline {
        &self.active
    }

    /// Whether the active variant carries the climb.
    pub fn active_climbing(&self) -> Climbing {
        self.active_climbing
    }
}

fn variant(climbing: Climbing) -> usize {
    usize::from(climbing == Climbing::Compiled)
}

#[expect(
    unsafe_code,
    reason = "trusted shader modules: the kernels need none of wgpu's runtime checks (see the SAFETY note)"
)]
fn compute_pipeline_for(
    device: &wgpu::Device,
    kernel: &Kernel,
    layouts: &[&wgpu::BindGroupLayout],
    climbing: Climbing,
    checked: bool,
) -> wgpu::ComputePipeline {
    let layouts: Vec<Option<&wgpu::BindGroupLayout>> = layouts.iter().copied().map(Some).collect();
    let descriptor = wgpu::ShaderModuleDescriptor {
        label: Some(kernel.file.path),
        source: wgpu::ShaderSource::Wgsl(kernel.source_for(climbing).into()),
    };
    let module = if checked {
        device.create_shader_module(descriptor)
    } else {
        // SAFETY: the narrow phase's kernels index only within what the host sized and checked: pair indices
        // below the chunk's pair count (the pairs and outputs are bound for it), instance and hull indices
        // checked on upload (`Scene::set_instances`, `GpuError::BadIndex`) or, for pairs fed from the device,
        // written by the GPU broad phase from its own body indices; draw slots checked by `BodyMarks::new`; hull
        // points within each hull's `offset + count` in the pool, private arrays by counts their own code
        // bounds, EPA's scratch lanes within the scratch binding's length (an invocation without a lane answers
        // `epa_overflow` before touching it); every loop is bounded by a count (iterations, hull points, polytope slots); integer division
        // is by constants.
        unsafe {
            device.create_shader_module_trusted(descriptor, wgpu::ShaderRuntimeChecks::unchecked())
        }
    };
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(kernel.name),
        bind_group_layouts: &layouts,
        immediate_size: 0,
    });
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(kernel.name),
        layout: Some(&pipeline_layout),
        module: &module,
        entry_point: Some(kernel.name),
        compilation_options: Default::default(),
        cache: None,
    })
}

/// A bind group over `buffers`, numbered from 0: each bound whole, or as `(offset, size)` where given.
pub fn bind_group(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::BindGroupLayout,
    buffers: &[(&wgpu::Buffer, Option<(u64, u64)>)],
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry> = buffers
        .iter()
        .enumerate()
        .map(|(binding, (buffer, window))| wgpu::BindGroupEntry {
            binding: binding as u32,
            resource: match window {
                None => buffer.as_entire_binding(),
                Some((offset, size)) => wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer,
                    offset: *offset,
                    size: std::num::NonZeroU64::new(*size),
                }),
            },
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout,
        entries: &entries,
    })
}

/// The dispatch of `count` pairs in workgroups of [`WORKGROUP_SIZE`](super::WORKGROUP_SIZE).
pub fn workgroups(count: u32) -> u32 {
    count.div_ceil(super::WORKGROUP_SIZE)
}

/// How a chunk's passes are dispatched: over a pair count the host knows, or from an indirect dispatch a kernel
/// wrote on the device (`offset` bytes into `args`), for pairs the host never counts.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Dispatch<'a> {
    Pairs(u32),
    Indirect { args: &'a wgpu::Buffer, offset: u64 },
}

impl Dispatch<'_> {
    /// Dispatches the pass's pipeline: one invocation of [`super::WORKGROUP_SIZE`] per pair.
    pub fn record(self, pass: &mut wgpu::ComputePass<'_>) {
        match self {
            Dispatch::Pairs(count) => pass.dispatch_workgroups(workgroups(count), 1, 1),
            Dispatch::Indirect { args, offset } => pass.dispatch_workgroups_indirect(args, offset),
        }
    }
}

/// A storage buffer of at least `bytes` (16 at least, in whole 16-byte steps, as bindings of `vec4`s and
/// copies want), with `usage` beside `STORAGE`.
pub(crate) fn storage(
    device: &wgpu::Device,
    label: &str,
    bytes: u64,
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: bytes.max(16).next_multiple_of(16),
        usage: wgpu::BufferUsages::STORAGE | usage,
        mapped_at_creation: false,
    })
}

/// Maps the first `size` bytes of `buffer` (MAP_READ), waits for the device, hands the bytes to `read` and
/// unmaps.
pub fn read_buffer<T>(
    device: &wgpu::Device,
    buffer: &wgpu::Buffer,
    size: u64,
    read: impl FnOnce(&[u8]) -> T,
) -> Result<T, GpuError> {
    let slice = buffer.slice(..size);
    let (sender, receiver) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = sender.send(r);
    });
    wait(device)?;
    receiver
        .recv()
        .map_err(|e| GpuError::Readback(e.to_string()))?
        .map_err(|e| GpuError::Readback(e.to_string()))?;
    let out = {
        let view = slice
            .get_mapped_range()
            .map_err(|e| GpuError::Readback(e.to_string()))?;
        read(&view)
    };
    buffer.unmap();
    Ok(out)
}

/// Blocks until the device has finished everything submitted.
pub fn wait(device: &wgpu::Device) -> Result<(), GpuError> {
    poll(device, wgpu::PollType::wait_indefinitely())
}

pub(super) fn poll(device: &wgpu::Device, how: wgpu::PollType) -> Result<(), GpuError> {
    device.poll(how).map(|_| ()).map_err(|e| GpuError::Device {
        adapter: String::from("current device"),
        reason: e.to_string(),
    })
}
