//! GJK's simplex stays in registers: no function of the simplex, the signed volumes or the solver indexes an
//! array or a vector by a runtime value (naga's `Expression::Access`; an index known when the kernel is
//! assembled is an `AccessIndex`). A private array indexed at run time goes to scratch memory on most GPUs,
//! which is slower than registers by an order of magnitude, so `shaders/shared/simplex.wgsl` and
//! `signed_volumes.wgsl` pick slots by selects instead.

use crate::gpu::shader::kernel;

/// The names of the functions a WGSL file declares.
fn declared_functions(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| line.trim_start().strip_prefix("fn "))
        .map(|rest| rest.split('(').next().unwrap_or("").trim().to_owned())
        .collect()
}

#[test]
fn the_simplex_functions_index_nothing_at_run_time() {
    let files = [
        include_str!("../../../shaders/shared/simplex.wgsl"),
        include_str!("../../../shaders/shared/signed_volumes.wgsl"),
        include_str!("../../../shaders/shared/solver.wgsl"),
    ];
    let names: Vec<String> = files.iter().flat_map(|t| declared_functions(t)).collect();
    assert!(names.len() >= 30, "{} functions", names.len());
    for kernel_name in ["gjk_kernel", "penetration_gjk"] {
        let k = kernel(kernel_name).expect("a GJK kernel");
        let source = k.source();
        let module = naga::front::wgsl::parse_str(&source)
            .unwrap_or_else(|e| panic!("{kernel_name}: {}", e.emit_to_string(&source)));
        let mut checked = 0;
        for (_, function) in module.functions.iter() {
            let Some(name) = function.name.as_deref() else {
                continue;
            };
            if !names.iter().any(|n| n == name) {
                continue;
            }
            checked += 1;
            let dynamic = function
                .expressions
                .iter()
                .filter(|(_, e)| matches!(e, naga::Expression::Access { .. }))
                .count();
            assert_eq!(
                dynamic, 0,
                "{kernel_name}: `{name}` indexes by a runtime value {dynamic} times"
            );
        }
        assert!(checked >= 30, "{kernel_name}: {checked} functions checked");
    }
}
