//! The subgroup kernel against naga: it validates only where subgroup operations are allowed (so wgpu builds it
//! only on a device with the `SUBGROUP` feature), and no other kernel needs them (so the OpenGL backend, which
//! has none, builds every other one).

use crate::gpu::shader::naga_checks::parse_and_validate_with;
use crate::gpu::shader::{GJK_SUBGROUP, KERNELS};

#[test]
fn only_the_subgroup_kernel_needs_subgroup_operations() {
    for k in KERNELS {
        assert_eq!(
            k.uses_subgroups(),
            k.name == GJK_SUBGROUP.name,
            "{}",
            k.name
        );
        if !k.uses_subgroups() {
            parse_and_validate_with(k.name, &k.source(), false);
        }
    }
    let source = GJK_SUBGROUP.source();
    parse_and_validate_with(GJK_SUBGROUP.name, &source, true);
    let module = naga::front::wgsl::parse_str(&source).expect("parsed above");
    let refused = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::empty(),
    )
    .validate(&module);
    assert!(
        refused.is_err(),
        "validated without the SUBGROUP capability"
    );
}

/// The subgroup kernel is the GJK kernel with the other scan: the same shared files but for the scan's.
#[test]
fn the_subgroup_kernel_swaps_only_the_scan() {
    let files = |name: &str| -> Vec<&str> {
        let k = KERNELS.iter().find(|k| k.name == name).expect("a kernel");
        k.shared_files().map(|f| f.path).collect()
    };
    let (thread, subgroup) = (files("gjk_kernel"), files("gjk_subgroup"));
    let differ: Vec<(&&str, &&str)> = thread
        .iter()
        .zip(&subgroup)
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(
        differ,
        [(&"shared/scan_thread.wgsl", &"shared/scan_subgroup.wgsl")]
    );
    assert_eq!(thread.len(), subgroup.len());
}
