//! The desktop stress-test app (`gpu-gjk demo`): a winit window, a wgpu renderer that colours bodies by
//! collision state, the per-frame broad phase and narrow phase, a live CPU check and an egui HUD.
//!
//! [`sim`] holds the frame pipeline without any window (tested on its own); [`window`] drives it from the
//! winit event loop and draws with [`render`] and [`hud`]; [`headless`] drives it with no window or display
//! (`--no-window`), drawing offscreen with [`render`]; [`setup`] builds what both start from.

pub mod args;
pub mod assets;
pub mod broad;
pub mod camera;
pub mod check;
pub mod check_sample;
pub mod controls;
pub mod debug_view;
pub mod draw_list;
pub mod fps;
pub mod headless;
pub mod hud;
pub mod inspector;
pub mod manifold_overlay;
pub mod overlays;
pub mod physics;
pub mod picking;
pub mod plane;
pub mod render;
pub mod selection;
pub mod setup;
pub mod sim;
pub mod summary;
pub mod surface;
pub mod window;

#[cfg(test)]
mod tests;

pub use args::DemoArgs;
pub use summary::DemoSummary;

use anyhow::Result;

/// Loads the meshes (so a bad OBJ file is reported before a window opens), then runs the window, or the
/// frames without one (`--no-window`). Returns the summary of a `--frames` run.
pub fn run_demo(args: &DemoArgs) -> Result<Option<DemoSummary>> {
    let dir = assets::asset_dir(args.assets.as_deref());
    let meshes = assets::load_assets(&dir, &args.meshes)?;
    if args.no_window {
        return headless::run_headless(args, meshes).map(Some);
    }
    window::run_window(args, meshes)
}

/// Whether a window can be opened here: on Linux and the BSDs, an X11 or Wayland display must be named
/// (`gpu-gjk` with no subcommand runs the demo only then).
pub fn display_available() -> bool {
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        return true;
    }
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|name| std::env::var_os(name).is_some_and(|v| !v.is_empty()))
}
