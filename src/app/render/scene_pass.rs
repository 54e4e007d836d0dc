//! The scene pass: instanced bodies with their crease outlines, optional hull wireframes, highlighted
//! bodies, the bounding cube and the debug overlays, into a [`FrameTarget`].

use super::gpu_mesh::GpuMesh;
use super::instance::BodyInstance;
use super::mesh::MeshData;
use super::overlay::{OverlayBatch, OverlayRenderer, OverlayView};
use super::pipelines::{FrameUniforms, Pipelines, MARK_UNSET};
use super::FrameTarget;
use glam::{Mat4, Quat, Vec3};

/// Dark blue-grey, linear RGB (the target encodes to sRGB).
pub const BACKGROUND: wgpu::Color = wgpu::Color {
    r: 0.018,
    g: 0.022,
    b: 0.034,
    a: 1.0,
};
const BOUNDS_COLOUR: [f32; 4] = [0.09, 0.09, 0.10, 1.0];
/// Overlay points move this fraction of the way towards the camera before the depth test: enough for a
/// contact point on a surface to win against it, not enough to show through a body in front.
const OVERLAY_DEPTH_PULL: f32 = 0.002;
/// Overlays hidden behind bodies are drawn at this fraction of their alpha.
const OVERLAY_HIDDEN_ALPHA: f32 = 0.3;

/// What one frame of the scene draws.
pub struct SceneFrame<'a> {
    pub view_proj: Mat4,
    pub camera_position: Vec3,
    /// Vertical field of view in radians: how many pixels a unit covers, which fades crowded wireframes.
    pub fov_y: f32,
    /// `bodies[i]`: the bodies drawn with mesh `i` (extra lists are ignored).
    pub bodies: &'a [Vec<BodyInstance>],
    /// `highlights[i]`: bodies of mesh `i` whose every edge is drawn in the instance's colour.
    pub highlights: &'a [Vec<BodyInstance>],
    pub wireframe: bool,
    /// Half extent of the cube outline around the origin (0 or less: none).
    pub bounds_half_extent: f32,
    pub overlays: &'a OverlayBatch,
    /// The bodies' mark words in draw order (the lists of `bodies` one after the other), which colour them:
    /// the narrow phase's [`BodyMarks`](crate::gpu::BodyMarks) buffer. `None`: each instance's own colour.
    pub marks: Option<&'a wgpu::Buffer>,
    /// Bodies whose instances the GPU wrote (the scene on the GPU): drawn from there, and `bodies` ignored.
    pub device_bodies: Option<DeviceBodies<'a>>,
}

/// Body instances already on the device, in draw order: mesh 0's bodies, then mesh 1's, ...
#[derive(Clone, Copy)]
pub struct DeviceBodies<'a> {
    /// [`BodyInstance`] records, one after the other.
    pub instances: &'a wgpu::Buffer,
    /// `per_mesh[i]`: how many of them mesh `i` draws.
    pub per_mesh: &'a [u32],
}

const BODY_INSTANCE_BYTES: u64 = std::mem::size_of::<BodyInstance>() as u64;

/// Draws bodies as instances of uploaded meshes (one draw call per mesh and pass kind), then the overlays.
pub struct SceneRenderer {
    pipelines: Pipelines,
    uniforms: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
    meshes: Vec<GpuMesh>,
    bounds: GpuMesh,
    overlay: OverlayRenderer,
    /// [`MARK_UNSET`] words, bound when a frame has no marks.
    unmarked: wgpu::Buffer,
    /// Where each mesh's bodies start in the mark words (and in a frame's device instances), this frame.
    first_mark: Vec<u64>,
    /// How many bodies each mesh draws, this frame.
    drawn: Vec<u32>,
}

