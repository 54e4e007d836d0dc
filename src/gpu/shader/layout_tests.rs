//! Every kernel parses and validates with naga; every WGSL struct has the size and field offsets of its Rust
//! twin; every constant the WGSL shares with Rust is the Rust value, emitted, never written by hand. Runs on
//! any machine, GPU or not.

use crate::gpu::layout::{GpuEpaTask, GpuHull, GpuInstance, GpuParams, GpuPenetration, GpuResult};
use crate::gpu::shader::constants::{shared_constants, WgslValue};
use crate::gpu::shader::naga_checks::{
    parse_and_validate, parse_and_validate_with, translate_to_spirv_and_glsl,
};
use crate::gpu::shader::{kernel, KERNELS};
use std::mem::{offset_of, size_of};

/// One kernel per file: each assembled kernel has exactly one entry point, named after the kernel.
#[test]
fn every_kernel_parses_and_validates_with_one_entry_point() {
    for k in KERNELS {
        let (module, _) = parse_and_validate_with(k.name, &k.source(), k.uses_subgroups());
        let entries: Vec<&str> = module
            .entry_points
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        assert_eq!(entries, [k.name], "{}", k.file.path);
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
    let gjk = kernel("gjk_kernel").expect("the GJK kernel");
    let (module, _) = parse_and_validate(gjk.name, &gjk.source());
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
            ("climbs", offset_of!(GpuHull, climbs)),
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
            ("format", offset_of!(GpuParams, format)),
            ("epa_by_pair", offset_of!(GpuParams, epa_by_pair)),
            ("subgroup_from", offset_of!(GpuParams, subgroup_from)),
            ("first_pair", offset_of!(GpuParams, first_pair)),
        ],
    );
    let frame = kernel("sample_gather").expect("the sample kernel");
    let (module, _) = parse_and_validate(frame.name, &frame.source());
    use crate::gpu::device_frame::DeviceFrameSettings as S;
    check_layout(
        &module,
        "DeviceFrame",
        size_of::<S>(),
        &[
            ("pair_capacity", offset_of!(S, pair_capacity)),
            ("chunk_pairs", offset_of!(S, chunk_pairs)),
            ("max_groups", offset_of!(S, max_groups)),
            ("sample_size", offset_of!(S, sample_size)),
            ("seed_lo", offset_of!(S, seed_lo)),
            ("seed_hi", offset_of!(S, seed_hi)),
            ("frame_lo", offset_of!(S, frame_lo)),
            ("frame_hi", offset_of!(S, frame_hi)),
        ],
    );
}

#[test]
fn epa_structs_match_their_rust_twins() {
    let pass = kernel("penetration_gjk").expect("the penetration kernel");
    let (module, _) = parse_and_validate(pass.name, &pass.source());
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
    assert_eq!(tasks.1 as u64, crate::gpu::layout::EPA_QUEUE_HEADER);
}

/// The value naga reads back for a module-scope constant.
fn wgsl_constant(module: &naga::Module, name: &str) -> WgslValue {
    let (_, constant) = module
        .constants
        .iter()
        .find(|(_, c)| c.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("constant {name} not found in WGSL"));
    match module.global_expressions[constant.init] {
        naga::Expression::Literal(naga::Literal::U32(v)) => WgslValue::U32(v),
        naga::Expression::Literal(naga::Literal::I32(v)) => WgslValue::I32(v),
        naga::Expression::Literal(naga::Literal::F32(v)) => WgslValue::F32(v),
        ref other => panic!("{name} is not a literal: {other:?}"),
    }
}

/// Twins by construction: every constant the WGSL shares with Rust (statuses, kinds, tolerances, bounds, the
/// workgroup size) is emitted from the Rust value, and naga reads back exactly that value in every kernel.
#[test]
fn every_shared_constant_in_the_wgsl_is_the_rust_value() {
    let constants = shared_constants();
    assert!(constants.len() >= 40, "{} constants", constants.len());
    for k in KERNELS {
        let (module, _) = parse_and_validate_with(k.name, &k.source(), k.uses_subgroups());
        for c in &constants {
            assert_eq!(
                wgsl_constant(&module, &c.name),
                c.value,
                "{}: {}",
                k.name,
                c.name
            );
        }
    }
    // Spot checks against the Rust items themselves, so the list cannot drift from them either.
    let value = |name: &str| {
        constants
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("{name} is not emitted"))
            .value
    };
    assert_eq!(
        value("EPA_MAX_VERTICES"),
        WgslValue::U32(crate::epa::EPA_MAX_VERTICES as u32)
    );
    assert_eq!(
        value("WORKGROUP_SIZE"),
        WgslValue::U32(crate::gpu::WORKGROUP_SIZE)
    );
    assert_eq!(value("EPSILON"), WgslValue::F32(f32::EPSILON));
    for status in crate::GjkStatus::ALL {
        let name = format!("STATUS_{}", status.name().to_uppercase());
        assert_eq!(value(&name), WgslValue::U32(status as u32));
    }
    for status in crate::epa::PenetrationStatus::ALL {
        let name = format!("PEN_{}", status.name().to_uppercase());
        assert_eq!(value(&name), WgslValue::U32(status as u32));
    }
}

