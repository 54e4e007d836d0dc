//! `gpu-gjk demo` options.

use super::broad::BroadPhaseChoice;
use super::check_sample::DEFAULT_SAMPLE_PAIRS;
use super::overlays::{Overlay, OverlayToggles};
use super::physics::ResponseMode;
use crate::bench::parse_within;
use crate::gpu::BackendChoice;
use crate::io::same_file::refuse_same_file;
use anyhow::{bail, Context};
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};

/// The smallest window the HUD fits in, and the largest winit and the window systems accept (winit
/// panics from 65,536 on; X11 sizes are 16-bit). The adapter's texture limit is checked once it is known.
pub const MIN_WINDOW_SIZE: u32 = 64;
pub const MAX_WINDOW_SIZE: u32 = 32_768;

/// The most bodies `--bodies` (and the + key) gives: 20 times the largest scene measured (50,000). Each body
/// keeps its own scaled copy of its mesh's hull (up to 482 points), on the host and on the GPU, so a count
/// much beyond this fills memory before the first frame.
pub const MAX_BODIES: usize = 1_000_000;

/// The most frames `--frames` runs: about 46 hours at 60 frames per second. The summary keeps a pair count
/// every 10 frames, so the count bounds its size too.
pub const MAX_FRAMES: u64 = 10_000_000;

/// `--bodies`: 1 to [`MAX_BODIES`] (0 is refused, not silently raised).
fn parse_bodies(text: &str) -> Result<usize, String> {
    parse_within(text, 1, MAX_BODIES, "bodies")
}

/// `--frames`: 1 to [`MAX_FRAMES`].
fn parse_frames(text: &str) -> Result<u64, String> {
    parse_within(text, 1, MAX_FRAMES, "frames")
}

/// `--check-sample-size`: 1 to 1,000,000.
fn parse_sample_size(text: &str) -> Result<usize, String> {
    parse_within(text, 1, 1_000_000, "check sample size")
}

