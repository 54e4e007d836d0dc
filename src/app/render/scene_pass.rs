//! The scene pass: instanced bodies, optional hull wireframes and the bounding cube, into a
//! [`FrameTarget`].

use super::gpu_mesh::GpuMesh;
use super::instance::BodyInstance;
use super::mesh::MeshData;
use super::pipelines::{FrameUniforms, Pipelines};
use super::FrameTarget;
use glam::{Mat4, Quat, Vec3};

/// Dark blue-grey, linear RGB (the target encodes to sRGB).
pub const BACKGROUND: wgpu::Color = wgpu::Color {
    r: 0.018,
    g: 0.022,
    b: 0.034,
    a: 1.0,
};
const WIRE_COLOUR: [f32; 4] = [0.85, 0.88, 0.92, 1.0];
const BOUNDS_COLOUR: [f32; 4] = [0.09, 0.09, 0.10, 1.0];

/// Draws bodies as instances of uploaded meshes: one draw call per mesh and pass kind.
pub struct SceneRenderer {
    pipelines: Pipelines,
    uniforms: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
    meshes: Vec<GpuMesh>,
    bounds: GpuMesh,
}

impl SceneRenderer {
    /// Uploads `meshes`; the instance lists given to [`SceneRenderer::draw`] are indexed the same way.
    pub fn new(device: &wgpu::Device, meshes: &[MeshData]) -> Self {
        let pipelines = Pipelines::new(device);
        let uniforms = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("render frame uniforms"),
            size: std::mem::size_of::<FrameUniforms>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("render frame uniforms"),
            layout: &pipelines.frame_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: uniforms.as_entire_binding(),
            }],
        });
        Self {
            meshes: meshes
                .iter()
                .enumerate()
                .map(|(i, mesh)| GpuMesh::new(device, mesh, &format!("mesh {i}")))
                .collect(),
            bounds: GpuMesh::unit_cube_outline(device),
            pipelines,
            uniforms,
            bind_group,
        }
    }

    /// Records one render pass that clears `target` and draws it. `instances[i]` are the bodies drawn
    /// with mesh `i` (extra lists are ignored); `bounds_half_extent` sizes the cube outline around the
    /// origin.
    #[allow(clippy::too_many_arguments)]
    pub fn draw(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        target: &FrameTarget,
        view_proj: Mat4,
        camera_position: Vec3,
        instances: &[Vec<BodyInstance>],
        wireframe: bool,
        bounds_half_extent: f32,
    ) {
        let uniforms = FrameUniforms {
            view_proj: view_proj.to_cols_array_2d(),
            camera_position: camera_position.extend(1.0).to_array(),
            light_direction: Vec3::new(0.4, 1.0, 0.3).normalize().extend(0.0).to_array(),
            wire_colour: WIRE_COLOUR,
            bounds_colour: BOUNDS_COLOUR,
        };
        queue.write_buffer(&self.uniforms, 0, bytemuck::bytes_of(&uniforms));
        for (i, mesh) in self.meshes.iter_mut().enumerate() {
            let list = instances.get(i).map(Vec::as_slice).unwrap_or_default();
            mesh.instances.write(device, queue, list);
        }
        let bounds: &[BodyInstance] = if bounds_half_extent.is_finite() && bounds_half_extent > 0.0
        {
            &[BodyInstance::new(
                Vec3::ZERO,
                Quat::IDENTITY,
                bounds_half_extent,
                [0.0; 4],
            )]
        } else {
            &[]
        };
        self.bounds.instances.write(device, queue, bounds);

        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("scene"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target.colour_view(),
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(BACKGROUND),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: target.depth_view(),
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Store,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_bind_group(0, &self.bind_group, &[]);
        pass.set_pipeline(&self.pipelines.mesh);
        for mesh in &self.meshes {
            mesh.draw(&mut pass, &mesh.triangles, mesh.triangle_indices);
        }
        if wireframe {
            pass.set_pipeline(&self.pipelines.wire);
            for mesh in &self.meshes {
                mesh.draw(&mut pass, &mesh.edges, mesh.edge_indices);
            }
        }
        pass.set_pipeline(&self.pipelines.bounds);
        self.bounds
            .draw(&mut pass, &self.bounds.edges, self.bounds.edge_indices);
    }
}
