//! The GPU solver's kernels parse, validate and translate with naga, bind at most eight storage buffers, and
//! their records have their Rust twins' sizes. Runs on any machine, GPU or not.

use super::kernels::ALL;
use super::layout::{GpuPhysicsBody, GpuPhysicsContact};
use super::records::{SlotLimit, SolverParams, MANIFOLD_BYTES, MOTION_BYTES, PLANE_CONTACT_BYTES};
use crate::gpu::pipeline::Access;
use crate::gpu::shader::naga_checks::{
    parse_and_validate, struct_size, translate_to_spirv_and_glsl,
};
use std::mem::size_of;

#[test]
fn every_physics_kernel_validates_with_one_entry_point_and_translates() {
    for k in ALL {
        let (module, info) = parse_and_validate(k.name, &k.source());
        let entries: Vec<&str> = module
            .entry_points
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        assert_eq!(entries, [k.name]);
        translate_to_spirv_and_glsl(&module, &info, k.name);
        // Each binding the host declares is one the WGSL declares, in number and kind.
        let globals: Vec<_> = module
            .global_variables
            .iter()
            .filter_map(|(_, g)| g.binding.as_ref().map(|b| (b.binding, g.space)))
            .collect();
        assert_eq!(globals.len(), k.bindings.len(), "{}", k.name);
        for (binding, space) in globals {
            let access = k.bindings[binding as usize];
            let expected = match access {
                Access::Uniform => naga::AddressSpace::Uniform,
                Access::Read => naga::AddressSpace::Storage {
                    access: naga::StorageAccess::LOAD,
                },
                Access::ReadWrite => naga::AddressSpace::Storage {
                    access: naga::StorageAccess::LOAD | naga::StorageAccess::STORE,
                },
            };
            assert_eq!(space, expected, "{} binding {binding}", k.name);
        }
        let storage = k.bindings.iter().filter(|a| **a != Access::Uniform).count();
        assert!(storage <= 8, "{}: {storage} storage buffers", k.name);
    }
}

#[test]
fn physics_records_match_their_rust_twins() {
    let prepare = ALL.iter().find(|k| k.name == "physics_prepare").unwrap();
    let (module, _) = parse_and_validate(prepare.name, &prepare.source());
    let size = |name: &str| u64::from(struct_size(&module, name));
    assert_eq!(size("SolverParams"), size_of::<SolverParams>() as u64);
    assert_eq!(size("SlotLimit"), size_of::<SlotLimit>() as u64);
    assert_eq!(size("Motion"), MOTION_BYTES);
    assert_eq!(size("SolverManifold"), MANIFOLD_BYTES);
    assert_eq!(size("PlaneContact"), PLANE_CONTACT_BYTES);
    assert_eq!(size("PhysicsBody"), size_of::<GpuPhysicsBody>() as u64);
    assert_eq!(
        size("PhysicsContact"),
        size_of::<GpuPhysicsContact>() as u64
    );
}
