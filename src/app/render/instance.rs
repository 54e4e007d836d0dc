//! Per-body data for instanced drawing.

use glam::{Mat4, Quat, Vec3};

/// One body: its model matrix (columns) and linear RGB colour. Bound as a per-instance vertex buffer:
/// model columns at locations 2..=5, colour at 6.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct BodyInstance {
    pub model: [[f32; 4]; 4],
    pub colour: [f32; 4],
}

impl BodyInstance {
    /// Uniform scale keeps the normal transform a plain rotation (see `shaders/render/scene.wgsl`).
    pub fn new(position: Vec3, rotation: Quat, scale: f32, colour: [f32; 4]) -> Self {
        Self {
            model: Mat4::from_scale_rotation_translation(Vec3::splat(scale), rotation, position)
                .to_cols_array_2d(),
            colour,
        }
    }

    pub const LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<BodyInstance>() as wgpu::BufferAddress,
        step_mode: wgpu::VertexStepMode::Instance,
        attributes: &wgpu::vertex_attr_array![
            2 => Float32x4, 3 => Float32x4, 4 => Float32x4, 5 => Float32x4, 6 => Float32x4
        ],
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_scales_then_rotates_then_translates() {
        let rotation = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
        let body = BodyInstance::new(
            Vec3::new(10.0, 0.0, -2.0),
            rotation,
            2.0,
            [1.0, 0.0, 0.0, 1.0],
        );
        let model = Mat4::from_cols_array_2d(&body.model);
        let p = model.transform_point3(Vec3::X);
        assert!((p - Vec3::new(10.0, 2.0, -2.0)).length() < 1e-5, "{p}");
        assert_eq!(body.colour, [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(std::mem::size_of::<BodyInstance>(), 80);
    }
}
