//! The records go out as whole 16-byte stores: `results` and `penetrations` are arrays of `vec4<u32>` in every
//! kernel that writes them, `shaders/shared/output.wgsl` and `penetration.wgsl` store each record of 8 or 12
//! words as two or three vec4s, and the Rust structs the host reads those bytes as ([`GpuResult`],
//! [`PackedDistance`], [`PackedHit`], [`GpuPenetration`], [`PackedContact`]) have their fields in the lanes the
//! WGSL puts them in. The GPU tests (`tests/gpu_streaming.rs`, `gpu_narrow_phase.rs`)
//! check the same bytes end to end against the full answer and the CPU.

use crate::gpu::layout::{GpuPenetration, GpuResult};
use crate::gpu::packed::{PackedContact, PackedDistance, PackedHit, ResultFormat};
use crate::gpu::shader::kernel;
use std::mem::{offset_of, size_of};

fn module(name: &str) -> naga::Module {
    let source = kernel(name).expect("a kernel").source();
    naga::front::wgsl::parse_str(&source)
        .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(&source)))
}

/// The element type of the runtime-sized array `binding` (`results`, `penetrations`), with its stride.
fn element(module: &naga::Module, binding: &str) -> (naga::TypeInner, u32) {
    let (_, var) = module
        .global_variables
        .iter()
        .find(|(_, v)| v.name.as_deref() == Some(binding))
        .unwrap_or_else(|| panic!("no `{binding}` binding"));
    match module.types[var.ty].inner {
        naga::TypeInner::Array { base, stride, .. } => (module.types[base].inner.clone(), stride),
        ref other => panic!("`{binding}` is {other:?}"),
    }
}

/// Store statements in `block` (nested blocks included) through a pointer into the global `binding`.
fn stores(module: &naga::Module, f: &naga::Function, block: &naga::Block, binding: &str) -> usize {
    let into_binding = |mut e: naga::Handle<naga::Expression>| loop {
        match f.expressions[e] {
            naga::Expression::Access { base, .. } | naga::Expression::AccessIndex { base, .. } => {
                e = base
            }
            naga::Expression::GlobalVariable(g) => {
                return module.global_variables[g].name.as_deref() == Some(binding)
            }
            _ => return false,
        }
    };
    block
        .iter()
        .map(|s| match s {
            naga::Statement::Store { pointer, .. } => usize::from(into_binding(*pointer)),
            naga::Statement::Block(b) => stores(module, f, b, binding),
            naga::Statement::If { accept, reject, .. } => {
                stores(module, f, accept, binding) + stores(module, f, reject, binding)
            }
            naga::Statement::Switch { cases, .. } => cases
                .iter()
                .map(|c| stores(module, f, &c.body, binding))
                .sum(),
            naga::Statement::Loop {
                body, continuing, ..
            } => stores(module, f, body, binding) + stores(module, f, continuing, binding),
            _ => 0,
        })
        .sum()
}

#[test]
fn every_kernel_writing_gjk_records_binds_them_as_vec4s() {
    let quad = naga::TypeInner::Vector {
        size: naga::VectorSize::Quad,
        scalar: naga::Scalar::U32,
    };
    for name in [
        "gjk_kernel",
        "gjk_null",
        "gjk_counting",
        "penetration_gjk",
        "penetration_epa",
    ] {
        assert_eq!(
            element(&module(name), "results"),
            (quad.clone(), 16),
            "{name}"
        );
    }
    for name in ["penetration_gjk", "penetration_epa"] {
        assert_eq!(
            element(&module(name), "penetrations"),
            (quad.clone(), 16),
            "{name}"
        );
    }
}

/// Stores into `binding` in the functions `file` declares, as assembled in kernel `kernel`.
fn stores_in(kernel: &str, file: &str, binding: &str) -> usize {
    let module = module(kernel);
    module
        .functions
        .iter()
        .filter(|(_, f)| {
            f.name
                .as_deref()
                .is_some_and(|n| file.contains(&format!("fn {n}(")))
        })
        .map(|(_, f)| stores(&module, f, &f.body, binding))
        .sum()
}

/// A penetration record (48 bytes, GpuPenetration or PackedContact) is three vec4 stores, in one function.
#[test]
fn a_penetration_record_is_one_store_per_16_bytes() {
    let text = include_str!("../../../shaders/shared/penetration.wgsl");
    assert_eq!(stores_in("penetration_gjk", text, "penetrations"), 3);
    assert_eq!(size_of::<PackedContact>(), 48);
    assert_eq!(
        [
            offset_of!(PackedContact, normal),
            offset_of!(PackedContact, depth),
            offset_of!(PackedContact, contact_a),
            offset_of!(PackedContact, pen_word),
            offset_of!(PackedContact, contact_b),
            offset_of!(PackedContact, gjk_word),
        ],
        [0, 12, 16, 28, 32, 44]
    );
    assert_eq!(
        [
            offset_of!(GpuPenetration, normal),
            offset_of!(GpuPenetration, depth),
            offset_of!(GpuPenetration, contact_a),
            offset_of!(GpuPenetration, status),
            offset_of!(GpuPenetration, contact_b),
            offset_of!(GpuPenetration, iterations),
        ],
        [0, 12, 16, 28, 32, 44]
    );
}

#[test]
fn a_gjk_record_is_one_store_per_16_bytes() {
    let text = include_str!("../../../shaders/shared/output.wgsl");
    let total = stores_in("gjk_kernel", text, "results");
    // One lane for a hit, two vec4s for a distance record, three for a full one.
    let expected = 1 + ResultFormat::Distance.stride() / 16 + ResultFormat::Full.stride() / 16;
    assert_eq!(total as u64, expected, "stores in output.wgsl");
}

/// Each field sits in the lane `output.wgsl` writes it to: (witness A, distance), (witness B, status),
/// (normal, iterations) for a full record; (point, distance), (normal, status word) for a distance record.
#[test]
fn the_record_fields_sit_in_the_lanes_the_kernel_writes() {
    assert_eq!(size_of::<GpuResult>(), 48);
    assert_eq!(ResultFormat::Full.stride(), 48);
    assert_eq!(
        [
            offset_of!(GpuResult, witness_a),
            offset_of!(GpuResult, distance),
            offset_of!(GpuResult, witness_b),
            offset_of!(GpuResult, status),
            offset_of!(GpuResult, normal),
            offset_of!(GpuResult, iterations),
        ],
        [0, 12, 16, 28, 32, 44]
    );
    assert_eq!(size_of::<PackedDistance>(), 32);
    assert_eq!(ResultFormat::Distance.stride(), 32);
    assert_eq!(
        [
            offset_of!(PackedDistance, point),
            offset_of!(PackedDistance, distance),
            offset_of!(PackedDistance, normal),
            offset_of!(PackedDistance, status_word),
        ],
        [0, 12, 16, 28]
    );
    // A hit is one lane: four pairs share a vec4, pair i in lane i % 4 of vec4 i / 4.
    assert_eq!(size_of::<PackedHit>(), 4);
    assert_eq!(ResultFormat::Hit.stride(), 4);
}
