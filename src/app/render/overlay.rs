//! Debug overlays: instanced screen-space segments, discs and rings (`OverlayPrim`, one instance of six
//! vertices each) and translucent triangles (`OverlayVertex`), from `shaders/render/overlay.wgsl`. The scene
//! draws them over its bodies in its own pass; the inspector draws with them alone.

use super::target::DEPTH_FORMAT;
use super::TARGET_FORMAT;
use glam::{Mat4, Vec3};

const SHADER: &str = include_str!("../../../shaders/render/overlay.wgsl");

#[cfg(test)]
pub fn shader_source() -> &'static str {
    SHADER
}

/// How a primitive is drawn (`STYLE_*` in `overlay.wgsl`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrimStyle {
    Segment = 0,
    Disc = 1,
    Ring = 2,
}

/// `STYLE_ON_TOP` in `overlay.wgsl`.
const ON_TOP: f32 = 4.0;

/// One overlay primitive. Must match `Prim` in `shaders/render/overlay.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct OverlayPrim {
    /// End a, and the width (segments) or diameter (discs, rings) in pixels.
    pub a: [f32; 4],
    /// End b, and the style.
    pub b: [f32; 4],
    /// Linear RGB and alpha.
    pub colour: [f32; 4],
}

const _: () = assert!(std::mem::size_of::<OverlayPrim>() == 48);

impl OverlayPrim {
    pub fn segment(a: Vec3, b: Vec3, width_px: f32, colour: [f32; 4]) -> Self {
        Self {
            a: a.extend(width_px).to_array(),
            b: b.extend(PrimStyle::Segment as u32 as f32).to_array(),
            colour,
        }
    }

    pub fn disc(centre: Vec3, diameter_px: f32, colour: [f32; 4]) -> Self {
        Self {
            a: centre.extend(diameter_px).to_array(),
            b: centre.extend(PrimStyle::Disc as u32 as f32).to_array(),
            colour,
        }
    }

    pub fn ring(centre: Vec3, diameter_px: f32, colour: [f32; 4]) -> Self {
        Self {
            a: centre.extend(diameter_px).to_array(),
            b: centre.extend(PrimStyle::Ring as u32 as f32).to_array(),
            colour,
        }
    }

    /// The same primitive, drawn at full alpha where the scene hides it too (`STYLE_ON_TOP`).
    pub fn on_top(mut self) -> Self {
        if self.b[3] < ON_TOP {
            self.b[3] += ON_TOP;
        }
        self
    }

    const LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<OverlayPrim>() as wgpu::BufferAddress,
        step_mode: wgpu::VertexStepMode::Instance,
        attributes: &wgpu::vertex_attr_array![0 => Float32x4, 1 => Float32x4, 2 => Float32x4],
    };
}

/// A corner of a translucent triangle. Must match `vs_triangle`'s inputs in `overlay.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct OverlayVertex {
    pub position: [f32; 3],
    pub normal: [f32; 3],
    pub colour: [f32; 4],
}

impl OverlayVertex {
    const LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<OverlayVertex>() as wgpu::BufferAddress,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32x4],
    };
}

/// A flat-shaded triangle with its face normal, for [`OverlayBatch::triangles`].
pub fn triangle(corners: [Vec3; 3], colour: [f32; 4]) -> [OverlayVertex; 3] {
    let normal = (corners[1] - corners[0])
        .cross(corners[2] - corners[0])
        .normalize_or_zero()
        .to_array();
    corners.map(|p| OverlayVertex {
        position: p.to_array(),
        normal,
        colour,
    })
}

/// Must match `View` in `shaders/render/overlay.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub struct ViewUniforms {
    pub view_proj: [[f32; 4]; 4],
    pub camera_position: [f32; 4],
    pub viewport: [f32; 4],
    pub light_direction: [f32; 4],
}

/// What one view draws: primitives and translucent triangles (drawn first, so lines show over them).
#[derive(Clone, Debug, Default)]
pub struct OverlayBatch {
    pub prims: Vec<OverlayPrim>,
    pub triangles: Vec<OverlayVertex>,
}

impl OverlayBatch {
    pub fn is_empty(&self) -> bool {
        self.prims.is_empty() && self.triangles.is_empty()
    }
}

/// The camera of one overlay view and how its overlays are drawn.
#[derive(Clone, Copy, Debug)]
pub struct OverlayView {
    pub view_proj: Mat4,
    pub camera_position: Vec3,
    pub size_px: (u32, u32),
    /// Fraction of the way towards the camera every point moves before the depth test.
    pub depth_pull: f32,
    /// Alpha factor of the parts hidden behind surfaces (0 hides them).
    pub hidden_alpha: f32,
}

/// A growable vertex buffer.
struct Growable {
    buffer: wgpu::Buffer,
    label: &'static str,
    len: u32,
}

impl Growable {
    fn new(device: &wgpu::Device, label: &'static str) -> Self {
        Self {
            buffer: Self::allocate(device, label, 1 << 12),
            label,
            len: 0,
        }
    }

