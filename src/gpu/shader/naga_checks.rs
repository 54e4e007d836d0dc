//! What the shader tests ask of naga: an assembled kernel parsed and validated (a failure shows naga's message
//! over the source), and a WGSL struct's size, to hold against its Rust twin.

/// The module and its validation info; panics naming `name` with naga's rendered error.
pub(crate) fn parse_and_validate(
    name: &str,
    source: &str,
) -> (naga::Module, naga::valid::ModuleInfo) {
    parse_and_validate_with(name, source, false)
}

/// [`parse_and_validate`] with subgroup operations allowed in compute shaders where `subgroups` (the subgroup
/// kernel, which wgpu builds only on a device with the `SUBGROUP` feature), refused otherwise.
pub(crate) fn parse_and_validate_with(
    name: &str,
    source: &str,
    subgroups: bool,
) -> (naga::Module, naga::valid::ModuleInfo) {
    use naga::valid::{Capabilities, ShaderStages, SubgroupOperationSet, ValidationFlags};
    let module = naga::front::wgsl::parse_str(source)
        .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(source)));
    let capabilities = if subgroups {
        Capabilities::SUBGROUP
    } else {
        Capabilities::empty()
    };
    let mut validator = naga::valid::Validator::new(ValidationFlags::all(), capabilities);
    if subgroups {
        validator
            .subgroup_stages(ShaderStages::COMPUTE)
            .subgroup_operations(SubgroupOperationSet::all());
    }
    let info = validator
        .validate(&module)
        .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(source)));
    (module, info)
}

/// The size in bytes of the WGSL struct `name`.
pub(crate) fn struct_size(module: &naga::Module, name: &str) -> u32 {
    let (_, ty) = module
        .types
        .iter()
        .find(|(_, t)| t.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("struct {name} not found in WGSL"));
    match &ty.inner {
        naga::TypeInner::Struct { span, .. } => *span,
        other => panic!("{name} is not a struct: {other:?}"),
    }
}

/// Translates `entry` of a validated module to SPIR-V (Vulkan) and GLSL 4.30 (OpenGL) through naga's backends,
/// as the adapters receive it: a construct one backend cannot emit fails here, on any machine, rather than on a
/// user's adapter. Panics naming `entry` and the backend.
pub(crate) fn translate_to_spirv_and_glsl(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    entry: &str,
) {
    naga::back::spv::write_vec(module, info, &naga::back::spv::Options::default(), None)
        .unwrap_or_else(|e| panic!("{entry}: SPIR-V: {e}"));
    let options = naga::back::glsl::Options {
        version: naga::back::glsl::Version::Desktop(430),
        ..Default::default()
    };
    let pipeline = naga::back::glsl::PipelineOptions {
        shader_stage: naga::ShaderStage::Compute,
        entry_point: entry.to_owned(),
        multiview: None,
    };
    let mut glsl = String::new();
    naga::back::glsl::Writer::new(
        &mut glsl,
        module,
        info,
        &options,
        &pipeline,
        naga::proc::BoundsCheckPolicies::default(),
    )
    .and_then(|mut w| w.write())
    .unwrap_or_else(|e| panic!("{entry}: GLSL: {e}"));
}
