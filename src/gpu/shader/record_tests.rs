//! The GJK records go out as whole 16-byte stores: `results` is an array of `vec4<u32>` in every kernel that
//! writes them, `shaders/shared/output.wgsl` stores each record of 8 or 12 words as two or three vec4s, and the
//! Rust structs the host reads those bytes as ([`GpuResult`], [`PackedDistance`], [`PackedHit`]) have their
//! fields in the lanes the WGSL puts them in. The GPU tests (`tests/gpu_streaming.rs`, `gpu_narrow_phase.rs`)
//! check the same bytes end to end against the full answer and the CPU.

use crate::gpu::layout::GpuResult;
use crate::gpu::packed::{PackedDistance, PackedHit, ResultFormat};
use crate::gpu::shader::kernel;
use std::mem::{offset_of, size_of};

fn module(name: &str) -> naga::Module {
    let source = kernel(name).expect("a kernel").source();
    naga::front::wgsl::parse_str(&source)
        .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(&source)))
}

/// The element type of the runtime-sized array `results`, with its stride.
fn results_element(module: &naga::Module) -> (naga::TypeInner, u32) {
    let (_, var) = module
        .global_variables
        .iter()
        .find(|(_, v)| v.name.as_deref() == Some("results"))
        .expect("a `results` binding");
    match module.types[var.ty].inner {
        naga::TypeInner::Array { base, stride, .. } => (module.types[base].inner.clone(), stride),
        ref other => panic!("`results` is {other:?}"),
    }
}

/// Store statements in `block`, nested blocks included.
fn stores(block: &naga::Block) -> usize {
    block
        .iter()
        .map(|s| match s {
            naga::Statement::Store { .. } => 1,
            naga::Statement::Block(b) => stores(b),
            naga::Statement::If { accept, reject, .. } => stores(accept) + stores(reject),
            naga::Statement::Switch { cases, .. } => cases.iter().map(|c| stores(&c.body)).sum(),
            naga::Statement::Loop {
                body, continuing, ..
            } => stores(body) + stores(continuing),
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
        assert_eq!(results_element(&module(name)), (quad.clone(), 16), "{name}");
    }
}

#[test]
fn a_gjk_record_is_one_store_per_16_bytes() {
    let module = module("gjk_kernel");
    let text = include_str!("../../../shaders/shared/output.wgsl");
    let total: usize = module
        .functions
        .iter()
        .filter(|(_, f)| {
            f.name
                .as_deref()
                .is_some_and(|n| text.contains(&format!("fn {n}(")))
        })
        .map(|(_, f)| stores(&f.body))
        .sum();
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