    fn allocate(device: &wgpu::Device, label: &'static str, size: u64) -> wgpu::Buffer {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    fn write<T: bytemuck::Pod>(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, items: &[T]) {
        let max = device.limits().max_buffer_size;
        let count = items
            .len()
            .min((max / std::mem::size_of::<T>() as u64) as usize);
        let bytes: &[u8] = bytemuck::cast_slice(&items[..count]);
        if bytes.len() as u64 > self.buffer.size() {
            let size = (bytes.len() as u64).next_power_of_two().min(max);
            self.buffer = Self::allocate(device, self.label, size);
        }
        if !bytes.is_empty() {
            queue.write_buffer(&self.buffer, 0, bytes);
        }
        self.len = count as u32;
    }
}

/// The overlay pipelines for one sample count, a uniform buffer and the batch's buffers.
pub struct OverlayRenderer {
    visible: wgpu::RenderPipeline,
    hidden: wgpu::RenderPipeline,
    triangles: wgpu::RenderPipeline,
    uniforms: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
    prims: Growable,
    vertices: Growable,
}

impl OverlayRenderer {
    pub fn new(device: &wgpu::Device, sample_count: u32) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("overlay.wgsl"),
            source: wgpu::ShaderSource::Wgsl(SHADER.into()),
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("overlay view"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: wgpu::BufferSize::new(
                        std::mem::size_of::<ViewUniforms>() as u64
                    ),
                },
                count: None,
            }],
        });
        let uniforms = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("overlay view"),
            size: std::mem::size_of::<ViewUniforms>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("overlay view"),
            layout: &layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: uniforms.as_entire_binding(),
            }],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("overlay layout"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let build = |label: &str,
                     vertex: &str,
                     fragment: &str,
                     buffer: wgpu::VertexBufferLayout<'static>,
                     compare: wgpu::CompareFunction| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(&pipeline_layout),
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some(vertex),
                    compilation_options: Default::default(),
                    buffers: &[Some(buffer)],
                },
                primitive: wgpu::PrimitiveState {
                    topology: wgpu::PrimitiveTopology::TriangleList,
                    cull_mode: None,
                    ..Default::default()
                },
                // Overlays are tested against the scene's depth but do not write it: they never hide each
                // other or the bodies.
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: Some(false),
                    depth_compare: Some(compare),
                    stencil: wgpu::StencilState::default(),
                    bias: wgpu::DepthBiasState::default(),
                }),
                multisample: wgpu::MultisampleState {
                    count: sample_count,
                    ..Default::default()
                },
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some(fragment),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format: TARGET_FORMAT,
                        blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        use wgpu::CompareFunction::{Greater, LessEqual};
        Self {
            visible: build(
                "overlay",
                "vs_prim",
                "fs_prim",
                OverlayPrim::LAYOUT,
                LessEqual,
            ),
            hidden: build(
                "overlay hidden",
                "vs_prim",
                "fs_prim_hidden",
                OverlayPrim::LAYOUT,
                Greater,
            ),
            triangles: build(
                "overlay triangles",
                "vs_triangle",
                "fs_triangle",
                OverlayVertex::LAYOUT,
                LessEqual,
            ),
            uniforms,
            bind_group,
            prims: Growable::new(device, "overlay prims"),
            vertices: Growable::new(device, "overlay triangles"),
        }
    }

    /// Uploads the view and the batch; call before the pass that draws them.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        view: &OverlayView,
        batch: &OverlayBatch,
    ) {
        let uniforms = ViewUniforms {
            view_proj: view.view_proj.to_cols_array_2d(),
            camera_position: view.camera_position.extend(1.0).to_array(),
            viewport: [
                view.size_px.0.max(1) as f32,
                view.size_px.1.max(1) as f32,
                view.depth_pull,
                view.hidden_alpha,
            ],
            light_direction: Vec3::new(0.4, 1.0, 0.3).normalize().extend(0.0).to_array(),
        };
        queue.write_buffer(&self.uniforms, 0, bytemuck::bytes_of(&uniforms));
        self.prims.write(device, queue, &batch.prims);
        self.vertices.write(device, queue, &batch.triangles);
    }

    /// Draws what [`OverlayRenderer::prepare`] uploaded: triangles, then hidden parts faintly, then the
    /// visible primitives. `hidden` false skips the faint pass.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, hidden: bool) {
        pass.set_bind_group(0, &self.bind_group, &[]);
        if self.vertices.len > 0 {
            pass.set_pipeline(&self.triangles);
            pass.set_vertex_buffer(0, self.vertices.buffer.slice(..));
            pass.draw(0..self.vertices.len, 0..1);
        }
        if self.prims.len == 0 {
            return;
        }
        pass.set_vertex_buffer(0, self.prims.buffer.slice(..));
        if hidden {
            pass.set_pipeline(&self.hidden);
            pass.draw(0..6, 0..self.prims.len);
        }
        pass.set_pipeline(&self.visible);
        pass.draw(0..6, 0..self.prims.len);
    }
}
