//! One compute kernel answering a chunk of pairs from one bind group, for the runners that assemble their own
//! kernel apart from the narrow phase's ring (`gpu::sat`, `gpu::manifold`): a uniform of four words (the pair
//! count first), the chunk's hull words, one record per pair in and one per pair out. One submission and one wait
//! a chunk.

use super::pipeline::{bind_group, bind_group_layout, read_buffer, Access};
use super::GpuError;
use wgpu::util::DeviceExt;

pub(super) struct PairKernel {
    device: wgpu::Device,
    queue: wgpu::Queue,
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
    /// Buffer and pass labels.
    label: &'static str,
    workgroup_size: u32,
}

impl PairKernel {
    /// The kernel `entry_point` of the assembled `source` (with its `@workgroup_size(workgroup_size)`).
    pub(super) fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        label: &'static str,
        source: String,
        entry_point: &'static str,
        workgroup_size: u32,
    ) -> Self {
        use Access::{Read, ReadWrite, Uniform};
        let layout = bind_group_layout(device, label, &[Uniform, Read, Read, ReadWrite]);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(label),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(entry_point),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(entry_point),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some(entry_point),
            compilation_options: Default::default(),
            cache: None,
        });
        Self {
            device: device.clone(),
            queue: queue.clone(),
            layout,
            pipeline,
            label,
            workgroup_size,
        }
    }

    /// `bytes` of hull words capped by what one binding and one buffer of the device hold.
    pub(super) fn binding_cap(&self, bytes: u64) -> u64 {
        let limits = self.device.limits();
        bytes
            .min(limits.max_storage_buffer_binding_size)
            .min(limits.max_buffer_size)
    }

    /// Runs the kernel over `pairs` (one invocation each) with `params` (`params[0]` is the pair count) and
    /// `hull_words`, and returns one result record per pair, in order.
    pub(super) fn run<P: bytemuck::Pod, R: bytemuck::Pod>(
        &self,
        params: [u32; 4],
        hull_words: &[u32],
        pairs: &[P],
    ) -> Result<Vec<R>, GpuError> {
        let device = &self.device;
        let label = self.label;
        let init = |what: &str, contents: &[u8], usage: wgpu::BufferUsages| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(&format!("{label} {what}")),
                contents,
                usage,
            })
        };
        let params = init(
            "params",
            bytemuck::cast_slice(&params),
            wgpu::BufferUsages::UNIFORM,
        );
        let hulls = init(
            "hulls",
            bytemuck::cast_slice(hull_words),
            wgpu::BufferUsages::STORAGE,
        );
        let pair_buffer = init(
            "pairs",
            bytemuck::cast_slice(pairs),
            wgpu::BufferUsages::STORAGE,
        );
        let size = (pairs.len() * size_of::<R>()) as u64;
        let buffer = |what: &str, usage: wgpu::BufferUsages| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(&format!("{label} {what}")),
                size,
                usage,
                mapped_at_creation: false,
            })
        };
        let results = buffer(
            "results",
            wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        );
        let readback = buffer(
            "readback",
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        let group = bind_group(
            device,
            label,
            &self.layout,
            &[
                (&params, None),
                (&hulls, None),
                (&pair_buffer, None),
                (&results, None),
            ],
        );
        let mut encoder =
            device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(label) });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(label),
                timestamp_writes: None,
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &group, &[]);
            pass.dispatch_workgroups((pairs.len() as u32).div_ceil(self.workgroup_size), 1, 1);
        }
        encoder.copy_buffer_to_buffer(&results, 0, &readback, 0, size);
        self.queue.submit([encoder.finish()]);
        read_buffer(device, &readback, size, |bytes| {
            bytemuck::cast_slice(bytes).to_vec()
        })
    }
}
