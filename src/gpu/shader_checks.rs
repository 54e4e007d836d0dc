//! The one switch for the runtime checks wgpu adds to the narrow phase's kernels: bounds checks on every
//! buffer and array access, a bound on every loop, guards on integer division. The kernels need none of them
//! (every index they use is checked on the host or bounded by a buffer the host sized for it, and every loop is
//! bounded by a count), so on a hardware adapter they are built as trusted modules without the checks
//! (`create_shader_module_trusted` with `ShaderRuntimeChecks::unchecked()`), which spares each access its
//! compare and clamp. Software adapters (llvmpipe, lavapipe), the correctness vehicle, keep them by default.
//!
//! `Auto` follows [`SHADER_CHECKS_ENV`] when it is set (`on`, `off` or `auto`): the way to force the checks on or
//! off where no option reaches the narrow phase (the test suites, the Python module).

use std::fmt;
use std::str::FromStr;

/// Whether the narrow phase's kernels carry wgpu's runtime checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ShaderChecks {
    /// Checked modules on every adapter.
    On,
    /// Trusted modules, without the checks, on every adapter.
    Off,
    /// Off on hardware adapters, on for software ones (adapter type `Cpu`).
    #[default]
    Auto,
}

impl ShaderChecks {
    pub const ALL: [ShaderChecks; 3] = [ShaderChecks::On, ShaderChecks::Off, ShaderChecks::Auto];

    pub fn name(self) -> &'static str {
        match self {
            ShaderChecks::On => "on",
            ShaderChecks::Off => "off",
            ShaderChecks::Auto => "auto",
        }
    }

    /// Whether the checks are on for an adapter of type `device_type`, `Auto` taking `env`'s choice when it
    /// is `on` or `off`.
    pub fn enabled_for(self, device_type: wgpu::DeviceType, env: Option<ShaderChecks>) -> bool {
        match (self, env) {
            (ShaderChecks::On, _) | (ShaderChecks::Auto, Some(ShaderChecks::On)) => true,
            (ShaderChecks::Off, _) | (ShaderChecks::Auto, Some(ShaderChecks::Off)) => false,
            (ShaderChecks::Auto, _) => device_type == wgpu::DeviceType::Cpu,
        }
    }

    /// Whether the checks are on for `device`'s adapter, `Auto` following [`SHADER_CHECKS_ENV`] (an invalid
    /// value reads as unset here: [`check_shader_checks_env`] names it where a command or a context starts).
    pub fn enabled_on(self, device: &wgpu::Device) -> bool {
        let env = check_shader_checks_env().ok().flatten();
        self.enabled_for(device.adapter_info().device_type, env)
    }
}

/// The environment variable `ShaderChecks::Auto` follows when set: `on`, `off` or `auto`.
pub const SHADER_CHECKS_ENV: &str = "GPU_GJK_SHADER_CHECKS";

/// [`SHADER_CHECKS_ENV`]'s choice (`None` when unset), or an error naming the variable and its value.
pub fn check_shader_checks_env() -> Result<Option<ShaderChecks>, String> {
    let Some(value) = std::env::var_os(SHADER_CHECKS_ENV) else {
        return Ok(None);
    };
    let text = value.to_string_lossy();
    text.trim().parse().map(Some).map_err(|e| {
        format!("the environment variable {SHADER_CHECKS_ENV}={text:?} is invalid: {e}")
    })
}

impl fmt::Display for ShaderChecks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ShaderChecks {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        ShaderChecks::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| format!("unknown shader checks `{s}`: expected on, off or auto"))
    }
}

#[cfg(test)]
mod tests {
    use super::ShaderChecks;
    use wgpu::DeviceType;

    #[test]
    fn auto_keeps_the_checks_on_software_adapters_only() {
        use ShaderChecks::{Auto, Off, On};
        assert!(Auto.enabled_for(DeviceType::Cpu, None));
        assert!(Auto.enabled_for(DeviceType::Cpu, Some(Auto)));
        for hardware in [
            DeviceType::DiscreteGpu,
            DeviceType::IntegratedGpu,
            DeviceType::VirtualGpu,
            DeviceType::Other,
        ] {
            assert!(!Auto.enabled_for(hardware, None), "{hardware:?}");
            assert!(On.enabled_for(hardware, None));
            assert!(Auto.enabled_for(hardware, Some(On)));
        }
        // The environment decides only for `Auto`: an explicit choice wins.
        assert!(!Auto.enabled_for(DeviceType::Cpu, Some(Off)));
        assert!(!Off.enabled_for(DeviceType::Cpu, Some(On)));
        assert!(On.enabled_for(DeviceType::DiscreteGpu, Some(Off)));
        assert_eq!(ShaderChecks::default(), Auto);
    }

    /// The crate denies unsafe code with one exception, the trusted module in src/gpu/pipeline.rs: no other
    /// file may lift the lint.
    #[test]
    fn only_the_trusted_module_allows_unsafe() {
        fn visit(dir: &std::path::Path, found: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).expect("a source folder") {
                let path = entry.expect("an entry").path();
                if path.is_dir() {
                    visit(&path, found);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    // Lifting the lint names it (`allow` or `expect`, on one line or several).
                    let text = std::fs::read_to_string(&path).expect("a source file");
                    for _ in text.matches(concat!("unsafe", "_code")) {
                        found.push(path.display().to_string());
                    }
                }
            }
        }
        let mut found = Vec::new();
        let src = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src"));
        visit(src, &mut found);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].ends_with("gpu/pipeline.rs"), "{found:?}");
    }

    #[test]
    fn names_parse_back_and_others_are_named_in_the_error() {
        for c in ShaderChecks::ALL {
            assert_eq!(c.name().parse::<ShaderChecks>(), Ok(c));
        }
        let err = "unchecked".parse::<ShaderChecks>().unwrap_err();
        assert!(
            err.contains("`unchecked`") && err.contains("on, off or auto"),
            "{err}"
        );
    }
}
