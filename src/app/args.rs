//! `gpu-gjk demo` options.

use crate::gpu::BackendChoice;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// The query the narrow phase runs each frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DemoQuery {
    /// Distance with witnesses: the CPU check can tell touching pairs (within the tolerance band) from real
    /// disagreements.
    Distance,
    /// Boolean intersection with early exit: cheaper, and any flag difference counts as a disagreement.
    Intersection,
}

/// When the live CPU check runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckWhen {
    /// Every frame, in the frame (the default with `--frames`).
    EveryFrame,
    /// On a worker thread whenever it is free (the default in a window).
    WhenIdle,
}

#[derive(Args, Debug, Clone)]
pub struct DemoArgs {
    /// Number of moving bodies (the player's shape is one of them).
    #[arg(long, default_value_t = 2000)]
    pub bodies: usize,
    /// Scene seed: one seed gives one scene.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// wgpu backend (`gl` is the debug renderer's baseline); `auto` honours WGPU_BACKEND.
    #[arg(long, default_value_t = BackendChoice::Auto, value_parser = backend_names())]
    pub backend: BackendChoice,
    /// Render this many frames, print a JSON summary and exit (headless runs, for instance under Xvfb).
    #[arg(long)]
    pub frames: Option<u64>,
    /// PNG file for the last frame of a `--frames` run, and for F12 in a window.
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// Window width in pixels.
    #[arg(long, default_value_t = 1280)]
    pub width: u32,
    /// Window height in pixels.
    #[arg(long, default_value_t = 720)]
    pub height: u32,
    /// Folder holding the OBJ assets (default: ./assets, else the checkout's assets folder).
    #[arg(long)]
    pub assets: Option<PathBuf>,
    /// An extra OBJ mesh to add to the bodies' shapes (repeatable).
    #[arg(long = "mesh")]
    pub meshes: Vec<PathBuf>,
    /// The narrow-phase query.
    #[arg(long, value_enum, default_value_t = DemoQuery::Distance)]
    pub query: DemoQuery,
    /// When the CPU check runs (default: every frame with --frames, when idle in a window).
    #[arg(long, value_enum)]
    pub check: Option<CheckWhen>,
    /// Start with the CPU as the narrow phase (G switches).
    #[arg(long)]
    pub cpu_narrow_phase: bool,
    /// Start with hull wireframes on (V switches).
    #[arg(long)]
    pub wireframe: bool,
    /// Start with the collision response on (R switches): overlapping bodies are pushed apart along the
    /// EPA contact normal and bounce.
    #[arg(long)]
    pub response: bool,
}

impl DemoArgs {
    /// The defaults, as `gpu-gjk` with no subcommand uses them.
    pub fn interactive_default() -> Self {
        Self {
            bodies: 2000,
            seed: 1,
            backend: BackendChoice::Auto,
            frames: None,
            screenshot: None,
            width: 1280,
            height: 720,
            assets: None,
            meshes: Vec::new(),
            query: DemoQuery::Distance,
            check: None,
            cpu_narrow_phase: false,
            wireframe: false,
            response: false,
        }
    }
}

/// `--backend`'s values: the library's [`BackendChoice`] names, listed in the help.
fn backend_names() -> impl clap::builder::TypedValueParser<Value = BackendChoice> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(BackendChoice::NAMES)
        .map(|name| name.parse().expect("a listed backend name"))
}
