//! `gpu-gjk demo` options.

use super::overlays::{Overlay, OverlayToggles};
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
    /// Overlays on at the start, comma-separated (keys 5-9 and the HUD switch them).
    #[arg(long, value_enum, value_delimiter = ',', value_name = "LIST")]
    pub overlay: Vec<OverlayName>,
    /// Separated pairs closer than this get a closest-point segment (default: a quarter of the largest body
    /// size).
    #[arg(long, value_name = "DISTANCE")]
    pub closest_range: Option<f32>,
    /// Pick this body after the first frame (0 is the player's) and fly the camera to it.
    #[arg(long, value_name = "BODY")]
    pub pick: Option<u32>,
    /// Open the GJK/EPA inspector on the picked body's first pair (disputed, then colliding, then nearest).
    #[arg(long, requires = "pick")]
    pub inspect: bool,
    /// Show this step of the inspector (default: the last one, the answer).
    #[arg(long, value_name = "STEP", requires = "inspect")]
    pub inspect_step: Option<usize>,
    /// At the last frame of a `--frames` run, fly to the first pair the GPU and the CPU disagree on.
    #[arg(long)]
    pub next_disagreement: bool,
    /// A self-test of how disagreements are shown: flip the GPU's intersecting flag on N pairs per frame
    /// before the CPU check, which then reports them (so a `--frames` run exits with code 2).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub flip_gpu_answers: usize,
    /// Where "copy pair" (C) appends the selected pair as a `query` line.
    #[arg(long, value_name = "FILE", default_value = "gpu-gjk-pairs.jsonl")]
    pub pairs_out: PathBuf,
    /// At the last frame of a `--frames` run, copy the selected pair (as C does).
    #[arg(long)]
    pub copy_pair: bool,
    /// The 2D mode: flat convex polygons dragged with the mouse, their Minkowski difference and the
    /// inspector, answered by the 3D queries on flat hulls.
    #[arg(long = "2d")]
    pub two_d: bool,
    /// Samples per pixel for the scene (MSAA); 1 turns it off. Default: 4 where the adapter offers it.
    #[arg(long, value_name = "N", value_parser = msaa_values())]
    pub msaa: Option<u32>,
}

/// `--overlay`'s values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OverlayName {
    All,
    Contacts,
    Closest,
    Aabbs,
    Pairs,
    Disagreements,
}

impl DemoArgs {
    /// The overlays `--overlay` turns on.
    pub fn overlay_toggles(&self) -> OverlayToggles {
        let mut toggles = OverlayToggles::default();
        for name in &self.overlay {
            let overlays: &[Overlay] = match name {
                OverlayName::All => &Overlay::ALL,
                OverlayName::Contacts => &[Overlay::Contacts],
                OverlayName::Closest => &[Overlay::Closest],
                OverlayName::Aabbs => &[Overlay::Aabbs],
                OverlayName::Pairs => &[Overlay::Pairs],
                OverlayName::Disagreements => &[Overlay::Disagreements],
            };
            for overlay in overlays {
                toggles.set(*overlay, true);
            }
        }
        toggles
    }
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
            overlay: Vec::new(),
            closest_range: None,
            pick: None,
            inspect: false,
            inspect_step: None,
            next_disagreement: false,
            flip_gpu_answers: 0,
            pairs_out: PathBuf::from("gpu-gjk-pairs.jsonl"),
            copy_pair: false,
            two_d: false,
            msaa: None,
        }
    }
}

/// `--backend`'s values: the library's [`BackendChoice`] names, listed in the help.
fn backend_names() -> impl clap::builder::TypedValueParser<Value = BackendChoice> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(BackendChoice::NAMES)
        .map(|name| name.parse().expect("a listed backend name"))
}

/// `--msaa`'s values: the sample counts every adapter with MSAA offers.
fn msaa_values() -> impl clap::builder::TypedValueParser<Value = u32> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(["1", "4"])
        .map(|count| count.parse().expect("a listed sample count"))
}