/// Which pairs the CPU check answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckPairsChoice {
    All,
    Sample,
}

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
    /// Number of moving bodies, 1 to 1,000,000 (the player's shape is one of them).
    #[arg(long, default_value_t = 2000, value_parser = parse_bodies)]
    pub bodies: usize,
    /// Scene seed: one seed gives one scene.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// wgpu backend (`gl` is the debug renderer's baseline); `auto` honours WGPU_BACKEND.
    #[arg(long, default_value_t = BackendChoice::Auto, value_parser = backend_names())]
    pub backend: BackendChoice,
    /// Render this many frames (at least 1), print a JSON summary and exit (headless runs, for instance
    /// under Xvfb).
    #[arg(long, value_parser = parse_frames)]
    pub frames: Option<u64>,
    /// With --frames: run without a window or display (a GPU server, CI): the same scene, narrow phase, check
    /// and renderer, drawn offscreen and waited for each frame; no HUD, nothing presented.
    #[arg(
        long,
        requires = "frames",
        conflicts_with_all = ["two_d", "pick", "next_disagreement", "copy_pair", "show_keys"]
    )]
    pub no_window: bool,
    /// PNG file for the last frame of a `--frames` run, and for F12 in a window (`-`: standard output, and
    /// the summary goes to stderr).
    #[arg(long, value_name = "FILE.png")]
    pub screenshot: Option<PathBuf>,
    /// Window width in pixels (64 to 32768, and at most the adapter's largest texture).
    #[arg(long, default_value_t = 1280, value_parser = clap::value_parser!(u32).range(MIN_WINDOW_SIZE as i64..=MAX_WINDOW_SIZE as i64))]
    pub width: u32,
    /// Window height in pixels (64 to 32768, and at most the adapter's largest texture).
    #[arg(long, default_value_t = 720, value_parser = clap::value_parser!(u32).range(MIN_WINDOW_SIZE as i64..=MAX_WINDOW_SIZE as i64))]
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
    /// Where the candidate pairs are found: `gpu` (a grid on the device) or `cpu` (the CPU grid). Default: the
    /// GPU on a hardware adapter, the CPU on a software one (llvmpipe, lavapipe).
    #[arg(long, value_enum)]
    pub broad_phase: Option<BroadPhaseChoice>,
    /// wgpu's runtime checks in the narrow phase's kernels: `off` builds them as trusted modules without the
    /// checks, `auto` does so on hardware adapters only (software ones keep them).
    #[arg(long, value_name = "on|off|auto", default_value = "auto")]
    pub shader_checks: crate::gpu::ShaderChecks,
    /// Which pairs of a checked frame the CPU check answers: `all`, or `sample` (a fixed-size seeded sample,
    /// `--check-sample-size`, plus every pair the GPU answered with a named failure). Default: all up to
    /// 10,000 bodies, a sample above.
    #[arg(long, value_enum)]
    pub check_pairs: Option<CheckPairsChoice>,
    /// Pairs a sampled check draws per checked frame (1 to 1,000,000).
    #[arg(long, default_value_t = DEFAULT_SAMPLE_PAIRS, value_parser = parse_sample_size)]
    pub check_sample_size: usize,
    /// Start with the CPU as the narrow phase (G switches).
    #[arg(long)]
    pub cpu_narrow_phase: bool,
    /// Start with hull wireframes on (V switches).
    #[arg(long)]
    pub wireframe: bool,
    /// The collision response at the start (R cycles off, push-apart, physics): push-apart pushes
    /// overlapping bodies apart along EPA's normal; physics runs rigid bodies under gravity with a floor and
    /// walls. `--response` alone is push-apart.
    #[arg(long, value_enum, value_name = "MODE", num_args = 0..=1, default_value = "off",
          default_missing_value = "push-apart")]
    pub response: ResponseMode,
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
    /// Start with the overlays limited to the picked body's pairs (O switches).
    #[arg(long)]
    pub picked_only: bool,
    /// Start with the keys overlay open (F1 or ? switches).
    #[arg(long)]
    pub show_keys: bool,
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
    /// before the CPU check, which then reports them (so a `--frames` run exits with code 2). Debug builds
    /// only: fault injection has no place in the frame loop of a release build.
    #[cfg(debug_assertions)]
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
            no_window: false,
            screenshot: None,
            width: 1280,
            height: 720,
            assets: None,
            meshes: Vec::new(),
            query: DemoQuery::Distance,
            check: None,
            broad_phase: None,
            shader_checks: crate::gpu::ShaderChecks::Auto,
            check_pairs: None,
            check_sample_size: DEFAULT_SAMPLE_PAIRS,
            cpu_narrow_phase: false,
            wireframe: false,
            response: ResponseMode::Off,
            overlay: Vec::new(),
            closest_range: None,
            pick: None,
            picked_only: false,
            show_keys: false,
            inspect: false,
            inspect_step: None,
            next_disagreement: false,
            #[cfg(debug_assertions)]
            flip_gpu_answers: 0,
            pairs_out: PathBuf::from("gpu-gjk-pairs.jsonl"),
            copy_pair: false,
            two_d: false,
            msaa: None,
        }
    }
}

impl DemoArgs {
    /// Checks what clap cannot, before any window opens: the screenshot path can be written and names a PNG,
    /// and neither the screenshot nor the file "copy pair" appends to is one of the meshes read (or, for the
    /// screenshot, that file).
    pub fn check(&self) -> anyhow::Result<()> {
        let meshes: Vec<(&str, &Path)> = self
            .meshes
            .iter()
            .map(|m| ("--mesh", m.as_path()))
            .collect();
        if let Some(path) = self
            .screenshot
            .as_deref()
            .filter(|_| !self.screenshot_to_stdout())
        {
            check_png_path(path)?;
            let mut others = meshes.clone();
            others.push(("--pairs-out", self.pairs_out.as_path()));
            refuse_same_file("--screenshot", path, &others)?;
        }
        refuse_same_file("--pairs-out", &self.pairs_out, &meshes)
    }

    /// `--screenshot -`: the PNG goes to standard output.
    pub fn screenshot_to_stdout(&self) -> bool {
        self.screenshot.as_deref() == Some(Path::new("-"))
    }
}