impl SceneRenderer {
    /// Uploads `meshes`; the instance lists of [`SceneFrame`] are indexed the same way. `sample_count` must
    /// be the target's ([`FrameTarget::samples`]).
    pub fn new(device: &wgpu::Device, meshes: &[MeshData], sample_count: u32) -> Self {
        let pipelines = Pipelines::new(device, sample_count);
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
            overlay: OverlayRenderer::new(device, sample_count),
            pipelines,
            uniforms,
            bind_group,
            unmarked: unmarked_words(device, 0),
            first_mark: Vec::new(),
            drawn: Vec::new(),
        }
    }

    fn upload(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        target: &FrameTarget,
        frame: &SceneFrame,
    ) {
        let (width, height) = target.size();
        let pixels_per_unit = 0.5 * height as f32 / (0.5 * frame.fov_y).tan().max(1e-6);
        let uniforms = FrameUniforms {
            view_proj: frame.view_proj.to_cols_array_2d(),
            camera_position: frame.camera_position.extend(1.0).to_array(),
            light_direction: Vec3::new(0.4, 1.0, 0.3).normalize().extend(0.0).to_array(),
            viewport: [width as f32, height as f32, pixels_per_unit, 0.0],
            bounds_colour: BOUNDS_COLOUR,
        };
        queue.write_buffer(&self.uniforms, 0, bytemuck::bytes_of(&uniforms));
        for (i, mesh) in self.meshes.iter_mut().enumerate() {
            let bodies = match frame.device_bodies {
                Some(_) => &[],
                None => list(frame.bodies, i),
            };
            mesh.instances.write(device, queue, bodies);
            mesh.highlights
                .write(device, queue, list(frame.highlights, i));
        }
        let h = frame.bounds_half_extent;
        let bounds: &[BodyInstance] = if h.is_finite() && h > 0.0 {
            &[BodyInstance::new(Vec3::ZERO, Quat::IDENTITY, h, [0.0; 4])]
        } else {
            &[]
        };
        self.bounds.instances.write(device, queue, bounds);
        self.first_mark.clear();
        self.drawn.clear();
        let mut total = 0u64;
        for i in 0..self.meshes.len() {
            let count = match frame.device_bodies {
                Some(d) => d.per_mesh.get(i).copied().unwrap_or(0),
                None => list(frame.bodies, i).len() as u32,
            };
            self.first_mark.push(total);
            self.drawn.push(count);
            total += u64::from(count);
        }
        if frame.marks.is_none() && self.unmarked.size() < total * 4 {
            self.unmarked = unmarked_words(device, total);
        }
        let view = OverlayView {
            view_proj: frame.view_proj,
            camera_position: frame.camera_position,
            size_px: (width, height),
            depth_pull: OVERLAY_DEPTH_PULL,
            hidden_alpha: OVERLAY_HIDDEN_ALPHA,
        };
        self.overlay.prepare(device, queue, &view, frame.overlays);
    }

    /// Records one render pass that clears `target` and draws the frame into it.
    pub fn draw(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        target: &FrameTarget,
        frame: &SceneFrame,
    ) {
        self.upload(device, queue, target, frame);
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("scene"),
            color_attachments: &[Some(target.scene_attachment(BACKGROUND))],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: target.depth_view(),
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Discard,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_bind_group(0, &self.bind_group, &[]);
        let marks = frame.marks.unwrap_or(&self.unmarked);
        // Each mesh's bodies: its own uploaded instances, or its range of the device's.
        let bodies: Vec<(wgpu::BufferSlice, u32)> = self
            .meshes
            .iter()
            .zip(self.first_mark.iter().zip(&self.drawn))
            .map(|(mesh, (&first, &count))| match frame.device_bodies {
                Some(d) => {
                    let start = first * BODY_INSTANCE_BYTES;
                    let end = (first + u64::from(count)) * BODY_INSTANCE_BYTES;
                    let count = if end <= d.instances.size() { count } else { 0 };
                    (
                        d.instances
                            .slice(start..end.min(d.instances.size()).max(start)),
                        count,
                    )
                }
                None => (mesh.instances.slice(), mesh.instances.count()),
            })
            .collect();
        pass.set_pipeline(&self.pipelines.mesh);
        for ((mesh, &first), &(slice, count)) in
            self.meshes.iter().zip(&self.first_mark).zip(&bodies)
        {
            if bind_marks(&mut pass, marks, first, count) {
                mesh.draw_triangles_of(&mut pass, slice, count);
            }
        }
        pass.set_pipeline(&self.pipelines.outline);
        for ((mesh, &first), &(slice, count)) in
            self.meshes.iter().zip(&self.first_mark).zip(&bodies)
        {
            if bind_marks(&mut pass, marks, first, count) {
                mesh.draw_edges_of(&mut pass, mesh.crease_vertices, slice, count);
            }
        }
        pass.set_pipeline(&self.pipelines.bounds);
        self.bounds
            .draw_edges(&mut pass, self.bounds.edge_vertices, &self.bounds.instances);
        // Blended edges last, over everything opaque.
        if frame.wireframe {
            pass.set_pipeline(&self.pipelines.wire);
            for ((mesh, &first), &(slice, count)) in
                self.meshes.iter().zip(&self.first_mark).zip(&bodies)
            {
                if bind_marks(&mut pass, marks, first, count) {
                    mesh.draw_edges_of(&mut pass, mesh.edge_vertices, slice, count);
                }
            }
        }
        for pipeline in [&self.pipelines.highlight_hidden, &self.pipelines.highlight] {
            pass.set_pipeline(pipeline);
            for mesh in &self.meshes {
                mesh.draw_edges(&mut pass, mesh.edge_vertices, &mesh.highlights);
            }
        }
        if !frame.overlays.is_empty() {
            self.overlay.draw(&mut pass, true);
        }
    }
}

/// The instances of mesh `i`, none when the frame has no list for it.
fn list(lists: &[Vec<BodyInstance>], i: usize) -> &[BodyInstance] {
    lists.get(i).map(Vec::as_slice).unwrap_or_default()
}

/// Binds the mark words of a mesh's `count` bodies (from word `first` of `marks`) as vertex buffer 2; false
/// when the mesh has no bodies this frame or `marks` is too short for them (nothing to draw from it).
fn bind_marks(
    pass: &mut wgpu::RenderPass<'_>,
    marks: &wgpu::Buffer,
    first: u64,
    count: u32,
) -> bool {
    let count = u64::from(count);
    let (start, end) = (first * 4, (first + count) * 4);
    if count == 0 || end > marks.size() {
        return false;
    }
    pass.set_vertex_buffer(2, marks.slice(start..end));
    true
}

/// A buffer of `count` (at least one) [`MARK_UNSET`] words.
fn unmarked_words(device: &wgpu::Device, count: u64) -> wgpu::Buffer {
    use wgpu::util::DeviceExt;
    let words = vec![MARK_UNSET; count.max(1).next_power_of_two() as usize];
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("unmarked bodies"),
        contents: bytemuck::cast_slice(&words),
        usage: wgpu::BufferUsages::VERTEX,
    })
}
