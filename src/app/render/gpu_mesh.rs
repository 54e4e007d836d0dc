//! Meshes uploaded for drawing, with their wireframe edges and a growable instance buffer each.

use super::edges::{bent_edges, CREASE_COS};
use super::instance::BodyInstance;
use super::mesh::MeshData;
use super::pipelines::{EdgeVertex, Vertex};
use glam::Vec3;
use wgpu::util::DeviceExt;

const INSTANCE_SIZE: u64 = std::mem::size_of::<BodyInstance>() as u64;

/// Per-instance data, reallocated to the next power of two only when a frame needs more room.
pub struct InstanceBuffer {
    buffer: wgpu::Buffer,
    count: u32,
}

impl InstanceBuffer {
    pub fn new(device: &wgpu::Device, capacity: u64) -> Self {
        Self {
            buffer: Self::allocate(device, capacity),
            count: 0,
        }
    }

    fn allocate(device: &wgpu::Device, capacity: u64) -> wgpu::Buffer {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("body instances"),
            size: capacity.max(1) * INSTANCE_SIZE,
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    /// Uploads `instances`, keeping as many as fit one buffer of the device.
    pub fn write(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        instances: &[BodyInstance],
    ) {
        let max = (device.limits().max_buffer_size / INSTANCE_SIZE).min(u32::MAX as u64);
        let instances = &instances[..instances.len().min(max as usize)];
        let needed = instances.len() as u64;
        if needed * INSTANCE_SIZE > self.buffer.size() {
            self.buffer = Self::allocate(device, needed.next_power_of_two().min(max));
        }
        if !instances.is_empty() {
            queue.write_buffer(&self.buffer, 0, bytemuck::cast_slice(instances));
        }
        self.count = instances.len() as u32;
    }

    pub fn count(&self) -> u32 {
        self.count
    }

    pub fn slice(&self) -> wgpu::BufferSlice<'_> {
        self.buffer.slice(..u64::from(self.count) * INSTANCE_SIZE)
    }
}

/// Vertex and triangle-index buffers of one mesh, its edges (creases first, then the other feature edges,
/// two vertices each), and its instances for the current frame: the bodies, and the bodies whose edges are
/// highlighted.
pub struct GpuMesh {
    pub vertices: wgpu::Buffer,
    pub triangles: wgpu::Buffer,
    pub triangle_indices: u32,
    pub edges: wgpu::Buffer,
    /// Vertices of the crease edges (the first ones in `edges`).
    pub crease_vertices: u32,
    /// Vertices of every feature edge.
    pub edge_vertices: u32,
    pub instances: InstanceBuffer,
    pub highlights: InstanceBuffer,
}

impl GpuMesh {
    pub fn new(device: &wgpu::Device, mesh: &MeshData, label: &str) -> Self {
        let vertices: Vec<Vertex> = mesh
            .positions
            .iter()
            .zip(mesh.normals.iter().chain(std::iter::repeat(&[0.0; 3])))
            .map(|(&position, &normal)| Vertex { position, normal })
            .collect();
        let mut edges = bent_edges(mesh);
        // Creases first, so the outline draws a prefix of the wireframe's edges.
        edges.sort_by_key(|(_, bend)| *bend >= CREASE_COS);
        let creases = edges.iter().filter(|(_, bend)| *bend < CREASE_COS).count();
        let position = |i: u32| Vec3::from(mesh.positions[i as usize]);
        let edge_vertices: Vec<EdgeVertex> = edges
            .iter()
            .flat_map(|([a, b], _)| {
                let length = position(*a).distance(position(*b));
                [*a, *b].map(|i| EdgeVertex {
                    position: position(i).to_array(),
                    length,
                })
            })
            .collect();
        Self::from_parts(
            device,
            label,
            &vertices,
            &mesh.indices,
            &edge_vertices,
            2 * creases as u32,
        )
    }

    /// The cube [-1, 1]^3 as lines only, scaled per frame to the bounds.
    pub fn unit_cube_outline(device: &wgpu::Device) -> Self {
        let corner =
            |i: u32| Vec3::from([0, 1, 2].map(|axis| if i >> axis & 1 == 1 { 1.0 } else { -1.0 }));
        // Corners that differ in exactly one coordinate.
        let edges: Vec<EdgeVertex> = (0..8u32)
            .flat_map(|i| [1, 2, 4].map(|bit| (i, i ^ bit)))
            .filter(|(a, b)| a < b)
            .flat_map(|(a, b)| {
                [a, b].map(|i| EdgeVertex {
                    position: corner(i).to_array(),
                    length: 2.0,
                })
            })
            .collect();
        let count = edges.len() as u32;
        Self::from_parts(device, "bounds", &[], &[], &edges, count)
    }

    fn from_parts(
        device: &wgpu::Device,
        label: &str,
        vertices: &[Vertex],
        triangles: &[u32],
        edges: &[EdgeVertex],
        crease_vertices: u32,
    ) -> Self {
        // wgpu refuses empty buffers from `create_buffer_init` on some backends; one zeroed element is enough.
        let buffer = |what: &str, contents: &[u8], usage| {
            let zero = [0u8; 16];
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(&format!("{label} {what}")),
                contents: if contents.is_empty() { &zero } else { contents },
                usage,
            })
        };
        Self {
            vertices: buffer(
                "vertices",
                bytemuck::cast_slice(vertices),
                wgpu::BufferUsages::VERTEX,
            ),
            triangles: buffer(
                "triangles",
                bytemuck::cast_slice(triangles),
                wgpu::BufferUsages::INDEX,
            ),
            triangle_indices: triangles.len() as u32,
            edges: buffer(
                "edges",
                bytemuck::cast_slice(edges),
                wgpu::BufferUsages::VERTEX,
            ),
            crease_vertices,
            edge_vertices: edges.len() as u32,
            instances: InstanceBuffer::new(device, 64),
            highlights: InstanceBuffer::new(device, 4),
        }
    }

    /// One instanced draw of the triangles for `count` instances of `instances`, with the mesh pipeline set.
    pub fn draw_triangles_of(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        instances: wgpu::BufferSlice<'_>,
        count: u32,
    ) {
        if self.triangle_indices == 0 || count == 0 {
            return;
        }
        pass.set_vertex_buffer(0, self.vertices.slice(..));
        pass.set_vertex_buffer(1, instances);
        pass.set_index_buffer(self.triangles.slice(..), wgpu::IndexFormat::Uint32);
        pass.draw_indexed(0..self.triangle_indices, 0, 0..count);
    }

    /// One instanced draw of the first `vertices` edge vertices for `instances`, with an edge pipeline set.
    pub fn draw_edges(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        vertices: u32,
        instances: &InstanceBuffer,
    ) {
        self.draw_edges_of(pass, vertices, instances.slice(), instances.count());
    }

    /// [`GpuMesh::draw_edges`] for `count` instances of `instances`.
    pub fn draw_edges_of(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        vertices: u32,
        instances: wgpu::BufferSlice<'_>,
        count: u32,
    ) {
        if vertices == 0 || count == 0 {
            return;
        }
        pass.set_vertex_buffer(0, self.edges.slice(..));
        pass.set_vertex_buffer(1, instances);
        pass.draw(0..vertices, 0..count);
    }
}
