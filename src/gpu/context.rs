//! Getting a device: backend choice, adapter listing, and the device request. Kept apart from running
//! batches so tests and the renderer can bring their own device and queue.

use super::{GpuError, NarrowPhase};
use std::fmt;
use std::sync::Mutex;

/// Which wgpu backend to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BackendChoice {
    /// `WGPU_BACKEND` if set, otherwise every backend wgpu supports here (best adapter wins).
    #[default]
    Auto,
    Vulkan,
    Gl,
    Metal,
    Dx12,
}

impl BackendChoice {
    pub const ALL: [BackendChoice; 5] = [
        BackendChoice::Auto,
        BackendChoice::Vulkan,
        BackendChoice::Gl,
        BackendChoice::Metal,
        BackendChoice::Dx12,
    ];

    /// The names `Display` and `FromStr` use: `auto`, `vulkan`, `gl`, `metal`, `dx12`.
    pub const NAMES: [&'static str; 5] = ["auto", "vulkan", "gl", "metal", "dx12"];

    pub fn backends(self) -> wgpu::Backends {
        match self {
            BackendChoice::Auto => wgpu::Backends::from_env().unwrap_or(wgpu::Backends::all()),
            BackendChoice::Vulkan => wgpu::Backends::VULKAN,
            BackendChoice::Gl => wgpu::Backends::GL,
            BackendChoice::Metal => wgpu::Backends::METAL,
            BackendChoice::Dx12 => wgpu::Backends::DX12,
        }
    }

    /// Fails, saying why, when this build of wgpu has none of the chosen backends (Metal exists on Apple
    /// systems only, DX12 on Windows only), so a request is not answered with an empty "no adapter".
    pub fn check_built_in(self) -> Result<(), String> {
        if wgpu::Instance::enabled_backend_features().intersects(self.backends()) {
            return Ok(());
        }
        let what = match self {
            BackendChoice::Auto => format!(
                "WGPU_BACKEND={} names no backend",
                std::env::var("WGPU_BACKEND").unwrap_or_default()
            ),
            other => format!("there is no {other} backend"),
        };
        Err(format!(
            "{what} in this build of gpu-gjk (wgpu offers Vulkan and OpenGL on Linux, Metal on macOS and \
             iOS, DX12 on Windows)"
        ))
    }
}

impl fmt::Display for BackendChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Self::NAMES[*self as usize])
    }
}

impl std::str::FromStr for BackendChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Self::NAMES
            .iter()
            .position(|n| *n == s)
            .map(|i| Self::ALL[i])
            .ok_or_else(|| format!("unknown backend '{s}' (one of {})", Self::NAMES.join(", ")))
    }
}

/// A short description of an adapter, for notices, the HUD and `gpu-gjk adapters`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdapterSummary {
    pub name: String,
    pub backend: String,
    pub device_type: String,
    pub driver: String,
    pub timestamps: bool,
    /// Whether the adapter runs compute shaders: an OpenGL context older than 4.3, or OpenGL ES older than
    /// 3.1, does not (see `gl_version_runs_compute`), and the narrow phase is compute.
    pub compute: bool,
}

impl AdapterSummary {
    pub fn of(adapter: &wgpu::Adapter) -> Self {
        let info = adapter.get_info();
        Self {
            name: info.name,
            backend: format!("{:?}", info.backend).to_lowercase(),
            device_type: format!("{:?}", info.device_type),
            driver: format!("{} {}", info.driver, info.driver_info)
                .trim()
                .to_string(),
            timestamps: adapter.features().contains(wgpu::Features::TIMESTAMP_QUERY),
            compute: runs_compute(adapter),
        }
    }
}

/// Whether `adapter` can run the narrow phase's compute shaders.
fn runs_compute(adapter: &wgpu::Adapter) -> bool {
    let info = adapter.get_info();
    let flagged = adapter
        .get_downlevel_capabilities()
        .flags
        .contains(wgpu::DownlevelFlags::COMPUTE_SHADERS);
    flagged && (info.backend != wgpu::Backend::Gl || gl_version_runs_compute(&info.driver_info))
}

