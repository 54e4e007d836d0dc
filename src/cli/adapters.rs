//! `gpu-gjk adapters`: what wgpu can see here, so a user can tell why the GPU path is or is not used.

use crate::gpu::{check_backend_env, list_adapters, BackendChoice};
use crate::io::sink::require_stdout;
use anyhow::bail;
use std::io::Write;

#[derive(Clone, Debug, clap::Args)]
pub struct AdaptersArgs {
    /// Which backends to list (`auto` honours `WGPU_BACKEND`, else lists all).
    #[arg(long, default_value_t = BackendChoice::Auto, value_parser = backend_names())]
    pub backend: BackendChoice,
}

/// Prints one line per adapter and returns how many there are; finding none is an error (exit code 2, as
/// for `query --backend` with a backend that has no adapter), which says why where it can.
pub fn run_adapters(args: &AdaptersArgs) -> anyhow::Result<usize> {
    require_stdout("the adapter list")?;
    if args.backend == BackendChoice::Auto {
        check_backend_env().map_err(anyhow::Error::msg)?;
    }
    args.backend
        .check_built_in()
        .map_err(|e| anyhow::anyhow!("no GPU adapter for backend '{}': {e}", args.backend))?;
    let adapters = list_adapters(args.backend);
    if adapters.is_empty() {
        bail!(
            "no GPU adapter found for backend '{}'. On Linux without a GPU, Mesa's software drivers provide \
             one: llvmpipe (OpenGL, package libgl1-mesa-dri) or lavapipe (Vulkan, package \
             mesa-vulkan-drivers).",
            args.backend
        );
    }
    let mut out = std::io::stdout().lock();
    for (i, a) in adapters.iter().enumerate() {
        writeln!(
            out,
            "{i}: {a}{}{}{}",
            if a.is_software() { " [software]" } else { "" },
            if a.compute {
                ""
            } else {
                " [no compute shaders: cannot run gpu-gjk]"
            },
            if a.timestamps {
                " [timestamp queries]"
            } else {
                ""
            }
        )?;
    }
    out.flush()?;
    Ok(adapters.len())
}

/// `--backend`'s values: the library's [`BackendChoice`] names, listed in the help.
fn backend_names() -> impl clap::builder::TypedValueParser<Value = BackendChoice> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(BackendChoice::NAMES)
        .map(|name| name.parse().expect("a listed backend name"))
}
