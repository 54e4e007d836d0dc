//! The offscreen frame: scene and HUD are drawn here, then blitted to the window and read back for
//! screenshots. The scene is drawn multisampled (MSAA) where the adapter allows it and resolved into the
//! single-sample colour texture, which the HUD then draws over.

/// Colour format of the offscreen frame (and so of every pipeline drawing into it, the HUD included).
pub const TARGET_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// Samples per pixel the scene is drawn with when the adapter offers them for both the colour and the depth
/// format (4 is the count every WebGPU implementation must offer; 1 otherwise).
pub fn msaa_samples(adapter: &wgpu::Adapter) -> u32 {
    let supports = |format| {
        adapter
            .get_texture_format_features(format)
            .flags
            .sample_count_supported(4)
    };
    if supports(TARGET_FORMAT) && supports(DEPTH_FORMAT) {
        4
    } else {
        1
    }
}

/// Colour (`TARGET_FORMAT`) and depth (`DEPTH_FORMAT`) textures of one size, and the multisampled colour
/// texture the scene draws into when `samples > 1`.
pub struct FrameTarget {
    colour: wgpu::Texture,
    colour_view: wgpu::TextureView,
    multisampled_view: Option<wgpu::TextureView>,
    depth_view: wgpu::TextureView,
    width: u32,
    height: u32,
    samples: u32,
}

impl FrameTarget {
    /// Sizes below 1 are raised to 1 (a minimised window reports 0).
    pub fn new(device: &wgpu::Device, width: u32, height: u32, samples: u32) -> Self {
        let (width, height) = (width.max(1), height.max(1));
        let size = wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        };
        let texture = |label, format, usage, sample_count| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size,
                mip_level_count: 1,
                sample_count,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            })
        };
        let colour = texture(
            "frame colour",
            TARGET_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::COPY_SRC,
            1,
        );
        let multisampled_view = (samples > 1).then(|| {
            texture(
                "frame colour (multisampled)",
                TARGET_FORMAT,
                wgpu::TextureUsages::RENDER_ATTACHMENT,
                samples,
            )
            .create_view(&wgpu::TextureViewDescriptor::default())
        });
        let depth = texture(
            "frame depth",
            DEPTH_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT,
            samples,
        );
        Self {
            colour_view: colour.create_view(&wgpu::TextureViewDescriptor::default()),
            multisampled_view,
            depth_view: depth.create_view(&wgpu::TextureViewDescriptor::default()),
            colour,
            width,
            height,
            samples,
        }
    }

    /// Reallocates only when the size changes.
    pub fn resize(&mut self, device: &wgpu::Device, width: u32, height: u32) {
        if (width.max(1), height.max(1)) != self.size() {
            *self = Self::new(device, width, height, self.samples);
        }
    }

    pub fn colour_texture(&self) -> &wgpu::Texture {
        &self.colour
    }

    /// The single-sample colour texture: what the HUD draws over, the window shows and screenshots hold.
    pub fn colour_view(&self) -> &wgpu::TextureView {
        &self.colour_view
    }

    /// The colour attachment of a scene pass that clears and draws the scene: the multisampled texture
    /// resolved into [`FrameTarget::colour_view`], or that view itself without MSAA.
    pub fn scene_attachment(&self, clear: wgpu::Color) -> wgpu::RenderPassColorAttachment<'_> {
        let (view, resolve_target) = match &self.multisampled_view {
            Some(multisampled) => (multisampled, Some(&self.colour_view)),
            None => (&self.colour_view, None),
        };
        wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(clear),
                // The multisampled samples are not needed once resolved.
                store: if resolve_target.is_some() {
                    wgpu::StoreOp::Discard
                } else {
                    wgpu::StoreOp::Store
                },
            },
        }
    }

    pub fn depth_view(&self) -> &wgpu::TextureView {
        &self.depth_view
    }

    /// Samples per pixel of the scene's attachments.
    pub fn samples(&self) -> u32 {
        self.samples
    }

    /// (width, height) in pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }
}