/// Whether wgpu can write compute shaders for an OpenGL context of this version string (wgpu's `driver_info`:
/// "4.5 (Core Profile) Mesa 22.3.6", "OpenGL ES 3.2 ...", "3.3.0 NVIDIA 580.159.04"). wgpu writes GLSL of the
/// context's own version, which has compute shaders from OpenGL 4.3 and OpenGL ES 3.1 on, whatever extensions
/// the driver lists: NVIDIA's driver (580, on an H100) gives wgpu a 3.3 context through EGL and lists
/// `GL_ARB_compute_shader`, so wgpu flags compute as supported, then loses the device as it is created ("The
/// selected version doesn't support Features(BUFFER_STORAGE | COMPUTE_SHADER | ...)", seen with RUST_LOG).
/// A version it cannot read is given the benefit of the doubt.
fn gl_version_runs_compute(version: &str) -> bool {
    let (es, numbers) = match version.strip_prefix("OpenGL ES ") {
        Some(rest) => (true, rest),
        None => (false, version),
    };
    let mut parts = numbers.split(|c: char| !c.is_ascii_digit());
    let major = parts.next().and_then(|p| p.parse::<u32>().ok());
    let minor = parts.next().and_then(|p| p.parse::<u32>().ok());
    match (major, minor) {
        (Some(major), Some(minor)) if es => (major, minor) >= (3, 1),
        (Some(major), Some(minor)) => (major, minor) >= (4, 3),
        _ => true,
    }
}

impl AdapterSummary {
    /// A CPU-side rasteriser (llvmpipe, lavapipe, WARP): correct, but not a speed reference.
    pub fn is_software(&self) -> bool {
        self.device_type == format!("{:?}", wgpu::DeviceType::Cpu)
    }
}

impl fmt::Display for AdapterSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}, {}{})",
            self.name,
            self.backend,
            self.device_type,
            if self.driver.is_empty() {
                String::new()
            } else {
                format!(", {}", self.driver)
            }
        )
    }
}

/// The names `WGPU_BACKEND` may list (comma-separated), as wgpu reads them.
const ENV_BACKEND_NAMES: [&str; 11] = [
    "vulkan", "vk", "dx12", "d3d12", "metal", "mtl", "opengl", "gles", "gl", "webgpu", "noop",
];

/// Checks `WGPU_BACKEND`, which [`BackendChoice::Auto`] honours: wgpu skips names it does not know, so a
/// typo would otherwise read as "no adapter found".
pub fn check_backend_env() -> Result<(), String> {
    let Some(value) = std::env::var_os("WGPU_BACKEND") else {
        return Ok(());
    };
    let value = value.to_string_lossy();
    let unknown: Vec<&str> = value
        .split(',')
        .map(str::trim)
        .filter(|name| !ENV_BACKEND_NAMES.contains(&name.to_lowercase().as_str()))
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    Err(format!(
        "the environment variable WGPU_BACKEND={value:?} is invalid: {} {} not a wgpu backend (it takes \
         a comma-separated list of vulkan, metal, dx12, gl; unset it to let wgpu choose)",
        unknown
            .iter()
            .map(|n| format!("{n:?}"))
            .collect::<Vec<_>>()
            .join(", "),
        if unknown.len() == 1 { "is" } else { "are" }
    ))
}

/// With `GPU_GJK_LOG_INSTANCES` set, says on stderr that a wgpu instance is being created: the tests use
/// it to prove that the commands that need no GPU never create one (creating one is what makes Mesa print
/// to stderr on a machine without a login session).
pub fn log_instance_creation(backends: wgpu::Backends) {
    if std::env::var_os("GPU_GJK_LOG_INSTANCES").is_some() {
        // Not `eprintln!`, which panics when stderr's reader has gone.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "gpu-gjk: creating a wgpu instance (backends {backends:?})"
        );
    }
}

fn new_instance(choice: BackendChoice) -> wgpu::Instance {
    log_instance_creation(choice.backends());
    wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: choice.backends(),
        flags: wgpu::InstanceFlags::default().with_env(),
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    })
}

