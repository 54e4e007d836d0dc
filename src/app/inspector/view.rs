//! The inspector's 3D view: the current step's overlays drawn with their own camera into an offscreen target,
//! then copied into a texture that the HUD shows as an image (encoded to sRGB values in a linear format,
//! which is how egui reads every texture).

use super::draw::{step_overlays, Placement};
use super::Inspector;
use crate::app::hud::HudPainter;
use crate::app::render::{Blitter, FrameTarget, OverlayRenderer, OverlayView};

const BACKGROUND: wgpu::Color = wgpu::Color {
    r: 0.012,
    g: 0.014,
    b: 0.024,
    a: 1.0,
};
const IMAGE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// The view's target, renderer and the texture egui shows.
pub struct InspectorView {
    target: FrameTarget,
    overlay: OverlayRenderer,
    blitter: Blitter,
    image: wgpu::TextureView,
    texture_id: Option<egui::TextureId>,
    /// The image was reallocated since egui last saw it.
    stale: bool,
}

fn image(device: &wgpu::Device, (width, height): (u32, u32)) -> wgpu::TextureView {
    device
        .create_texture(&wgpu::TextureDescriptor {
            label: Some("inspector image"),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: IMAGE_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        })
        .create_view(&wgpu::TextureViewDescriptor::default())
}

impl InspectorView {
    pub fn new(device: &wgpu::Device, size_px: (u32, u32), samples: u32) -> Self {
        let size = (size_px.0.max(16), size_px.1.max(16));
        Self {
            target: FrameTarget::new(device, size.0, size.1, samples),
            overlay: OverlayRenderer::new(device, samples),
            blitter: Blitter::new(device, IMAGE_FORMAT),
            image: image(device, size),
            texture_id: None,
            stale: true,
        }
    }

    /// Renders the inspector's current step at `size_px` (reallocating when the size changed).
    pub fn render(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        inspector: &Inspector,
        size_px: (u32, u32),
    ) {
        let size = (size_px.0.clamp(16, 4096), size_px.1.clamp(16, 4096));
        if size != self.target.size() {
            self.target = FrameTarget::new(device, size.0, size.1, self.target.samples());
            self.image = image(device, size);
            self.stale = true;
        }
        let aspect = size.0 as f32 / size.1 as f32;
        let view = OverlayView {
            view_proj: inspector.camera.view_proj(aspect),
            camera_position: inspector.camera.position,
            size_px: size,
            depth_pull: 0.0,
            hidden_alpha: 0.0,
        };
        let batch = step_overlays(inspector, Placement::AS_IS);
        self.overlay.prepare(device, queue, &view, &batch);
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("inspector"),
                color_attachments: &[Some(self.target.scene_attachment(BACKGROUND))],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: self.target.depth_view(),
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
            self.overlay.draw(&mut pass, false);
        }
        self.blitter
            .blit(device, encoder, &self.target, &self.image);
    }

    /// The egui texture of the image, registered on first use and updated after a reallocation.
    pub(crate) fn texture_id(
        &mut self,
        device: &wgpu::Device,
        painter: &mut HudPainter,
    ) -> egui::TextureId {
        match self.texture_id {
            Some(id) if !self.stale => id,
            Some(id) => {
                painter.update_texture(device, &self.image, id);
                self.stale = false;
                id
            }
            None => {
                let id = painter.register_texture(device, &self.image);
                self.texture_id = Some(id);
                self.stale = false;
                id
            }
        }
    }
}