/// The screenshot is a PNG: a name with another extension is refused rather than given PNG bytes; the
/// folder must exist and the file must be writable (a file the check creates is removed again).
fn check_png_path(path: &Path) -> anyhow::Result<()> {
    let extension = path.extension().map(|e| e.to_string_lossy().to_lowercase());
    if let Some(extension) = extension.filter(|e| e != "png") {
        bail!(
            "--screenshot {}: screenshots are PNG, but the name ends in .{extension}; use a .png name (or - \
             for standard output)",
            path.display()
        );
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !parent.is_dir() {
        bail!(
            "--screenshot {}: the folder {} does not exist",
            path.display(),
            parent.display()
        );
    }
    if path.is_dir() {
        bail!("--screenshot {}: is a folder, not a file", path.display());
    }
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .with_context(|| format!("--screenshot {}: cannot write there", path.display()))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Demo {
        #[command(flatten)]
        args: DemoArgs,
    }

    /// What [`DemoArgs::check`] says of `args` (parsed), or `""`.
    fn check_error(args: &[&str]) -> String {
        let argv = std::iter::once("demo").chain(args.iter().copied());
        let demo = Demo::try_parse_from(argv).expect("parses");
        demo.args
            .check()
            .map(|_| String::new())
            .unwrap_or_else(|e| e.to_string())
    }

    #[test]
    fn outputs_that_are_a_mesh_read_are_refused() {
        let dir = std::env::temp_dir().join(format!("gpu-gjk-demo-args-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // An OBJ mesh whose name ends in .png: the screenshot would overwrite it.
        let mesh = dir.join("mesh.png");
        std::fs::write(&mesh, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n").unwrap();
        let mesh = mesh.to_str().unwrap();
        let refused = check_error(&["--mesh", mesh, "--screenshot", mesh]);
        assert!(
            refused.contains("--screenshot") && refused.contains("same file as --mesh"),
            "{refused}"
        );
        let refused = check_error(&["--mesh", mesh, "--pairs-out", mesh]);
        assert!(
            refused.contains("--pairs-out") && refused.contains("same file as --mesh"),
            "{refused}"
        );
        let pairs = dir.join("pairs.png");
        std::fs::write(&pairs, "").unwrap();
        let pairs = pairs.to_str().unwrap();
        let refused = check_error(&["--pairs-out", pairs, "--screenshot", pairs]);
        assert!(refused.contains("same file as --pairs-out"), "{refused}");
        // Other names pass, and the mesh is untouched.
        let shot = dir.join("shot.png");
        let shot = shot.to_str().unwrap();
        assert_eq!(check_error(&["--mesh", mesh, "--screenshot", shot]), "");
        assert!(std::fs::read_to_string(mesh)
            .unwrap()
            .starts_with("v 0 0 0"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn error(args: &[&str]) -> String {
        let argv = std::iter::once("demo").chain(args.iter().copied());
        Demo::try_parse_from(argv)
            .map(|_| String::new())
            .unwrap_or_else(|e| e.to_string())
    }

    #[test]
    fn zero_bodies_or_frames_are_refused_in_words() {
        for flag in ["--bodies", "--frames"] {
            let message = error(&[flag, "0"]);
            assert!(
                message.contains(&format!("invalid value '0' for '{flag}"))
                    && message.contains("must be at least 1"),
                "{message}"
            );
        }
        assert!(error(&["--bodies", "x"]).contains("\"x\" is not a whole number"));
        assert_eq!(error(&["--bodies", "1", "--frames", "1"]), "");
    }

    #[test]
    fn body_and_frame_counts_beyond_their_limits_are_refused_in_words() {
        let cases = [
            ("--bodies", "18446744073709551616", "1000000 bodies"),
            ("--bodies", "1000001", "1000000 bodies"),
            ("--frames", "18446744073709551615", "10000000 frames"),
            ("--frames", "10000001", "10000000 frames"),
        ];
        for (flag, value, limit) in cases {
            let message = error(&[flag, value, "--frames", "1"]);
            assert!(
                message.contains(&format!("invalid value '{value}' for '{flag}"))
                    && message.contains(&format!("more than the limit of {limit}")),
                "{message}"
            );
        }
        assert_eq!(error(&["--bodies", "1000000", "--frames", "10000000"]), "");
    }
}