/// Every adapter the chosen backends expose.
pub fn list_adapters(choice: BackendChoice) -> Vec<AdapterSummary> {
    let instance = new_instance(choice);
    pollster::block_on(instance.enumerate_adapters(choice.backends()))
        .iter()
        .map(AdapterSummary::of)
        .collect()
}

/// An adapter with its device and queue.
pub struct GpuContext {
    pub instance: wgpu::Instance,
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub summary: AdapterSummary,
    /// The narrow phase of [`GpuContext::with_narrow_phase`], built by its first call.
    narrow: Mutex<Option<NarrowPhase>>,
}

impl GpuContext {
    /// Runs `f` on this device's narrow phase, built by the first call and kept for the next ones: building
    /// its pipelines takes tens of milliseconds (about 30 ms of every `gpu_gjk.query(..., backend="gpu")`
    /// call on llvmpipe, however few its pairs), and a process that answers batch after batch on one device
    /// (the Python module, a Dask worker) pays that once. The calls take turns. After an error the narrow
    /// phase is dropped, so the next call starts from a new one.
    pub fn with_narrow_phase<T, E>(
        &self,
        f: impl FnOnce(&mut NarrowPhase) -> Result<T, E>,
    ) -> Result<T, E> {
        let mut slot = self.narrow.lock().unwrap_or_else(|e| e.into_inner());
        let narrow = slot.get_or_insert_with(|| NarrowPhase::new(&self.device, &self.queue));
        let outcome = f(narrow);
        if outcome.is_err() {
            *slot = None;
        }
        outcome
    }

    /// Picks the best adapter of the chosen backends that runs compute shaders and opens a device with the
    /// adapter's own limits (the defaults would cap storage bindings far below what the hardware allows),
    /// timestamp queries and subgroup operations where the adapter has them.
    /// With `ADAPTER_ENV` set, the adapter of that index instead.
    pub fn new(choice: BackendChoice) -> Result<Self, GpuError> {
        let instance = new_instance(choice);
        let adapter = match chosen_adapter_index(choice)? {
            Some(index) => adapter_at(&instance, choice, index)?,
            None => computing_adapter(&instance, choice, None)?,
        };
        Self::from_adapter(instance, adapter)
    }

    pub fn from_adapter(
        instance: wgpu::Instance,
        adapter: wgpu::Adapter,
    ) -> Result<Self, GpuError> {
        let summary = AdapterSummary::of(&adapter);
        super::check_shader_checks_env().map_err(|reason| GpuError::Device {
            adapter: summary.to_string(),
            reason,
        })?;
        if !summary.compute {
            return Err(GpuError::Device {
                adapter: summary.to_string(),
                reason: "it cannot run compute shaders".into(),
            });
        }
        // Subgroups where the adapter has them, for the subgroup scan (`ScanKernel`).
        let wanted = wgpu::Features::TIMESTAMP_QUERY | wgpu::Features::SUBGROUP;
        let features = adapter.features() & wanted;
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("gpu-gjk"),
            required_features: features,
            required_limits: adapter.limits(),
            ..Default::default()
        }))
        .map_err(|e| GpuError::Device {
            adapter: summary.to_string(),
            reason: e.to_string(),
        })?;
        Ok(Self {
            instance,
            adapter,
            device,
            queue,
            summary,
            narrow: Mutex::new(None),
        })
    }
}

/// The environment variable that picks the adapter of [`GpuContext::new`] (`query`, `bench`, the Python module)
/// by its index in the list `gpu-gjk adapters --backend B` prints for the same backend choice, from 0: on a
/// machine with several GPUs, one worker process per GPU each sets its own (wgpu's preferred adapter is the
/// same for all of them).
pub(crate) const ADAPTER_ENV: &str = "GPU_GJK_ADAPTER";

