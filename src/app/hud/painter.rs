//! egui to wgpu without a window: runs the HUD layout on given input and records its render pass.

/// The HUD's scale against the window: 1 at 1280x760 logical pixels, smaller in a smaller window (so the
/// panels leave the scene visible at 800x600) and larger in a big one, within these bounds.
const MIN_UI_SCALE: f32 = 0.65;
const MAX_UI_SCALE: f32 = 1.4;

/// The egui zoom factor for a target of `size_px` physical pixels at `native_ppp` pixels per point.
pub fn ui_scale(size_px: (u32, u32), native_ppp: f32) -> f32 {
    let (w, h) = (
        size_px.0 as f32 / native_ppp.max(1e-3),
        size_px.1 as f32 / native_ppp.max(1e-3),
    );
    (w / 1280.0)
        .min(h / 760.0)
        .clamp(MIN_UI_SCALE, MAX_UI_SCALE)
}

/// Where one frame of the HUD goes.
pub(crate) struct Frame<'a> {
    pub target: &'a wgpu::TextureView,
    /// The target's size in physical pixels.
    pub size_px: (u32, u32),
    pub pixels_per_point: f32,
}

/// egui's context and the wgpu renderer that paints its output.
pub(crate) struct HudPainter {
    ctx: egui::Context,
    renderer: egui_wgpu::Renderer,
    /// Textures egui released in the last frame. The encoder that drew with them is submitted by the caller
    /// after `paint` returns, so they are freed one frame late.
    pending_free: Vec<egui::TextureId>,
}

impl HudPainter {
    pub(crate) fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        let ctx = egui::Context::default();
        // The HUD floats over a 3D scene, so it stays dark whatever the desktop theme.
        ctx.set_theme(egui::Theme::Dark);
        // `+` and `-` change the body count; egui must not also zoom the HUD with them.
        ctx.options_mut(|o| o.zoom_with_keyboard = false);
        ctx.all_styles_mut(|style| {
            // egui's defaults (12.5 pt body) are small next to a full-window scene at 1280x720.
            use egui::TextStyle;
            for (text_style, size) in [
                (TextStyle::Body, 14.0),
                (TextStyle::Button, 14.0),
                (TextStyle::Monospace, 13.5),
                (TextStyle::Small, 12.0),
                (TextStyle::Heading, 18.0),
            ] {
                if let Some(font) = style.text_styles.get_mut(&text_style) {
                    font.size = size;
                }
            }
        });
        let renderer =
            egui_wgpu::Renderer::new(device, format, egui_wgpu::RendererOptions::default());
        Self {
            ctx,
            renderer,
            pending_free: Vec::new(),
        }
    }

    pub(crate) fn context(&self) -> &egui::Context {
        &self.ctx
    }

    /// A wgpu texture for egui images (the inspector's 3D view). Its bytes are read as sRGB-encoded, as
    /// egui reads every texture, so it must hold encoded values in a linear format (`Rgba8Unorm`).
    pub(crate) fn register_texture(
        &mut self,
        device: &wgpu::Device,
        view: &wgpu::TextureView,
    ) -> egui::TextureId {
        self.renderer
            .register_native_texture(device, view, wgpu::FilterMode::Linear)
    }

    /// Points `id` at another texture view (the same texture, reallocated at a new size).
    pub(crate) fn update_texture(
        &mut self,
        device: &wgpu::Device,
        view: &wgpu::TextureView,
        id: egui::TextureId,
    ) {
        self.renderer.update_egui_texture_from_wgpu_texture(
            device,
            view,
            wgpu::FilterMode::Linear,
            id,
        );
    }

    /// Lays out the HUD with `layout` on `input` and records a render pass that draws it over what
    /// `frame.target` holds. Returns what egui wants from the platform (cursor shape, clipboard).
    pub(crate) fn paint(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        frame: &Frame,
        mut input: egui::RawInput,
        layout: impl FnMut(&egui::Context),
    ) -> egui::PlatformOutput {
        let (width, height) = frame.size_px;
        if width == 0 || height == 0 || frame.pixels_per_point <= 0.0 {
            return egui::PlatformOutput::default();
        }
        // The screen is the target, not whatever egui-winit measured: the two can differ for a frame
        // during a resize, and the render pass must match the target. The zoom scales the HUD with the
        // window; egui-winit reads it back to place the pointer.
        let zoom = ui_scale(frame.size_px, frame.pixels_per_point);
        self.ctx.set_zoom_factor(zoom);
        let native = frame.pixels_per_point;
        let ppp = native * zoom;
        input.screen_rect = Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(width as f32, height as f32) / ppp,
        ));
        input
            .viewports
            .entry(input.viewport_id)
            .or_default()
            .native_pixels_per_point = Some(native);

        let egui::FullOutput {
            platform_output,
            mut textures_delta,
            shapes,
            pixels_per_point,
            ..
        } = self.ctx.run_pass(input, layout);
        // Tab gives an egui widget keyboard focus, and egui-winit then reports every key as consumed. The
        // HUD takes no typing, so focus would only steal the app's keys: drop it.
        self.ctx.memory_mut(|m| {
            if let Some(id) = m.focused() {
                m.surrender_focus(id);
            }
        });

        for id in self.pending_free.drain(..) {
            self.renderer.free_texture(&id);
        }
        for (id, deltas) in textures_delta.set.drain() {
            // In order: a whole-texture delta may be followed by patches to it.
            for delta in &deltas {
                self.renderer.update_texture(device, queue, id, delta);
            }
        }
        let jobs = self.ctx.tessellate(shapes, pixels_per_point);
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: [width, height],
            pixels_per_point,
        };
        // Only paint callbacks produce command buffers here, and the HUD has none; submitting them now
        // still keeps them ahead of the caller's encoder, as egui requires.
        let callback_commands = self
            .renderer
            .update_buffers(device, queue, encoder, &jobs, &screen);
        if !callback_commands.is_empty() {
            queue.submit(callback_commands);
        }
        {
            let mut pass = encoder
                .begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("hud"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view: frame.target,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Load,
                            store: wgpu::StoreOp::Store,
                        },
                    })],
                    depth_stencil_attachment: None,
                    timestamp_writes: None,
                    occlusion_query_set: None,
                    multiview_mask: None,
                })
                // egui-wgpu's `render` takes a `'static` pass; the pass still ends before the encoder
                // is used again, when it is dropped at the end of this block.
                .forget_lifetime();
            self.renderer.render(&mut pass, &jobs, &screen);
        }
        self.pending_free.extend(textures_delta.free.drain());
        platform_output
    }
}
