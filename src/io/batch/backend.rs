//! Choosing where a batch runs: the command line's `--backend auto|cpu|gpu|vulkan|gl|metal|dx12` and the Python
//! module's `backend=` (and `WGPU_BACKEND` for `auto`/`gpu`). A caller that did not ask for the GPU falls back
//! to the CPU with one notice; one that did fails with a clear error, worded with the command line's flag.

use crate::gpu::{check_backend_env, check_shader_checks_env, BackendChoice, GpuContext};
use crate::io::sink::note;
use anyhow::anyhow;

/// Where a batch runs: the command line's `--backend` values and the Python module's `backend=`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// The GPU when one is available (see each command for whether a software adapter counts), else the CPU.
    #[default]
    Auto,
    /// The CPU reference GJK.
    Cpu,
    /// Any GPU adapter, software rasterisers included; fails if there is none.
    Gpu,
    /// The GPU through Vulkan only.
    Vulkan,
    /// The GPU through OpenGL (ES) only.
    Gl,
    /// The GPU through Metal only.
    Metal,
    /// The GPU through Direct3D 12 only.
    Dx12,
}

impl Backend {
    /// Every backend with its name, in the order the command line lists them.
    pub const ALL: [(Backend, &'static str); 7] = [
        (Backend::Auto, "auto"),
        (Backend::Cpu, "cpu"),
        (Backend::Gpu, "gpu"),
        (Backend::Vulkan, "vulkan"),
        (Backend::Gl, "gl"),
        (Backend::Metal, "metal"),
        (Backend::Dx12, "dx12"),
    ];

    /// The backend `name` names (as the command line spells it), if any.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().find(|(_, n)| *n == name).map(|(b, _)| *b)
    }
}

/// What a command will run on.
pub enum Selected {
    Cpu,
    Gpu(Box<GpuContext>),
}

impl Selected {
    pub fn gpu(&self) -> Option<&GpuContext> {
        match self {
            Selected::Cpu => None,
            Selected::Gpu(ctx) => Some(ctx),
        }
    }
}

/// Whether `auto` may settle on a software rasteriser (llvmpipe, lavapipe, WARP). They are right but slow:
/// `query` prefers the CPU reference over them; `bench` wants them, to show the GPU path working.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SoftwareAdapters {
    Accept,
    SkipInAuto,
}

fn forced(choice: BackendChoice, flag: &str) -> anyhow::Result<Selected> {
    choice
        .check_built_in()
        .map_err(|e| anyhow!("--backend {flag}: {e}"))?;
    GpuContext::new(choice)
        .map(|ctx| Selected::Gpu(Box::new(ctx)))
        .map_err(|e| anyhow!("--backend {flag}: {e}"))
}

/// Opens the chosen backend. Prints at most one notice to stderr, when `auto` falls back to the CPU. An
/// invalid `WGPU_BACKEND` is an error for `auto` and `gpu`, which honour it, and ignored by `cpu`; so is an
/// invalid `GPU_GJK_SHADER_CHECKS` for every backend but `cpu`.
pub fn select_backend(backend: Backend, software: SoftwareAdapters) -> anyhow::Result<Selected> {
    if matches!(backend, Backend::Auto | Backend::Gpu) {
        check_backend_env().map_err(anyhow::Error::msg)?;
    }
    if backend != Backend::Cpu {
        check_shader_checks_env().map_err(anyhow::Error::msg)?;
    }
    match backend {
        Backend::Cpu => Ok(Selected::Cpu),
        Backend::Gpu => forced(BackendChoice::Auto, "gpu"),
        Backend::Vulkan => forced(BackendChoice::Vulkan, "vulkan"),
        Backend::Gl => forced(BackendChoice::Gl, "gl"),
        Backend::Metal => forced(BackendChoice::Metal, "metal"),
        Backend::Dx12 => forced(BackendChoice::Dx12, "dx12"),
        Backend::Auto => match GpuContext::new(BackendChoice::Auto) {
            Ok(ctx) if ctx.summary.is_software() && software == SoftwareAdapters::SkipInAuto => {
                note(format_args!(
                    "notice: the only GPU adapter is a software rasteriser ({}); running on the CPU \
                     (--backend gpu uses it anyway)",
                    ctx.summary
                ));
                Ok(Selected::Cpu)
            }
            Ok(ctx) => Ok(Selected::Gpu(Box::new(ctx))),
            Err(e) => {
                note(format_args!("notice: {e}; running on the CPU"));
                Ok(Selected::Cpu)
            }
        },
    }
}