/// [`ADAPTER_ENV`]'s index, when set; an error naming it when it is not a number.
fn chosen_adapter_index(choice: BackendChoice) -> Result<Option<usize>, GpuError> {
    let Some(value) = std::env::var_os(ADAPTER_ENV) else {
        return Ok(None);
    };
    let text = value.to_string_lossy();
    text.trim()
        .parse::<usize>()
        .map(Some)
        .map_err(|_| GpuError::NoAdapter {
            backends: choice.to_string(),
            reason: format!(
                "{ADAPTER_ENV}={text:?} is not an adapter index (0, 1, ... as `gpu-gjk adapters --backend \
                 {choice}` numbers them); unset it to let gpu-gjk choose"
            ),
        })
}

/// Adapter `index` of the chosen backends, in [`list_adapters`]' order.
fn adapter_at(
    instance: &wgpu::Instance,
    choice: BackendChoice,
    index: usize,
) -> Result<wgpu::Adapter, GpuError> {
    let adapters = pollster::block_on(instance.enumerate_adapters(choice.backends()));
    let count = adapters.len();
    adapters
        .into_iter()
        .nth(index)
        .ok_or_else(|| GpuError::NoAdapter {
            backends: choice.to_string(),
            reason: format!(
                "{ADAPTER_ENV}={index}, but backend '{choice}' has {count} adapter(s) here, numbered from 0 \
                 (`gpu-gjk adapters --backend {choice}` lists them)"
            ),
        })
}

/// wgpu's best adapter of the chosen backends (drawing to `surface`, when given) if it runs compute shaders,
/// else the first other one that does (the same card through Vulkan when wgpu preferred its old OpenGL context,
/// under `auto`); an error naming the problem when none does.
pub fn computing_adapter(
    instance: &wgpu::Instance,
    choice: BackendChoice,
    surface: Option<&wgpu::Surface<'_>>,
) -> Result<wgpu::Adapter, GpuError> {
    let preferred = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
        power_preference: wgpu::PowerPreference::HighPerformance,
        force_fallback_adapter: false,
        compatible_surface: surface,
        ..Default::default()
    }))
    .map_err(|e| GpuError::NoAdapter {
        backends: choice.to_string(),
        reason: e.to_string(),
    })?;
    if runs_compute(&preferred) {
        return Ok(preferred);
    }
    let others = pollster::block_on(instance.enumerate_adapters(choice.backends()));
    others
        .into_iter()
        .find(|a| runs_compute(a) && surface.is_none_or(|s| a.is_surface_supported(s)))
        .ok_or_else(|| no_compute(&AdapterSummary::of(&preferred), choice))
}

/// The error for a backend choice whose adapters all lack compute shaders, with what to do instead.
fn no_compute(adapter: &AdapterSummary, choice: BackendChoice) -> GpuError {
    GpuError::Device {
        adapter: adapter.to_string(),
        reason: format!(
            "it cannot run compute shaders, and no other adapter of backend '{choice}' can (wgpu needs an \
             OpenGL 4.3 or OpenGL ES 3.1 context for them; NVIDIA's driver gives it OpenGL 3.3 through EGL): \
             use Vulkan (--backend vulkan) where the driver offers it"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::gl_version_runs_compute;

    #[test]
    fn opengl_versions_with_and_without_compute_shaders() {
        // As wgpu reported them: llvmpipe on the dev VM, and NVIDIA's EGL context on an H100.
        assert!(gl_version_runs_compute("4.5 (Core Profile) Mesa 22.3.6"));
        assert!(!gl_version_runs_compute("3.3.0 NVIDIA 580.159.04"));
        assert!(gl_version_runs_compute("4.6.0 NVIDIA 580.159.04"));
        assert!(!gl_version_runs_compute("4.2 (Core Profile) Mesa 22.3.6"));
        assert!(gl_version_runs_compute("4.3 (Core Profile) Mesa 22.3.6"));
        assert!(gl_version_runs_compute("OpenGL ES 3.2 Mesa 22.3.6"));
        assert!(gl_version_runs_compute("OpenGL ES 3.1 NVIDIA 580.159.04"));
        assert!(!gl_version_runs_compute("OpenGL ES 3.0 Mesa 22.3.6"));
        // Unreadable: not refused on a guess.
        assert!(gl_version_runs_compute(""));
        assert!(gl_version_runs_compute("Mesa"));
    }
}