/// Every `.wgsl` file of the narrow phase under `shaders/` (the renderer's own, in `shaders/render/`, shares
/// nothing with the narrow phase's Rust), with its text.
fn wgsl_files(dir: &std::path::Path, out: &mut Vec<(std::path::PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).expect("shaders/") {
        let path = entry.expect("an entry").path();
        if path.ends_with("render") {
            continue;
        }
        if path.is_dir() {
            wgsl_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "wgsl") {
            let text = std::fs::read_to_string(&path).expect("a WGSL file");
            out.push((path, text));
        }
    }
}

/// No `.wgsl` file writes a shared constant or a workgroup size by hand: the only `const` declarations are
/// the encodings that never leave the WGSL (how a step or a blow-up ended, a face's live bit).
#[test]
fn no_wgsl_file_writes_a_shared_constant_by_hand() {
    const WGSL_ONLY: [&str; 12] = [
        "STOP_GO_ON",
        "STOP_DECIDED",
        "STOP_CONVERGED",
        "STOP_CAPPED",
        "START_GO_ON",
        "START_TETRAHEDRON",
        "START_FLAT",
        "START_DEGENERATE",
        "PUSH_OK",
        "FACE_ALIVE",
        "NO_SLOT",
        "ALONG_SIDE",
    ];
    let shared: Vec<String> = shared_constants().into_iter().map(|c| c.name).collect();
    let mut files = Vec::new();
    wgsl_files(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/shaders")),
        &mut files,
    );
    assert!(files.len() >= 15, "{} files", files.len());
    for (path, text) in &files {
        for line in text.lines() {
            let line = line.trim_start();
            if let Some(rest) = line.strip_prefix("const ") {
                let name = rest.split(':').next().unwrap_or("").trim();
                assert!(
                    WGSL_ONLY.contains(&name) && !shared.iter().any(|s| s == name),
                    "{}: `{line}` is written by hand",
                    path.display()
                );
            }
            if let Some(size) = line.split("@workgroup_size(").nth(1) {
                assert!(
                    size.starts_with("WORKGROUP_SIZE"),
                    "{}: `{line}`",
                    path.display()
                );
            }
        }
    }
}

/// A WGSL function has the same name as its Rust twin: the functions a reader compares side by side exist in
/// the shared files under those names.
#[test]
fn the_wgsl_twins_carry_the_rust_names() {
    let penetration = kernel("penetration_epa").expect("the EPA kernel").source();
    for name in [
        "support_hull",
        "support_a",
        "support_b",
        "s1d",
        "s2d",
        "s2d_plane",
        "s3d",
        "simplex_project",
        "simplex_keep",
        "simplex_pop",
        "simplex_weighted_point",
        "simplex_witnesses",
        "gjk",
        "gjk_with_simplex",
        "gjk_search_start",
        "gjk_search_step",
        "gjk_search_sliver_triangle",
        "gjk_search_answer",
        "gjk_certified",
        "pair_unit",
        "prepared_new",
        "prepared_gjk_to_local",
        "polytope_push_face",
        "polytope_closest_face",
        "polytope_carve_horizon",
        "blow_up",
        "blow_up_point",
        "blow_up_segment",
        "blow_up_triangle",
        "expand",
        "expansion_loop",
        "contact",
        "finish",
        "penetration_certified",
    ] {
        assert!(
            penetration.contains(&format!("fn {name}(")),
            "no WGSL twin `{name}`"
        );
    }
}

/// The kernels reach the adapters as SPIR-V (Vulkan) and GLSL (OpenGL), through naga's backends: each kernel
/// must translate to both on any machine, so a construct one backend cannot emit (a pointer to a struct member
/// passed to a function, for SPIR-V) fails here rather than on a user's adapter.
#[test]
fn every_kernel_translates_to_spirv_and_glsl() {
    for k in KERNELS {
        let (module, info) = parse_and_validate_with(k.name, &k.source(), k.uses_subgroups());
        translate_to_spirv_and_glsl(&module, &info, k.name);
    }
}
