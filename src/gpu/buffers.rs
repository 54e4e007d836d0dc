//! Storage buffers that grow on demand and are otherwise reused between batches.

/// A buffer that is reallocated (to the next power of two) only when a batch needs more room.
pub struct GrowBuffer {
    label: &'static str,
    usage: wgpu::BufferUsages,
    buffer: wgpu::Buffer,
}

impl GrowBuffer {
    pub fn new(device: &wgpu::Device, label: &'static str, usage: wgpu::BufferUsages) -> Self {
        Self {
            label,
            usage,
            buffer: Self::allocate(device, label, usage, 256),
        }
    }

    fn allocate(
        device: &wgpu::Device,
        label: &'static str,
        usage: wgpu::BufferUsages,
        size: u64,
    ) -> wgpu::Buffer {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage,
            mapped_at_creation: false,
        })
    }

    /// Makes room for `size` bytes, capped at `max` (the device's buffer size limit).
    pub fn ensure(&mut self, device: &wgpu::Device, size: u64, max: u64) {
        if self.buffer.size() < size {
            let grown = size.next_power_of_two().min(max).max(size);
            self.buffer = Self::allocate(device, self.label, self.usage, grown.max(256));
        }
    }

    pub fn buffer(&self) -> &wgpu::Buffer {
        &self.buffer
    }
}
