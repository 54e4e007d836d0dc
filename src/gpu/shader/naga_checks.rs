//! What the shader tests ask of naga: an assembled kernel parsed and validated (a failure shows naga's message
//! over the source), and a WGSL struct's size, to hold against its Rust twin.

/// The module and its validation info; panics naming `name` with naga's rendered error.
pub(crate) fn parse_and_validate(
    name: &str,
    source: &str,
) -> (naga::Module, naga::valid::ModuleInfo) {
    let module = naga::front::wgsl::parse_str(source)
        .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(source)));
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::empty(),
    )
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
