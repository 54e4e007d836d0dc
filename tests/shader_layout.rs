//! Every shader parses and validates with naga, and every WGSL struct has the size and field offsets of its
//! Rust twin. Runs on any machine, GPU or not.

use gpu_gjk::gpu::layout::{
    GpuEpaTask, GpuHull, GpuInstance, GpuParams, GpuPenetration, GpuResult,
};
use gpu_gjk::gpu::shader::all_shaders;
use std::mem::{offset_of, size_of};

fn parse_and_validate(name: &str, source: &str) -> (naga::Module, naga::valid::ModuleInfo) {
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

#[test]
fn every_shader_parses_and_validates() {
    for (name, source) in all_shaders() {
        let (module, _) = parse_and_validate(name, &source);
        assert!(
            module.entry_points.iter().any(|e| e.name == "main"),
            "{name} has no entry point `main`"
        );
    }
}

/// (size, [(field, offset)]) of a named WGSL struct.
fn wgsl_layout(module: &naga::Module, name: &str) -> (u32, Vec<(String, u32)>) {
    let (_, ty) = module
        .types
        .iter()
        .find(|(_, t)| t.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("struct {name} not found in WGSL"));
    match &ty.inner {
        naga::TypeInner::Struct { members, span } => (
            *span,
            members
                .iter()
                .map(|m| (m.name.clone().unwrap_or_default(), m.offset))
                .collect(),
        ),
        other => panic!("{name} is not a struct: {other:?}"),
    }
}

/// A named WGSL struct has the Rust twin's size and these field offsets.
fn check_layout(module: &naga::Module, name: &str, size: usize, offsets: &[(&str, usize)]) {
    let (span, members) = wgsl_layout(module, name);
    assert_eq!(
        span as usize, size,
        "{name}: WGSL size {span}, Rust size {size}"
    );
    for (field, offset) in offsets {
        let wgsl = members
            .iter()
            .find(|(n, _)| n == field)
            .unwrap_or_else(|| panic!("{name}.{field} missing in WGSL"));
        assert_eq!(wgsl.1 as usize, *offset, "{name}.{field} offset");
    }
}

#[test]
fn wgsl_structs_match_their_rust_twins() {
    let (_, source) = &all_shaders()[0];
    let (module, _) = parse_and_validate("gjk", source);
    let check = |name: &str, size: usize, offsets: &[(&str, usize)]| {
        check_layout(&module, name, size, offsets)
    };
    check(
        "GpuHull",
        size_of::<GpuHull>(),
        &[
            ("offset", offset_of!(GpuHull, offset)),
            ("count", offset_of!(GpuHull, count)),
            ("radius", offset_of!(GpuHull, radius)),
            ("bound", offset_of!(GpuHull, bound)),
            ("centre", offset_of!(GpuHull, centre)),
        ],
    );
    check(
        "GpuInstance",
        size_of::<GpuInstance>(),
        &[
            ("position", offset_of!(GpuInstance, position)),
            ("hull", offset_of!(GpuInstance, hull)),
            ("rotation", offset_of!(GpuInstance, rotation)),
        ],
    );
    check(
        "GpuResult",
        size_of::<GpuResult>(),
        &[
            ("witness_a", offset_of!(GpuResult, witness_a)),
            ("distance", offset_of!(GpuResult, distance)),
            ("witness_b", offset_of!(GpuResult, witness_b)),
            ("status", offset_of!(GpuResult, status)),
            ("normal", offset_of!(GpuResult, normal)),
            ("iterations", offset_of!(GpuResult, iterations)),
        ],
    );
    check(
        "GpuParams",
        size_of::<GpuParams>(),
        &[
            ("pair_count", offset_of!(GpuParams, pair_count)),
            ("max_iterations", offset_of!(GpuParams, max_iterations)),
            ("kind", offset_of!(GpuParams, kind)),
            ("touch_tolerance", offset_of!(GpuParams, touch_tolerance)),
            ("loop_probe", offset_of!(GpuParams, loop_probe)),
        ],
    );
}

#[test]
fn epa_structs_match_their_rust_twins() {
    let (name, source) = all_shaders()
        .into_iter()
        .find(|(name, _)| *name == "epa")
        .expect("the epa shader");
    let (module, _) = parse_and_validate(name, &source);
    for entry in ["penetration_gjk", "penetration_epa"] {
        assert!(
            module.entry_points.iter().any(|e| e.name == entry),
            "{entry}"
        );
    }
    let check = |name: &str, size: usize, offsets: &[(&str, usize)]| {
        check_layout(&module, name, size, offsets)
    };
    check(
        "GpuPenetration",
        size_of::<GpuPenetration>(),
        &[
            ("normal", offset_of!(GpuPenetration, normal)),
            ("depth", offset_of!(GpuPenetration, depth)),
            ("contact_a", offset_of!(GpuPenetration, contact_a)),
            ("status", offset_of!(GpuPenetration, status)),
            ("contact_b", offset_of!(GpuPenetration, contact_b)),
            ("iterations", offset_of!(GpuPenetration, iterations)),
        ],
    );
    check(
        "EpaTask",
        size_of::<GpuEpaTask>(),
        &[
            ("pair", offset_of!(GpuEpaTask, pair)),
            ("len", offset_of!(GpuEpaTask, len)),
            ("a", offset_of!(GpuEpaTask, a)),
            ("b", offset_of!(GpuEpaTask, b)),
        ],
    );
    // The queue's tasks start after the 16-byte header the Rust side writes and copies.
    let (_, members) = wgsl_layout(&module, "EpaQueue");
    let tasks = members.iter().find(|(n, _)| n == "tasks").expect("tasks");
    assert_eq!(tasks.1 as u64, gpu_gjk::gpu::layout::EPA_QUEUE_HEADER);
}

#[test]
fn epa_constants_match_the_cpu() {
    let (_, source) = all_shaders()
        .into_iter()
        .find(|(name, _)| *name == "epa")
        .expect("the epa shader");
    let expect = |needle: String| assert!(source.contains(&needle), "shader lacks `{needle}`");
    expect(format!(
        "const EPA_MAX_VERTICES: u32 = {}u;",
        gpu_gjk::epa::EPA_MAX_VERTICES
    ));
    expect(format!(
        "const EPA_MAX_FACES: u32 = {}u;",
        gpu_gjk::epa::EPA_MAX_FACES
    ));
    expect(format!(
        "const EPA_MAX_HORIZON: u32 = {}u;",
        gpu_gjk::epa::EPA_MAX_HORIZON
    ));
    expect(format!(
        "const EPA_MAX_ITERATIONS: u32 = {}u;",
        gpu_gjk::epa::EPA_MAX_ITERATIONS
    ));
    expect(format!(
        "const EPA_TOLERANCE: f32 = {:e};",
        gpu_gjk::epa::EPA_TOLERANCE
    ));
    use gpu_gjk::epa::PenetrationStatus as P;
    for (name, status) in [
        ("SEPARATED", P::Separated),
        ("PENETRATING", P::Penetrating),
        ("GJK_MAX_ITERATIONS", P::GjkMaxIterations),
        ("MAX_ITERATIONS", P::MaxIterations),
        ("OVERFLOW", P::Overflow),
        ("DEGENERATE", P::Degenerate),
        ("GJK_UNRESOLVED", P::GjkUnresolved),
        ("GPU_LOOP_LIMIT", P::GpuLoopLimit),
    ] {
        expect(format!("const PEN_{name}: u32 = {}u;", status as u32));
    }
}

#[test]
fn shader_constants_match_the_cpu() {
    let (_, source) = &all_shaders()[0];
    let expect = |needle: String| assert!(source.contains(&needle), "shader lacks `{needle}`");
    expect(format!(
        "const CONVERGENCE_ULPS: f32 = {:?};",
        gpu_gjk::gjk::CONVERGENCE_ULPS
    ));
    expect(format!(
        "const NOISE_ULPS: f32 = {:?};",
        gpu_gjk::gjk::NOISE_ULPS
    ));
    expect(format!(
        "const MAX_STALLS: u32 = {}u;",
        gpu_gjk::gjk::MAX_STALLS
    ));
    expect(format!("const EPSILON: f32 = {:e};", f32::EPSILON));
    expect(format!(
        "const CERTIFICATE_ULPS: f32 = {:?};",
        gpu_gjk::gjk::CERTIFICATE_ULPS
    ));
    expect(format!(
        "const WEIGHT_SLACK_ULPS: f32 = {:?};",
        gpu_gjk::gjk::WEIGHT_SLACK_ULPS
    ));
    for status in gpu_gjk::GjkStatus::ALL {
        expect(format!(
            "const STATUS_{}: u32 = {}u;",
            status.name().to_uppercase(),
            status as u32
        ));
    }
    expect(format!("@workgroup_size({})", gpu_gjk::gpu::WORKGROUP_SIZE));
}
