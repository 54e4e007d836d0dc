//! The demo's renderer: bodies drawn as instanced meshes into an offscreen [`FrameTarget`], which is
//! blitted to the window and read back for screenshots.
//!
//! Per frame: [`SceneRenderer::draw`] (clears and draws the scene), the HUD draws into
//! [`FrameTarget::colour_view`] with `LoadOp::Load`, then [`Blitter::blit`] copies to the surface.

mod blit;
mod edges;
mod gpu_mesh;
mod instance;
mod mesh;
pub mod overlay;
mod pipelines;
mod scene_pass;
pub(crate) mod screenshot;
mod target;
#[cfg(test)]
mod tests;

pub use blit::Blitter;
pub use instance::BodyInstance;
pub use mesh::{load_render_mesh, MeshData};
pub use overlay::{OverlayBatch, OverlayPrim, OverlayRenderer, OverlayView};
#[cfg(test)]
pub use scene_pass::BACKGROUND;
pub use scene_pass::{DeviceBodies, SceneFrame, SceneRenderer};
pub use screenshot::{read_rgba, save_png};
pub use target::{msaa_samples, FrameTarget, TARGET_FORMAT};

#[cfg(test)]
/// (file name, source) of the renderer's shaders, for validation.
pub fn render_shaders() -> Vec<(&'static str, &'static str)> {
    vec![
        ("render.wgsl", pipelines::shader_source()),
        ("overlay.wgsl", overlay::shader_source()),
        (
            "blit.wgsl",
            include_str!("../../../shaders/render/blit.wgsl"),
        ),
    ]
}
