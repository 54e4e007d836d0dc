//! `gpu-gjk demo` options.

use crate::gpu::BackendChoice;
use anyhow::{bail, Context};
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};

/// The smallest window the HUD fits in, and the largest winit and the window systems accept (winit
/// panics from 65,536 on; X11 sizes are 16-bit). The adapter's texture limit is checked once it is known.
pub const MIN_WINDOW_SIZE: u32 = 64;
pub const MAX_WINDOW_SIZE: u32 = 32_768;

/// A whole number of at least 1 (`--bodies`, `--frames`): 0 is refused, not silently raised.
fn at_least_one<T: std::str::FromStr + PartialOrd + From<u8>>(text: &str) -> Result<T, String> {
    let n: T = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a whole number"))?;
    if n < T::from(1) {
        return Err("must be at least 1".into());
    }
    Ok(n)
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
    /// Number of moving bodies, at least 1 (the player's shape is one of them).
    #[arg(long, default_value_t = 2000, value_parser = at_least_one::<usize>)]
    pub bodies: usize,
    /// Scene seed: one seed gives one scene.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// wgpu backend (`gl` is the debug renderer's baseline); `auto` honours WGPU_BACKEND.
    #[arg(long, default_value_t = BackendChoice::Auto, value_parser = backend_names())]
    pub backend: BackendChoice,
    /// Render this many frames (at least 1), print a JSON summary and exit (headless runs, for instance
    /// under Xvfb).
    #[arg(long, value_parser = at_least_one::<u64>)]
    pub frames: Option<u64>,
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

impl DemoArgs {
    /// Checks what clap cannot, before any window opens: the screenshot path can be written and names a PNG.
    pub fn check(&self) -> anyhow::Result<()> {
        match &self.screenshot {
            Some(path) if !self.screenshot_to_stdout() => check_png_path(path),
            _ => Ok(()),
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Demo {
        #[command(flatten)]
        args: DemoArgs,
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
}
