//! Meshes uploaded for drawing, with their wireframe edges and a growable instance buffer each.

use super::edges::edges;
use super::instance::BodyInstance;
use super::mesh::MeshData;
use super::pipelines::Vertex;
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

/// Vertex, triangle-index and edge-index buffers of one mesh, and its instances for the current frame.
pub struct GpuMesh {
    pub vertices: wgpu::Buffer,
    pub triangles: wgpu::Buffer,
    pub triangle_indices: u32,
    pub edges: wgpu::Buffer,
    pub edge_indices: u32,
    pub instances: InstanceBuffer,
}

impl GpuMesh {
    pub fn new(device: &wgpu::Device, mesh: &MeshData, label: &str) -> Self {
        let vertices: Vec<Vertex> = mesh
            .positions
            .iter()
            .zip(mesh.normals.iter().chain(std::iter::repeat(&[0.0; 3])))
            .map(|(&position, &normal)| Vertex { position, normal })
            .collect();
        let edge_indices: Vec<u32> = edges(mesh).into_iter().flatten().collect();
        Self::from_parts(device, label, &vertices, &mesh.indices, &edge_indices)
    }

    /// The cube [-1, 1]^3 as lines only, scaled per frame to the bounds.
    pub fn unit_cube_outline(device: &wgpu::Device) -> Self {
        let vertices: Vec<Vertex> = (0..8)
            .map(|i| Vertex {
                position: [0, 1, 2].map(|axis| if i >> axis & 1 == 1 { 1.0 } else { -1.0 }),
                normal: [0.0; 3],
            })
            .collect();
        // Corners that differ in exactly one coordinate.
        let edges: Vec<u32> = (0..8u32)
            .flat_map(|i| [1, 2, 4].map(|bit| (i, i ^ bit)))
            .filter(|(a, b)| a < b)
            .flat_map(|(a, b)| [a, b])
            .collect();
        Self::from_parts(device, "bounds", &vertices, &[], &edges)
    }

    fn from_parts(
        device: &wgpu::Device,
        label: &str,
        vertices: &[Vertex],
        triangles: &[u32],
        edges: &[u32],
    ) -> Self {
        let buffer = |what: &str, contents: &[u8], usage| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(&format!("{label} {what}")),
                contents,
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
                wgpu::BufferUsages::INDEX,
            ),
            edge_indices: edges.len() as u32,
            instances: InstanceBuffer::new(device, 64),
        }
    }

    /// One instanced draw of `indices` (triangles or edges) with the pipeline already set.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, indices: &wgpu::Buffer, count: u32) {
        if count == 0 || self.instances.count() == 0 {
            return;
        }
        pass.set_vertex_buffer(0, self.vertices.slice(..));
        pass.set_vertex_buffer(1, self.instances.slice());
        pass.set_index_buffer(indices.slice(..), wgpu::IndexFormat::Uint32);
        pass.draw_indexed(0..count, 0, 0..self.instances.count());
    }
}
