//! The WGSL sources, assembled: WGSL has no includes, so shared types are prepended to each kernel.

/// Shared struct and constant definitions.
pub const TYPES_WGSL: &str = include_str!("../../shaders/types.wgsl");
/// The GJK kernel (entry point `main`).
pub const GJK_KERNEL_WGSL: &str = include_str!("../../shaders/gjk.wgsl");

/// The EPA kernels (entry points `penetration_gjk` and `penetration_epa`), built on the GJK kernel.
pub const EPA_KERNEL_WGSL: &str = include_str!("../../shaders/epa.wgsl");

/// The complete source of the GJK compute shader.
pub fn gjk_shader_source() -> String {
    format!("{TYPES_WGSL}\n{GJK_KERNEL_WGSL}")
}

/// The complete source of the penetration (GJK + EPA) compute shader.
pub fn epa_shader_source() -> String {
    format!("{TYPES_WGSL}\n{GJK_KERNEL_WGSL}\n{EPA_KERNEL_WGSL}")
}

/// Every shader the crate compiles, by name, for validation tests.
pub fn all_shaders() -> Vec<(&'static str, String)> {
    vec![("gjk", gjk_shader_source()), ("epa", epa_shader_source())]
}
