//! `gpu-gjk adapters`: what wgpu can see here, so a user can tell why the GPU path is or is not used.

use crate::gpu::{list_adapters, BackendChoice};

#[derive(Clone, Debug, clap::Args)]
pub struct AdaptersArgs {
    /// Which backends to list (`auto` honours `WGPU_BACKEND`, else lists all).
    #[arg(long, default_value_t = BackendChoice::Auto, value_parser = backend_names())]
    pub backend: BackendChoice,
}

/// Prints one line per adapter; returns how many there are.
pub fn run_adapters(args: &AdaptersArgs) -> usize {
    let adapters = list_adapters(args.backend);
    if adapters.is_empty() {
        println!(
            "no GPU adapter found for backend '{}'. On Linux without a GPU, Mesa's software drivers provide one: \
             llvmpipe (OpenGL, package libgl1-mesa-dri) or lavapipe (Vulkan, package mesa-vulkan-drivers).",
            args.backend
        );
    }
    for (i, a) in adapters.iter().enumerate() {
        println!(
            "{i}: {a}{}{}",
            if a.is_software() { " [software]" } else { "" },
            if a.timestamps {
                " [timestamp queries]"
            } else {
                ""
            }
        );
    }
    adapters.len()
}

/// `--backend`'s values: the library's [`BackendChoice`] names, listed in the help.
fn backend_names() -> impl clap::builder::TypedValueParser<Value = BackendChoice> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(BackendChoice::NAMES)
        .map(|name| name.parse().expect("a listed backend name"))
}
