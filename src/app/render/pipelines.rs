//! The render pipelines of `shaders/render/scene.wgsl` and the per-frame uniforms they share.

use super::instance::BodyInstance;
use super::target::DEPTH_FORMAT;
use super::TARGET_FORMAT;
use crate::app::draw_list::state_colour;
use crate::gpu::{MARK_COLLIDING, MARK_DISPUTED};
use crate::stress::BodyState;

const SHADER: &str = include_str!("../../../shaders/render/scene.wgsl");

/// A mark word that means "no marks bound: use the instance's own colour".
pub const MARK_UNSET: u32 = u32::MAX;

/// The scene shader: the mark bits (from the narrow phase) and the state palette (from
/// [`state_colour`]) emitted from Rust, then `shaders/render/scene.wgsl`.
pub fn shader_source() -> &'static str {
    static SOURCE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        let colour = |state| {
            let [r, g, b, a] = state_colour(state);
            format!("vec4<f32>({r:?}, {g:?}, {b:?}, {a:?})")
        };
        format!(
            "// Generated from Rust by src/app/render/pipelines.rs.\n\
             const MARK_COLLIDING: u32 = {MARK_COLLIDING}u;\n\
             const MARK_DISPUTED: u32 = {MARK_DISPUTED}u;\n\
             const MARK_UNSET: u32 = {MARK_UNSET}u;\n\
             const FREE_COLOUR: vec4<f32> = {};\n\
             const COLLIDING_COLOUR: vec4<f32> = {};\n\
             const DISPUTED_COLOUR: vec4<f32> = {};\n{SHADER}",
            colour(BodyState::Free),
            colour(BodyState::Colliding),
            colour(BodyState::Disagreement),
        )
    });
    &SOURCE
}

/// The per-instance mark word of a body (location 7): a word of the narrow phase's
/// [`BodyMarks`](crate::gpu::BodyMarks) buffer, or [`MARK_UNSET`].
pub const MARK_VERTEX: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: 4,
    step_mode: wgpu::VertexStepMode::Instance,
    attributes: &wgpu::vertex_attr_array![7 => Uint32],
};

/// Must match `Frame` in `shaders/render/scene.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub struct FrameUniforms {
    pub view_proj: [[f32; 4]; 4],
    pub camera_position: [f32; 4],
    pub light_direction: [f32; 4],
    /// Width and height in pixels, and pixels per world unit at clip w = 1.
    pub viewport: [f32; 4],
    pub bounds_colour: [f32; 4],
}

/// A mesh vertex; the vertex buffers interleave position and normal.
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Vertex {
    pub position: [f32; 3],
    pub normal: [f32; 3],
}

/// One end of an edge, with the edge's length (each edge has two vertices of its own, drawn as a line
/// list), so the shader can fade edges that are short on screen.
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
pub struct EdgeVertex {
    pub position: [f32; 3],
    pub length: f32,
}

const MESH_VERTEX: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: std::mem::size_of::<Vertex>() as wgpu::BufferAddress,
    step_mode: wgpu::VertexStepMode::Vertex,
    attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3],
};

const EDGE_VERTEX: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: std::mem::size_of::<EdgeVertex>() as wgpu::BufferAddress,
    step_mode: wgpu::VertexStepMode::Vertex,
    attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32],
};

pub struct Pipelines {
    pub frame_layout: wgpu::BindGroupLayout,
    pub mesh: wgpu::RenderPipeline,
    /// Hull wireframes (V), translucent where edges crowd.
    pub wire: wgpu::RenderPipeline,
    /// Crease edges of every body in a dark shade of its colour.
    pub outline: wgpu::RenderPipeline,
    /// Every edge of the picked body and the player's, in the instance's colour.
    pub highlight: wgpu::RenderPipeline,
    /// The same edges where bodies hide them, faintly.
    pub highlight_hidden: wgpu::RenderPipeline,
    pub bounds: wgpu::RenderPipeline,
}

impl Pipelines {
    pub fn new(device: &wgpu::Device, sample_count: u32) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("render.wgsl"),
            source: wgpu::ShaderSource::Wgsl(shader_source().into()),
        });
        let frame_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("render frame uniforms"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: wgpu::BufferSize::new(
                        std::mem::size_of::<FrameUniforms>() as u64
                    ),
                },
                count: None,
            }],
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("render layout"),
            bind_group_layouts: &[Some(&frame_layout)],
            immediate_size: 0,
        });
        let build = |spec: Spec| {
            let buffers = [
                Some(spec.vertex_layout),
                Some(BodyInstance::LAYOUT),
                Some(MARK_VERTEX),
            ];
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(spec.label),
                layout: Some(&layout),
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some(spec.vertex),
                    compilation_options: Default::default(),
                    buffers: &buffers[..if spec.marked { 3 } else { 2 }],
                },
                primitive: wgpu::PrimitiveState {
                    topology: spec.topology,
                    front_face: wgpu::FrontFace::Ccw,
                    cull_mode: spec.cull,
                    ..Default::default()
                },
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: Some(spec.blend.is_none()),
                    depth_compare: Some(spec.depth_compare),
                    stencil: wgpu::StencilState::default(),
                    bias: wgpu::DepthBiasState::default(),
                }),
                multisample: wgpu::MultisampleState {
                    count: sample_count,
                    ..Default::default()
                },
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some(spec.fragment),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format: TARGET_FORMAT,
                        blend: spec.blend,
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let edge = |label, fragment, blend| Spec {
            label,
            vertex: "vs_edge",
            marked: false,
            fragment,
            vertex_layout: EDGE_VERTEX,
            topology: wgpu::PrimitiveTopology::LineList,
            cull: None,
            // Lines pulled onto a face's own depth still pass.
            depth_compare: wgpu::CompareFunction::LessEqual,
            blend,
        };
        let alpha = Some(wgpu::BlendState::ALPHA_BLENDING);
        Self {
            mesh: build(Spec {
                label: "mesh pipeline",
                vertex: "vs_mesh",
                marked: true,
                fragment: "fs_mesh",
                vertex_layout: MESH_VERTEX,
                topology: wgpu::PrimitiveTopology::TriangleList,
                cull: Some(wgpu::Face::Back),
                depth_compare: wgpu::CompareFunction::Less,
                blend: None,
            }),
            wire: build(Spec {
                vertex: "vs_body_edge",
                marked: true,
                ..edge("wireframe pipeline", "fs_wire", alpha)
            }),
            outline: build(Spec {
                vertex: "vs_body_edge",
                marked: true,
                ..edge("outline pipeline", "fs_outline", None)
            }),
            highlight: build(edge("highlight pipeline", "fs_highlight", alpha)),
            highlight_hidden: build(Spec {
                depth_compare: wgpu::CompareFunction::Greater,
                ..edge("hidden highlight pipeline", "fs_highlight_hidden", alpha)
            }),
            bounds: build(edge("bounds pipeline", "fs_bounds", None)),
            frame_layout,
        }
    }
}

struct Spec {
    label: &'static str,
    vertex: &'static str,
    /// Whether the pipeline draws bodies, with their mark words as a third vertex buffer.
    marked: bool,
    fragment: &'static str,
    vertex_layout: wgpu::VertexBufferLayout<'static>,
    topology: wgpu::PrimitiveTopology,
    cull: Option<wgpu::Face>,
    depth_compare: wgpu::CompareFunction,
    /// Blended pipelines do not write depth.
    blend: Option<wgpu::BlendState>,
}
