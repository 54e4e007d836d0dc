//! A window with a wgpu surface on an adapter that can both draw to it and run the narrow phase: what the demo's
//! window and the inspector's window (`inspect --window`) open, and how each frame, drawn offscreen, reaches it.

use super::render::{Blitter, FrameTarget};
use crate::gpu::{
    check_backend_env, computing_adapter, log_instance_creation, BackendChoice, GpuContext,
};
use anyhow::{anyhow, Context, Result};
use std::sync::Arc;
use winit::dpi::PhysicalSize;
use winit::event_loop::ActiveEventLoop;
use winit::window::Window;

/// The open window, its surface and the GPU.
pub struct WindowSurface {
    pub window: Arc<Window>,
    pub surface: wgpu::Surface<'static>,
    pub config: wgpu::SurfaceConfiguration,
    pub gpu: GpuContext,
}

impl WindowSurface {
    /// Opens a window titled `title` of `size` physical pixels (at most the adapter's largest texture) on
    /// `backend`. `no_vsync`: frames are not held back for the display (timed `--frames` runs).
    pub fn open(
        event_loop: &ActiveEventLoop,
        backend: BackendChoice,
        title: &str,
        size: (u32, u32),
        no_vsync: bool,
    ) -> Result<Self> {
        if backend == BackendChoice::Auto {
            check_backend_env().map_err(anyhow::Error::msg)?;
        }
        backend
            .check_built_in()
            .map_err(|e| anyhow!("--backend {backend}: {e}"))?;
        let window = Arc::new(
            event_loop
                .create_window(
                    Window::default_attributes()
                        .with_title(title)
                        .with_inner_size(PhysicalSize::new(size.0, size.1)),
                )
                .context("opening the window")?,
        );
        // The GL backend needs the display connection to create a window surface (EGL on X11/Wayland).
        log_instance_creation(backend.backends());
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: backend.backends(),
            flags: wgpu::InstanceFlags::default().with_env(),
            ..wgpu::InstanceDescriptor::new_with_display_handle(Box::new(
                event_loop.owned_display_handle(),
            ))
        });
        let surface = instance
            .create_surface(Arc::clone(&window))
            .with_context(|| format!("creating a window surface with backend `{backend}`"))?;
        let adapter = computing_adapter(&instance, backend, Some(&surface)).map_err(|e| {
            anyhow!(
                "no GPU adapter for backend `{backend}` can draw to this window and run the narrow phase \
                 ({e}); `gpu-gjk adapters` lists what wgpu finds here"
            )
        })?;
        let gpu = GpuContext::from_adapter(instance, adapter)?;
        let max_side = gpu.device.limits().max_texture_dimension_2d;

        // The window system may still hand out a bigger window (a scale factor): draw at most the limit.
        let size = clamp_size(window.inner_size(), max_side);
        let capabilities = surface.get_capabilities(&gpu.adapter);
        let format = capabilities
            .formats
            .iter()
            .copied()
            .find(|f| f.is_srgb())
            .or(capabilities.formats.first().copied())
            .ok_or_else(|| anyhow!("the window surface offers no texture format"))?;
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            width: size.width.max(1),
            height: size.height.max(1),
            // Timed runs must not wait for a display refresh; a window should not burn frames it cannot show.
            present_mode: if no_vsync {
                wgpu::PresentMode::AutoNoVsync
            } else {
                wgpu::PresentMode::AutoVsync
            },
            alpha_mode: capabilities
                .alpha_modes
                .first()
                .copied()
                .unwrap_or(wgpu::CompositeAlphaMode::Auto),
            view_formats: Vec::new(),
            color_space: wgpu::SurfaceColorSpace::Auto,
            desired_maximum_frame_latency: 2,
        };
        surface.configure(&gpu.device, &config);
        Ok(Self {
            window,
            surface,
            config,
            gpu,
        })
    }
}

/// Copies the frame drawn offscreen into the window (when the surface has a texture to give), submits
/// `encoder` and presents. Timeouts and hidden windows skip the copy; the offscreen frame is still drawn.
pub fn present(
    surface: &wgpu::Surface<'static>,
    config: &wgpu::SurfaceConfiguration,
    window: &Window,
    gpu: &GpuContext,
    mut encoder: wgpu::CommandEncoder,
    blitter: &Blitter,
    target: &FrameTarget,
) {
    let (device, queue) = (&gpu.device, &gpu.queue);
    let surface_texture = match surface.get_current_texture() {
        wgpu::CurrentSurfaceTexture::Success(t) | wgpu::CurrentSurfaceTexture::Suboptimal(t) => {
            Some(t)
        }
        wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
            surface.configure(device, config);
            None
        }
        _ => None,
    };
    if let Some(surface_texture) = &surface_texture {
        let view = surface_texture
            .texture
            .create_view(&wgpu::TextureViewDescriptor::default());
        blitter.blit(device, &mut encoder, target, &view);
    }
    queue.submit([encoder.finish()]);
    if let Some(surface_texture) = surface_texture {
        window.pre_present_notify();
        queue.present(surface_texture);
    }
}

/// `size` with each side at most `max_side` (the adapter's largest texture).
pub fn clamp_size(size: PhysicalSize<u32>, max_side: u32) -> PhysicalSize<u32> {
    PhysicalSize::new(size.width.min(max_side), size.height.min(max_side))
}
